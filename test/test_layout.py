# SPDX-License-Identifier: GPL-2.0-only
"""The module's layout: model/ and helper/ are split into subsystem folders, every header the
build installs is listed in contrib/mrc/CMakeLists.txt, and nothing under model/ includes a
helper/ header (model/ runs during a simulation; helper/ builds, reads files and records).

The boundary check is a function so that a test can show it failing on a tree that breaks it.
"""

import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE = os.path.join(ROOT, "contrib", "mrc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:ns3/)?(mrc-[a-z0-9-]+\.h)"', re.M)


def sources(folder):
    for dirpath, _, names in os.walk(folder):
        for n in sorted(names):
            if n.endswith((".h", ".cc")):
                yield os.path.join(dirpath, n)


def boundary_violations(module):
    """(model file, helper header) pairs where a model/ file includes a helper/ header."""
    helper_headers = {os.path.basename(p) for p in sources(os.path.join(module, "helper"))
                      if p.endswith(".h")}
    found = []
    for path in sources(os.path.join(module, "model")):
        for h in INCLUDE.findall(open(path, encoding="utf-8").read()):
            if h in helper_headers:
                found.append((os.path.relpath(path, module), h))
    return found


def test_no_model_file_includes_a_helper_header():
    assert boundary_violations(MODULE) == []


def test_the_check_fails_on_a_model_file_that_includes_a_helper(tmp_path):
    copy = tmp_path / "mrc"
    shutil.copytree(os.path.join(MODULE, "model"), copy / "model")
    shutil.copytree(os.path.join(MODULE, "helper"), copy / "helper")
    bad = copy / "model" / "transport" / "mrc-queue-pair.cc"
    bad.write_text('#include "ns3/mrc-recorder.h"\n' + bad.read_text())
    assert boundary_violations(str(copy)) == [("model/transport/mrc-queue-pair.cc",
                                               "mrc-recorder.h")]


def test_model_and_helper_hold_only_subsystem_folders():
    for top in ("model", "helper"):
        entries = os.listdir(os.path.join(MODULE, top))
        loose = [e for e in entries if os.path.isfile(os.path.join(MODULE, top, e))]
        assert loose == [], (top, loose)
        assert len(entries) >= 5, (top, entries)


def test_every_file_is_in_the_build():
    cmake = open(os.path.join(MODULE, "CMakeLists.txt"), encoding="utf-8").read()
    for top in ("model", "helper"):
        for path in sources(os.path.join(MODULE, top)):
            rel = os.path.relpath(path, MODULE)
            assert re.search(r"(^|\s)" + re.escape(rel) + r"(\s|\))", cmake), rel


def test_headers_have_unique_names():
    # They install flat, as ns3/<name>.
    names = [os.path.basename(p) for top in ("model", "helper")
             for p in sources(os.path.join(MODULE, top)) if p.endswith(".h")]
    assert len(names) == len(set(names))
