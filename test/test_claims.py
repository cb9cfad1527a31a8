# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the claims suite (`claims`, experiments/claims/).

One run of every claim at the quick scale, the program's default (32 GPUs, 8 planes; about
three and a half minutes), is shared by the tests; the determinism test runs two claims twice
at the tiny scale (seconds).
They assert the files and their formats, that every claim C1-C13 has measured rows and a
verdict computed from its checks (each threshold with its source), and that the schemes of
every comparison were paired. They do not assert a claim's internal counters: whether the
verdicts can fail is test/test_claims_mutants.py's matrix.

The program must have been built first; it is $MRC_BUILD_DIR/bin/claims (default:
<repo>/build/bin/claims) and the tests FAIL, not skip, when it is missing.
"""

import csv
import json
import math
import re
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
CLAIMS = os.path.join(BUILD_DIR, "bin", "claims")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
IDS = ["C%d" % i for i in range(1, 14)]


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
    assert meta["complete"] is True and meta["claims_done"] == meta["claims_planned"] == 13
    assert "Partial" not in open(os.path.join(out, "claims.md")).read()
    for c in IDS:
        assert meta["claims"][c]["verdict"] in ("reproduced", "partly", "not reproduced",
                                                "measured", "holds", "does not hold")
    assert "verdict" in stdout and "results:" in stdout


def test_every_claim_has_rows_and_a_computed_verdict(quick):
    out, rows, _ = quick
    meta = json.load(open(os.path.join(out, "run.json")))
    for c in IDS:
        mine = [r for r in rows if r["claim"] == c]
        assert mine, c
        checks = [r["check"] for r in mine if r["check"] != "info"]
        assert set(checks) <= {"pass", "fail"}, c
        structural = meta["claims"][c]["kind"] == "structural"
        expected = ("measured" if not checks
                    else ("holds" if structural else "reproduced")
                    if all(x == "pass" for x in checks)
                    else "partly" if "pass" in checks
                    else "does not hold" if structural else "not reproduced")
        assert {r["verdict"] for r in mine} == {expected}, c
        for r in mine:
            if r["check"] != "info":
                assert r["threshold"] and r["threshold_source"], (c, r["metric"])
                assert re.match(r"(paper|physical|ours|structural|arithmetic)\b",
                                r["threshold_source"]), r


def test_pairing_recorded_and_equal(quick):
    """Every comparison run by several schemes used the same placement and fault schedule."""
    out, _, _ = quick
    meta = json.load(open(os.path.join(out, "run.json")))
    compared = 0
    for claim, comparisons in meta["pairing"].items():
        for label, cmp in comparisons.items():
            if len(cmp["schemes"]) > 1:
                compared += 1
                assert cmp["paired"], (claim, label, cmp)
    assert compared >= 10


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


def test_parallel_runs_give_the_same_bytes(tmp_path):
    # C2's flap trains run ahead in worker processes (--jobs): the results must be those of a
    # sequential run, byte for byte.
    outs = []
    for jobs in (1, 2):
        out = str(tmp_path / ("j%d" % jobs))
        r = run(["--scale=tiny", "--claim=C2", "--plots=0", "--jobs=%d" % jobs, "--out=" + out])
        assert r.returncode == 0, r.stderr
        outs.append(out)
    assert "ran ahead" in r.stderr
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
    # Flow-level rows extend packet-level measurements: information, not checks.
    assert {x["check"] for x in rows} == {"info"}
    port = [x for x in rows if x["claim"] == "C4" and "port loss / its duration" in x["metric"]]
    assert len(port) == 1, port
    # MRC loses at most its 1/8 share; the baseline's host loses its only port.
    assert float(port[0]["mrc"]) <= 0.125 + 1e-9 < float(port[0]["baseline"])
    lost = [x for x in rows if x["claim"] == "C3" and "job time lost" in x["metric"]][0]
    assert float(lost["mrc"]) < float(lost["baseline"])
    # The flow-level comparisons are paired too: the same placement and fault times.
    meta = json.load(open(os.path.join(out, "run.json")))
    prod = [(c, l, cmp) for c, ls in meta["pairing"].items() for l, cmp in ls.items()
            if l.startswith("production")]
    assert len(prod) >= 6, prod
    for c, l, cmp in prod:
        assert set(cmp["schemes"]) == {"mrc", "roce"}, (c, l)
        assert cmp["paired"], (c, l, cmp)


@pytest.mark.parametrize("args,needle", [
    (["--scale=huge"], "--scale must be one of tiny quick full"),
    (["--claim=C14"], "--claim must be all or a comma-separated list"),
    (["--mutant=no-such"], "--mutant: unknown mutant 'no-such'"),
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


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_schemes_paired_for_every_seed(tmp_path, seed):
    """Placement, jobs and fault schedules do not depend on the scheme (only the transport's
    own randomness does): the digests of every comparison agree across schemes."""
    out = str(tmp_path / "s")
    r = run(["--scale=tiny", "--claim=C2,C3,C4,C7", "--plots=0", "--seed=%d" % seed,
             "--out=" + out])
    assert r.returncode == 0, r.stderr
    meta = json.load(open(os.path.join(out, "run.json")))
    pairs = [(c, l, cmp) for c, ls in meta["pairing"].items() for l, cmp in ls.items()
             if len(cmp["schemes"]) > 1]
    assert len(pairs) >= 6
    for c, l, cmp in pairs:
        assert cmp["paired"], (seed, c, l, cmp)
    ref = meta["pairing"]["C2"]["reference"]["schemes"]["mrc"]["placement"]
    other = str(tmp_path / "o")
    r = run(["--scale=tiny", "--claim=C2", "--plots=0", "--seed=%d" % (seed + 10),
             "--out=" + other])
    assert r.returncode == 0, r.stderr
    meta2 = json.load(open(os.path.join(other, "run.json")))
    assert meta2["pairing"]["C2"]["reference"]["schemes"]["mrc"]["placement"] != ref
