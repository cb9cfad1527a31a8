# SPDX-License-Identifier: GPL-2.0-only
"""MrcSelectiveRecovery::PathFlush: what else is resent when a loss implicates a packet's EV. Under
random NIC loss (no path is broken) resending everything in flight on a suspected EV ("held",
the default) resends packets that arrive anyway; resending only the lost packet ("none", the
OCP API's selective retransmission) does not. Both deliver every byte."""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build")), "bin")
RING = ["--schemes=mrc", "--reference=0", "--plots=0", "--flapTier=none",
        "--portLossAtUs=1e9", "--rebootAtUs=1e9", "--gpus=16", "--hostsPerT0=4", "--t1=4",
        "--planes=4", "--bytes=4000000", "--steps=1",
        "--faultFile=" + os.path.join(ROOT, "experiments", "faults", "nic-rx-loss-1pct.csv")]


def run(tmp_path, mode):
    out = tmp_path / mode
    p = subprocess.run([os.path.join(BIN, "quickstart")] + RING
                       + ["--ns3::MrcSelectiveRecovery::PathFlush=" + mode, "--out=%s" % out],
                       capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    counts = {}
    for key in ("retransmissions", "spurious retransmissions", "failed transfers",
                "steps completed", "packets lost \\(all reasons\\)"):
        counts[key.replace("\\", "")] = int(re.search(r"^%s\s+(\d+)" % key, p.stdout,
                                                      re.M).group(1))
    return counts


def test_resending_only_the_lost_packet_removes_the_spurious_resends(tmp_path):
    held = run(tmp_path, "held")
    none = run(tmp_path, "none")
    for c in (held, none):
        assert c["steps completed"] == 1 and c["failed transfers"] == 0
        assert c["packets lost (all reasons)"] > 0
        # Frames are lost (data, ACKs and NACKs alike), and data is resent.
        assert c["retransmissions"] > c["spurious retransmissions"]
    # The default resends far more than it loses; without the flush nearly nothing is spurious.
    assert held["spurious retransmissions"] > 2 * held["packets lost (all reasons)"]
    assert none["spurious retransmissions"] * 10 < held["spurious retransmissions"]
    assert none["retransmissions"] < held["retransmissions"]


def test_an_unknown_mode_is_one_line(tmp_path):
    p = subprocess.run([os.path.join(BIN, "quickstart"), "--ns3::MrcSelectiveRecovery::PathFlush=all"],
                       capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    assert p.returncode != 0
    lines = (p.stdout + p.stderr).strip().splitlines()
    assert len(lines) == 1 and "PathFlush" in lines[0] and "held|retired|none" in lines[0], lines
