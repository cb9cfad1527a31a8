#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""EV (entropy value / path) state changes over time, per scheme.

Reads the kind == ev_state rows of RESULTS_DIR/events.csv and, for each
scheme found in events.csv, draws a stacked bar chart of how many
transitions into each new state (GOOD, SKIP, ASSUMED_BAD, DENIED, then any
other state) happened in each time bin.  Fault events (other kinds) are
drawn faintly as vertical lines for context.  The bin width is chosen to give
about 40 bins unless --bin-us is given.
Writes RESULTS_DIR/ev_states.png unless --out is given, and prints the path.
If events.csv is missing or has no ev_state rows, says so and writes nothing.

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

DEFAULT_NAME = "ev_states.png"
PROG = "plot_ev_states.py"


def positive_float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text)
    if not v > 0:
        raise argparse.ArgumentTypeError("must be > 0: %r" % text)
    return v


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="directory holding events.csv")
    p.add_argument("--out", metavar="FILE.png", help="output PNG (default: RESULTS_DIR/%s)" % DEFAULT_NAME)
    mr.add_partial_options(p)
    p.add_argument("--bin-us", type=positive_float, metavar="US",
                   help="time bin width in microseconds (default: automatic, ~40 bins)")
    return p


def bin_counts(times_us, states, bin_us, t0_us, nbins, state_order):
    """{state: counts per bin} for bins [t0 + i*bin, t0 + (i+1)*bin)."""
    idx = np.clip(((np.asarray(times_us) - t0_us) // bin_us).astype(np.int64), 0, nbins - 1)
    out = {}
    states = np.array(states, dtype=object)
    for st in state_order:
        out[st] = np.bincount(idx[states == st], minlength=nbins)
    return out


def run(args):
    partial = mr.partial_of(args)
    events = mr.load_events(args.results_dir)
    path = os.path.join(args.results_dir, mr.EVENTS)
    if mr.is_empty(events):
        mr.say_nothing_written(PROG, "events", path)
        return []
    ev = mr.select(events, mr.column_equals(events, "kind", "ev_state"))
    if mr.is_empty(ev):
        print("%s: no ev_state rows in %s; nothing written" % (PROG, path))
        return []
    import plotstyle as ps
    from matplotlib.ticker import MaxNLocator
    plt = ps.plt

    schemes = mr.schemes_of(events)
    counts = mr.ev_state_counts(events)
    states = list(mr.EV_STATES) + sorted(set(ev["state"]) - set(mr.EV_STATES))
    faults = ps.fault_events(events)
    t_min, t_max = float(np.min(ev["time_us"])), float(np.max(ev["time_us"]))
    bin_us = getattr(args, "bin_us", None) or ps.nice_bin(t_max - t_min)
    t0 = np.floor(t_min / bin_us) * bin_us
    nbins = int(np.floor((t_max - t0) / bin_us)) + 1
    tdiv, tunit = ps.time_unit(max(t_max, max((f[0] for f in faults), default=0.0)))
    bdiv, bunit = ps.time_unit(bin_us)

    fig, axes = plt.subplots(len(schemes), 1, figsize=(11, 2.6 * len(schemes) + 1.2),
                             sharex=True, squeeze=False)
    axes = axes[:, 0]
    scheme_col = np.array(ev["scheme"], dtype=object)
    lefts = (t0 + np.arange(nbins) * bin_us) / tdiv
    fault_handles = []
    for ax, s in zip(axes, schemes):
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        m = scheme_col == s
        total = sum(counts[s].values())
        ax.set_title("%s: %d state changes (%s)" % (s, total, ", ".join(
            "%s %d" % (st, counts[s].get(st, 0)) for st in states)), loc="left", fontsize="medium")
        ax.set_ylabel("transitions / %.3g %s" % (bin_us / bdiv, bunit))
        fault_handles = ps.draw_fault_markers(ax, faults, tdiv, alpha=0.45)
        if not m.any():
            ax.text(0.5, 0.5, "no EV state changes", transform=ax.transAxes,
                    ha="center", va="center", color="0.4")
            continue
        per = bin_counts(ev["time_us"][m], np.array(ev["state"], dtype=object)[m], bin_us, t0, nbins, states)
        bottom = np.zeros(nbins)
        for st in states:
            c = per[st]
            if c.any():
                ax.bar(lefts, c, width=bin_us / tdiv, align="edge", bottom=bottom,
                       color=ps.EV_STATE_COLOURS.get(st, "tab:blue"), edgecolor="white", linewidth=0.3,
                       label="\u2192 %s" % st, zorder=2)
                bottom += c
        ax.set_ylim(0, max(1.0, bottom.max()) * 1.1)
    from matplotlib.patches import Patch
    present = set(ev["state"])
    legend = [Patch(color=ps.EV_STATE_COLOURS.get(st, "tab:blue"), label="\u2192 %s" % st)
              for st in states if st in present] + fault_handles
    axes[0].legend(handles=legend, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    axes[-1].set_xlabel("time (%s)" % tunit)
    fig.suptitle("EV state changes over time (count of transitions into each state per bin)")
    fig.tight_layout()
    out = mr.output_path(args.results_dir, args.out, DEFAULT_NAME)
    return [ps.save(fig, out, partial)]


def main(argv=None, written=None):
    return mr.run_cli(build_parser(), run, argv, written)


if __name__ == "__main__":
    sys.exit(main())
