#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Step-duration timeline with fault markers.

Reads RESULTS_DIR/steps.csv and (if present) RESULTS_DIR/events.csv.  Plots
each step's duration (y) against its start time (x), one series per scheme
(per scheme and job when a scheme has several jobs).  Fault events from
events.csv (every kind except ev_state: link, switch_reboot, blackhole,
nic_port, ...) are drawn as vertical lines coloured by kind: onsets (state
down/start) solid, recoveries (up/end) dashed.
Writes RESULTS_DIR/steps.png unless --out is given, and prints the path.
If steps.csv is missing or has no data rows, says so and writes nothing.

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

DEFAULT_NAME = "steps.png"
PROG = "plot_steps.py"
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="directory holding steps.csv and events.csv")
    p.add_argument("--out", metavar="FILE.png", help="output PNG (default: RESULTS_DIR/%s)" % DEFAULT_NAME)
    mr.add_partial_options(p)
    return p


def run(args):
    partial = mr.partial_of(args)
    steps = mr.load_steps(args.results_dir)
    events = mr.load_events(args.results_dir)
    if mr.is_empty(steps):
        mr.say_nothing_written(PROG, "step data", os.path.join(args.results_dir, mr.STEPS))
        return []
    import plotstyle as ps
    plt = ps.plt

    schemes = mr.schemes_of(steps)
    faults = ps.fault_events(events)
    max_t = max(float(np.max(steps["start_us"])), max((f[0] for f in faults), default=0.0))
    tdiv, tunit = ps.time_unit(max_t)
    ddiv, dunit = ps.time_unit(float(np.max(steps["duration_us"])))
    stats = mr.step_summary(steps)

    fig, ax = plt.subplots(figsize=(11, 4.8))
    scheme_col = np.array(steps["scheme"], dtype=object)
    job_col = np.array(steps["job"], dtype=object)
    for s in schemes:
        in_s = scheme_col == s
        jobs = list(dict.fromkeys(job_col[in_s]))
        for j, job in enumerate(jobs):
            m = in_s & (job_col == job)
            order = np.argsort(steps["start_us"][m], kind="stable")
            x = steps["start_us"][m][order] / tdiv
            y = steps["duration_us"][m][order] / ddiv
            st = stats[s]
            label = "%s: %d steps, mean %.4g %s, p99 %.4g %s" % (
                s, st["count"], st["mean"] / ddiv, dunit, st["p99"] / ddiv, dunit)
            if len(jobs) > 1:
                label = "%s job %s (%d steps)" % (s, job, int(m.sum()))
            ax.plot(x, y, color=ps.scheme_colour(s, schemes), ls=ps.scheme_linestyle(s, schemes),
                    marker=MARKERS[j % len(MARKERS)], markersize=3.5, lw=1.4, label=label, zorder=3)
    handles, _ = ax.get_legend_handles_labels()
    handles += ps.draw_fault_markers(ax, faults, tdiv)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("step start time (%s)" % tunit)
    ax.set_ylabel("step duration (%s)" % dunit)
    title = "Step duration over time"
    if faults:
        title += " (%d fault events marked)" % len(faults)
    ax.set_title(title)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    out = mr.output_path(args.results_dir, args.out, DEFAULT_NAME)
    return [ps.save(fig, out, partial)]


def main(argv=None, written=None):
    return mr.run_cli(build_parser(), run, argv, written)


if __name__ == "__main__":
    sys.exit(main())
