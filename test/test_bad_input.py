# SPDX-License-Identifier: GPL-2.0-only
"""Bad input on every program's command line: one line naming the option, exit 1, nothing
written. Each case here once crashed, hung, printed the whole usage text or was silently
accepted (see the audit in issue 13)."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build")), "bin")

QUICK = ["--gpus=8", "--hostsPerT0=4", "--planes=2", "--t1=4", "--steps=1", "--bytes=65536",
         "--plots=0", "--reference=0"]

CASES = [
    # program, arguments, the option the message must name, words it must contain
    ("quickstart", ["--chunks=0"], "--chunks", ["1024"]),
    ("quickstart", ["--chunks=4294967295"], "--chunks", []),
    ("quickstart", ["--computeUs=1e30"], "--computeUs", []),
    ("quickstart", ["--detectionUs=-1"], "--detectionUs", []),
    ("quickstart", ["--steps=-1"], "--steps", ["whole number"]),
    ("quickstart", ["--steps=1.5"], "--steps", ["whole number"]),
    ("quickstart", ["--gpus=abc"], "--gpus", ["whole number"]),
    ("quickstart", ["--gpus="], "--gpus", []),
    ("quickstart", ["--linkRate=1bps"], "--linkRate", ["Gbps"]),
    ("quickstart", ["--linkRate=100"], "--linkRate", []),
    ("quickstart", ["--model=fast"], "--model", ["packet", "fluid"]),
    ("quickstart", ["--collective=tree"], "--collective", ["ring", "hierarchical"]),
    ("quickstart", ["--gpus=8192"], "--gpus", ["4096", "fluid"]),
    ("mrc-permutation", ["--model=fast"], "--model", ["packet", "fluid"]),
    ("quickstart", ["--binUs=1e-4"], "--binUs", []),
    ("quickstart", ["--qpsPerPeer=100000"], "--qpsPerPeer", ["64"]),
    ("quickstart", ["--pfc="], "--pfc", ["true or false"]),
    ("quickstart", ["--pfc=maybe"], "--pfc", ["true or false"]),
    ("quickstart", ["--flapRate=1e30"], "--flapRate", ["1e9"]),
    ("quickstart", ["--portLossAtUs=1e30"], "--portLossAtUs", []),
    ("quickstart", ["--computeUs=nan"], "--computeUs", ["finite"]),
    ("quickstart", ["--seed=-1"], "--seed", ["4294967086"]),
    ("mrc-permutation", ["--evSetSize=0"], "--evSetSize", ["4096"]),
    ("mrc-permutation", ["--evSetSize=65536"], "--evSetSize", ["4096"]),
    ("mrc-permutation", ["--linkRate=abc"], "--linkRate", []),
    ("mrc-permutation", ["--linkRate=1bps"], "--linkRate", []),
    ("mrc-permutation", ["--linkDelay=-1us"], "--linkDelay", []),
    ("mrc-permutation", ["--linkDelay=abc"], "--linkDelay", []),
    ("mrc-permutation", ["--linkDelay=5"], "--linkDelay", []),
    ("mrc-permutation", ["--planes=0"], "--planes", []),
    ("mrc-permutation", ["--hosts=100000", "--hostsPerT0=10"], "--hosts", []),
    ("mrc-permutation", ["--size=-1"], "--size", []),
    ("mrc-fabric-demo", ["--packets=-1"], "--packets", []),
    ("mrc-fabric-demo", ["--packets=0"], "--packets", []),
    ("mrc-fabric-demo", ["--t0=1"], "--t0", []),
    ("mrc-fabric-demo", ["--planes=65"], "--planes", ["64"]),
    ("mrc-fabric-demo", ["--pcap="], "--pcap", []),
    ("mrc-link-flap", ["--hostsPerT0=100000"], "--hostsPerT0", []),
    ("mrc-link-flap", ["--bin=1e-9"], "--bin", []),
    ("mrc-link-flap", ["--flapPeriod=1e30"], "--flapPeriod", []),
    ("mrc-link-flap", ["--linkRate=1bps"], "--linkRate", []),
    ("mrc-link-flap", ["--detection=-5"], "--detection", []),
    ("mrc-bench-forwarding", ["--packets=63"], "--packets", []),
    ("mrc-bench-memory", ["--sizes=0"], "--sizes", ["1024"]),
    ("mrc-bench-memory", ["--sizes=8,"], "--sizes", ["comma-separated"]),
    ("mrc-bench-memory", ["--sizes=abc"], "--sizes", []),
    ("mrc-bench-memory", ["--sizes=4096"], "--sizes", ["1024"]),
    ("mrc-bench-memory", ["--loads=5"], "--loads", ["1000"]),
    ("mrc-ib-write", ["--cluster=E"], "--cluster", ["B, C, D"]),
    ("mrc-ib-write", ["--scheme=tcp"], "--scheme", ["mrc, roce"]),
    ("mrc-ib-write", ["--qps=0"], "--qps", ["64"]),
    ("mrc-ib-write", ["--latSize=0"], "--latSize", []),
    ("mrc-ib-write", ["--iters=abc"], "--iters", []),
    ("mrc-permutation", ["--t1=0"], "--t1", ["at least 1"]),
    ("mrc-permutation", ["--t1=0", "--model=fluid"], "--t1", ["at least 1"]),
    # The template users copy: every value is checked before its results directory exists.
    ("mrc-compare-template", ["--hostsPerT0=0"], "--hostsPerT0", ["divide"]),
    ("mrc-compare-template", ["--hosts=8", "--hostsPerT0=8"], "--hosts / --hostsPerT0",
     ["2 T0s"]),
    ("mrc-compare-template", ["--planes=65"], "--planes", ["64"]),
    ("mrc-compare-template", ["--bytes=0"], "--bytes", []),
    ("mrc-compare-template", ["--steps=0"], "--steps", []),
    ("mrc-compare-template", ["--schemes=mrc,tcp"], "--schemes", ["roce-multiplane"]),
    ("mrc-bench-forwarding", ["--hostsPerT0=4000"], "--hostsPerT0", []),
    ("mrc-bench-forwarding", ["--linkRate=0"], "--linkRate", []),
    ("mrc-bench-forwarding", ["--linkRate=abc"], "--linkRate", []),
    ("mrc-bench-forwarding", ["--size=63"], "--size", []),
    ("claims", ["--claim=C1,C1"], "--claim", ["twice"]),
    ("claims", ["--seed=1.5"], "--seed", []),
    ("claims", ["--jobs=0"], "--jobs", ["32"]),
    ("paper", ["--jobs=abc"], "--jobs", []),
    ("paper", ["--sizes=4000000,1000"], "--sizes", ["65536"]),
    ("paper", ["--sizes=8000000,4000000"], "--sizes", ["increasing"]),
    ("paper", ["--roceQps=2,16"], "--roceQps", ["starting with 1"]),
    ("paper", ["--mrcQps=1,x"], "--mrcQps", []),
    # The event scheduler: a word of --scheduler, or ns-3's --SchedulerType, not both.
    ("quickstart", ["--scheduler=fast"], "--scheduler", ["calendar, heap, map", "'fast'"]),
    ("mrc-permutation", ["--scheduler="], "--scheduler", ["calendar, heap, map"]),
    ("mrc-permutation", ["--scheduler=heap", "--SchedulerType=ns3::MapScheduler"], "--scheduler",
     ["--SchedulerType", "give one"]),
    # ns-3 attributes: the type, the attribute and the value are checked before ns-3 sees them
    # (ns-3.37 itself terminates on a word given to a number or time attribute).
    ("quickstart", ["--ns3::MrcSelectiveRecovery::PathFlush=bogus"],
     "--ns3::MrcSelectiveRecovery::PathFlush", ["one of: held|retired|none"]),
    ("quickstart", ["--ns3::MrcL4Protocol::LossRecovery=ns3::Bogus"],
     "--ns3::MrcL4Protocol::LossRecovery", ["TypeId"]),
    # An attribute given to the wrong type names the type that has it.
    ("quickstart", ["--ns3::MrcQueuePair::PathFlush=none"], "--ns3::MrcQueuePair::PathFlush",
     ["write --ns3::MrcSelectiveRecovery::PathFlush=value"]),
    ("mrc-permutation", ["--ns3::MrcClosHelper::Routing=ospf"], "--ns3::MrcClosHelper::Routing",
     ["one of: srv6|ecmp"]),
    ("quickstart", ["--ns3::MrcFaultInjector::DownTimeDistribution=uniform"],
     "DownTimeDistribution", ["exponential|constant"]),
    ("quickstart", ["--ns3::MrcSwitchNetDevice::EcmpHashing"], "EcmpHashing",
     ["needs a value", "resilient|modulo"]),
    ("mrc-permutation", ["--ns3::MrcTrimmingQueue::EcnMinBytes=abc"], "EcnMinBytes", ["uint32_t"]),
    ("mrc-permutation", ["--ns3::MrcQueuePair::AckTimeoutUnit=soon"], "AckTimeoutUnit", []),
    ("mrc-permutation", ["--ns3::MrcTrimmingQueue::EcnMaxProbability=2"], "EcnMaxProbability",
     ["0:1"]),
    ("mrc-permutation", ["--ns3::MrcTrimmingQueue::EcnMaxP=0.5"], "EcnMaxP",
     ["did you mean", "EcnMaxProbability"]),
    ("quickstart", ["--ns3::MrcQueuePairs::PathFlush=none"], "MrcQueuePairs",
     ["no type"]),
    # Values each attribute accepts but the fabric they describe cannot be built with: the
    # scheme's description is checked before anything is built.
    ("quickstart", ["--ns3::MrcClosHelper::Tiers=1"], "Tiers", ["2 or 3"]),
    ("quickstart", ["--ns3::MrcClosHelper::HostQueueBytes=0"], "HostQueueBytes", ["9100"]),
    ("quickstart", ["--ns3::MrcTrimmingQueue::EcnMaxBytes=0"], "EcnMaxBytes", []),
    ("quickstart", ["--ns3::MrcSchemeHelper::BaselineT1sPerPlane=65535"], "T1sPerPlane",
     ["4096"]),
    ("quickstart", ["--model=fluid", "--ns3::MrcSchemeHelper::BaselineT1sPerPlane=70000"],
     "T1sPerPlane", ["65535"]),
    ("mrc-hello", ["--ns3::MrcClosHelper::Tiers=1"], "Tiers", ["2 or 3"]),
    ("mrc-link-flap", ["--ns3::MrcTrimmingQueue::EcnMaxBytes=0"], "EcnMaxBytes", []),
    ("mrc-ib-write", ["--ns3::MrcClosHelper::HostQueueBytes=1"], "HostQueueBytes", ["9100"]),
    ("mrc-bench-forwarding", ["--ns3::MrcClosHelper::BlockBits=8"], "BlockBits", ["16, 32"]),
    ("mrc-permutation", ["--senders=100"], "--senders", ["divisor", "128"]),
    ("mrc-permutation", ["--senders=256"], "--senders", ["divisor"]),
    ("claims", ["--claim=C2", "--ns3::MrcClosHelper::Tiers=1"], "Tiers", ["2 or 3"]),
    # Fits the quick scale's training fabric (8 hosts and 8 T1s per T0) but not C11's T0s of
    # 16 hosts: refused before C1 runs, not after C1-C10.
    ("claims", ["--scale=quick", "--ns3::MrcClosHelper::SwitchRadix=24"], "SwitchRadix",
     ["needs 32"]),
    ("paper", ["--figure=16", "--ns3::MrcTrimmingQueue::ControlLimit=1"], "ControlLimit",
     ["1500"]),
    # Fits Clusters B, C and D but not Fig 22's 128-host calibration leaf-spine (16 hosts and
    # 16 T1s per T0): refused before the first figure runs, not in Fig 22.
    ("paper", ["--figure=22", "--ns3::MrcClosHelper::SwitchRadix=24"], "SwitchRadix",
     ["needs 32"]),
]


@pytest.mark.parametrize("case", CASES, ids=["%s %s" % (c[0], " ".join(c[1])) for c in CASES])
def test_bad_value_is_one_line(tmp_path, case):
    prog, args, option, needles = case
    base = []
    if prog == "quickstart":
        base = QUICK + ["--out=%s" % (tmp_path / "out")]
    elif prog in ("claims", "paper"):
        base = ["--scale=tiny", "--plots=0", "--out=%s" % (tmp_path / "out")]
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    p = subprocess.run([os.path.join(BIN, prog)] + base + args, cwd=str(cwd),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, "exit %d for %s:\n%s" % (p.returncode, args, p.stderr[-2000:])
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, "expected one line on stderr, got:\n%s" % p.stderr[-2000:]
    msg = lines[0]
    assert msg.startswith("error:") and option in msg, msg
    for needle in needles:
        assert needle in msg, msg
    assert not (tmp_path / "out").exists(), "a results directory was left behind"
    assert os.listdir(cwd) == [], "files were left behind: %s" % os.listdir(cwd)


def test_bad_mrc_jobs_is_one_line(tmp_path):
    env = dict(os.environ, MRC_JOBS="two")
    p = subprocess.run([os.path.join(BIN, "paper"), "--scale=tiny", "--plots=0",
                        "--out=%s" % (tmp_path / "out")], capture_output=True, text=True,
                       timeout=60, env=env, cwd=str(tmp_path))
    assert p.returncode == 1
    assert p.stderr.strip() == "error: MRC_JOBS must be a whole number from 1 to 32 (got 'two')"
    assert not (tmp_path / "out").exists()


def test_a_baseline_buffer_at_the_attributes_largest_value_runs(tmp_path):
    # The baseline's port runs at planes x the plane rate and its DataLimit default scales with
    # it; a DataLimit near the largest uint32_t (no limit) is kept there instead of overflowing.
    p = subprocess.run([os.path.join(BIN, "quickstart")] + QUICK +
                       ["--schemes=baseline", "--ns3::MrcTrimmingQueue::DataLimit=4294967295",
                        "--out=%s" % (tmp_path / "out")],
                       capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr[-2000:]
    assert "baseline" in p.stdout


@pytest.mark.parametrize("prog,args", [
    ("quickstart", QUICK + ["--schemes=mrc"]),
    ("mrc-link-flap", ["--size=200000"]),
])
def test_a_rate_in_the_units_the_message_lists_is_accepted(tmp_path, prog, args):
    # The --linkRate message lists Tbps among its units; ns-3's own rate parser reads none, so
    # the program must not hand it the text.
    out = ["--out=%s" % (tmp_path / "out")] if prog == "quickstart" else []
    p = subprocess.run([os.path.join(BIN, prog)] + args + ["--linkRate=1.6Tbps"] + out,
                       capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr[-2000:]

