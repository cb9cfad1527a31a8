#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""EV (entropy value / path) state changes over time, per scheme.

Reads the kind == ev_state rows of RESULTS_DIR/events.csv (and flows.csv, steps.csv,
links.csv for each scheme's time range) and, for each scheme found in events.csv, draws a
panel on the scheme's own time axis: stacked bars of how many transitions into each new state
(GOOD, SKIP, ASSUMED_BAD, DENIED, then any other state) happened in each time bin.  Long idle
gaps are cut out of the axis and drawn as labelled bands ("stall 4.29 s"), as in plot_steps.py.
Faults are drawn faintly behind, as shaded intervals merged per target class (--faults).  The
bin width gives about 40 bins over a panel's active time unless --bin-us is given; the y axis
is transitions per bin (--logy: log scale).
Writes RESULTS_DIR/ev_states.png (--format: png, pdf, svg) unless --out is given, and prints
the paths.  If events.csv is missing or has no ev_state rows, says so and writes nothing.

Refuses an incomplete results directory (docs/results.md) unless --allow-partial is given;
then the figure says PARTIAL RESULTS and why.

Exit status: 0 on success (or nothing to draw), 2 on a missing or incomplete directory, a
malformed file or an unknown --scheme.
"""

import argparse
import os
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import numpy as np

import mrc_results as mr
import plotopts
import timeline as tl

DEFAULT_NAME = "ev_states.png"
PROG = "plot_ev_states.py"
MAX_BINS = 20000


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
    p.add_argument("--out", metavar="FILE.png",
                   help="output file (default: RESULTS_DIR/%s); its extension is replaced by each --format"
                        % DEFAULT_NAME)
    mr.add_partial_options(p)
    p.add_argument("--bin-us", type=positive_float, metavar="US",
                   help="time bin width in microseconds (default: automatic, ~40 bins)")
    plotopts.add_plot_options(p, logy_help="log scale on the transitions-per-bin axes")
    return p


def bin_counts(times_us, states, bin_us, t0_us, nbins, state_order):
    """{state: counts per bin} for bins [t0 + i*bin, t0 + (i+1)*bin)."""
    idx = np.clip(((np.asarray(times_us) - t0_us) // bin_us).astype(np.int64), 0, nbins - 1)
    out = {}
    states = np.asarray(states, dtype=object)
    for st in state_order:
        out[st] = np.bincount(idx[states == st], minlength=nbins)
    return out


def make_figure(args):
    """The figure for args (a parsed Namespace or an argv list), not saved; None when there is
    nothing to draw.  fig.mrc_panels: one plotstyle.Panel per scheme."""
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(list(args))
    partial = mr.partial_of(args)
    results = mr.load_tables(args.results_dir, first=("events",))
    events = results["events"]
    path = os.path.join(args.results_dir, mr.EVENTS)
    if mr.is_empty(events):
        mr.say_nothing_written(PROG, "events", path)
        return None
    is_ev = mr.column_equals(events, "kind", "ev_state")
    if not is_ev.any():
        print("%s: no ev_state rows in %s; nothing written" % (PROG, path))
        return None
    import plotstyle as ps
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator
    plt = ps.plt

    window = getattr(args, "window", None)
    faults_mode = getattr(args, "faults", "bands")
    logy = getattr(args, "logy", False)
    schemes = ps.chosen_schemes(args, mr.schemes_of(events), PROG, "events", mr.schemes_of(*results.values()))
    if not schemes:
        print("%s: no scheme to draw; nothing written" % PROG)
        return None
    sc, snames = mr.codes(events, "scheme")
    stc, stnames = mr.codes(events, "state")
    ev_states = [stnames[i] for i in np.unique(stc[is_ev])]
    states = list(mr.EV_STATES) + sorted(set(ev_states) - set(mr.EV_STATES))
    in_w = is_ev & tl.in_window(events["time_us"], window)
    tlines = {s: tl.scheme_timeline(results, s, window) for s in schemes}
    tlines = {s: t for s, t in tlines.items() if t is not None}
    if not tlines:
        print("%s: nothing in --window; nothing written" % PROG)
        return None
    schemes = [s for s in schemes if s in tlines]
    classes = {s: tl.fault_classes(events, s, tlines[s].lo, tlines[s].hi) if faults_mode != "none" else []
               for s in schemes}
    colours = ps.fault_class_colours(sorted({c.key for cs in classes.values() for c in cs}, key=tl._class_rank))

    n = len(schemes)
    fig = plt.figure(figsize=(12.5, 2.5 * n + 1.1))
    gs = fig.add_gridspec(n, 2, width_ratios=[3.3, 1.3], left=0.075, right=0.99,
                          top=1 - 0.75 / fig.get_figheight(), bottom=0.6 / fig.get_figheight(),
                          wspace=0.04, hspace=0.8)
    panels = []
    for i, s in enumerate(schemes):
        tline = tlines[s]
        panel = ps.time_panel(fig, gs[i, 0], tline, fault_times=tl.fault_times(results, s, window))
        panels.append(panel)
        m = in_w & (sc == snames.index(s))
        t = events["time_us"][m]
        st = stc[m]
        counts = {name: int((st == stnames.index(name)).sum()) if name in stnames else 0 for name in states}
        bin_us = getattr(args, "bin_us", None) or ps.nice_bin(tline.active_us)
        if tline.active_us / bin_us > MAX_BINS:
            raise mr.ResultsError("--bin-us %g: %d bins over %s of %s's active time; at most %d (choose a "
                                  "wider bin)" % (bin_us, tline.active_us / bin_us, ps.fmt_duration(tline.active_us),
                                                  s, MAX_BINS))
        bdiv, bunit = ps.time_unit(bin_us)
        first = panel.rows[0][0]
        first.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        first.set_ylabel("transitions / %.3g %s" % (bin_us / bdiv, bunit))
        title = "%s: %s state changes (%s)" % (s, format(int(m.sum()), ","), ", ".join(
            "%s %s" % (name, format(counts[name], ",")) for name in states))
        stall = ps.stall_summary(tline)
        first.set_title(title + ("\n" + stall if stall else ""), loc="left", fontsize="medium")
        top = 1.0
        for ax, a, b in panel.segments():
            if not m.any():
                continue
            t0 = np.floor(a / bin_us) * bin_us
            nbins = max(1, int(np.ceil((b - t0) / bin_us)))
            seg = (t >= a) & (t <= b)
            if not seg.any():
                continue
            idx = np.clip(((t[seg] - t0) // bin_us).astype(np.int64), 0, nbins - 1)
            lefts = t0 + np.arange(nbins) * bin_us
            bottom = np.zeros(nbins)
            for name in states:
                if name not in stnames:
                    continue
                c = np.bincount(idx[st[seg] == stnames.index(name)], minlength=nbins)
                if c.any():
                    ax.bar(lefts, c, width=bin_us, align="edge", bottom=bottom,
                           color=ps.EV_STATE_COLOURS.get(name, "tab:blue"), edgecolor="white", linewidth=0.3,
                           zorder=2)
                    bottom += c
            top = max(top, float(bottom.max()))
        if not m.any():
            first.text(0.5, 0.5, "no EV state changes", transform=first.transAxes, ha="center", va="center",
                       color="0.4")
        if logy:
            for ax, _, _ in panel.segments():
                ps.set_log(ax)
            first.set_ylim(0.8, top * 1.5)
        else:
            first.set_ylim(0, top * 1.1)
        fh, note = ps.draw_faults(panel, classes[s], faults_mode, colours, alpha=0.13)
        handles = [Patch(color=ps.EV_STATE_COLOURS.get(name, "tab:blue"), label="\u2192 %s" % name)
                   for name in states if counts[name]] + fh
        ps.side_legend(fig, gs[i, 1], handles, note)
    fig.mrc_panels = panels
    fig.suptitle("EV state changes per scheme (transitions into each state per time bin)", x=0.075, ha="left",
                 y=1 - 0.12 / fig.get_figheight(), va="top", fontsize="large")
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
