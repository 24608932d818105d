#!/usr/bin/env python3
"""Prints, for the meson test logs (meson-logs/testlog.json) given as
arguments, what every configuration (build directory) ran, counted by test
case, then one closing line, "tests: N passed, N failed, N skipped". The logs
of one build directory (several runs of `meson test --logbase`) count as one
configuration.

A gtest program is one meson test of many cases: meson runs it with
`protocol: 'gtest'`, which makes it write its cases' results to NAME.xml in
the build directory, and they are counted from there, so that a program whose
every case skipped does not count as one passed test. Any other test counts
as one case, named after it.

Two things fail the run when CI=true, and are printed as notes otherwise
(where a developer may filter cases or skip on purpose):
- a skipped case that tests/skips-allowed.txt does not list with its reason;
- a gtest test whose cases run are not the cases its programs define
  (`--gtest_list_tests` of each ELF file in its command, with the
  --gtest_filter that follows it: the VM tier runs several in its guest and
  reports them as one): a case dropped or added in silence is named.

CI keeps only the end of a run's output: what failed has to be at the end."""

import fnmatch
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parent.parent
ALLOW_LIST = SOURCE_ROOT / "tests" / "skips-allowed.txt"
PASSED = {"OK", "EXPECTEDFAIL"}
SKIPPED = {"SKIP"}
TAIL_LINES = 40


@dataclass
class Case:
    name: str
    result: str  # "passed", "failed" or "skipped"
    reason: str = ""


@dataclass
class Configuration:
    name: str
    cases: dict = field(default_factory=dict)  # meson test name -> [Case]
    failure_reports: list = field(default_factory=list)
    count_differences: list = field(default_factory=list)

    def count(self, result):
        return sum(case.result == result for cases in self.cases.values() for case in cases)


def read_allow_list():
    """The allowed skips, {pattern: reason}: one `Suite.Case  reason` a line
    (fnmatch patterns, for parameterized cases), # begins a comment."""
    allowed = {}
    for line in ALLOW_LIST.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        pattern, _, reason = line.partition(" ")
        if not reason.strip():
            raise SystemExit(f"{ALLOW_LIST}: {pattern} has no reason")
        allowed[pattern] = reason.strip()
    return allowed


def allowed_reason(allowed, case_name):
    return next((reason for pattern, reason in allowed.items() if fnmatch.fnmatchcase(case_name, pattern)), None)


def gtest_programs(command, build_dir):
    """The gtest programs of a test's command line: its ELF files (the
    integration tests run one behind a wrapper script, the VM tier several
    in its guest); meson names the build's programs from the build
    directory. Each comes with the --gtest_filter that follows it in the
    command, if any (the VM tier runs some of a program's cases only)."""
    programs = []
    for argument in command:
        if argument.startswith("--gtest_filter=") and programs:
            programs[-1] = (programs[-1][0], argument)
            continue
        path = build_dir / argument
        try:
            with open(path, "rb") as file:
                if file.read(4) == b"\x7fELF":
                    programs.append((path, None))
        except OSError:
            continue
    return programs


def defined_cases(program, case_filter=None):
    """The cases a gtest program defines, as `--gtest_list_tests` lists them
    ("Suite." lines, then indented cases, each maybe with a # comment), of
    those `case_filter` selects."""
    listing = subprocess.run([program, "--gtest_list_tests"] + ([case_filter] if case_filter else []),
                             capture_output=True, text=True, check=True)
    cases, suite = set(), None
    for line in listing.stdout.splitlines():
        if line.startswith("  ") and suite:
            cases.add(suite + line.split("#")[0].strip())
        elif line.split("#")[0].rstrip().endswith("."):
            suite = line.split("#")[0].rstrip()
    return cases


def gtest_cases(xml_path):
    """The cases of a gtest XML report; a case that did not run (disabled)
    is left out, so that the count guard names it."""
    cases = []
    for testcase in ElementTree.parse(xml_path).getroot().iter("testcase"):
        if testcase.get("status") == "notrun":
            continue
        name = f"{testcase.get('classname')}.{testcase.get('name')}"
        failure = testcase.find("failure")
        skipped = testcase.find("skipped")
        if failure is not None:
            cases.append(Case(name, "failed", failure.get("message", "").partition("\n")[0]))
        elif skipped is not None:
            # GTEST_SKIP()'s message is "FILE:LINE\nREASON".
            message = skipped.get("message", "")
            cases.append(Case(name, "skipped", message.partition("\n")[2].strip() or message))
        else:
            cases.append(Case(name, "passed"))
    return cases


def failure_report(log, result, failed_cases):
    output = [line for stream in ("stdout", "stderr")
              for line in (result.get(stream) or "").rstrip().splitlines()]
    lines = [f"== {result['name']} ({log}): {result['result']}, "
             f"exit code {result.get('returncode')}, "
             f"{result.get('duration', 0):.1f} s; its last lines:"]
    lines += [f"   failed: {case.name} ({case.reason})" for case in failed_cases]
    lines += output[-TAIL_LINES:]
    return "\n".join(lines)


