# SPDX-License-Identifier: GPL-2.0-only
"""The paper program (`paper`): the MRC paper's Cluster B, C and D figures at the tiny scale.

One run of every figure on the real model asserts the files, and the paper's qualitative
results we reproduce (docs/paper.md lists those we do not: Fig 14's rebalancing, Fig 19b/c's
tracking of the capacity left, Fig 17's MRC lead at the smallest size); then every mutant a figure lists
(`paper --listMutants`) runs on the figures that list it and none of them may be *reproduced*
there, and every check of a figure must fail under at least one of its mutants. About four
minutes on two cores.
"""

import concurrent.futures
import csv
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
PAPER = os.path.join(BUILD_DIR, "bin", "paper")
JOBS = int(os.environ.get("MRC_JOBS", os.cpu_count() or 2))
FIGURES = ["9", "10", "11", "12", "14", "15", "16", "17", "18", "19", "20", "21", "22"]


def run(out, figures, mutant=None, plots=False, scale="tiny", jobs=1):
    # One worker per program by default: the tests run programs in parallel themselves.
    args = [PAPER, "--scale=" + scale, "--plots=%d" % plots, "--out=" + out,
            "--figure=" + ",".join(figures), "--jobs=%d" % jobs]
    if mutant:
        args.append("--mutant=" + mutant.replace("+", ","))
    p = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, "%s: %s" % (mutant, p.stderr[-2000:])
    return json.load(open(os.path.join(out, "run.json")))


