#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Link utilisation over time per scheme, tier and plane.

Reads RESULTS_DIR/links.csv (and steps.csv, flows.csv, events.csv for each scheme's time range
and faults) and draws a column per scheme, each on the scheme's own time axis, and a row per
tier (host-t0, t0-t1, t1-t0, t0-host, then any other tier found), one line per plane (colour).
Long idle gaps are cut out of a scheme's axis and drawn as labelled bands ("stall 4.29 s"), as
in plot_steps.py; faults are shaded behind, merged per target class (--faults).  The y value is
utilization (fraction of capacity, shown in %) unless --metric picks queue_bytes_mean or
queue_bytes_max (shown in KiB); a row shares its y axis across the schemes (--logy: log
scale).  Rows that share scheme, tier, plane and time are averaged.  Across a gap in a series
(the link monitor reports the first idle bin of an idle stretch, not the others) the last
value is held.  A series with more than three points per pixel is drawn as its mean per
pixel column over its min-max range (shaded).
Writes RESULTS_DIR/links.png (--format: png, pdf, svg) unless --out is given, and prints the
paths.  If links.csv is missing or has no data rows, says so and writes nothing.

Refuses an incomplete results directory (docs/results.md) unless --allow-partial is given;
then the figure says PARTIAL RESULTS and why.

