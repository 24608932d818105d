#!/usr/bin/env python3
"""Compiles schema/NNN_*.sql into a C++ table of migrations.

The number in each file name is the schema version the file leads to; the
numbers must run 1, 2, 3, ... without gaps.
"""
import pathlib
import re
import sys

DELIMITER = "resized_sql"


def main(output, inputs):
    files = sorted(pathlib.Path(p) for p in inputs)
    entries = []
    for expected, path in enumerate(files, start=1):
        match = re.match(r"(\d+)_[a-z0-9_]+\.sql$", path.name)
        if not match or int(match.group(1)) != expected:
            sys.exit(f"{path.name}: migrations must be numbered 001, 002, ... without gaps")
        text = path.read_text()
        if f"){DELIMITER}\"" in text:
            sys.exit(f"{path.name}: contains the raw-string delimiter")
        entries.append(f'    {{{expected}, "{path.name}", R"{DELIMITER}({text}){DELIMITER}"}},')
    pathlib.Path(output).write_text(
        '#include "store/migrations.h"\n\n'
        "namespace resized::store {\n\n"
        "const std::vector<Migration>& builtinMigrations()\n{\n"
        "    static const std::vector<Migration> migrations{\n"
        + "\n".join(entries)
        + "\n    };\n    return migrations;\n}\n\n}  // namespace resized::store\n"
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
