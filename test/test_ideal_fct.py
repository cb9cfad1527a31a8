# SPDX-License-Identifier: GPL-2.0-only
"""One definition of a flow's ideal completion time, at packet and at flow level: its bytes at
the NIC's line rate plus the unloaded round trip between its own two hosts (under one T0, or
across the T1s). No flow can beat it, so `mrc-permutation` must print min/ideal >= 1 in every
mode, and the per-flow ideals must differ where flows do (same T0 or not)."""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build")), "bin")
SMALL = ["--hosts=32", "--hostsPerT0=8", "--t1=8", "--size=500000"]


@pytest.mark.parametrize("extra", [["--planes=2"], ["--planes=2", "--model=fluid"],
                                   ["--planes=1", "--roce"], ["--planes=1"]])
def test_no_flow_beats_its_ideal(extra):
    exe = os.path.join(BIN, "mrc-permutation")
    assert os.path.isfile(exe), "build the programs first (./ns3 build)"
    p = subprocess.run([exe] + SMALL + extra, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    m = re.search(r"median/ideal: ([0-9.]+) min/ideal: ([0-9.]+)", p.stdout)
    assert m, p.stdout
    assert float(m.group(2)) >= 1.0 and float(m.group(1)) >= float(m.group(2))
    lo, hi = re.search(r"ideal-fct-us min: ([0-9.]+) max: ([0-9.]+)", p.stdout).groups()
    # A derangement of 32 hosts in T0s of 8 has flows both under one T0 and across the T1s.
    assert float(lo) < float(hi)


@pytest.mark.parametrize("planes", ["1", "2"])
def test_packet_and_flow_level_share_the_ideal(planes):
    """The same fabric gives the same ideals at both levels: the shortest (one T0) and the
    longest (across the T1s) are the packet level's base RTTs in both modes."""
    exe = os.path.join(BIN, "mrc-permutation")
    got = []
    for extra in ([], ["--model=fluid"]):
        p = subprocess.run([exe] + SMALL + ["--planes=" + planes] + extra, capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        got.append(re.search(r"ideal-fct-us min: ([0-9.]+) max: ([0-9.]+)", p.stdout).groups())
    assert got[0] == got[1], got
