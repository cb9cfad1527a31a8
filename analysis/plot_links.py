#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Link utilisation over time per plane and tier.

Reads RESULTS_DIR/links.csv and draws one subplot per tier (host-t0, t0-t1,
t1-t0, t0-host, then any other tier found), one line per plane (colour) and
scheme (line style: mrc solid, baseline dashed).  The y value is
utilization (fraction of capacity, shown in %) unless --metric picks
queue_bytes_mean or queue_bytes_max (shown in KiB).  Rows that share scheme,
tier, plane and time are averaged.
Writes RESULTS_DIR/links.png unless --out is given, and prints the path.
If links.csv is missing or has no data rows, says so and writes nothing.

Refuses an incomplete results directory (docs/results.md) unless
--allow-partial is given; then the figure says PARTIAL RESULTS and why.

Exit status: 0 on success (or nothing to draw), 2 on a missing or incomplete
directory or a malformed file.
"""

import argparse
import os
import re
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import numpy as np

import mrc_results as mr

DEFAULT_NAME = "links.png"
PROG = "plot_links.py"
METRICS = ("utilization", "queue_bytes_mean", "queue_bytes_max")


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="directory holding links.csv")
    p.add_argument("--out", metavar="FILE.png", help="output PNG (default: RESULTS_DIR/%s)" % DEFAULT_NAME)
    mr.add_partial_options(p)
    p.add_argument("--metric", choices=METRICS, default="utilization",
                   help="links.csv column to plot (default: utilization)")
    return p


def natural_key(s):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def mean_by_time(t, v):
    """Sorted unique times and the mean of v at each."""
    ut, inv = np.unique(t, return_inverse=True)
    return ut, np.bincount(inv, weights=v) / np.bincount(inv)


def run(args):
    partial = mr.partial_of(args)
    links = mr.load_links(args.results_dir)
    if mr.is_empty(links):
        mr.say_nothing_written(PROG, "link data", os.path.join(args.results_dir, mr.LINKS))
        return []
    import plotstyle as ps
    plt = ps.plt

    metric = getattr(args, "metric", "utilization")
    schemes = mr.schemes_of(links)
    tier_col = np.array(links["tier"], dtype=object)
    plane_col = np.array(links["plane"], dtype=object)
    scheme_col = np.array(links["scheme"], dtype=object)
    found = set(links["tier"])
    tiers = [t for t in mr.TIERS if t in found] + sorted(found - set(mr.TIERS), key=natural_key)
    planes = sorted(set(links["plane"]), key=natural_key)
    cmap = plt.get_cmap("tab10" if len(planes) <= 10 else "tab20")
    pcolour = {p: cmap(i % cmap.N) for i, p in enumerate(planes)}
    tdiv, tunit = ps.time_unit(float(np.max(links["time_us"])))
    if metric == "utilization":
        ydiv, ylabel = 0.01, "utilisation (%)"
    else:
        ydiv, ylabel = 1024.0, "%s (KiB)" % metric.replace("_", " ")

    fig, axes = plt.subplots(len(tiers), 1, figsize=(11, 2.3 * len(tiers) + 1.0), sharex=True, squeeze=False)
    axes = axes[:, 0]
    for ax, tier in zip(axes, tiers):
        in_t = tier_col == tier
        for s in schemes:
            for p in planes:
                m = in_t & (scheme_col == s) & (plane_col == p)
                if not m.any():
                    continue
                t, v = mean_by_time(links["time_us"][m], links[metric][m])
                ax.plot(t / tdiv, v / ydiv, color=pcolour[p], ls=ps.scheme_linestyle(s, schemes), lw=1.2)
        ax.set_title("tier %s" % tier, loc="left", fontsize="medium")
        ax.set_ylabel(ylabel)
        if metric == "utilization":
            ax.set_ylim(0, 105)
        else:
            ax.set_ylim(bottom=0)
    axes[-1].set_xlabel("time (%s)" % tunit)

    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=pcolour[p], lw=2, label=p if not p.isdigit() else "plane %s" % p)
               for p in planes]
    handles += [Line2D([], [], color="0.25", lw=1.5, ls=ps.scheme_linestyle(s, schemes), label=s)
                for s in schemes]
    axes[0].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    what = "Link utilisation" if metric == "utilization" else metric
    fig.suptitle("%s over time per plane and tier (%s)" % (what, ", ".join(schemes)))
    fig.tight_layout()
    out = mr.output_path(args.results_dir, args.out, DEFAULT_NAME)
    return [ps.save(fig, out, partial)]


def main(argv=None, written=None):
    return mr.run_cli(build_parser(), run, argv, written)


if __name__ == "__main__":
    sys.exit(main())
