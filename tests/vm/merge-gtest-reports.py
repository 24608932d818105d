#!/usr/bin/env python3
"""Usage: merge-gtest-reports.py OUTPUT REPORT...

Writes the test suites of the gtest XML reports REPORT... as one report,
OUTPUT, as a single gtest program would: the VM tier runs several programs
in its guest and is one meson test (protocol 'gtest'), whose cases meson and
tools/test-summary.py read from one report. The counts of the root element
are the sums of the reports'. Without a report, nothing is written: the
missing cases are then counted as not run."""

import sys
import xml.etree.ElementTree as ElementTree

COUNTS = ("tests", "failures", "disabled", "skipped", "errors")


def main(output, reports):
    if not reports:
        return 0
    merged = ElementTree.Element("testsuites", name="AllTests")
    totals = dict.fromkeys(COUNTS, 0)
    time = 0.0
    for report in reports:
        root = ElementTree.parse(report).getroot()
        for count in COUNTS:
            totals[count] += int(root.get(count, "0"))
        time += float(root.get("time", "0").rstrip("s") or 0)
        merged.extend(root.iter("testsuite"))
    for count, total in totals.items():
        merged.set(count, str(total))
    merged.set("time", f"{time:.3f}")
    ElementTree.ElementTree(merged).write(output, encoding="UTF-8", xml_declaration=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
