#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make every figure and the summary for one results directory.

Checks that RESULTS_DIR is a complete run (docs/results.md) and that every
file in it loads (so an incomplete directory or a malformed file is reported
once and nothing is written), then runs, in this process, summary.py,
plot_throughput.py, plot_steps.py, plot_links.py and plot_ev_states.py with
their default output names (in RESULTS_DIR, or in --out-dir if given), each
figure once per --format (default: png,pdf).  --scheme, --window, --logy and
--faults are passed to every plotting script (summary.csv always covers every
scheme).  Each script prints the files it writes; a figure whose data is
missing is skipped with a message.  The files written into RESULTS_DIR are
recorded in its manifest.json.  Ends with a count of files written.

--allow-partial draws an incomplete directory anyway: every figure says
PARTIAL RESULTS and why, and summary.csv has partial=1.

With --jobs 2 (the default on a machine with two or more CPUs) the figures are
drawn by two processes forked once the files are loaded; the output is
printed in the same order as with --jobs 1.  An interrupted make_all.py
(SIGINT, SIGTERM) stops them before it exits (130, 143).

Exit status: 0 on success, 2 on a missing or incomplete directory, a
malformed file or an unknown --scheme, otherwise the first non-zero status of
a script.
"""

import argparse
import io
import json
import os
import signal
import sys
import traceback

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import mrc_results as mr
import plotopts
import plot_ev_states
import plot_links
import plot_steps
import plot_throughput
import summary

PROG = "make_all.py"
DEFAULT_FORMATS = ["png", "pdf"]
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
    plotopts.add_plot_options(p, default_format=DEFAULT_FORMATS)
    p.add_argument("--jobs", type=int, choices=(1, 2), default=min(2, os.cpu_count() or 1), metavar="N",
                   help="draw the figures in this process (1) or in two forked ones (2; the default with "
                        "two or more CPUs)")
    return p


# The scripts in two groups of about equal cost, for --jobs 2.
GROUPS = [[summary, plot_throughput, plot_steps], [plot_links, plot_ev_states]]


def _run_scripts(jobs):
    """[(rc, written files, stdout text, stderr text)] of each (module, argv) in jobs, run in this
    process with its output captured."""
    out = []
    for module, sub in jobs:
        files = []
        so, se = io.StringIO(), io.StringIO()
        old = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = so, se
        try:
            rc = module.main(sub, written=files)
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 2
        except Exception:  # a bug: say so, as the script would have
            traceback.print_exc()
            rc = 1
        finally:
            sys.stdout, sys.stderr = old
        out.append((rc, files, so.getvalue(), se.getvalue()))
    return out


def _die_with_parent():
    """Linux: this (forked) process gets SIGTERM when its parent dies."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _run_forked(groups):
    """Run each group of (module, argv) in a forked process; returns {module: result of
    _run_scripts}.  SIGINT/SIGTERM meanwhile stop the children, then this process (130, 143)."""
    sys.stdout.flush()
    sys.stderr.flush()
    children = []
    for group in groups:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: run the group, send back what happened, never return
            code = 0
            try:
                os.close(r)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                _die_with_parent()
                res = _run_scripts(group)
                payload = json.dumps([[m.PROG] + list(x) for (m, _), x in zip(group, res)]).encode()
                with os.fdopen(w, "wb") as f:
                    f.write(payload)
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        os.close(w)
        children.append((pid, r, group))

    def stop(signum, frame):
        for pid, _, _ in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        for pid, _, _ in children:
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass
        sys.stdout.flush()
        os._exit(128 + signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    results = {}
    try:
        for pid, r, group in children:
            with os.fdopen(r, "rb") as f:
                data = f.read()
            _, status = os.waitpid(pid, 0)
            try:
                got = json.loads(data.decode())
            except ValueError:
                got = None
            if got is None or len(got) != len(group):
                why = "exited with status %d" % os.waitstatus_to_exitcode(status)
                got = [[m.PROG, 1, [], "", "error: %s: the process drawing it %s\n" % (m.PROG, why)]
                       for m, _ in group]
            for (module, _), (_, rc, files, so, se) in zip(group, got):
                results[module] = (rc, files, so, se)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return results


def main(argv=None, written=None):
    args = build_parser().parse_args(argv)
    try:
        results = mr.load_results(args.results_dir, args.allow_partial, args.in_run)
        mr.trust_check(args.results_dir, args.in_run)  # the scripts below do not check it again
        wanted = plotopts.wanted_schemes(args)
        known = mr.schemes_of(*(results[k] for k in ("flows", "steps", "events", "links")))
        unknown = [s for s in wanted or [] if s not in known]
        if unknown:
            raise mr.ResultsError("--scheme %s: no such scheme in %s (schemes: %s)"
                                  % (",".join(unknown), args.results_dir, ", ".join(known) or "none"))
    except mr.ResultsError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    jobs = []
    for module, name in SCRIPTS:
        sub = [args.results_dir]
        sub += ["--allow-partial"] if args.allow_partial else []
        sub += ["--in-run"] if args.in_run else []
        if module is not summary:
            sub += plotopts.plot_argv(args)
        if args.out_dir:
            sub += ["--out", os.path.join(args.out_dir, name)]
        jobs.append((module, sub))
    files = []
    status = 0
    if args.jobs > 1 and hasattr(os, "fork"):
        # what every figure needs, once, before the processes part: matplotlib, the codes of
        # the text columns, each scheme's time axis and faults
        import plotstyle  # noqa: F401
        import timeline
        timeline.prepare(results, getattr(args, "window", None))
        argv = dict(jobs)
        done = _run_forked([[(m, argv[m]) for m in group] for group in GROUPS])
        outcome = [done[m] for m, _ in jobs]
    else:
        outcome = _run_scripts(jobs)
    for rc, got, so, se in outcome:
        sys.stdout.write(so)
        sys.stderr.write(se)
        files.extend(got)
        if rc and not status:
            status = rc
    print("%s: %d file(s) written" % (PROG, len(files)))
    if written is not None:
        written.extend(files)
    return status


if __name__ == "__main__":
    sys.exit(main())
