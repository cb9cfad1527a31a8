#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Throughput variance across flows, per scheme.

Reads RESULTS_DIR/flows.csv and draws, side by side, the CDF of per-flow
throughput (Gb/s) for each scheme and a box plot per scheme (box p25-p75,
whiskers p1-p99, triangle: mean).  The legend gives each scheme's flow count,
coefficient of variation and Jain's fairness index.  --scheme keeps only the
schemes it names; --window only the flows that start in it; --logy draws the
throughput axes on a log scale; --faults is accepted (for make_all.py) and has
no effect: this figure has no time axis.
Writes RESULTS_DIR/throughput.png (--format: png, pdf, svg) unless --out is
given, and prints the paths.  If flows.csv is missing or has no data rows,
says so and writes nothing.

Refuses an incomplete results directory (docs/results.md) unless
--allow-partial is given; then the figure says PARTIAL RESULTS and why.

Exit status: 0 on success (or nothing to draw), 2 on a missing or incomplete
directory, a malformed file or an unknown --scheme.
"""

import argparse
import os
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import numpy as np

import mrc_results as mr
import plotopts
import timeline as tl

DEFAULT_NAME = "throughput.png"
PROG = "plot_throughput.py"


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="directory holding flows.csv")
    p.add_argument("--out", metavar="FILE.png",
                   help="output file (default: RESULTS_DIR/%s); its extension is replaced by each --format"
                        % DEFAULT_NAME)
    mr.add_partial_options(p)
    plotopts.add_plot_options(p, logy_help="log scale on the throughput axes")
    return p


def make_figure(args):
    """The figure for args (a parsed Namespace or an argv list), not saved; None when there is
    nothing to draw.  fig.mrc_schemes: the schemes drawn."""
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(list(args))
    partial = mr.partial_of(args)
    flows = mr.load_tables(args.results_dir, first=("flows",))["flows"]
    if mr.is_empty(flows):
        mr.say_nothing_written(PROG, "flow data", os.path.join(args.results_dir, mr.FLOWS))
        return None
    import plotstyle as ps
    plt = ps.plt

    everywhere = mr.schemes_of(*mr.load_tables(args.results_dir).values()) if ps.wanted_schemes(args) else None
    schemes = ps.chosen_schemes(args, mr.schemes_of(flows), PROG, "flow data", everywhere)
    keep = tl.in_window(flows["start_us"], getattr(args, "window", None)) & mr.column_isin(flows, "scheme", schemes)
    if not keep.any():
        print("%s: no flow to draw; nothing written" % PROG)
        return None
    flows = mr.select(flows, keep) if not keep.all() else flows
    per = mr.by_scheme(flows, "throughput_gbps")
    stats = mr.throughput_summary(flows)
    schemes = [s for s in schemes if s in per]
    logy = getattr(args, "logy", False)
    if logy and not all((per[s] > 0).all() for s in schemes):
        print("%s: --logy: a flow has throughput 0; linear axes" % PROG)
        logy = False

    fig, (ax_cdf, ax_box) = plt.subplots(1, 2, figsize=(11, 4.6),
                                         gridspec_kw={"width_ratios": [1.6, 1]})
    for s in schemes:
        tp = np.sort(per[s])
        y = np.arange(1, tp.size + 1) / tp.size
        st = stats[s]
        label = "%s (n=%d): CoV %.3g, Jain %.4f" % (s, st["count"], st["cov"], st["jain"])
        ax_cdf.step(np.concatenate([[tp[0]], tp]), np.concatenate([[0.0], y]), where="post",
                    color=ps.scheme_colour(s, schemes), lw=1.8, label=label)
    if logy:
        ps.set_log(ax_cdf, "x")
    ax_cdf.set_xlabel("flow throughput (Gb/s)%s" % (", log scale" if logy else ""))
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
    if logy:
        ps.set_log(ax_box)
    ax_box.set_ylabel("flow throughput (Gb/s)")
    ax_box.set_title("box: p25-p75, whiskers p1-p99, \u25b3 mean", fontsize="medium")

    fig.suptitle("Throughput variance across flows \u2014 " + "; ".join(
        "%s CoV %.3g, Jain %.4f" % (s, stats[s]["cov"], stats[s]["jain"]) for s in schemes))
    fig.tight_layout()
    fig.mrc_schemes = schemes
    ps.mark_partial(fig, partial)
    return fig


def run(args):
    fig = make_figure(args)
    if fig is None:
        return []
    import plotstyle as ps
    return ps.save(fig, ps.output_paths(args.results_dir, args.out, DEFAULT_NAME, args.format))


def main(argv=None, written=None):
    return mr.run_cli(build_parser(), run, argv, written)


if __name__ == "__main__":
    sys.exit(main())
