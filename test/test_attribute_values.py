# SPDX-License-Identifier: GPL-2.0-only
"""Every number, time and rate attribute of the module's types, given on quickstart's command
line at the edges of what its checker accepts (0, 1, the largest value, ...): the run either
succeeds (status 0, or 2 when transfers failed) or stops with one line, `error: ...`, status 1
and nothing written. Before this test, 21 such values aborted inside ns-3 (a scheme's fabric
could not be built: Tiers=1, BlockBits=0, HostQueueBytes=0, EcnMaxBytes below EcnMinBytes,
the baseline's DataLimit overflowing, ...); one left a results directory behind.

Run with: /usr/bin/python3 -m pytest -q test/test_attribute_values.py
"""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build")), "bin")
QUICKSTART = os.path.join(BIN, "quickstart")
# Both schemes, one step of a 256 KiB ring on 8 GPUs, with the default faults.
SMALL = ["--gpus=8", "--hostsPerT0=4", "--planes=2", "--t1=4", "--steps=1", "--bytes=262144",
         "--plots=0", "--reference=0"]


def printed(*args):
    return subprocess.run([QUICKSTART] + list(args), capture_output=True, text=True,
                          timeout=60).stdout


def edge_values(default):
    """The values tried for an attribute, from the form of its default."""
    if default in ("true", "false"):
        return []
    if re.fullmatch(r"[+-]?[0-9.e+-]+ns", default):
        return ["0ns", "1ps", "-1ns"]
    if default.endswith("bps"):
        return ["0bps", "1e15bps"]
    if re.fullmatch(r"-?\d+", default):
        return ["0", "1", "65535", "4294967295", "-1"]
    if re.fullmatch(r"-?[0-9.]+(e[+-]?\d+)?", default):
        return ["0", "-1", "1e300"]
    return []  # strings and choices: checked by name (test_bad_input.py)


def attributes():
    if not os.path.exists(QUICKSTART):
        return [("quickstart-not-built", "")]
    found = []
    for tid in re.findall(r"^\s+(ns3::Mrc\w+)", printed("--PrintGroup=Mrc"), re.M):
        for name, default in re.findall(r"--(ns3::\w+::\w+)=\[(.*?)\]",
                                        printed("--PrintAttributes=%s" % tid)):
            if edge_values(default):
                found.append((name, default))
    return found


ATTRIBUTES = attributes()


def test_the_sweep_covers_the_module():
    assert len(ATTRIBUTES) > 80, ATTRIBUTES
    names = {a for a, _ in ATTRIBUTES}
    assert {"ns3::MrcClosHelper::Tiers", "ns3::MrcTrimmingQueue::DataLimit",
            "ns3::MrcQueuePair::AckTimeoutExponent", "ns3::MrcNscc::TargetQdelay"} <= names


@pytest.mark.parametrize("name,default", ATTRIBUTES, ids=[a for a, _ in ATTRIBUTES])
def test_an_edge_value_runs_or_is_one_line(tmp_path, name, default):
    assert os.path.exists(QUICKSTART), "build first: %s is missing" % QUICKSTART
    for value in edge_values(default):
        out = tmp_path / ("out-" + value)
        arg = "--%s=%s" % (name, value)
        p = subprocess.run([QUICKSTART] + SMALL + [arg, "--out=%s" % out], capture_output=True,
                           text=True, timeout=120, cwd=str(tmp_path))
        assert p.returncode in (0, 1, 2), "%s: exit %d\n%s" % (arg, p.returncode, p.stderr[-1500:])
        if p.returncode == 1:
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            assert len(lines) == 1 and lines[0].startswith("error:"), \
                "%s: not one line:\n%s" % (arg, p.stderr[-1500:])
            assert not out.exists(), "%s: a results directory was left behind" % arg
