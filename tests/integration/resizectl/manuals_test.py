#!/usr/bin/env python3
"""The manuals against what they describe.

Every page renders without a groff warning; every setting the daemon reads
(daemon/config.cpp, daemon/pool_files.cpp) is in resized.conf(5) under its
section; every method, property and signal of dbus/*.xml is in
docs/dbus-api.md. Run by meson with the source root as the only argument.
"""

import os
import re
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ElementTree

SOURCE_ROOT = sys.argv.pop(1) if len(sys.argv) > 1 else os.getcwd()

MANUALS = [
    "docs/man/resized.8",
    "docs/man/resized.conf.5",
    "docs/man/resized-oci-hook.8",
    "tools/resizectl/resizectl.1",
]


def read(path):
    with open(os.path.join(SOURCE_ROOT, path), encoding="utf-8") as file:
        return file.read()


def manual_sections(page):
    """The text of each .SH or .SS section of a man page, by its title."""
    sections = {}
    title = None
    for line in page.splitlines():
        heading = re.match(r'\.S[HS] "?(.*?)"?$', line)
        if heading:
            # "[Budget \fINAME\fP]" is the section [Budget NAME].
            title = re.sub(r"\\f[BIPR]", "", heading.group(1))
            sections[title] = ""
        elif title is not None:
            sections[title] += line + "\n"
    return sections


def daemon_settings():
    """(section, key) of every setting resized.conf can hold."""
    table = re.findall(r'\{"(\w+)\.(\w+)",', read("daemon/config.cpp"))
    assert table, "no settings found in daemon/config.cpp: has its table changed shape?"
    return table


def pool_file_settings():
    """(section, key) of every setting a pool file can hold."""
    source = read("daemon/pool_files.cpp")
    pool_keys = set(re.findall(r'key != "(\w+)"', source))
    budget_keys = set(re.findall(r'key == "(\w+)"', source)) - pool_keys
    assert pool_keys and budget_keys, "no pool settings found: has daemon/pool_files.cpp changed shape?"
    return [("Pool", key) for key in sorted(pool_keys)] + [("Budget NAME", key) for key in sorted(budget_keys)]


class Manuals(unittest.TestCase):
    def test_every_manual_renders_without_warnings(self):
        for manual in MANUALS:
            with self.subTest(manual=manual):
                rendered = subprocess.run(
                    ["man", "--warnings", "-l", os.path.join(SOURCE_ROOT, manual)],
                    env=dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MANPAGER="cat", PAGER="cat"),
                    capture_output=True, text=True, check=False)
                self.assertEqual(rendered.returncode, 0, rendered.stderr)
                self.assertEqual(rendered.stderr, "")
                self.assertIn("NAME", rendered.stdout)

    def test_every_setting_is_in_resized_conf_under_its_section(self):
        sections = manual_sections(read("docs/man/resized.conf.5"))
        for section, key in daemon_settings() + pool_file_settings():
            with self.subTest(setting=f"[{section}] {key}="):
                self.assertIn(f"[{section}]", sections)
                self.assertRegex(sections[f"[{section}]"], rf"\.B[IR]? {key}=")

    def test_every_dbus_member_is_in_the_api_document(self):
        document = read("docs/dbus-api.md")
        xml_files = sorted(name for name in os.listdir(os.path.join(SOURCE_ROOT, "dbus")) if name.endswith(".xml"))
        self.assertTrue(xml_files)
        for xml_file in xml_files:
            tree = ElementTree.parse(os.path.join(SOURCE_ROOT, "dbus", xml_file))
            for interface in tree.getroot().iter("interface"):
                for kind in ("method", "property", "signal"):
                    for member in interface.iter(kind):
                        name = member.get("name")
                        with self.subTest(member=f"{interface.get('name')}.{name}"):
                            self.assertIn(f"`{name}", document)

    def test_the_pages_that_name_each_other_exist(self):
        pages = {os.path.basename(manual) for manual in MANUALS}
        for manual in MANUALS:
            for name, section in re.findall(r"\.BR (resize[\w\\.-]*) \((\d)\)", read(manual)):
                with self.subTest(manual=manual, reference=f"{name}({section})"):
                    self.assertIn(f"{name.replace(chr(92), '')}.{section}", pages)


if __name__ == "__main__":
    unittest.main(verbosity=2)
