# SPDX-License-Identifier: GPL-2.0-only
"""Verdicts that can fail: the claims suite against the mutants of MrcMutant.

Each claim lists the mutants (model variants that break one mechanism) its checks must
reject (`claims --listMutants`, the table in experiments/claims/claims.cc). At the tiny scale
this test runs the real model and asserts every claim with checks is *reproduced*, then runs
every mutant on the claims that list it and asserts none of them is *reproduced* there. It
asserts verdicts only, never a claim's internal counters. About a minute on two cores.
"""

import concurrent.futures
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
CLAIMS = os.path.join(BUILD_DIR, "bin", "claims")
JOBS = int(os.environ.get("MRC_JOBS", os.cpu_count() or 2))


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
    return {c: v["verdict"] for c, v in meta["claims"].items()}


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
    return rows, by_mutant, results


def test_every_mechanism_claim_names_mutants(matrix):
    rows, _, _ = matrix
    # Structural (C1, C11) and measured (C13) claims have no transport mechanism to break.
    for claim, mutants in rows.items():
        if claim not in ("C1", "C11", "C13"):
            assert mutants, claim


def test_the_real_model_reproduces(matrix):
    _, _, results = matrix
    real = results[""]
    for claim, verdict in real.items():
        assert verdict == ("measured" if claim == "C13" else "reproduced"), (claim, verdict)


def test_every_listed_mutant_is_rejected(matrix):
    _, by_mutant, results = matrix
    failures = []
    for mutant, claims in by_mutant.items():
        for claim in claims:
            if results[mutant][claim] == "reproduced":
                failures.append("%s still reproduced under %s" % (claim, mutant))
    assert not failures, failures


def test_mutant_names_are_the_models():
    p = subprocess.run([CLAIMS, "--mutant=no-such", "--claim=C1", "--plots=0"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    known = p.stderr.split("accepted: ")[1]
    for mutants in table().values():
        for m in mutants:
            for part in m.split("+"):
                assert part in known, part
