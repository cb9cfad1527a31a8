# SPDX-License-Identifier: GPL-2.0-only
"""analysis/equivalence.py: two builds' scenarios over the same seeds, an exact permutation test
per metric. The same build is equivalent to itself; a different model (10 % slower links, a
claims mutant) is rejected; bad input is a one-line error that runs nothing."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
SCRIPT = os.path.join(ROOT, "analysis", "equivalence.py")
sys.path.insert(0, os.path.join(ROOT, "analysis"))

import equivalence  # noqa: E402


def run(*args, env=None):
    return subprocess.run(["/usr/bin/python3", SCRIPT] + list(args), capture_output=True,
                          text=True, timeout=600, env=env)


def test_permutation_p_exact():
    # Every value of one group beyond every value of the other: 2 of the 252 splits.
    assert equivalence.permutation_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) == pytest.approx(2 / 252)
    assert equivalence.permutation_p([3, 3, 3], [3, 3, 3]) == 1.0
    # Interleaved groups are not told apart.
    assert equivalence.permutation_p([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]) > 0.5


def test_a_build_is_equivalent_to_itself():
    p = run("--base", BUILD, "--new", BUILD, "--scenarios", "perm128")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "distinguishable" not in p.stdout and p.stdout.rstrip().endswith("equivalent")


def test_slower_links_are_distinguishable_at_any_jobs():
    """The runs are independent: one at a time or two at once print the same table."""
    out = []
    for jobs in ("1", "2"):
        p = run("--base", BUILD, "--new", BUILD, "--scenarios", "perm128", "--jobs", jobs,
                "--new-args=--linkRate=90Gbps")
        assert p.returncode == 1, p.stdout + p.stderr
        median = [l for l in p.stdout.splitlines() if "fct median" in l][0]
        assert median.endswith("distinguishable") and "0.0079" in median
        assert p.stdout.rstrip().endswith("NOT equivalent")
        out.append(p.stdout)
    assert out[0] == out[1]


def test_a_claims_mutant_changes_verdicts():
    p = run("--base", BUILD, "--new", BUILD, "--scenarios", "claims-tiny", "--seeds", "2",
            "--new-args=--mutant=no-spray")
    assert p.returncode == 1, p.stdout + p.stderr
    assert "C10 seed 1: reproduced -> not reproduced" in p.stdout


@pytest.mark.parametrize("args,word", [
    (["--scenarios", "bogus"], "--scenarios"),
    (["--seeds", "1"], "--seeds"),
    (["--alpha", "2"], "--alpha"),
    (["--jobs", "0"], "--jobs"),
    (["MRC_JOBS=x"], "MRC_JOBS"),
])
def test_bad_input(args, word):
    args = list(args)
    env = dict(os.environ)
    if args[0].startswith("MRC_JOBS="):
        env["MRC_JOBS"] = args.pop(0).split("=", 1)[1]
    p = run("--base", BUILD, "--new", BUILD, *args, env=env)
    assert p.returncode == 2
    assert p.stdout == "" and len(p.stderr.strip().splitlines()) == 1 and word in p.stderr


def test_never_replaces_a_file(tmp_path):
    f = tmp_path / "mine.csv"
    f.write_text("keep me\n")
    p = run("--base", BUILD, "--new", BUILD, "--scenarios", "perm128", "--csv", str(f))
    assert p.returncode == 2 and "--csv" in p.stderr
    assert f.read_text() == "keep me\n"
    out = tmp_path / "new.csv"
    p = run("--base", BUILD, "--new", BUILD, "--scenarios", "perm128", "--seeds", "2",
            "--csv", str(out))
    assert p.returncode == 0, p.stderr
    assert out.read_text().startswith("scenario,metric,")
    assert sorted(os.listdir(tmp_path)) == ["mine.csv", "new.csv"]
