#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One metric of a sweep against one of its parameters.

Reads SWEEP_DIR/sweep-summary.csv (written by `./ns3 sweep` or
`./ns3 sweep gather`) and SWEEP_DIR/sweep.json (which columns are parameters).
Draws --metric (a summary column, e.g. tput_cov, step_mean_us) against --x
(a varied option, e.g. flapRate): one line per scheme, or per value of the
option --by names; each marker is the mean over the seeds, with error bars of
one sample standard deviation (--error std, the default) or a 95% confidence
interval of the mean (--error ci95: Student's t for up to 31 seeds, 1.96
beyond); the legend says which, and how many seeds.  A numeric --x is drawn
to scale (--logx: log scale, symlog when 0 is among the values); text values
are evenly spaced in sweep order.  --logy: log y axis.  Every other varied option must take one
value on each line: choose it with --where NAME=VALUE (repeatable) or draw it
with --by.  --scheme keeps only the rows of the schemes it names.  The x axis
is labelled with the option's meaning and unit: from a table of the quickstart
options (flapRate: "flap rate (1/s per link)"), else from the name's suffix
(...Us: µs, ...Ms: ms, ...Bytes: bytes, ...Gbps: Gb/s, ...Rate: 1/s).

Writes SWEEP_DIR/sweep-<metric>-vs-<x>.png (--format: png, pdf, svg) unless
--out is given, and prints the paths; files written into SWEEP_DIR are
recorded in its manifest.json.

Exit status: 0 on success, 2 with one line `error: ...` on a missing or
malformed input or an unknown metric or parameter.
"""

import argparse
import csv
import json
import math
import os
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import numpy as np

import mrc_results as mr
import plotopts
import summary

PROG = "plot_sweep.py"
SUMMARY_CSV = "sweep-summary.csv"
# Student's t, two-sided 95%, for 1 to 30 degrees of freedom.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
       2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
       2.052, 2.048, 2.045, 2.042]
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]

# Axis labels of the quickstart options (experiments/quickstart.cc, `quickstart --PrintHelp`).
OPTION_LABELS = {
    "flapRate": "flap rate (1/s per link)",
    "flapDown": "mean flap down time (\u00b5s)",
    "flapStart": "first flap after (\u00b5s)",
    "flapStop": "last flap before (\u00b5s)",
    "bytes": "all-reduce buffer (bytes)",
    "gpus": "GPUs",
    "planes": "planes",
    "hostsPerT0": "hosts per T0",
    "t1": "T1 switches per plane",
    "linkRate": "plane link rate",
    "steps": "training steps",
    "computeUs": "compute phase per step (\u00b5s)",
    "jitterUs": "compute jitter (\u00b5s)",
    "chunks": "chunks per ring transfer",
    "qpsPerPeer": "queue pairs per ring neighbour",
    "portLossAtUs": "NIC port loss start (\u00b5s)",
    "portLossUs": "NIC port loss duration (\u00b5s)",
    "rebootAtUs": "T1 reboot start (\u00b5s)",
    "rebootUs": "T1 reboot duration (\u00b5s)",
    "detectionUs": "baseline failure detection delay (\u00b5s)",
    "reconvergenceUs": "baseline reconvergence delay (\u00b5s)",
    "binUs": "links.csv time bin (\u00b5s)",
    "seed": "seed",
    "schemes": "schemes",
}
# Name suffix -> unit, for other options.
SUFFIX_UNITS = [("Gbps", "Gb/s"), ("Mbps", "Mb/s"), ("Bytes", "bytes"), ("bytes", "bytes"), ("Us", "\u00b5s"),
                ("Ms", "ms"), ("Ns", "ns"), ("Rate", "1/s"), ("Pct", "%")]


def metric_label(col):
    """summary.py's label of a column, with µs for us."""
    return summary.label(col).replace("(us)", "(\u00b5s)")


def _words(name):
    """'portLossAt' -> 'port loss at'."""
    import re
    parts = re.findall(r"[A-Za-z]\d+|[A-Z]{2,}s?(?![a-z])|[A-Z]?[a-z]+|\d+|[A-Z]", name)
    return " ".join(p if p[:1].isupper() and len(p) > 1 and not p[1:].islower() else p.lower()
                    for p in parts) or name


