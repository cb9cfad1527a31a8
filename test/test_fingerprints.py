# SPDX-License-Identifier: GPL-2.0-only
"""Whole-run fingerprints, as OMNeT++/INET's fingerprint tests: each example program and a small
quickstart run is hashed (SHA-256 of its outputs, wall times masked) and
compared with the value recorded in test/fingerprints.json. Any change in behaviour (a packet
sent at another time, a counter off by one) changes the hash.

An *intended* behaviour change updates the recorded values in the same commit, with the
reason in the commit message:

    /usr/bin/python3 test/test_fingerprints.py --update

The recorded values hold for this project's toolchain (Debian bookworm's g++ 12 and ns-3.37,
Release or Debug alike); another compiler or ns-3 may order floating-point work differently.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
BIN = os.path.join(BUILD_DIR, "bin")
RECORD = os.path.join(ROOT, "test", "fingerprints.json")

QUICKSTART_SMALL = ["--gpus=8", "--hostsPerT0=2", "--t1=2", "--planes=2", "--steps=2",
                    "--bytes=262144", "--flapRate=2000", "--portLossAtUs=30", "--portLossUs=40",
                    "--rebootAtUs=60", "--rebootUs=40", "--portLossHost=1", "--rebootT1=1",
                    "--binUs=10", "--plots=0"]

# name -> (program, arguments, what to hash: "stdout" or a list of output files in --out)
RUNS = {
    "quickstart-small": ("quickstart", QUICKSTART_SMALL,
                         ["flows.csv", "steps.csv", "events.csv", "links.csv"]),
    "quickstart-small-fluid": ("quickstart", QUICKSTART_SMALL + ["--model=fluid"],
                               ["flows.csv", "steps.csv", "events.csv", "links.csv"]),
    "mrc-permutation-fluid": ("mrc-permutation", ["--hosts=32", "--hostsPerT0=8", "--t1=8",
                                                  "--planes=2", "--size=500000",
                                                  "--model=fluid"], "stdout"),
    "mrc-permutation": ("mrc-permutation", ["--hosts=32", "--hostsPerT0=8", "--t1=8",
                                            "--planes=2", "--size=500000"], "stdout"),
    "mrc-permutation-roce": ("mrc-permutation", ["--hosts=32", "--hostsPerT0=8", "--t1=8",
                                                 "--planes=1", "--size=500000", "--roce"],
                             "stdout"),
    "mrc-link-flap": ("mrc-link-flap", [], "stdout"),
    "mrc-fabric-demo": ("mrc-fabric-demo", [], "stdout"),
    "mrc-fabric-sizing": ("mrc-fabric-sizing", [], "stdout"),
    "claims-tiny-C5-C9": ("claims", ["--claim=C5,C9", "--scale=tiny", "--plots=0"],
                          ["claims.csv", "figures.csv"]),
}

# Lines that are about the machine's speed or the paths only: left out.
DROPPED_WORDS = ("Elapsed", "per-wall-second", "results:", "plots:")
# A wall time on a line of counters ("... events: 32241 wall: 0.010 s"): the time is masked,
# the counters stay in.
WALL_TIME = re.compile(r"\bwall: [0-9.]+ s\b")


def normalised_stdout(text):
    """The program's stdout without what depends on the machine's speed or paths."""
    lines = [WALL_TIME.sub("wall: - s", line) for line in text.splitlines()
             if not any(w in line for w in DROPPED_WORDS)]
    assert not any(re.search(r"\bwall: [0-9]", line) for line in lines), \
        "a wall time in a form WALL_TIME does not mask"
    return "\n".join(lines) + "\n"


def fingerprint(name, extra=(), env=None):
    """Run one entry of RUNS (with extra arguments; env: the environment, default this
    process's) and return (sha256 hex, size hashed)."""
    prog, args, what = RUNS[name]
    args = list(args) + list(extra)
    exe = os.path.join(BIN, prog)
    assert os.path.isfile(exe), "build the programs first (./ns3 build): %s is missing" % exe
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        cmd = [exe] + args + ([] if what == "stdout" else ["--out=" + out])
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp, env=env)
        assert p.returncode in (0, 2), "%s failed (%d):\n%s" % (" ".join(cmd), p.returncode,
                                                                 p.stderr[-2000:])
        h = hashlib.sha256()
        if what == "stdout":
            data = normalised_stdout(p.stdout).encode()
            h.update(data)
            return h.hexdigest(), len(data)
        size = 0
        for f in what:
            with open(os.path.join(out, f), "rb") as fh:
                data = fh.read()
            h.update(f.encode() + b"\0" + data)
            size += len(data)
        return h.hexdigest(), size


