#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Step durations per scheme: over time, with the faults, and as a distribution.

Reads RESULTS_DIR/steps.csv and (if present) events.csv, flows.csv and links.csv.  One panel
per scheme: each step's duration (y) from its start time to the next step's (x), a marker at
each start, one line per job, on the scheme's own time axis (from its first to its last
activity).  A long idle gap in a scheme's activity
(no step, flow, link sample or EV change for more than 20 times the median gap, and longer than
all the rest of its active time) is cut out of its axis and drawn as a hatched band labelled
with its length, e.g. "stall 4.29 s" (a transfer was in progress throughout) or "idle 10 ms".
Fault events (events.csv rows of every kind but ev_state) are drawn behind as shaded intervals,
merged per target class (T0-T1 links, NIC ports, T1 switch reboots, ...), counted in the legend
(--faults=lines: one line per event when a panel has at most 50; none: no faults).  Below, the
distribution of step durations: a box (p25-p75, median, whiskers at min and max) and the steps
as dots, one row per scheme, on a log axis when the durations span two decades or more.
Duration axes are log with --logy, or when a panel's durations span two decades or more.
--scheme draws only the schemes it names, --window only the steps in progress during it, on
axes limited to it.  Writes RESULTS_DIR/steps.png (--format: png, pdf, svg) unless --out is given, and prints the
paths.  If steps.csv is missing or has no data rows, says so and writes nothing.

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

DEFAULT_NAME = "steps.png"
PROG = "plot_steps.py"
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
STRIP_MAX = 2000  # dots drawn per scheme in the distribution (a random sample beyond)


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="directory holding steps.csv and events.csv")
    p.add_argument("--out", metavar="FILE.png",
                   help="output file (default: RESULTS_DIR/%s); its extension is replaced by each --format"
                        % DEFAULT_NAME)
    mr.add_partial_options(p)
    plotopts.add_plot_options(p, logy_help="log duration axes (they are log anyway when the durations of a "
                                       "panel span two decades)")
    return p


def make_figure(args):
    """The figure for args (a parsed Namespace or an argv list), not saved; None when there is
    nothing to draw.  fig.mrc_panels: one plotstyle.Panel per scheme; fig.mrc_distribution:
    the distribution Axes."""
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(list(args))
    partial = mr.partial_of(args)
    results = mr.load_tables(args.results_dir, first=("steps", "events"))
    steps = results["steps"]
    if mr.is_empty(steps):
        mr.say_nothing_written(PROG, "step data", os.path.join(args.results_dir, mr.STEPS))
        return None
    import plotstyle as ps
    plt = ps.plt

    window = getattr(args, "window", None)
    everywhere = mr.schemes_of(*results.values())
    schemes = ps.chosen_schemes(args, mr.schemes_of(steps), PROG, "step data", everywhere)
    sc, snames = mr.codes(steps, "scheme")
    jc, jnames = mr.codes(steps, "job")
    # the steps in progress during the window
    in_w = np.ones(mr.nrows(steps), dtype=bool) if window is None else \
        (steps["start_us"] <= window[1]) & (steps["end_us"] >= window[0])
    drawn = []
    tlines = {}
    for s in schemes:
        m = in_w & (sc == snames.index(s))
        tlines[s] = tl.scheme_timeline(results, s, window) if m.any() else None
        if tlines[s] is not None:
            drawn.append((s, m))
        else:
            print("%s: scheme %s has no step during --window; not drawn" % (PROG, s))
    if not drawn:
        print("%s: no step to draw; nothing written" % PROG)
        return None
    n = len(drawn)
    logy = getattr(args, "logy", False)
    faults_mode = getattr(args, "faults", "bands")
    events = results["events"]

    fig = plt.figure(figsize=(12.5, 2.45 * n + 0.5 * n + 2.0))
    heights = [2.45] * n + [0.55 * n + 0.6]
    gs = fig.add_gridspec(n + 1, 2, width_ratios=[3.3, 1.3], height_ratios=heights, left=0.075, right=0.99,
                          top=1 - 0.55 / fig.get_figheight(), bottom=0.75 / fig.get_figheight(),
                          wspace=0.04, hspace=0.75)
    panels = []
    all_classes = {}
    for s, _ in drawn:
        tline = tlines[s]
        all_classes[s] = tl.fault_classes(events, s, tline.lo, tline.hi) if faults_mode != "none" else []
    colours = ps.fault_class_colours(sorted({c.key for cs in all_classes.values() for c in cs},
                                            key=tl._class_rank))
    dur_all = []
    for i, (s, m) in enumerate(drawn):
        tline = tlines[s]
        panel = ps.time_panel(fig, gs[i, 0], tline, fault_times=tl.fault_times(results, s, window))
        panels.append(panel)
        dur = steps["duration_us"][m]
        dur_all.append(dur)
        ddiv, dunit = ps.time_unit(float(dur.max()))
        log = logy or ps.log_useful(dur)
        jobs = list(dict.fromkeys(jnames[j] for j in jc[m]))
        colour = ps.scheme_colour(s, [d[0] for d in drawn])
        handles = []
        for j, job in enumerate(jobs):
            mj = m & (jc == jnames.index(job))
            order = np.argsort(steps["start_us"][mj], kind="stable")
            start = steps["start_us"][mj][order]
            end = steps["end_us"][mj][order]
            y = steps["duration_us"][mj][order] / ddiv
            # the duration of the step in progress: flat from each step's start to the next one's
            # (or to its end, for the last), a marker at each start
            x = np.append(start, max(float(end[-1]), float(start[-1])))
            y = np.append(y, y[-1])
            label = ("job %s: %d steps" % (job, start.size)) if len(jobs) > 1 else "step duration"
            style = dict(color=colour if len(jobs) == 1 else plt.get_cmap("tab10")(j % 10),
                         marker=MARKERS[j % len(MARKERS)], markersize=4 if start.size <= 200 else 2,
                         lw=1.4 if start.size <= 2000 else 0.7, zorder=3)
            for ax, _, _ in panel.segments():
                ax.plot(x, y, drawstyle="steps-post", markevery=list(range(start.size)), **style)
            handles.append(plt.Line2D([], [], label=label, **style))
        first = panel.rows[0][0]
        first.set_ylabel("step duration (%s)" % dunit)
        for ax, _, _ in panel.segments():
            if log:
                ps.set_log(ax)
        if not log:
            first.set_ylim(bottom=0, top=float(dur.max() / ddiv) * 1.12)
        st = mr.step_summary({"scheme": [s] * int(m.sum()), "duration_us": dur})[s]
        title = "%s: %d step%s, mean %s, p99 %s, max %s" % (
            s, st["count"], "" if st["count"] == 1 else "s", ps.fmt_duration(st["mean"]), ps.fmt_duration(st["p99"]), ps.fmt_duration(st["max"]))
        stall = ps.stall_summary(tline)
        first.set_title(title + ("\n" + stall if stall else ""), loc="left", fontsize="medium")
        fh, note = ps.draw_faults(panel, all_classes[s], faults_mode, colours)
        ps.side_legend(fig, gs[i, 1], handles + fh, note)

    dist = fig.add_subplot(gs[n, 0])
    draw_distribution(dist, [d[0] for d in drawn], dur_all, logy)
    fig.mrc_panels = panels
    fig.mrc_distribution = dist
    fig.suptitle("Step durations per scheme, each on its own time axis", x=0.075, ha="left",
                 y=1 - 0.12 / fig.get_figheight(), va="top", fontsize="large")
    ps.mark_partial(fig, partial)
    return fig


