#!/usr/bin/env python3
"""Prints, for the meson test logs (meson-logs/testlog.json) given as
arguments, the last lines of every test that did not pass, then one closing
line, "tests: N passed, N failed, N skipped".

CI keeps only the end of a run's output: what failed has to be at the end."""

import json
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
SKIPPED = {"SKIP"}
TAIL_LINES = 40


def failure_report(log, result):
    output = [line for stream in ("stdout", "stderr")
              for line in (result.get(stream) or "").rstrip().splitlines()]
    lines = [f"== {result['name']} ({log}): {result['result']}, "
             f"exit code {result.get('returncode')}, "
             f"{result.get('duration', 0):.1f} s; its last lines:"]
    lines += output[-TAIL_LINES:]
    return "\n".join(lines)


def main(logs):
    passed = failed = skipped = 0
    reports = []
    for log in logs:
        with open(log, encoding="utf-8") as lines:
            for line in lines:
                result = json.loads(line)
                if result["result"] in PASSED:
                    passed += 1
                elif result["result"] in SKIPPED:
                    skipped += 1
                else:
                    failed += 1
                    reports.append(failure_report(log, result))
    for report in reports:
        print(report)
    print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")


if __name__ == "__main__":
    main(sys.argv[1:])
