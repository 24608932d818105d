#!/usr/bin/env python3
"""Prints one closing line, "tests: N passed, N failed, N skipped", for the
meson test logs (meson-logs/testlog.json) given as arguments."""

import json
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
SKIPPED = {"SKIP"}


def main(logs):
    passed = failed = skipped = 0
    for log in logs:
        with open(log, encoding="utf-8") as lines:
            for line in lines:
                result = json.loads(line)["result"]
                if result in PASSED:
                    passed += 1
                elif result in SKIPPED:
                    skipped += 1
                else:
                    failed += 1
    print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")


if __name__ == "__main__":
    main(sys.argv[1:])
