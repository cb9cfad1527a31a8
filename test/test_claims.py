# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the claims suite (`claims`, experiments/claims/).

One run of every claim at the quick scale, the program's default (32 GPUs, 8 planes; about
three and a half minutes), is shared by the tests; the determinism test runs two claims twice
at the tiny scale (seconds).
They assert the files and their formats, that every claim C1-C12 has measured rows and a
verdict computed from its checks, and the *direction* of each result the model is built to
produce (MRC's bypass in microseconds against the routed fabric's seconds, the victim flow
untouched by an incast, ...). They do not assert the verdicts themselves: a claim the model
does not reproduce is a finding, reported in docs/claims.md, not a test failure.

The program must have been built first; it is $MRC_BUILD_DIR/bin/claims (default:
<repo>/build/bin/claims) and the tests FAIL, not skip, when it is missing.
"""

import csv
import json
import math
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
CLAIMS = os.path.join(BUILD_DIR, "bin", "claims")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
IDS = ["C%d" % i for i in range(1, 13)]


def run(args, **kw):
    assert os.path.exists(CLAIMS), "build the program first: ./ns3 build claims"
    return subprocess.run([CLAIMS] + args, capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("claims") / "quick")
    r = run(["--scale=quick", "--plots=0", "--out=" + out])
    assert r.returncode == 0, r.stderr
    with open(os.path.join(out, "claims.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return out, rows, r.stdout


def value(rows, claim, metric, scheme):
    for r in rows:
        if r["claim"] == claim and r["metric"] == metric:
            return float(r[scheme]) if r[scheme] != "" else math.nan
    raise AssertionError("no row %s / %s" % (claim, metric))


def test_files_and_formats(quick):
    out, rows, stdout = quick
    for name in ("claims.csv", "figures.csv", "claims.md", "run.json"):
        assert os.path.getsize(os.path.join(out, name)) > 0, name
    assert not [n for n in os.listdir(out) if n.endswith(".tmp")]
    meta = json.load(open(os.path.join(out, "run.json")))
    assert meta["program"] == "claims" and meta["seed"] == 1
    assert meta["parameters"]["scale"] == "quick"
    assert set(meta["claims"]) == set(IDS)
    assert meta["timers_scaled"] is False
    assert meta["complete"] is True and meta["claims_done"] == meta["claims_planned"] == 12
    assert "Partial" not in open(os.path.join(out, "claims.md")).read()
    for c in IDS:
        assert meta["claims"][c]["verdict"] in ("reproduced", "partly", "not reproduced")
    assert "verdict" in stdout and "results:" in stdout


def test_every_claim_has_rows_and_a_computed_verdict(quick):
    _, rows, _ = quick
    for c in IDS:
        mine = [r for r in rows if r["claim"] == c]
        assert mine, c
        checks = [r["check"] for r in mine if r["check"] != "info"]
        assert checks and set(checks) <= {"pass", "fail"}, c
        expected = ("reproduced" if all(x == "pass" for x in checks)
                    else "partly" if "pass" in checks else "not reproduced")
        assert {r["verdict"] for r in mine} == {expected}, c
        for r in mine:
            if r["check"] != "info":
                assert r["threshold"], (c, r["metric"])


def test_c1_fabric_arithmetic(quick):
    _, rows, _ = quick
    assert value(rows, "C1", "NICs reached with 2 tiers", "mrc") == 131072
    assert value(rows, "C1", "NICs reached with 2 tiers", "baseline") == 2048
    assert value(rows, "C1", "tiers needed for that many NICs", "baseline") == 4


def test_c2_a_flap_costs_mrc_less(quick):
    _, rows, _ = quick
    m = value(rows, "C2", "job time lost per flap", "mrc")
    b = value(rows, "C2", "job time lost per flap", "baseline")
    assert m < b
    assert value(rows, "C2", "x1: flaps during the run", "mrc") == 0


def test_c3_mrc_completes_through_reboots(quick):
    _, rows, _ = quick
    assert value(rows, "C3", "job completed", "mrc") == 1
    assert value(rows, "C3", "failed QPs", "mrc") == 0
    assert (value(rows, "C3", "mean step inflation", "mrc")
            < value(rows, "C3", "mean step inflation", "baseline"))


def test_c4_port_loss_costs_one_port(quick):
    _, rows, _ = quick
    during = value(rows, "C4", "rate during the loss / before", "mrc")
    assert 0.8 <= during <= 0.95  # 8 planes: 7/8
    assert value(rows, "C4", "rate during the loss / before", "baseline") < 0.05


def test_c5_bypass_in_microseconds(quick):
    _, rows, _ = quick
    assert value(rows, "C5", "failure to 90% of the rate before", "mrc") < 100
    assert value(rows, "C5", "failure to 90% of the rate before", "baseline") >= 1e5


def test_c6_single_path_flows_collide(quick):
    _, rows, _ = quick
    assert value(rows, "C6", "share of flows below 0.6 x line rate", "baseline") >= 0.1
    assert value(rows, "C6", "share of flows below 0.6 x line rate", "mrc") == 0


def test_c7_victim_slowed_less_than_under_pfc(quick):
    _, rows, _ = quick
    m = value(rows, "C7", "victim slowdown from the incast", "mrc")
    b = value(rows, "C7", "victim slowdown from the incast", "baseline")
    assert m < 1.2 and b > 1.3 and m < b  # PFC's head-of-line blocking


def test_c8_lossy_path_retired_at_once(quick):
    _, rows, _ = quick
    assert value(rows, "C8", "20% loss: first frame lost to an EV on the lossy path retired",
                 "mrc") < 50
    assert (value(rows, "C8", "20% loss: rate during the loss / before", "mrc")
            > value(rows, "C8", "20% loss: rate during the loss / before", "baseline"))


def test_c9_trimming_retires_no_ev_dropping_does(quick):
    _, rows, _ = quick
    metric = "EV retirements (congestion taken for failure)"
    assert value(rows, "C9", metric, "mrc") == 0  # IncastLossGuard
    assert value(rows, "C9", metric, "baseline") > 0


def test_c10_c12_spraying_lowers_variance_and_step(quick):
    _, rows, _ = quick
    assert (value(rows, "C10", "per-transfer throughput CoV", "mrc")
            < value(rows, "C10", "per-transfer throughput CoV", "baseline"))
    assert value(rows, "C12", "mean step", "baseline") > value(rows, "C12", "mean step", "mrc")


def test_c11_traffic_stays_under_the_t0(quick):
    _, rows, _ = quick
    metric = "share of bytes crossing T1 (ring all-reduce, simulated)"
    assert value(rows, "C11", metric, "mrc") < value(rows, "C11", metric, "baseline")


def test_same_seed_same_bytes(tmp_path):
    outs = []
    for k in range(2):
        out = str(tmp_path / ("r%d" % k))
        r = run(["--scale=tiny", "--claim=C5,C9", "--plots=0", "--out=" + out])
        assert r.returncode == 0, r.stderr
        outs.append(out)
    for name in ("claims.csv", "figures.csv"):
        a = open(os.path.join(outs[0], name), "rb").read()
        b = open(os.path.join(outs[1], name), "rb").read()
        assert a == b, name


def test_production_rows_at_flow_level(tmp_path):
    """--production adds flow-level rows on a production-shaped fabric (1024 GPUs here)."""
    out = str(tmp_path / "prod")
    r = run(["--scale=tiny", "--claim=C2,C3,C4", "--production=1", "--productionGpus=1024",
             "--plots=0", "--out=" + out])
    assert r.returncode == 0, r.stderr
    with open(os.path.join(out, "claims.csv"), newline="") as f:
        rows = [x for x in csv.DictReader(f) if x["metric"].startswith("production, flow level")]
    assert {x["claim"] for x in rows} == {"C2", "C3", "C4"}
    port = [x for x in rows if x["claim"] == "C4" and "port loss / its duration" in x["metric"]]
    assert len(port) == 1 and port[0]["check"] == "pass", port
    # MRC loses at most its 1/8 share; the baseline's host loses its only port.
    assert float(port[0]["mrc"]) <= 0.125 + 1e-9 < float(port[0]["baseline"])
    lost = [x for x in rows if x["claim"] == "C3" and "job time lost" in x["metric"]][0]
    assert float(lost["mrc"]) < float(lost["baseline"])


@pytest.mark.parametrize("args,needle", [
    (["--scale=huge"], "--scale must be tiny, quick or full"),
    (["--claim=C13"], "--claim must be all or a comma-separated list"),
    (["--seed=0"], "seed"),
    (["--scal=tiny"], "unknown option"),
    (["--productionGpus=1000"], "--productionGpus"),
])
def test_bad_input_one_line(args, needle, tmp_path):
    r = run(args + ["--out=" + str(tmp_path / "x")])
    assert r.returncode == 1
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and needle in lines[0], r.stderr
    assert not (tmp_path / "x").exists()


def test_non_empty_out_refused(tmp_path):
    (tmp_path / "keep.txt").write_text("x")
    r = run(["--scale=tiny", "--claim=C1", "--out=" + str(tmp_path)])
    assert r.returncode == 1 and "not empty" in r.stderr
    assert (tmp_path / "keep.txt").exists()


def test_plots(quick):
    pytest.importorskip("matplotlib")
    out, _, _ = quick
    r = subprocess.run([PYTHON, os.path.join(ROOT, "analysis", "plot_claims.py"), out],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    for c in IDS:
        assert os.path.getsize(os.path.join(out, c + ".png")) > 0, c


def test_plot_script_rejects_malformed(tmp_path):
    (tmp_path / "figures.csv").write_text("claim,kind\nC1,line\n")
    (tmp_path / "claims.csv").write_text("")
    r = subprocess.run([PYTHON, os.path.join(ROOT, "analysis", "plot_claims.py"), str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "header must be" in r.stderr
