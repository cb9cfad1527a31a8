# SPDX-License-Identifier: GPL-2.0-only
"""MrcSelectiveRecovery::AckDelaySlack (on by default): the out-of-order time rule allows the
peer's delayed-ACK timer when no acknowledgement came. The responder answers a packet that fills
a gap only by its coalescing rule (up to AckDelay later), while the RTT samples the rule's
deadline is built from come from packets answered at once; without the allowance, packets that
arrived are taken for lost. On a lossless fabric every retransmission is spurious, so the
allowance must remove them all. An acknowledgement that arrives past the deadline without
reporting a packet needs no allowance, so a failed link in a busy flow is bypassed as soon as
without it."""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build")), "bin")
NO_SLACK = "--ns3::MrcSelectiveRecovery::AckDelaySlack=false"
# A user's 16-GPU all-reduce with 4 queue pairs per peer, no fault, no loss.
LOSSLESS = ["--schemes=mrc", "--reference=0", "--plots=0", "--flapTier=none",
            "--portLossAtUs=1e9", "--rebootAtUs=1e9", "--gpus=16", "--hostsPerT0=4", "--t1=4",
            "--qpsPerPeer=4"]


def counts(tmp_path, name, extra):
    p = subprocess.run([os.path.join(BIN, "quickstart")] + LOSSLESS + extra
                       + ["--out=%s" % (tmp_path / name)],
                       capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    out = {}
    for key in ("retransmissions", "spurious retransmissions", "packets lost \\(all reasons\\)",
                "steps completed"):
        out[key.replace("\\", "")] = int(re.search(r"^%s\s+(\d+)" % key, p.stdout,
                                                   re.M).group(1))
    return out


def test_the_allowance_removes_the_spurious_retransmissions_of_a_lossless_run(tmp_path):
    without = counts(tmp_path, "without", [NO_SLACK])
    with_slack = counts(tmp_path, "with", [])
    for c in (without, with_slack):
        assert c["packets lost (all reasons)"] == 0 and c["steps completed"] == 3
        assert c["retransmissions"] == c["spurious retransmissions"]
    assert without["spurious retransmissions"] > 0, without
    assert with_slack["retransmissions"] == 0, with_slack


def bypass_us(extra):
    p = subprocess.run([os.path.join(BIN, "mrc-link-flap")] + extra, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return float(re.search(r"^bypass-us mrc: ([0-9.]+)", p.stdout, re.M).group(1))


def test_a_failed_link_is_still_bypassed_at_once():
    base = bypass_us([NO_SLACK])
    slack = bypass_us([])
    # The flow is busy: acknowledgements keep coming, and the first one past a lost packet's
    # deadline finds it, so the allowance (AckDelay, 2 us) costs nothing here.
    assert slack <= base + 0.5, (base, slack)