def option_label(name):
    """The x axis label of a varied option: its meaning and unit."""
    if name in OPTION_LABELS:
        return OPTION_LABELS[name]
    for suffix, unit in SUFFIX_UNITS:
        if name.endswith(suffix) and len(name) > len(suffix):
            stem = name[:-len(suffix)]
            words = _words(stem) + (" rate" if suffix == "Rate" else "")
            return "%s (%s)" % (words, unit)
    return _words(name)


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sweep_dir", metavar="SWEEP_DIR", help="sweep directory (holding %s)" % SUMMARY_CSV)
    p.add_argument("--metric", required=True, help="summary column to draw, e.g. tput_cov, step_mean_us")
    p.add_argument("--x", required=True, help="varied option on the x axis, e.g. flapRate")
    p.add_argument("--by", default="scheme", help="one line per value of this (default: scheme)")
    p.add_argument("--where", action="append", default=[], metavar="NAME=VALUE",
                   help="keep only the rows where option NAME has VALUE (repeatable)")
    p.add_argument("--error", choices=("std", "ci95"), default="std",
                   help="error bars: sample standard deviation (default) or 95%% CI of the mean")
    p.add_argument("--logx", action="store_true", help="log x axis (symlog if an x value is 0)")
    p.add_argument("--logy", action="store_true", help="log y axis")
    p.add_argument("--out", metavar="FILE.png",
                   help="output file (default: SWEEP_DIR/sweep-<metric>-vs-<x>.png); its extension is "
                        "replaced by each --format")
    p.add_argument("--scheme", action="append", metavar="NAME",
                   help="keep only the rows of this scheme (repeatable, or a comma list)")
    p.add_argument("--format", type=plotopts.parse_formats, default=None, metavar="png,pdf,svg",
                   help="output formats, a comma list of %s (default: the extension of --out, else png)"
                        % ", ".join(plotopts.FORMATS))
    return p


def load(sweep_dir):
    """(rows as dicts, parameter names) of a sweep directory."""
    mr.check_dir(sweep_dir)
    index_path = os.path.join(sweep_dir, "sweep.json")
    path = os.path.join(sweep_dir, SUMMARY_CSV)
    try:
        with open(index_path, encoding="utf-8") as f:
            params = json.load(f)["parameters"]
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except FileNotFoundError as e:
        raise mr.ResultsError("%s not found (./ns3 sweep gather %s writes %s)"
                              % (e.filename, sweep_dir, SUMMARY_CSV))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise mr.ResultsError("%s: cannot read: %s" % (sweep_dir, e))
    if not rows:
        raise mr.ResultsError("%s: no rows" % path)
    return rows, params


def number(text):
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def half_width(values, kind):
    n = len(values)
    if n < 2:
        return 0.0
    sd = float(np.std(values, ddof=1))
    if kind == "std":
        return sd
    return (T95[n - 2] if n - 1 <= len(T95) else 1.96) * sd / math.sqrt(n)


def ordered(values):
    """Distinct values: numerically sorted if all are numbers, else in first-seen order."""
    distinct = list(dict.fromkeys(values))
    if all(number(v) is not None for v in distinct):
        return sorted(distinct, key=number), True
    return distinct, False


