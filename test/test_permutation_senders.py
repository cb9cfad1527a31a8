# SPDX-License-Identifier: GPL-2.0-only
"""`mrc-permutation --senders=N`: only every (hosts / N)-th host writes, to its partner in the
same permutation, so the same fabric can carry fewer flows at once (the bench's 1024-host fabric
with 128 writing). The FCT lines and the completion count cover those N flows; with N equal to
the hosts the run is the default one."""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build")), "bin")
SMALL = ["--hosts=32", "--hostsPerT0=8", "--t1=8", "--size=500000", "--planes=1"]


def run(args):
    p = subprocess.run([os.path.join(BIN, "mrc-permutation")] + SMALL + args,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


@pytest.mark.parametrize("extra", [[], ["--roce"], ["--model=fluid"]])
def test_only_the_writers_send_and_complete(extra):
    out = run(["--senders=8"] + extra)
    assert "flows completed: 8 / 8" in out, out
    lo = float(re.search(r"min/ideal: ([0-9.]+)", out).group(1))
    assert lo >= 1.0
    if "--model=fluid" not in extra:
        m = re.search(r"data packets: (\d+) acks: \d+ retransmissions: (\d+)", out)
        # 500,000 bytes in 4,096-byte packets: 123 per flow, each sent once (resends aside).
        assert int(m.group(1)) - int(m.group(2)) == 8 * 123, out


def test_every_host_writing_is_the_default_run():
    def strip(text):
        return re.sub(r"wall: [0-9.]+ s|data-packets-per-wall-second: \d+", "", text)
    assert strip(run(["--senders=32"])) == strip(run([]))
