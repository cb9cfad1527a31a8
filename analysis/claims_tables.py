#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Markdown tables of claims and paper runs, for docs/claims.md and docs/paper.md.

  claims_tables.py results DIR                   every claim's (figure's) checks: values,
                                                 thresholds, sources
  claims_tables.py matrix REAL_DIR MUTANT_DIR... verdicts of the real model and of each mutant,
                                                 and whether each listed mutant was rejected
                                                 (several runs of one mutant make one row)
  claims_tables.py checks REAL_DIR MUTANT_DIR... per check: the mutants under which it fails
                                                 (those the claim lists in bold)
  claims_tables.py agreements PAPER_DIR          ours against the paper's, row by row

`results` and `agreements` take `--only F9,F10,...`: those claims (figures) only.

Each directory is a complete `claims` results directory (run.json and claims.csv) or `paper`
results directory (run.json, checks.csv and agreements.csv). The tables are printed on stdout;
the docs carry them with the commit they were made at.
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
    name = "checks.csv" if meta.get("program") == "paper" else "claims.csv"
    with open(os.path.join(path, name), newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:  # the first column: claim (claims) or figure (paper)
        r.setdefault("claim", r.get("figure"))
    return meta, rows


def header(meta):
    return "`%s --scale=%s --seed=%s` at commit %s%s: %d simulations, %.0f s.\n" % (
        meta.get("program", "claims"), meta["parameters"].get("scale"), meta["seed"],
        meta["code"]["commit"][:7],
        " (local changes)" if meta["code"]["dirty"] is True else "",
        int(meta.get("simulations", 0)), float(meta.get("wall_time_s", 0)))


def num(text):
    if text == "":
        return "-"
    v = float(text)
    if v != 0 and (abs(v) >= 1e5 or abs(v) < 1e-3):
        return "%.3g" % v
    return "%.4g" % v


def order(claim):
    return int(claim[1:])


def selected(args):
    """The claims (figures) --only names, or None for all."""
    only = getattr(args, "only", None)
    return None if not only else set(only.split(","))


def results(args):
    meta, rows = load(args.dir)
    only = selected(args)
    print(header(meta))
    print("| claim | verdict | check | MRC | baseline | threshold | threshold from |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for claim in sorted(meta["claims"], key=order):
        if only is not None and claim not in only:
            continue
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
    # Runs of one mutant on different claims (e.g. one per cluster) make one row.
    merged = {}
    for meta in runs:
        name = meta["mutants"].replace(",", "+")
        merged.setdefault(name, {}).update(meta["claims"])
    claims = sorted(real_meta["claims"], key=order)
    print("| mutant | " + " | ".join(claims) + " |")
    print("| --- |" + " --- |" * len(claims))
    print("| (real model) | " + " | ".join(
        real_meta["claims"][c]["verdict"] for c in claims) + " |")
    for name, got in merged.items():
        cells = []
        for c in claims:
            v = got.get(c, {}).get("verdict", "")
            short = {"reproduced": "repr.", "partly": "partly", "not reproduced": "not",
                     "measured": "meas.", "does not hold": "not"}.get(v, v)
            if not v:
                short = "(not run)" if name in must.get(c, []) else ""
            elif name in must.get(c, []):
                short = "**%s** %s" % (short, "(rejects)" if v != "reproduced" else "(MISSED)")
            cells.append(short)
        print("| `%s` | %s |" % (name, " | ".join(cells)))
    return 0


def checks(args):
    real_meta, real_rows = load(args.real)
    must = {c: v.get("must_reject", []) for c, v in real_meta["claims"].items()}
    runs = []
    for d in args.mutants:
        meta, rows = load(d)
        if not meta["mutants"]:
            sys.stderr.write("error: %s: not a mutant run (run.json mutants is empty)\n" % d)
            return 2
        runs.append((meta["mutants"].replace(",", "+"),
                     {(r["claim"], r["metric"]): r["check"] for r in rows}))
    print("| claim | check | fails under (the claim's own mutants in bold) |")
    print("| --- | --- | --- |")
    for r in sorted((r for r in real_rows if r["check"] != "info"),
                    key=lambda r: order(r["claim"])):
        key = (r["claim"], r["metric"])
        # A mutant run that did not include the claim says nothing about its checks.
        failing = []
        for name, got in runs:
            if (any(k[0] == r["claim"] for k in got) and got.get(key) != "pass"
                    and name not in failing):
                failing.append(name)
        cells = ["**%s**" % n if n in must.get(r["claim"], []) else n for n in failing]
        if must.get(r["claim"]) and not any(n in must[r["claim"]] for n in failing):
            cells.append("(**none of its own**)")
        print("| %s | %s | %s |" % (r["claim"], r["metric"], ", ".join(cells) or "-"))
    return 0


def agreements(args):
    meta, _ = load(args.dir)
    path = os.path.join(args.dir, "agreements.csv")
    if not os.path.isfile(path):
        sys.stderr.write("error: %s: no agreements.csv (not a paper results directory)\n" % args.dir)
        return 2
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    print(header(meta))
    print("| figure | setup | metric | ours | paper | agreement rule | agrees |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    only = selected(args)
    for r in rows:
        if only is not None and r["figure"] not in only:
            continue
        ours = num(r["ours"]) + (" " + r["unit"] if r["unit"] else "")
        agrees = {"yes": "yes", "no": "**no**"}.get(r["agrees"], r["agrees"])
        print("| %s | %s | %s | %s | %s | %s | %s |" % (r["figure"], r["setup"], r["metric"], ours,
                                                     r["paper"], r["rule"], agrees))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("results", help="every claim's checks")
    r.add_argument("dir")
    r.add_argument("--only", help="comma-separated claims (figures), e.g. F9,F10")
    m = sub.add_parser("matrix", help="the real model and the mutants")
    m.add_argument("real")
    m.add_argument("mutants", nargs="+")
    k = sub.add_parser("checks", help="per check, the mutants it fails under")
    k.add_argument("real")
    k.add_argument("mutants", nargs="+")
    a = sub.add_parser("agreements", help="ours against the paper's (a paper run)")
    a.add_argument("dir")
    a.add_argument("--only", help="comma-separated figures, e.g. F16,F17")
    args = p.parse_args(argv)
    return {"results": results, "matrix": matrix, "checks": checks, "agreements": agreements}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