def draw_distribution(ax, schemes, durations, logy=False):
    """One row per scheme (top to bottom): a box (p25-p75, median; whiskers at min and max) and
    every step as a dot (a sample of STRIP_MAX beyond), on a log axis when the durations span
    two decades (or logy); the count, median and p99 at the right."""
    import plotstyle as ps
    alld = np.concatenate(durations)
    div, unit = ps.time_unit(float(alld.max()))
    log = logy or ps.log_useful(alld)
    rng = np.random.default_rng(0)
    pos = np.arange(len(schemes))[::-1].astype(float)
    bp = ax.boxplot([d / div for d in durations], positions=pos, vert=False, widths=0.55, whis=(0, 100),
                    patch_artist=True, showfliers=False, manage_ticks=False,
                    medianprops={"color": "black", "lw": 1.5})
    for patch, s in zip(bp["boxes"], schemes):
        patch.set_facecolor(ps.scheme_colour(s, schemes))
        patch.set_alpha(0.35)
    for y, d, s in zip(pos, durations, schemes):
        v = d if d.size <= STRIP_MAX else rng.choice(d, STRIP_MAX, replace=False)
        jitter = rng.uniform(-0.18, 0.18, v.size)
        ax.scatter(v / div, y + jitter, s=10 if v.size <= 200 else 3, color=ps.scheme_colour(s, schemes),
                   edgecolors="black" if v.size <= 200 else "none", linewidths=0.4, zorder=3, alpha=0.85)
        pc = mr.percentiles(d, (50, 99))
        ax.text(1.01, y, "%s: n=%d, median %s, p99 %s" % (s, d.size, ps.fmt_duration(pc[50]),
                                                           ps.fmt_duration(pc[99])),
                transform=ax.get_yaxis_transform(), va="center", ha="left", fontsize="small")
    ax.set_yticks(pos)
    ax.set_yticklabels(schemes)
    ax.set_ylim(-0.6, len(schemes) - 0.4)
    if log:
        ps.set_log(ax, "x")
    ax.set_xlabel("step duration (%s)%s" % (unit, ", log scale" if log else ""))
    ax.set_title("distribution of step durations (box p25\u2013p75 and median, whiskers min and max, "
                 "dots: steps)", loc="left", fontsize="medium")
    ax.grid(axis="y", visible=False)


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
