# SPDX-License-Identifier: GPL-2.0-only
"""Verdicts that can fail: the claims suite against the mutants of MrcMutant.

Each claim lists the mutants (model variants that break one mechanism) its checks must
reject (`claims --listMutants`, the table in experiments/claims/claims.cc). At the tiny scale
this test runs the real model and asserts every mechanism claim is *reproduced* (structural
ones *hold*), then runs every mutant on the claims that list it and asserts none of them is
*reproduced* there, and that every check of a mechanism claim fails under at least one of the
claim's mutants (a check no mutant can flip is not evidence: it belongs in an information row).
It asserts verdicts and pass/fail of checks only, never a claim's internal counters. About a
minute on two cores.
"""

import csv

import concurrent.futures
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
CLAIMS = os.path.join(BUILD_DIR, "bin", "claims")
JOBS = int(os.environ.get("MRC_JOBS", os.cpu_count() or 2))
DIRS = {}  # mutant ("" for the real model) -> its results directory, filled by the fixture


def table():
    p = subprocess.run([CLAIMS, "--listMutants=1"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    rows = {}
    for line in p.stdout.splitlines():
        claim, mutants = line.split()
        rows[claim] = [] if mutants == "-" else mutants.split(",")
    return rows


def verdicts(out, mutant, claims):
    args = [CLAIMS, "--scale=tiny", "--plots=0", "--out=" + out,
            "--claim=" + ",".join(claims)]
    if mutant:
        args.append("--mutant=" + mutant.replace("+", ","))
    p = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, "%s: %s" % (mutant, p.stderr[-2000:])
    meta = json.load(open(os.path.join(out, "run.json")))
    assert meta["mutants"] == (mutant or "").replace("+", ",")
    checks = {}
    with open(os.path.join(out, "claims.csv")) as f:
        for row in csv.DictReader(f):
            if row["check"] != "info":
                checks[(row["claim"], row["metric"])] = row["check"]
    return {c: v["verdict"] for c, v in meta["claims"].items()}, checks


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    assert os.path.exists(CLAIMS), "build the program first: ./ns3 build claims"
    rows = table()
    by_mutant = {}
    for claim, mutants in rows.items():
        for m in mutants:
            by_mutant.setdefault(m, []).append(claim)
    base = tmp_path_factory.mktemp("mutants")
    jobs = {"": sorted(rows, key=lambda c: int(c[1:]))}
    jobs.update(by_mutant)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, JOBS)) as pool:
        futures = {m: pool.submit(verdicts, str(base / (m or "real")), m, claims)
                   for m, claims in jobs.items()}
        results = {m: f.result() for m, f in futures.items()}
    DIRS.update({m: str(base / (m or "real")) for m in jobs})
    return rows, by_mutant, results


def test_every_mechanism_claim_names_mutants(matrix):
    rows, _, _ = matrix
    # Structural (C1, C11) and measured (C13) claims have no transport mechanism to break.
    for claim, mutants in rows.items():
        if claim not in ("C1", "C11", "C13"):
            assert mutants, claim


def test_the_real_model_reproduces(matrix):
    _, _, results = matrix
    real, checks = results[""]
    expected = {"C1": "holds", "C11": "holds", "C13": "measured"}
    for claim, verdict in real.items():
        assert verdict == expected.get(claim, "reproduced"), (claim, verdict)
    assert all(v == "pass" for v in checks.values()), checks


def test_every_listed_mutant_is_rejected(matrix):
    _, by_mutant, results = matrix
    failures = []
    for mutant, claims in by_mutant.items():
        for claim in claims:
            if results[mutant][0][claim] == "reproduced":
                failures.append("%s still reproduced under %s" % (claim, mutant))
    assert not failures, failures


def test_every_check_fails_under_one_of_its_mutants(matrix):
    rows, _, results = matrix
    _, real = results[""]
    unflipped = []
    for (claim, metric) in real:
        if not rows[claim]:
            continue  # structural and measured claims: no transport mechanism to break
        # A row missing under a mutant (its run did not get that far) counts as failed.
        if all(results[m][1].get((claim, metric)) == "pass" for m in rows[claim]):
            unflipped.append("%s: %s passes under every one of %s"
                             % (claim, metric, ",".join(rows[claim])))
    assert not unflipped, unflipped


def test_mutant_names_are_the_models():
    p = subprocess.run([CLAIMS, "--mutant=no-such", "--claim=C1", "--plots=0"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    known = p.stderr.split("accepted: ")[1]
    for mutants in table().values():
        for m in mutants:
            for part in m.split("+"):
                assert part in known, part


def test_the_docs_table_of_checks(matrix):
    """analysis/claims_tables.py checks: the per-check table docs/claims.md carries."""
    rows, _, _ = matrix
    dirs = DIRS
    p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "analysis", "claims_tables.py"),
                        "checks", dirs[""]] + [d for m, d in dirs.items() if m],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stdout.splitlines() if l.startswith("| C")]
    assert lines and "none of its own" not in p.stdout
    for l in lines:
        claim, cells = l.split(" | ")[0][2:], l.split(" | ")[2]
        assert (cells == "- |") == (not rows[claim]), l
    # Given a mutant run in place of the real one, it refuses.
    p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "analysis", "claims_tables.py"),
                        "checks", dirs[""], dirs[""]], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "not a mutant run" in p.stderr
