#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Markdown tables of claims runs, for docs/claims.md.

  claims_tables.py results CLAIMS_DIR            every claim's checks: values, thresholds, sources
  claims_tables.py matrix REAL_DIR MUTANT_DIR...  verdicts of the real model and of each mutant,
                                                  and whether each listed mutant was rejected

Each directory is a complete `claims` results directory (run.json and claims.csv). The tables
are printed on stdout; docs/claims.md carries them with the commit they were made at.
"""

import argparse
import csv
import json
import os
import sys

import results_dir as rd

PROG = "claims_tables.py"


def load(path):
    try:
        rd.check_complete(path)
    except rd.ResultsDirError as e:
        sys.stderr.write("error: %s\n" % e)
        sys.exit(2)
    with open(os.path.join(path, "run.json")) as f:
        meta = json.load(f)
    with open(os.path.join(path, "claims.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return meta, rows


def num(text):
    if text == "":
        return "-"
    v = float(text)
    if v != 0 and (abs(v) >= 1e5 or abs(v) < 1e-3):
        return "%.3g" % v
    return "%.4g" % v


def order(claim):
    return int(claim[1:])


def results(args):
    meta, rows = load(args.dir)
    print("`claims --scale=%s --seed=%s` at commit %s%s: %d simulations, %.0f s.\n" % (
        meta["parameters"].get("scale"), meta["seed"], meta["code"]["commit"][:7],
        " (local changes)" if meta["code"]["dirty"] is True else "",
        int(meta.get("simulations", 0)), float(meta.get("wall_time_s", 0))))
    print("| claim | verdict | check | MRC | baseline | threshold | threshold from |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for claim in sorted(meta["claims"], key=order):
        verdict = meta["claims"][claim]["verdict"]
        checks = [r for r in rows if r["claim"] == claim and r["check"] != "info"]
        if not checks:
            print("| %s | %s | (information only) | | | | |" % (claim, verdict))
        for i, r in enumerate(checks):
            print("| %s | %s | %s%s | %s | %s | %s | %s |" % (
                claim if i == 0 else "", verdict if i == 0 else "", r["metric"],
                "" if r["check"] == "pass" else " (**failed**)", num(r["mrc"]), num(r["baseline"]),
                r["threshold"], r["threshold_source"]))
    return 0


def matrix(args):
    real_meta, _ = load(args.real)
    must = {c: v.get("must_reject", []) for c, v in real_meta["claims"].items()}
    runs = []
    for d in args.mutants:
        meta, _ = load(d)
        if not meta["mutants"]:
            sys.stderr.write("error: %s: not a mutant run (run.json mutants is empty)\n" % d)
            return 2
        runs.append(meta)
    claims = sorted(real_meta["claims"], key=order)
    print("| mutant | " + " | ".join(claims) + " |")
    print("| --- |" + " --- |" * len(claims))
    print("| (real model) | " + " | ".join(
        real_meta["claims"][c]["verdict"] for c in claims) + " |")
    for meta in runs:
        name = meta["mutants"].replace(",", "+")
        cells = []
        for c in claims:
            v = meta["claims"].get(c, {}).get("verdict", "")
            short = {"reproduced": "repr.", "partly": "partly", "not reproduced": "not",
                     "measured": "meas."}.get(v, v)
            if name in must.get(c, []):
                short = "**%s** %s" % (short, "(rejects)" if v != "reproduced" else "(MISSED)")
            cells.append(short)
        print("| `%s` | %s |" % (name, " | ".join(cells)))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("results", help="every claim's checks")
    r.add_argument("dir")
    m = sub.add_parser("matrix", help="the real model and the mutants")
    m.add_argument("real")
    m.add_argument("mutants", nargs="+")
    args = p.parse_args(argv)
    return results(args) if args.cmd == "results" else matrix(args)


if __name__ == "__main__":
    sys.exit(main())