def recorded():
    with open(RECORD) as f:
        return json.load(f)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_fingerprint(name):
    rec = recorded()
    assert name in rec, "no recorded fingerprint for %s: run %s --update" % (name, __file__)
    got, size = fingerprint(name)
    assert size > 100, "%s produced almost nothing to hash (%d bytes)" % (name, size)
    assert got == rec[name], (
        "%s behaves differently from the recorded run (fingerprint %s, recorded %s). If the "
        "change is intended, run `/usr/bin/python3 test/test_fingerprints.py --update` and say "
        "why in the commit message." % (name, got[:16], rec[name][:16]))


@pytest.mark.parametrize("name,extra", [
    ("quickstart-small", ["--seed=2"]),
    ("mrc-permutation", ["--ns3::MrcSelectiveRecovery::ReorderThreshold=8"]),
])
def test_a_change_in_behaviour_changes_the_fingerprint(name, extra):
    """The fingerprints are not blind: another seed, or one attribute changed, gives another."""
    assert fingerprint(name, extra)[0] != recorded()[name]


def test_setting_the_defaults_explicitly_changes_nothing():
    """Every documented default can be set explicitly (ReorderThreshold=0 and ReorderWindow=0,
    "choose automatically", were once refused by their checkers) and gives the same run."""
    got = fingerprint("mrc-permutation", ["--ns3::MrcSelectiveRecovery::ReorderThreshold=0",
                                          "--ns3::MrcSelectiveRecovery::ReorderWindow=0s"])[0]
    assert got == recorded()["mrc-permutation"]


@pytest.mark.parametrize("name", ["quickstart-small", "mrc-permutation", "mrc-permutation-roce",
                                  "mrc-link-flap", "claims-tiny-C5-C9"])
def test_ns3s_simulator_implementation_gives_the_same_run(name):
    """The programs run under MrcSimulatorImpl; ns-3's DefaultSimulatorImpl runs the same events
    in the same order, so it gives the same fingerprint."""
    got = fingerprint(name, ["--SimulatorImplementationType=ns3::DefaultSimulatorImpl"])[0]
    assert got == recorded()[name]


@pytest.mark.parametrize("name", ["quickstart-small", "mrc-permutation"])
@pytest.mark.parametrize("hugetlb", ["0", "1"])
def test_the_heap_on_huge_pages_or_not_gives_the_same_run(name, hugetlb):
    """./ns3 starts the programs with glibc.malloc.hugetlb=1 (transparent huge pages for the
    heap); the addresses objects get must not change what a run computes."""
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    env["GLIBC_TUNABLES"] = "glibc.malloc.hugetlb=" + hugetlb
    assert fingerprint(name, env=env)[0] == recorded()[name]


def test_a_wall_time_is_masked_and_the_counters_beside_it_kept():
    a = "data packets: 3936 acks: 1400 retransmissions: 0 trims: 0 events: 32241 wall: 0.010 s\n"
    b = a.replace("0.010", "0.034")
    c = a.replace("acks: 1400", "acks: 1401")
    assert normalised_stdout(a) == normalised_stdout(b)
    assert normalised_stdout(a) != normalised_stdout(c)
    assert normalised_stdout("fluid: rate computations 2 events 35 wall: 0.000 s\n") == \
        "fluid: rate computations 2 events 35 wall: - s\n"
    assert normalised_stdout("x\ndata-packets-per-wall-second: 397361\n") == "x\n"


def test_every_recorded_run_still_exists():
    assert sorted(recorded()) == sorted(RUNS)


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: test_fingerprints.py --update   (record the current fingerprints)")
    values = {}
    for n in sorted(RUNS):
        values[n] = fingerprint(n)[0]
        print("%-24s %s" % (n, values[n]))
    with open(RECORD, "w") as f:
        json.dump(values, f, indent=2, sort_keys=True)
        f.write("\n")
    print("wrote", RECORD)
