#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make every figure and the summary for one results directory.

Checks that RESULTS_DIR is a complete run (docs/results.md) and that every
file in it loads (so an incomplete directory or a malformed file is reported
once and nothing is written), then runs, in this process, summary.py,
plot_throughput.py, plot_steps.py, plot_links.py and plot_ev_states.py with
their default output names (in RESULTS_DIR, or in --out-dir if given).
Each script prints the files it writes; a figure whose data is missing is
skipped with a message.  The files written into RESULTS_DIR are recorded in
its manifest.json.  Ends with a count of files written.

--allow-partial draws an incomplete directory anyway: every figure says
PARTIAL RESULTS and why, and summary.csv has partial=1.

Exit status: 0 on success, 2 on a missing or incomplete directory or a
malformed file, otherwise the first non-zero status of a script.
"""

import argparse
import os
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import mrc_results as mr
import plot_ev_states
import plot_links
import plot_steps
import plot_throughput
import summary

PROG = "make_all.py"
SCRIPTS = [
    (summary, mr.SUMMARY_CSV),
    (plot_throughput, plot_throughput.DEFAULT_NAME),
    (plot_steps, plot_steps.DEFAULT_NAME),
    (plot_links, plot_links.DEFAULT_NAME),
    (plot_ev_states, plot_ev_states.DEFAULT_NAME),
]


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="results directory")
    p.add_argument("--out-dir", metavar="DIR", help="write the outputs here instead of RESULTS_DIR")
    mr.add_partial_options(p)
    return p


def main(argv=None, written=None):
    args = build_parser().parse_args(argv)
    try:
        mr.load_results(args.results_dir, args.allow_partial, args.in_run)
    except mr.ResultsError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    files = []
    status = 0
    for module, name in SCRIPTS:
        sub = [args.results_dir]
        sub += ["--allow-partial"] if args.allow_partial else []
        sub += ["--in-run"] if args.in_run else []
        if args.out_dir:
            sub += ["--out", os.path.join(args.out_dir, name)]
        rc = module.main(sub, written=files)
        if rc and not status:
            status = rc
    print("%s: %d file(s) written" % (PROG, len(files)))
    if written is not None:
        written.extend(files)
    return status


if __name__ == "__main__":
    sys.exit(main())
