# SPDX-License-Identifier: GPL-2.0-only
"""A Chakra execution trace of a small data-parallel job, written by
experiments/chakra/make_dp_trace.py, replays through `quickstart --workload` for both schemes:
its step times land in steps.csv and every all-reduce transfer in flows.csv. A damaged trace
file gives a one-line error naming it, and nothing that looks like a result.

The program must have been built first; it is $MRC_BUILD_DIR/bin/quickstart (default
<repo>/build/bin/quickstart).
"""

import csv
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
QUICKSTART = os.path.join(BUILD_DIR, "bin", "quickstart")
MAKE_TRACE = os.path.join(ROOT, "experiments", "chakra", "make_dp_trace.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

RANKS, LAYERS, STEPS = 8, 3, 3
FWD, BWD, OPT = 20, 40, 10
FABRIC = ["--gpus=8", "--hostsPerT0=4", "--t1=2", "--planes=2", "--rebootT1=1",
          "--portLossHost=3", "--reference=0", "--plots=0"]


def make_trace(tmp_path):
    subprocess.run([PYTHON, MAKE_TRACE, "--ranks", str(RANKS), "--layers", str(LAYERS),
                    "--bytes", "300000", "--fwd-us", str(FWD), "--bwd-us", str(BWD),
                    "--opt-us", str(OPT), "--steps", str(STEPS), "--out", str(tmp_path / "et" / "dp"),
                    "--workload", str(tmp_path / "w.json")], check=True, capture_output=True)
    return tmp_path / "w.json"


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_trace_replays_into_steps_csv(tmp_path):
    assert os.path.exists(QUICKSTART), "build quickstart first (./ns3 build)"
    w = make_trace(tmp_path)
    out = tmp_path / "res"
    p = subprocess.run([QUICKSTART, *FABRIC, "--workload=%s" % w, "--out=%s" % out],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    steps = rows(out / "steps.csv")
    compute = LAYERS * (FWD + BWD) + OPT  # one rank's stream, with nothing to wait for
    for scheme in ("mrc", "baseline"):
        mine = [r for r in steps if r["scheme"] == scheme]
        assert [int(r["step"]) for r in mine] == list(range(STEPS)), scheme
        for r in mine:
            # The last all-reduce follows the last backward, and the optimizer follows it.
            assert float(r["duration_us"]) > compute, (scheme, r)
        flows = [r for r in rows(out / "flows.csv") if r["scheme"] == scheme]
        assert len(flows) == STEPS * LAYERS * 2 * (RANKS - 1) * RANKS, scheme
        assert {r["collective"] for r in flows} == {"ring-allreduce"}


def test_damaged_trace_is_one_line_error(tmp_path):
    w = make_trace(tmp_path)
    f = tmp_path / "et" / "dp.5.et"
    data = f.read_bytes()
    f.write_bytes(data[:-4])
    out = tmp_path / "res"
    p = subprocess.run([QUICKSTART, *FABRIC, "--workload=%s" % w, "--out=%s" % out],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "dp.5.et: message" in lines[0] and "truncated length" in lines[0], lines[0]
    assert not (out / "steps.csv").exists()


def test_generator_rejects_bad_options(tmp_path):
    p = subprocess.run([PYTHON, MAKE_TRACE, "--ranks", "0", "--out", str(tmp_path / "x")],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip() == "error: --ranks: must be >= 1, got 0"
