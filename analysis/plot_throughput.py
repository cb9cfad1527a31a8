#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Throughput variance across flows, per scheme.

Reads RESULTS_DIR/flows.csv and draws, side by side, the CDF of per-flow
throughput (Gb/s) for each scheme and a box plot per scheme.  The legend gives
each scheme's flow count, coefficient of variation and Jain's fairness index.
Writes RESULTS_DIR/throughput.png unless --out is given, and prints the path.
If flows.csv is missing or has no data rows, says so and writes nothing.

Refuses an incomplete results directory (docs/results.md) unless
--allow-partial is given; then the figure says PARTIAL RESULTS and why.

Exit status: 0 on success (or nothing to draw), 2 on a missing or incomplete
directory or a malformed file.
"""

import argparse
import os
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import numpy as np

import mrc_results as mr

DEFAULT_NAME = "throughput.png"
PROG = "plot_throughput.py"


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="directory holding flows.csv")
    p.add_argument("--out", metavar="FILE.png", help="output PNG (default: RESULTS_DIR/%s)" % DEFAULT_NAME)
    mr.add_partial_options(p)
    return p


def run(args):
    partial = mr.partial_of(args)
    flows = mr.load_flows(args.results_dir)
    if mr.is_empty(flows):
        mr.say_nothing_written(PROG, "flow data", os.path.join(args.results_dir, mr.FLOWS))
        return []
    import plotstyle as ps
    plt = ps.plt

    per = mr.by_scheme(flows, "throughput_gbps")
    stats = mr.throughput_summary(flows)
    schemes = list(per)

    fig, (ax_cdf, ax_box) = plt.subplots(1, 2, figsize=(11, 4.6),
                                         gridspec_kw={"width_ratios": [1.6, 1]})
    for s in schemes:
        tp = np.sort(per[s])
        y = np.arange(1, tp.size + 1) / tp.size
        st = stats[s]
        label = "%s (n=%d): CoV %.3g, Jain %.4f" % (s, st["count"], st["cov"], st["jain"])
        ax_cdf.step(np.concatenate([[tp[0]], tp]), np.concatenate([[0.0], y]), where="post",
                    color=ps.scheme_colour(s, schemes), lw=1.8, label=label)
    ax_cdf.set_xlabel("flow throughput (Gb/s)")
    ax_cdf.set_ylabel("fraction of flows (CDF)")
    ax_cdf.set_ylim(0, 1.02)
    ax_cdf.set_title("CDF of per-flow throughput")
    ax_cdf.legend(loc="upper left")

    positions = np.arange(1, len(schemes) + 1)
    bp = ax_box.boxplot([per[s] for s in schemes], positions=positions, widths=0.5,
                        whis=(1, 99), patch_artist=True, showmeans=True,
                        flierprops={"markersize": 3, "alpha": 0.5},
                        meanprops={"marker": "^", "markerfacecolor": "white",
                                   "markeredgecolor": "black", "markersize": 6})
    for patch, s in zip(bp["boxes"], schemes):
        patch.set_facecolor(ps.scheme_colour(s, schemes))
        patch.set_alpha(0.55)
    for med in bp["medians"]:
        med.set_color("black")
    ax_box.set_xticks(positions)
    ax_box.set_xticklabels(["%s\nmin/max %.3f" % (s, stats[s]["min_max_ratio"]) for s in schemes])
    ax_box.set_ylabel("flow throughput (Gb/s)")
    ax_box.set_title("box: p25-p75, whiskers p1-p99, \u25b3 mean", fontsize="medium")

    fig.suptitle("Throughput variance across flows \u2014 " + "; ".join(
        "%s CoV %.3g, Jain %.4f" % (s, stats[s]["cov"], stats[s]["jain"]) for s in schemes))
    fig.tight_layout()
    out = mr.output_path(args.results_dir, args.out, DEFAULT_NAME)
    return [ps.save(fig, out, partial)]


def main(argv=None, written=None):
    return mr.run_cli(build_parser(), run, argv, written)


if __name__ == "__main__":
    sys.exit(main())