def table():
    p = subprocess.run([PAPER, "--listMutants=1"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    rows = {}
    for line in p.stdout.splitlines():
        fig, mutants = line.split()
        rows[fig] = [] if mutants == "-" else mutants.split(",")
    return rows


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    assert os.path.exists(PAPER), "build the program first: ./ns3 build paper"
    out = str(tmp_path_factory.mktemp("paper") / "real")
    meta = run(out, FIGURES, plots=True)
    rows = list(csv.DictReader(open(os.path.join(out, "checks.csv"))))
    agreements = list(csv.DictReader(open(os.path.join(out, "agreements.csv"))))
    return out, meta, rows, agreements


def value(rows, figure, metric, column):
    for r in rows:
        if r["figure"] == figure and r["metric"] == metric:
            return float(r[column])
    raise AssertionError("no row %s: %s" % (figure, metric))


def test_files(real):
    out, meta, _, agreements = real
    assert meta["complete"] is True
    for f in ("checks.csv", "agreements.csv", "figures.csv", "paper.md", "manifest.json"):
        assert os.path.isfile(os.path.join(out, f)), f
    for fig in ["F" + f for f in FIGURES]:
        for ext in ("png", "pdf"):
            assert os.path.getsize(os.path.join(out, "%s.%s" % (fig, ext))) > 1000, (fig, ext)
        assert meta["claims"][fig]["time_compression"], fig
    assert set(a["agrees"] for a in agreements) <= {"yes", "no", "n/a"}
    assert "| 18a |" in open(os.path.join(out, "paper.md")).read()


def test_long_lived_flows_last(real):
    _, _, rows, _ = real
    for r in rows:
        if "finished before the end" in r["metric"]:
            assert float(r["mrc"] or 0) == 0 and float(r["baseline"] or 0) == 0, r


def test_incast_victim(real):
    _, _, rows, _ = real
    # MRC's victim keeps its rate beside the incast (Figs 18c, 21a), with 1 and 8 QPs.
    for fig, setup in (("F18", "18c MRC, 1 QP"), ("F21", "21a MRC, 8 QPs")):
        assert value(rows, fig, setup + ": victim's throughput lost", "mrc") <= 0.05
    # RoCE with PFC only: well under half of it (Fig 21b), DCQCN loses less than that.
    alone = value(rows, "F21", "21b RoCE, PFC only, 1 QP: victim alone", "baseline")
    beside = value(rows, "F21", "21b RoCE, PFC only, 1 QP: victim beside the incast", "baseline")
    assert beside < 0.4 * alone
    assert value(rows, "F18", "18a RoCE, DCQCN, 1 QP: victim's throughput lost", "baseline") > 0.1
    # PFC pauses are what hurts the victim.
    assert value(rows, "F21", "21b RoCE, PFC only, 1 QP: PFC pauses sent", "baseline") > 0
    assert value(rows, "F18", "18c MRC, 1 QP: PFC pauses sent", "mrc") == 0


def test_permutation(real):
    _, _, rows, _ = real
    assert value(rows, "F20", "20 MRC, 1 QP: slowest flow", "mrc") >= 0.9 * 400
    # RoCE with one QP per flow collides: some flow at half its rate or worse.
    assert value(rows, "F20", "20a' RoCE, PFC only, 1 QP: slowest flow", "baseline") <= 0.6 * 400


def test_failures(real, tmp_path):
    _, _, rows, agreements = real
    # 19a: no impact at 400G.
    for a in agreements:
        if a["figure"] == "F19" and a["setup"] == "19a":
            assert a["agrees"] == "yes", a
    # 19b/c: back at line rate once the links return, measured at the quick scale (a second of
    # run time): in the tiny scale's 2.5 ms phases the returning paths miss a fifth of the last
    # phase (0.82), which the quick scale's longer phases do not show (0.97).
    out = str(tmp_path / "f19")
    run(out, ["19"], scale="quick")
    quick = list(csv.DictReader(open(os.path.join(out, "checks.csv"))))
    assert value(quick, "F19", "19b, 19c: throughput / capacity once every link is restored",
                 "mrc") >= 0.9


def test_dcqcn_profiles(real):
    _, _, rows, _ = real
    u = value(rows, "F22", "default profile: bottleneck utilisation", "baseline")
    assert u >= 0.95
    drop = value(rows, "F22", "the aggressive profiles lose throughput: default - the most "
                 "aggressive", "baseline")
    assert drop > 0


def test_collectives(real):
    _, _, rows, _ = real
    big = "16 MB"

    def bus(loss, curve):
        return value(rows, "F16", "16 " + loss + ", " + curve + ", " + big + ": bus bandwidth",
                     "mrc" if curve.startswith("MRC") else "baseline")

    clean = bus("no loss", "MRC, 1 QP")
    # One MRC QP spraying beats 16 RoCE QPs hashed by ECMP (Fig 16).
    assert clean > bus("no loss", "RoCE, 16 QPs")
    # RoCE with one QP is held back by ECMP collisions: well under the NIC's rate.
    assert bus("no loss", "RoCE, 1 QP") < 0.6 * 389
    # 0.1 % loss at every NIC: MRC keeps most of it, RoCE collapses (go-back-N, tail timeouts).
    assert bus("0.1 % loss", "MRC, 1 QP") >= 0.5 * clean
    assert bus("0.1 % loss", "RoCE, 16 QPs") < 0.05 * bus("no loss", "RoCE, 16 QPs")
    # 1 % loss: MRC still finishes with a useful fraction, no queue pair in error.
    assert bus("1 % loss", "MRC, 1 QP") >= 0.2 * clean
    assert value(rows, "F16", "16 1 % loss, MRC, 1 QP, " + big + ": queue pairs in error", "mrc") == 0
    # All-to-all (Fig 17): MRC above both RoCE curves at the largest size.
    a2a = [r for r in rows if r["figure"] == "F17" and r["metric"].endswith(big + ": bus bandwidth")]
    mrc = [float(r["mrc"]) for r in a2a if r["mrc"]]
    roce = [float(r["baseline"]) for r in a2a if r["baseline"]]
    assert len(mrc) == 1 and len(roce) == 2
    assert mrc[0] > max(roce)


def test_parallel_runs_give_the_same_results(real, tmp_path):
    # Figs 16-17 run their collectives ahead in worker processes (--jobs): every file of the
    # results but the wall times must be what the sequential run wrote.
    out, _, _, _ = real
    par = str(tmp_path / "parallel")
    meta = run(par, ["16", "17"], jobs=2)
    assert meta["complete"] is True

    def rows(d, name):
        return [r for r in csv.DictReader(open(os.path.join(d, name)))
                if r["figure"] in ("F16", "F17")]

    for name in ("checks.csv", "figures.csv", "agreements.csv"):
        seq = rows(out, name)
        assert seq, name
        assert rows(par, name) == seq, name
    assert meta["claims"]["F16"]["simulations"] == json.load(
        open(os.path.join(out, "run.json")))["claims"]["F16"]["simulations"]


def test_cluster_b(real):
    _, meta, rows, agreements = real
    # Fig 9a/b: the rate follows the NIC ports left, both directions; the remote side stops
    # using the lost port's plane within two base RTTs (the port bitmap).
    assert value(rows, "F9", "9a, 9b: throughput / capacity left, the worst phase and direction",
                 "mrc") >= 0.9
    for a in agreements:
        if a["figure"] in ("F9", "F11") or (a["figure"] == "F10"):
            assert a["agrees"] == "yes", a
    assert (value(rows, "F9", "9a: remote sender, host 0's port loss to its last packet onto "
                  "that plane", "mrc")
            < 2 * value(rows, "F9", "base RTT (a full frame, across a T1)", "mrc"))
    # Fig 10 has no check (no mutant changes it): measured, one plane's worth lower.
    assert meta["claims"]["F10"]["verdict"] == "measured"
    # Figs 12/13: the lossy EV out of use at once (held on the first suspected loss, or
    # retired), a backup takes its place.
    assert value(rows, "F12", "20 % loss: the lossy EV out of use (held or retired) after the "
                 "cable's first lost data frame", "mrc") < 50
    assert value(rows, "F12", "paths outside the explicit and backup lists in flow 0's final EV "
                 "set (its first QP)", "mrc") == 0
    # Fig 14: flow 1 keeps its rate once flow 2 shares EV A (that flow 2 gets its share too is
    # not reproduced: the model's ECN skip is weaker than the deployed one, docs/paper.md).
    for a in agreements:
        if a["figure"] == "F14" and a["metric"] == "flow 1 beside flow 2 / alone":
            assert a["agrees"] == "yes", a
    # Fig 15: sendrecv near the NIC's rate at flow level on a larger fabric; the baseline
    # resends nothing in the lossless exchange.
    assert value(rows, "F15", "2 GB: per-NIC throughput, flow level, 1024 GPUs", "mrc") >= 0.9 * 800
    assert value(rows, "F15", "128 MB, packet level: retransmissions, RTO expiries",
                 "baseline") == 0


@pytest.mark.xfail(strict=True, reason="known regression since 8d2537f (issue 37): at 128 MB the "
                   "packet level falls 0.196 below the flow level (the cause is not yet found); "
                   "the quick scale's 256 MB reaches 0.93 of 800G (docs/paper.md)")
def test_sendrecv_packet_level_128mb(real):
    _, _, rows, _ = real
    # The packet and flow levels within 10 % of each other on Cluster B.
    assert value(rows, "F15", "packet against flow level on Cluster B, the largest difference",
                 "mrc") < 0.1
    # At 128 MB the lossless exchange builds queues whose RTTs reach 45 us and reorder packets by
    # more than a BDP: loss detection must not take that for loss (a fixed one-BDP count rule
    # resent 234,254 packets there and reached 0.48 of the NIC's rate).
    assert value(rows, "F15", "packet level, Cluster B, the largest size: per-NIC throughput / "
                 "800G", "mrc") >= 0.85
    packets = 32 * 128e6 / 4096 * 2  # hosts x packets per message x iterations
    assert value(rows, "F15", "128 MB, packet level: retransmissions, RTO expiries",
                 "mrc") < 0.01 * packets


def test_every_listed_mutant_is_rejected(real, tmp_path):
    rows = table()
    by_mutant = {}
    for fig, mutants in rows.items():
        for m in mutants:
            by_mutant.setdefault(m, []).append(fig)
    # Fig 10 has no check: every mutant keeps its 7/8 (docs/paper.md).
    assert all(v for f, v in rows.items() if f != "F10"), \
        "every figure with checks names the mutants they must reject"
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, JOBS)) as pool:
        futures = {m: pool.submit(run, str(tmp_path / m), [f[1:] for f in figs], m)
                   for m, figs in by_mutant.items()}
        results = {m: f.result() for m, f in futures.items()}
    for m, figs in by_mutant.items():
        assert results[m]["mutants"] == m.replace("+", ",")
        for fig in figs:
            verdict = results[m]["claims"][fig]["verdict"]
            assert verdict != "reproduced", (m, fig, verdict)
    # Every check fails under at least one of its figure's mutants.
    out, _, real_rows, _ = real
    checks = {}
    for m in by_mutant:
        with open(os.path.join(str(tmp_path / m), "checks.csv")) as f:
            checks[m] = {(r["figure"], r["metric"]): r["check"] for r in csv.DictReader(f)}
    unflipped = [(r["figure"], r["metric"]) for r in real_rows
                 if r["check"] != "info" and rows.get(r["figure"])
                 and all(checks[m].get((r["figure"], r["metric"])) == "pass"
                         for m in rows[r["figure"]])]
    assert not unflipped, unflipped


@pytest.mark.parametrize("arg,needle", [
    ("--figure=13", "must be all or a comma-separated list of F9, F10, F11, F12, F14, F15, F16"),
    ("--figure=18,18", "names F18 twice"),
    ("--scale=huge", "--scale must be one of tiny quick full"),
])
def test_bad_input(tmp_path, arg, needle):
    p = subprocess.run([PAPER, arg, "--out=" + str(tmp_path / "x")], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode != 0
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert not os.path.exists(tmp_path / "x")
