#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Per-scheme summary statistics of one results directory.

Reads flows.csv, steps.csv, events.csv and run.json (any may be missing) and
prints a fixed-width plain-text table with one column per scheme:

  flow throughput (Gb/s): count, mean, p1, p50, p99, min, max, coefficient of
      variation (population std / mean), Jain's fairness index, min/max ratio
  step duration (us): count, mean, p99, max
  EV state transitions by new state (events.csv kind == ev_state)
  fault onsets by kind (events.csv kind != ev_state with state down/start)

It also writes the same numbers as RESULTS_DIR/summary.csv (one row per
scheme, columns as in README.md; empty cells where a scheme has no data of that
sort; a last column `partial`, 1 for an incomplete directory read with
--allow-partial, else 0) unless --out is given, and prints its path.  If there
is no flow, step or event data at all, says so and writes nothing.

Refuses an incomplete results directory (docs/results.md) unless
--allow-partial is given.

Exit status: 0 on success (or nothing to summarise), 2 on a missing or
incomplete directory or a malformed file.
"""

import argparse
import csv
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import mrc_results as mr

PROG = "summary.py"

LABELS = {
    "flows": "flows",
    "tput_mean_gbps": "throughput mean (Gb/s)",
    "tput_p1_gbps": "throughput p1 (Gb/s)",
    "tput_p50_gbps": "throughput p50 (Gb/s)",
    "tput_p99_gbps": "throughput p99 (Gb/s)",
    "tput_min_gbps": "throughput min (Gb/s)",
    "tput_max_gbps": "throughput max (Gb/s)",
    "tput_cov": "throughput CoV",
    "tput_jain": "throughput Jain index",
    "tput_min_max_ratio": "throughput min/max",
    "steps": "steps",
    "step_mean_us": "step mean (us)",
    "step_p99_us": "step p99 (us)",
    "step_max_us": "step max (us)",
}
RUN_KEYS = ("program", "version", "ns3_version", "seed", "wall_time_s", "events_executed", "time_scaling")


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="results directory")
    p.add_argument("--out", metavar="FILE.csv", help="output CSV (default: RESULTS_DIR/%s)" % mr.SUMMARY_CSV)
    mr.add_partial_options(p)
    return p


def label(col):
    if col in LABELS:
        return LABELS[col]
    if col.startswith("ev_"):
        return "EV -> %s" % col[3:]
    if col.startswith("faults_"):
        return "fault onsets: %s" % col[7:]
    return col


def format_table(rows):
    """Fixed-width text: one line per metric, one column per scheme."""
    cols = [c for c in rows[0] if c != "scheme"]
    cells = [["metric"] + [r["scheme"] for r in rows]]
    for c in cols:
        cells.append([label(c)] + [mr.format_value(r[c]) or "-" for r in rows])
    w0 = max(len(line[0]) for line in cells)
    ws = [max(12, max(len(line[i]) for line in cells)) for i in range(1, len(cells[0]))]
    out = []
    for n, line in enumerate(cells):
        out.append("  ".join([line[0].ljust(w0)] + [v.rjust(w) for v, w in zip(line[1:], ws)]).rstrip())
        if n == 0:
            out.append("-" * len(out[0]))
    return "\n".join(out)


def write_csv(path, rows, partial=False):
    """summary.csv: the columns of mr.summary_rows(), then `partial` (1 or 0)."""
    cols = list(rows[0])
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols + ["partial"])
        for r in rows:
            w.writerow([r["scheme"]] + [mr.format_value(r[c], digits=10) for c in cols[1:]]
                       + [1 if partial else 0])


def run(args):
    results = mr.load_results(args.results_dir, args.allow_partial, args.in_run)
    rows = mr.summary_rows(results)
    run_info = results["run"] or {}
    info = ["%s=%s" % (k, run_info[k]) for k in RUN_KEYS if k in run_info]
    if info:
        print("run: " + "  ".join(info))
    if not rows:
        print("%s: no flow, step or event data in %s; nothing written" % (PROG, args.results_dir))
        return []
    print(format_table(rows))
    if results["partial"]:
        print("PARTIAL RESULTS: %s" % results["partial"])
    out = mr.output_path(args.results_dir, args.out, mr.SUMMARY_CSV)
    write_csv(out, rows, results["partial"])
    return [out]


def main(argv=None, written=None):
    return mr.run_cli(build_parser(), run, argv, written)


if __name__ == "__main__":
    sys.exit(main())
