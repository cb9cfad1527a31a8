#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Are two builds statistically the same model? The check a change that reorders same-time
events must pass (docs/performance.md, "Statistical equivalence").

Runs a fixed set of scenarios with both builds' programs over the same seeds and compares, for
each scenario's key metrics, the values of one build with the other's by an exact two-sample
permutation test on the difference of their means (all C(2n, n) ways of splitting the 2n values
into two groups of n; two-sided). A metric is *distinguishable* when its p-value is below
alpha divided by the number of metrics of the scenario (Bonferroni), else *within noise*: the
two builds differ no more than runs of different seeds do. With 5 seeds the smallest p-value is
2/252 = 0.008, so a scenario of up to 6 metrics can reject at alpha = 0.05 when every seed of
one build lies beyond every seed of the other. For the claims, each claim's verdict is also
compared seed by seed, and each check's outcome.

    /usr/bin/python3 analysis/equivalence.py --base OLD_BUILD --new build [--seeds 5]
        [--scenarios perm128,perm1024,quickstart,claims-quick] [--csv FILE]

OLD_BUILD and build are build directories (their bin/ holds the programs). --base-args and
--new-args add program arguments to one side (to show the check rejects a different model).
--jobs runs that many programs at once (default MRC_JOBS, else the CPU count; each run is
independent, so the table does not depend on it).
Exit status: 0 if every metric is within noise and no verdict changed, 1 if not, 2 on bad input.
"""

import argparse
import concurrent.futures
import csv
import itertools
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from sweep import default_jobs

PROG = "equivalence.py"

PERM = ["--planes=1", "--size=2000000", "--linkRate=100Gbps"]
SCENARIOS = {
    # name: (program, arguments)
    "perm128": ("mrc-permutation", ["--hosts=128", "--hostsPerT0=16", "--t1=16"] + PERM),
    "perm1024": ("mrc-permutation", ["--hosts=1024", "--hostsPerT0=32", "--t1=32"] + PERM),
    "quickstart": ("quickstart", ["--plots=0", "--jobs=1", "--gpus=64"]),
    "claims-quick": ("claims", ["--scale=quick", "--plots=0", "--jobs=1"]),
    "claims-tiny": ("claims", ["--scale=tiny", "--plots=0", "--jobs=1"]),
}
OUT_DIR_PROGRAMS = {"quickstart", "claims"}


def fail(msg):
    sys.stderr.write("error: %s: %s\n" % (PROG, msg))
    sys.exit(2)


def permutation_p(x, y):
    """Exact two-sided p-value of the difference of means of x and y under exchangeability:
    the share of the splits of x + y into groups of len(x) and len(y) whose difference of
    means is at least as large in magnitude as the observed one."""
    pooled = list(x) + list(y)
    n = len(x)
    total = sum(pooled)
    observed = abs(sum(x) / n - sum(y) / len(y))
    hits = 0
    splits = 0
    for idx in itertools.combinations(range(len(pooled)), n):
        sx = sum(pooled[i] for i in idx)
        d = abs(sx / n - (total - sx) / len(y))
        hits += d >= observed - 1e-12 * max(1.0, abs(observed))
        splits += 1
    return hits / splits


def perm_metrics(stdout):
    m = re.search(r"fct-us min: ([0-9.]+) median: ([0-9.]+) p99: ([0-9.]+) max: ([0-9.]+)", stdout)
    r = re.search(r"retransmissions: ([0-9]+)", stdout)
    c = re.search(r"flows completed: ([0-9]+) /", stdout)
    if not m or not r or not c:
        raise ValueError("no flows completed / fct-us / retransmissions line in the output")
    return {"flows completed": float(c.group(1)), "fct median (us)": float(m.group(2)),
            "fct p99 (us)": float(m.group(3)), "fct max (us)": float(m.group(4)),
            "retransmissions": float(r.group(1))}


def quickstart_metrics(out):
    steps = {}
    with open(os.path.join(out, "steps.csv"), newline="") as f:
        for row in csv.DictReader(f):
            steps.setdefault(row["scheme"], []).append(float(row["duration_us"]))
    got = {}
    for scheme in sorted(steps):
        v = steps[scheme]
        got["%s mean step (us)" % scheme] = sum(v) / len(v)
        got["%s slowest step (us)" % scheme] = max(v)
    return got


def claims_metrics(out):
    """(numeric metrics, outcomes): the checks passed and the claims reproduced, and each
    claim's verdict and each check's outcome (pass or fail) by name."""
    outcomes = {}
    passed = 0
    with open(os.path.join(out, "claims.csv"), newline="") as f:
        for row in csv.DictReader(f):
            outcomes.setdefault(row["claim"], row["verdict"])
            if row["check"] in ("pass", "fail"):
                outcomes["%s %s" % (row["claim"], row["metric"])] = row["check"]
                passed += row["check"] == "pass"
    claims = [k for k in outcomes if " " not in k]
    reproduced = sum(1 for k in claims if outcomes[k] in ("reproduced", "holds"))
    return {"checks passed": float(passed), "claims reproduced or holding": float(reproduced)}, outcomes


def run(build, name, seed, extra, scratch):
    prog, args = SCENARIOS[name]
    exe = os.path.join(build, "bin", prog)
    argv = [exe] + args + ["--seed=%d" % seed] + extra
    out = None
    if prog in OUT_DIR_PROGRAMS:
        out = tempfile.mkdtemp(prefix="%s-%d-" % (name, seed), dir=scratch)
        argv.append("--out=%s" % os.path.join(out, "r"))
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(argv), p.returncode,
                                                 (p.stderr.strip().splitlines() or [""])[-1]))
    if prog == "mrc-permutation":
        return perm_metrics(p.stdout), None
    if prog == "quickstart":
        return quickstart_metrics(os.path.join(out, "r")), None
    return claims_metrics(os.path.join(out, "r"))


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="build directory of the reference model")
    ap.add_argument("--new", required=True, help="build directory of the changed model")
    ap.add_argument("--seeds", type=int, default=5, help="seeds per build (2 to 8) [5]")
    ap.add_argument("--first-seed", type=int, default=1, help="first seed [1]")
    ap.add_argument("--scenarios", default="perm128,perm1024,quickstart,claims-quick",
                    help="comma-separated, from: " + ", ".join(SCENARIOS))
    ap.add_argument("--alpha", type=float, default=0.05, help="family-wise level per scenario")
    ap.add_argument("--base-args", default="", help="extra program arguments, base side")
    ap.add_argument("--new-args", default="", help="extra program arguments, new side")
    ap.add_argument("--jobs", type=int, default=None,
                    help="programs run at once, 1 to 32 (default MRC_JOBS, else the CPU count)")
    ap.add_argument("--csv", help="also write the table to this new file (never replaced)")
    a = ap.parse_args()
    if not 2 <= a.seeds <= 8:
        fail("--seeds must be 2 to 8, not %d" % a.seeds)
    if a.first_seed < 1:
        fail("--first-seed must be 1 or more, not %d" % a.first_seed)
    try:
        jobs = default_jobs() if a.jobs is None else a.jobs
    except ValueError as e:
        fail(str(e))
    if not 1 <= jobs <= 32:
        fail("--jobs must be 1 to 32, not %d" % jobs)
    if not 0 < a.alpha < 1:
        fail("--alpha must be between 0 and 1, not %s" % a.alpha)
    names = [s for s in a.scenarios.split(",") if s]
    bad = [s for s in names if s not in SCENARIOS]
    if bad or not names:
        fail("--scenarios: unknown %s; accepted: %s" % (",".join(bad) or "(none)",
                                                         ", ".join(SCENARIOS)))
    for side, build in (("--base", a.base), ("--new", a.new)):
        for s in names:
            exe = os.path.join(build, "bin", SCENARIOS[s][0])
            if not os.access(exe, os.X_OK):
                fail("%s: no program %s (a build directory holds bin/%s)" % (side, exe,
                                                                             SCENARIOS[s][0]))
    if a.csv and os.path.lexists(a.csv):
        fail("--csv: %s exists; nothing was run (this program never replaces a file)" % a.csv)
    if a.csv and not os.path.isdir(os.path.dirname(os.path.abspath(a.csv))):
        fail("--csv: no directory %s; nothing was run" % os.path.dirname(os.path.abspath(a.csv)))

    seeds = list(range(a.first_seed, a.first_seed + a.seeds))
    rows = []
    ok = True
    scratch = tempfile.mkdtemp(prefix="mrc-equivalence-")
    try:
        sides = (("base", a.base, a.base_args.split()), ("new", a.new, a.new_args.split()))
        tasks = [(name, seed, side, build, extra) for name in names for seed in seeds
                 for side, build, extra in sides]
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run, build, name, seed, extra, scratch)
                       for name, seed, side, build, extra in tasks]
            results = {}
            try:
                for t, f in zip(tasks, futures):
                    results[t[:3]] = f.result()
            except BaseException:
                for f in futures:
                    f.cancel()  # the runs not started; those running finish
                raise
        for name in names:
            values = {"base": {}, "new": {}}
            verdicts = {"base": {}, "new": {}}
            for seed in seeds:
                for side, _, _ in sides:
                    m, v = results[(name, seed, side)]
                    for k, x in m.items():
                        values[side].setdefault(k, []).append(x)
                    verdicts[side][seed] = v
            metrics = sorted(set(values["base"]) & set(values["new"]))
            missing = sorted(set(values["base"]) ^ set(values["new"]))
            limit = a.alpha / max(1, len(metrics))
            for k in metrics:
                x, y = values["base"][k], values["new"][k]
                if len(x) != len(seeds) or len(y) != len(seeds):
                    missing.append(k)
                    continue
                p = permutation_p(x, y)
                mx, my = sum(x) / len(x), sum(y) / len(y)
                sd = math.sqrt(sum((v - mx) ** 2 for v in x) / (len(x) - 1))
                same = p >= limit
                ok = ok and same
                rows.append([name, k, "%.6g" % mx, "%.6g" % my,
                             "%.3g" % ((my - mx) / mx * 100) if mx else "-",
                             "%.3g" % sd, "%.4f" % p, "%.4f" % limit,
                             "within noise" if same else "distinguishable"])
            for k in missing:
                ok = False
                rows.append([name, k, "-", "-", "-", "-", "-", "-", "only in one build"])
            if verdicts["base"][seeds[0]] is not None:
                changed = ["%s seed %d: %s -> %s" % (c, s, verdicts["base"][s].get(c),
                                                     verdicts["new"][s].get(c))
                           for s in seeds
                           for c in sorted(set(verdicts["base"][s]) | set(verdicts["new"][s]))
                           if verdicts["base"][s].get(c) != verdicts["new"][s].get(c)]
                ok = ok and not changed
                rows.append([name, "claim verdicts and checks, seed by seed", "-", "-", "-", "-",
                             "-", "-",
                             "same" if not changed else "changed: " + "; ".join(changed)])
    except (RuntimeError, ValueError, OSError, KeyError) as e:
        fail(str(e))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)  # made by this program, holds only its runs

    head = ["scenario", "metric", "base mean", "new mean", "change %", "base sd", "p",
            "p needed", "verdict"]
    print("seeds %d-%d; exact two-sample permutation test on the means, Bonferroni per "
          "scenario at alpha %g" % (seeds[0], seeds[-1], a.alpha))
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    print("equivalent" if ok else "NOT equivalent")
    if a.csv:
        # Written beside it, then linked to its name: never a half-written table, and never
        # over a file that appeared meanwhile.
        fd, tmp = tempfile.mkstemp(prefix=".equivalence-", dir=os.path.dirname(os.path.abspath(a.csv)))
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # as open() would make it, not mkstemp's 0600
        try:
            with os.fdopen(fd, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(head)
                w.writerows(rows)
            os.link(tmp, a.csv)
        except OSError as e:
            fail("--csv: cannot write %s: %s" % (a.csv, e.strerror or e))
        finally:
            os.unlink(tmp)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