def make_figure(args):
    """The figure for args (a parsed Namespace or an argv list), not saved."""
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(list(args))
    rows, params = load(args.sweep_dir)
    columns = list(rows[0])
    metrics = [c for c in columns if c not in params and c not in ("point", "seed", "scheme")]
    if args.metric not in columns or args.metric not in metrics:
        raise mr.ResultsError("--metric %s: not a summary column of %s (columns: %s)"
                              % (args.metric, SUMMARY_CSV, ", ".join(metrics)))
    if args.x not in params:
        raise mr.ResultsError("--x %s: not a varied option (varied: %s)" % (args.x, ", ".join(params)))
    if args.by != "scheme" and args.by not in params or args.by == args.x:
        raise mr.ResultsError("--by %s: neither 'scheme' nor a varied option other than --x (varied: %s)"
                              % (args.by, ", ".join(params)))
    for w in args.where:
        name, sep, value = w.partition("=")
        if not sep or name not in params:
            raise mr.ResultsError("--where %s: expected NAME=VALUE with NAME a varied option (varied: %s)"
                                  % (w, ", ".join(params)))
        rows = [r for r in rows if r[name] == value]
    if not rows:
        raise mr.ResultsError("--where %s: no row matches" % " ".join(args.where))
    wanted = plotopts.wanted_schemes(args)
    if wanted:
        known = mr.order_schemes(r["scheme"] for r in rows)
        unknown = [w for w in wanted if w not in known]
        if unknown:
            raise mr.ResultsError("--scheme %s: no such scheme in %s (schemes: %s)"
                                  % (",".join(unknown), SUMMARY_CSV, ", ".join(known)))
        rows = [r for r in rows if r["scheme"] in wanted]

    groups = {}
    for r in rows:
        groups.setdefault((r[args.by], r[args.x]), []).append(r)
    for (line, x), rs in groups.items():
        for p in params:
            vals = sorted({r[p] for r in rs})
            if p not in (args.x, args.by) and len(vals) > 1:
                raise mr.ResultsError("option %s takes several values (%s) at %s=%s on line %s; choose one "
                                      "with --where %s=VALUE or draw them with --by %s"
                                      % (p, ", ".join(vals), args.x, x, line, p, p))

    lines = [r[args.by] for r in rows]
    lines = mr.order_schemes(lines) if args.by == "scheme" else ordered(lines)[0]
    xs, numeric = ordered([r[args.x] for r in rows])
    if args.logx and not numeric:
        raise mr.ResultsError("--logx: %s has values that are not numbers" % args.x)
    pos = {x: (number(x) if numeric else i) for i, x in enumerate(xs)}

    import plotstyle as ps
    plt = ps.plt
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    counts = set()
    drawn = 0
    for i, line in enumerate(lines):
        px, py, pe = [], [], []
        for x in xs:
            vals = [number(r[args.metric]) for r in groups.get((line, x), [])]
            vals = [v for v in vals if v is not None]
            if vals:
                px.append(pos[x])
                py.append(float(np.mean(vals)))
                pe.append(half_width(vals, args.error))
                counts.add(len(vals))
        if not px:
            continue
        label = line if args.by == "scheme" else "%s=%s" % (args.by, line)
        ax.errorbar(px, py, yerr=pe, label=label, color=ps.scheme_colour(line, lines),
                    linestyle=ps.scheme_linestyle(line, lines), marker=MARKERS[i % len(MARKERS)],
                    capsize=4, linewidth=1.5, markersize=5)
        drawn += 1
    if not drawn:
        raise mr.ResultsError("%s: no numeric value of %s to draw" % (SUMMARY_CSV, args.metric))
    if numeric and args.logx:
        positive = [pos[x] for x in xs if pos[x] > 0]
        if min(pos.values()) <= 0:
            ax.set_xscale("symlog", linthresh=min(positive) if positive else 1.0)
        else:
            ax.set_xscale("log")
    if args.logy:
        ax.set_yscale("log")
    if not numeric:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs)
    ax.set_xlabel(option_label(args.x))
    ax.set_ylabel(metric_label(args.metric))
    n = "%d" % min(counts) if len(counts) == 1 else "%d-%d" % (min(counts), max(counts))
    bars = "\u00b11 sample std" if args.error == "std" else "95% CI of the mean (Student's t)"
    ax.legend(title="mean of n=%s seed(s); bars: %s" % (n, bars), title_fontsize="small")
    title = "%s vs %s" % (metric_label(args.metric), option_label(args.x).split(" (")[0])
    if args.where:
        title += " (%s)" % ", ".join(args.where)
    ax.set_title(title)
    fig.tight_layout()
    return fig


def run(args):
    fig = make_figure(args)
    import plotstyle as ps
    return ps.save(fig, plotopts.output_paths(args.sweep_dir, args.out, "sweep-%s-vs-%s.png"
                                              % (args.metric, args.x), args.format))


def main(argv=None, written=None):
    return mr.run_cli(build_parser(), run, argv, written)


if __name__ == "__main__":
    sys.exit(main())