Exit status: 0 on success (or nothing to draw), 2 on a missing or incomplete directory, a
malformed file or an unknown --scheme.
"""

import argparse
import os
import re
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import numpy as np

import mrc_results as mr
import plotopts
import timeline as tl

DEFAULT_NAME = "links.png"
PROG = "plot_links.py"
METRICS = ("utilization", "queue_bytes_mean", "queue_bytes_max")


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="directory holding links.csv")
    p.add_argument("--out", metavar="FILE.png",
                   help="output file (default: RESULTS_DIR/%s); its extension is replaced by each --format"
                        % DEFAULT_NAME)
    mr.add_partial_options(p)
    p.add_argument("--metric", choices=METRICS, default="utilization",
                   help="links.csv column to plot (default: utilization)")
    plotopts.add_plot_options(p, logy_help="log scale on the utilisation / queue axes")
    return p


def natural_key(s):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def mean_by_time(t, v):
    """Sorted unique times and the mean of v at each."""
    ut, inv = np.unique(t, return_inverse=True)
    return ut, np.bincount(inv, weights=v) / np.bincount(inv)


def hold_gaps(t, v, bin_us):
    """t, v with the last value held across every gap of more than 1.5 bins: the link monitor
    reports the first idle bin of an idle stretch and none after it (nothing was offered or
    sent meanwhile, so nothing changed), so no line is drawn sloping across one."""
    if t.size < 2 or not bin_us > 0:
        return t, v
    gap = np.flatnonzero(np.diff(t) > 1.5 * bin_us)
    if gap.size == 0:
        return t, v
    return np.insert(t, gap + 1, t[gap + 1] - bin_us), np.insert(v.astype(np.float64), gap + 1, v[gap])


def make_figure(args):
    """The figure for args (a parsed Namespace or an argv list), not saved; None when there is
    nothing to draw.  fig.mrc_panels: one plotstyle.Panel per scheme (a column; rows[r] is
    tier fig.mrc_tiers[r])."""
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(list(args))
    partial = mr.partial_of(args)
    results = mr.load_tables(args.results_dir, first=("links",))
    links = results["links"]
    if mr.is_empty(links):
        mr.say_nothing_written(PROG, "link data", os.path.join(args.results_dir, mr.LINKS))
        return None
    import plotstyle as ps
    from matplotlib.lines import Line2D
    plt = ps.plt

    metric = getattr(args, "metric", "utilization")
    window = getattr(args, "window", None)
    faults_mode = getattr(args, "faults", "bands")
    logy = getattr(args, "logy", False)
    schemes = ps.chosen_schemes(args, mr.schemes_of(links), PROG, "link data", mr.schemes_of(*results.values()))
    sc, snames = mr.codes(links, "scheme")
    tc, tnames = mr.codes(links, "tier")
    pc, pnames = mr.codes(links, "plane")
    in_w = tl.in_window(links["time_us"], window)
    drawn = []
    for s in schemes:
        if (in_w & (sc == snames.index(s))).any():
            drawn.append(s)
        else:
            print("%s: scheme %s has no link data in --window; not drawn" % (PROG, s))
    if not drawn:
        print("%s: no link data to draw; nothing written" % PROG)
        return None
    keep = in_w & np.isin(sc, [snames.index(s) for s in drawn])
    found = {tnames[i] for i in np.unique(tc[keep])}
    tiers = [t for t in mr.TIERS if t in found] + sorted(found - set(mr.TIERS), key=natural_key)
    planes = sorted({pnames[i] for i in np.unique(pc[keep])}, key=natural_key)
    cmap = plt.get_cmap("tab10" if len(planes) <= 10 else "tab20")
    pcolour = {p: cmap(i % cmap.N) for i, p in enumerate(planes)}
    if metric == "utilization":
        ydiv, ylabel = 0.01, "utilisation (%)"
    else:
        ydiv, ylabel = 1024.0, "%s (KiB)" % metric.replace("_", " ")
    tlines = {s: tl.scheme_timeline(results, s, window) for s in drawn}
    classes = {s: tl.fault_classes(results["events"], s, tlines[s].lo, tlines[s].hi)
               if faults_mode != "none" else [] for s in drawn}
    colours = ps.fault_class_colours(sorted({c.key for cs in classes.values() for c in cs}, key=tl._class_rank))

    ns, nt = len(drawn), len(tiers)
    fig = plt.figure(figsize=(3.9 + 5.2 * ns, 1.75 * nt + 1.5))
    gs = fig.add_gridspec(1, ns + 1, width_ratios=[5.2] * ns + [3.2], left=0.7 / fig.get_figwidth(),
                          right=0.995, top=1 - 0.75 / fig.get_figheight(), bottom=0.6 / fig.get_figheight(),
                          wspace=0.12)
    panels = []
    sharey = [None] * nt
    fault_handles = []
    for j, s in enumerate(drawn):
        tline = tlines[s]
        panel = ps.time_panel(fig, gs[0, j], tline, nrows=nt, sharey=sharey, hspace=0.35, stall_text_rows=(0,),
                              fault_times=tl.fault_times(results, s, window))
        panels.append(panel)
        ms = keep & (sc == snames.index(s))
        ut = np.unique(links["time_us"][ms])
        bin_us = float(np.median(np.diff(ut))) if ut.size > 1 else 0.0
        for r, tier in enumerate(tiers):
            row = panel.rows[r]
            sharey[r] = sharey[r] or row[0]
            mt = ms & (tc == tnames.index(tier))
            for p in planes:
                m = mt & (pc == pnames.index(p))
                if not m.any():
                    continue
                t, v = hold_gaps(*mean_by_time(links["time_us"][m], links[metric][m]), bin_us)
                for ax, (a, b) in zip(row, tline.segments):
                    ps.plot_series(ax, t, v / ydiv, a, b, color=pcolour[p], lw=1.1, zorder=2)
            row[0].set_title("%s%s" % ("%s \u2014 " % s if r == 0 else "", "tier %s" % tier), loc="left",
                             fontsize="medium" if r == 0 else "small", fontweight="bold" if r == 0 else None)
            if j == 0:
                row[0].set_ylabel(ylabel, fontsize="small")
            if logy:
                for ax in row:
                    ps.set_log(ax)
            elif metric == "utilization":
                row[0].set_ylim(0, 105)
            else:
                row[0].set_ylim(bottom=0)
        fh, note = ps.draw_faults(panel, classes[s], faults_mode, colours, alpha=0.15)
        if fh:
            fault_handles.append((s, fh, note))
    handles = [Line2D([], [], color=pcolour[p], lw=2, label=p if not p.isdigit() else "plane %s" % p)
               for p in planes]
    ps.side_legend(fig, gs[0, ns], handles, "planes")
    entry = 0.205 / fig.get_figheight()  # one legend line, in figure fractions
    y = gs[0, ns].get_position(fig).y1 - entry * (len(planes) + 2.0)
    for s, fh, note in fault_handles:
        ps.side_legend(fig, gs[0, ns], fh, "%s faults%s" % (s, "\n" + note if note else ""), y=y)
        y -= entry * (len(fh) + 2.0 + (1 if note else 0))
    what = "Link utilisation" if metric == "utilization" else metric.replace("_", " ")
    fig.suptitle("%s per tier and plane, each scheme on its own time axis" % what, x=0.7 / fig.get_figwidth(),
                 ha="left", y=1 - 0.12 / fig.get_figheight(), va="top", fontsize="large")
    fig.mrc_panels = panels
    fig.mrc_tiers = tiers
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