def read_log(log, configuration):
    """Counts the runs of one meson test log into its build directory's
    configuration."""
    build_dir = log.parent.parent
    introspection = json.loads((build_dir / "meson-info" / "intro-tests.json").read_text(encoding="utf-8"))
    defined = {test["name"]: test for test in introspection}
    with open(log, encoding="utf-8") as lines:
        for line in lines:
            result = json.loads(line)
            # "PROJECT:SUITES / NAME"
            name = result["name"].rpartition(" / ")[2]
            test = defined.get(name, {})
            cases = []
            if test.get("protocol") == "gtest":
                cases = read_gtest_run(configuration, build_dir, name, test, result)
            exit_passed = result["result"] in PASSED
            if result["result"] in SKIPPED and not cases:
                cases = [Case(name, "skipped", f"exit code {result.get('returncode')}")]
            elif not exit_passed and not any(case.result == "failed" for case in cases):
                # A crash after the cases, a sanitizer's report at exit, a
                # timeout: the program failed, whatever its cases said.
                cases.append(Case(name, "failed", f"{result['result']}, exit code {result.get('returncode')}"))
            elif not cases:
                cases = [Case(name, "passed")]
            configuration.cases[name] = cases
            if not exit_passed and result["result"] not in SKIPPED:
                failed = [case for case in cases if case.result == "failed" and case.name != name]
                configuration.failure_reports.append(failure_report(log, result, failed))


def read_gtest_run(configuration, build_dir, name, test, result):
    """The cases of one run of a gtest program, and the difference between
    them and the cases it defines, noted in configuration."""
    xml_path = Path(test.get("workdir") or build_dir) / f"{name}.xml"
    # A report older than the run is an earlier run's: this one wrote none.
    fresh = xml_path.is_file() and xml_path.stat().st_mtime >= result["starttime"] - 1
    cases = gtest_cases(xml_path) if fresh else []
    programs = gtest_programs(test["cmd"], build_dir)
    if not programs:
        configuration.count_differences.append(f"{name}: no gtest program in its command {test['cmd']}")
        return cases
    defined = set()
    for program, case_filter in programs:
        try:
            defined |= defined_cases(program, case_filter)
        except subprocess.CalledProcessError as error:
            configuration.count_differences.append(f"{name}: {program} --gtest_list_tests failed: {error.stderr}")
            return cases
    ran = {case.name for case in cases}
    if not fresh:
        configuration.count_differences.append(
            f"{name}: wrote no report of its cases ({len(defined)} defined, none counted)")
    elif ran != defined:
        difference = [f"{name}: {len(ran)} cases ran of {len(defined)} defined"]
        difference += [f"   not run: {case}" for case in sorted(defined - ran)]
        difference += [f"   not defined: {case}" for case in sorted(ran - defined)]
        configuration.count_differences.append("\n".join(difference))
    return cases


def main(logs):
    strict = os.environ.get("CI") == "true"
    allowed = read_allow_list()
    by_build_dir = {}
    for log in map(Path, logs):
        build_dir = log.parent.parent.resolve()
        read_log(log, by_build_dir.setdefault(build_dir, Configuration(build_dir.name)))
    configurations = list(by_build_dir.values())
    problems = []
    for configuration in configurations:
        print(f"== {configuration.name}, by test program: passed, failed, skipped")
        for name, cases in configuration.cases.items():
            counts = [sum(case.result == result for case in cases) for result in ("passed", "failed", "skipped")]
            print(f"   {name}: {counts[0]}, {counts[1]}, {counts[2]}")
        for name, cases in configuration.cases.items():
            for case in cases:
                if case.result != "skipped":
                    continue
                reason = allowed_reason(allowed, case.name)
                if reason:
                    print(f"   skipped, allowed: {case.name} ({name}): {case.reason} [{reason}]")
                else:
                    problems.append(f"{configuration.name}: skipped, not in {ALLOW_LIST.relative_to(SOURCE_ROOT)}: "
                                    f"{case.name} ({name}): {case.reason}")
        problems += [f"{configuration.name}: {difference}" for difference in configuration.count_differences]
    for configuration in configurations:
        for report in configuration.failure_reports:
            print(report)
    for configuration in configurations:
        print(f"== {configuration.name}: {configuration.count('passed')} passed, "
              f"{configuration.count('failed')} failed, {configuration.count('skipped')} skipped")
    for problem in problems:
        print(("error: " if strict else "note: ") + problem)
    print(f"tests: {sum(c.count('passed') for c in configurations)} passed, "
          f"{sum(c.count('failed') for c in configurations)} failed, "
          f"{sum(c.count('skipped') for c in configurations)} skipped")
    return 1 if strict and problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
