#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every `./ns3 run ...` command the README and the docs show names a program that exists and
options it accepts; the fast ones are run in full and must succeed."""

import glob
import json
import os
import re
import shlex
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
DOCS = [os.path.join(ROOT, "README.md")]
DOCS += sorted(glob.glob(os.path.join(ROOT, "contrib", "mrc", "doc", "*.rst")))
DOCS += sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
# Programs whose documented commands finish in seconds: run them in full.
FAST = {"mrc-fabric-sizing", "mrc-link-flap", "mrc-fabric-demo", "mrc-permutation", "mrc-ib-write",
        "mrc-compare-template"}


def documented_commands():
    found = []
    for path in DOCS:
        text = open(path, encoding="utf-8").read().replace("\\\n", " ")
        for m in re.finditer(r'\./ns3 run (?:"([^"]+)"|([A-Za-z0-9_-]+))', text):
            words = shlex.split(m.group(1) or m.group(2))
            if words and not words[0].startswith("<"):
                found.append((os.path.relpath(path, ROOT), words[0], words[1:]))
    return sorted(set((p, prog, tuple(a)) for p, prog, a in found))


COMMANDS = documented_commands()


def test_the_docs_show_commands():
    assert len(COMMANDS) > 10
    assert {"quickstart", "mrc-link-flap", "mrc-permutation"} <= {c[1] for c in COMMANDS}


@pytest.mark.parametrize("doc,prog,args", COMMANDS,
                         ids=["%s: %s %s" % (d, p, " ".join(a)) for d, p, a in COMMANDS])
def test_documented_command(doc, prog, args, tmp_path):
    exe = os.path.join(BUILD, "bin", prog)
    if prog in ("prog", "NAME", "foo", "newprog", "myprog", "myexp"):
        pytest.skip("a placeholder, or a user's own scratch program")
    if any("$" in a for a in args):
        pytest.skip("uses a shell variable")
    assert os.path.exists(exe), "%s shows a program that does not exist: %s" % (doc, prog)
    # With --PrintHelp appended, every option is checked (an unknown one is an error) and
    # nothing runs.
    p = subprocess.run([exe] + list(args) + ["--PrintHelp"], capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert p.returncode == 0, "%s: %s %s\n%s" % (doc, prog, " ".join(args), p.stderr)
    if prog in FAST and not any(a.startswith("--pcap") for a in args):
        p = subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=300,
                           cwd=tmp_path)
        assert p.returncode == 0, "%s: %s %s\n%s" % (doc, prog, " ".join(args), p.stderr)


def test_pcap_captures_every_frame_a_host_port_sends_or_receives(tmp_path):
    # The documented pcap command (skipped above): one file per host port, raw IPv6
    # (LINKTYPE_RAW, 101), holding each frame the port sent or received, so the records add
    # up to the packets sent plus the packets delivered.
    import struct
    exe = os.path.join(BUILD, "bin", "mrc-fabric-demo")
    p = subprocess.run([exe, "--planes=4", "--hostsPerT0=4", "--t0=4", "--t1=4", "--pcap=1"],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    sent = int(re.search(r"sent (\d+) packets", p.stdout).group(1))
    delivered = int(re.search(r"delivered=(\d+)", p.stdout).group(1))
    # Into a results directory of its own (docs/results.md), nothing into the working one.
    outs = glob.glob(str(tmp_path / "results" / "mrc-fabric-demo-*"))
    assert len(outs) == 1 and sorted(os.listdir(tmp_path)) == ["results"]
    files = sorted(glob.glob(os.path.join(outs[0], "host-*-*.pcap")))
    assert len(files) == 16 * 4, "one file per host port"
    with open(os.path.join(outs[0], "manifest.json")) as f:
        manifest = json.load(f)
    assert manifest["complete"] and all(
        manifest["files"][os.path.basename(f)]["bytes"] == os.path.getsize(f) for f in files)
    records = 0
    for f in files:
        data = open(f, "rb").read()
        magic, _, _, _, _, _, linktype = struct.unpack("<IHHiIII", data[:24])
        assert magic == 0xA1B2C3D4 and linktype == 101, f
        o = 24
        while o < len(data):
            _, _, incl, orig = struct.unpack("<IIII", data[o:o + 16])
            assert incl == orig and data[o + 16] >> 4 == 6, "a whole IPv6 packet"
            o += 16 + incl
            records += 1
        assert o == len(data), "no truncated record"
    assert sent > 0 and delivered > 0
    assert records == sent + delivered


def test_the_fabric_sizing_page_shows_the_programs_output(tmp_path):
    # docs/fabric-sizing.md prints the default output; it is the program's, line for line.
    text = open(os.path.join(ROOT, "docs", "fabric-sizing.md"), encoding="utf-8").read()
    shown = [l for l in text.splitlines() if l.startswith("design=")]
    p = subprocess.run([os.path.join(BUILD, "bin", "mrc-fabric-sizing")], capture_output=True,
                       text=True, timeout=60, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert shown == p.stdout.splitlines(), (shown, p.stdout)
    # and the sentence under it
    nics = {dict(kv.split("=") for kv in l.split())["tiers"]: dict(kv.split("=") for kv in l.split())["nics"]
            for l in shown if "single-plane" in l}
    assert "A single-plane fabric reaches only %s with three tiers" % nics["3"] in \
        " ".join(text.split())
