# SPDX-License-Identifier: GPL-2.0-only
"""analysis/claims_tables.py: several runs of one mutant (one per cluster, say) make one row of
the matrix, and a listed claim none of them ran says so."""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "analysis"))

import claims_tables  # noqa: E402


def meta(mutants, verdicts, must=None):
    return {"mutants": mutants,
            "claims": {c: {"verdict": v, "must_reject": (must or {}).get(c, [])}
                       for c, v in verdicts.items()}}


def test_runs_of_one_mutant_merge(monkeypatch, capsys):
    runs = {
        "real": meta("", {"F9": "reproduced", "F16": "reproduced", "F19": "partly"},
                     {"F9": ["no-spray"], "F16": ["no-spray"], "F19": ["no-probe"]}),
        "b": meta("no-spray", {"F9": "partly"}),
        "cd": meta("no-spray", {"F16": "not reproduced"}),
        "p": meta("no-probe", {"F9": "reproduced"}),
    }
    monkeypatch.setattr(claims_tables, "load", lambda d: (runs[d], []))
    args = argparse.Namespace(real="real", mutants=["b", "cd", "p"])
    assert claims_tables.matrix(args) == 0
    rows = [l for l in capsys.readouterr().out.splitlines() if l.startswith("| `")]
    assert rows == [
        "| `no-spray` | **partly** (rejects) | **not** (rejects) |  |",
        "| `no-probe` | repr. |  | (not run) |",
    ]
