#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Draw one image per claim or figure from a claims or paper results directory.

    /usr/bin/python3 analysis/plot_claims.py results/claims-<time> [--out-dir DIR] [--format png,pdf]

A claims directory holds figures.csv and claims.csv (first column: claim), a paper directory
figures.csv and checks.csv (first column: figure).  figures.csv has one row per point: claim
(or figure), panel, kind (line, cdf, bar), title, xlabel, ylabel,
logx, logy, categories (bar: names joined by '|'), series, x, y. A series whose name starts
with '|' is not data: its x values are drawn as dashed vertical lines (fault times); one whose
name starts with '>' is drawn against a second y axis on the right, labelled by the part of
ylabel after '|' ("Gb/s|queue (KB)"). Each claim's panels go side by
side in <claim>.png (and .pdf, ... with --format), titled with the verdict from the checks.

An incomplete directory (docs/results.md) is refused unless --allow-partial is given; then every
figure says PARTIAL RESULTS and why.  The images written into the directory are recorded in its
manifest.json.

Exit status: 0 on success, 2 on a missing or incomplete directory or a malformed file, 1 if an
image cannot be written.
"""

import argparse
import csv
import os
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import plotopts
import results_dir as rd

PROG = "plot_claims.py"
FIG_COLUMNS = ["claim", "panel", "kind", "title", "xlabel", "ylabel", "logx", "logy",
               "categories", "series", "x", "y"]
CLAIM_COLUMNS = ["claim", "metric", "unit", "mrc", "baseline", "threshold", "check", "verdict",
                 "threshold_source"]
KINDS = {"line", "cdf", "bar"}


def fail(msg):
    sys.stderr.write("%s: error: %s\n" % (PROG, msg))
    sys.exit(2)


CHECK_FILES = ("claims.csv", "checks.csv")  # claims, paper


def check_header(path, columns, header):
    """The header must be columns, its first column claim (claims) or figure (paper)."""
    if not header or header[1:] != columns[1:] or header[0] not in ("claim", "figure"):
        fail("%s: header must be %s (got %s)" % (path, ",".join(columns), header))


def checks_file(results):
    """The checks CSV of the directory: claims.csv (claims) or checks.csv (paper)."""
    for name in CHECK_FILES:
        if os.path.isfile(os.path.join(results, name)):
            return os.path.join(results, name)
    fail("%s: no claims.csv or checks.csv: not a claims or paper results directory" % results)


def check_headers(results):
    """The header of each of the CSVs that exists (before the completeness check: a
    directory that is no claims run is named as such)."""
    for name, columns in [("figures.csv", FIG_COLUMNS)] + [(n, CLAIM_COLUMNS) for n in CHECK_FILES]:
        path = os.path.join(results, name)
        if os.path.isfile(path):
            with open(path, newline="") as f:
                check_header(path, columns, next(csv.reader(f), None))


def read_csv(path, columns):
    """Rows of a CSV with the given header (its first column read as 'claim'), or a one-line
    error."""
    if not os.path.isfile(path):
        fail("%s: no such file" % path)
    with open(path, newline="") as f:
        reader = csv.reader(f)
        check_header(path, columns, next(reader, None))
        rows = []
        for n, row in enumerate(reader, start=2):
            if len(row) != len(columns):
                fail("%s:%d: %d fields, expected %d" % (path, n, len(row), len(columns)))
            rows.append(dict(zip(columns, row)))
        return rows


def number(path, row, field):
    text = row[field]
    if text == "":
        return float("nan")
    try:
        return float(text)
    except ValueError:
        fail("%s: field '%s' of claim %s is not a number: '%s'" % (path, field, row["claim"], text))


def load(results):
    """{claim: {panel: figure}} and {claim: verdict}."""
    fig_path = os.path.join(results, "figures.csv")
    figures = {}
    for row in read_csv(fig_path, FIG_COLUMNS):
        if row["kind"] not in KINDS:
            fail("%s: kind must be one of %s (got '%s')" % (fig_path, ", ".join(sorted(KINDS)),
                                                           row["kind"]))
        panels = figures.setdefault(row["claim"], {})
        fig = panels.setdefault(row["panel"], {
            "kind": row["kind"], "title": row["title"], "xlabel": row["xlabel"],
            "ylabel": row["ylabel"], "logx": row["logx"] == "1", "logy": row["logy"] == "1",
            "categories": row["categories"].split("|") if row["categories"] else [],
            "series": {}})
        s = fig["series"].setdefault(row["series"], ([], []))
        s[0].append(number(fig_path, row, "x"))
        s[1].append(number(fig_path, row, "y"))
    verdicts = {}
    for row in read_csv(checks_file(results), CLAIM_COLUMNS):
        verdicts[row["claim"]] = row["verdict"]
    return figures, verdicts


def draw(claim, panels, verdict, out_dir, partial=None, formats=("png",)):
    import plotstyle  # noqa: F401  (rcParams)
    import matplotlib.pyplot as plt
    import numpy as np

    n = len(panels)
    fig, axes = plt.subplots(1, n, figsize=(6.2 * n, 4.2), squeeze=False)
    for ax, key in zip(axes[0], sorted(panels, key=int)):
        p = panels[key]
        names = [n for n in p["series"] if not n.startswith("|")]
        right = [n for n in names if n.startswith(">")]
        names = [n for n in names if not n.startswith(">")]
        for n in p["series"]:
            if n.startswith("|"):
                for x in p["series"][n][0]:
                    ax.axvline(x, color="grey", linestyle="--", linewidth=1)
        if p["kind"] == "bar":
            cats = p["categories"] or [str(i) for i in range(
                int(max(max(p["series"][n][0]) for n in names)) + 1)]
            width = 0.8 / max(1, len(names))
            for i, name in enumerate(names):
                xs, ys = p["series"][name]
                ax.bar(np.array(xs) + (i - (len(names) - 1) / 2) * width, ys, width, label=name)
            ax.set_xticks(range(len(cats)))
            ax.set_xticklabels(cats, rotation=15 if len(cats) > 3 else 0)
        else:
            for name in names:
                xs, ys = p["series"][name]
                if p["kind"] == "cdf":
                    ax.step(xs, ys, where="post", label=name)
                else:
                    ax.plot(xs, ys, marker="o" if len(xs) <= 12 else None, label=name)
        if p["logx"]:
            ax.set_xscale("log")
        if p["logy"]:
            ys = [y for n in names for y in p["series"][n][1] if y == y]
            if ys and min(ys) <= 0:
                ax.set_yscale("symlog", linthresh=0.1)  # zeros and negatives (inflation)
            else:
                ax.set_yscale("log")
        ax.set_title(p["title"], fontsize="medium")
        ax.set_xlabel(p["xlabel"])
        left_label, _, right_label = p["ylabel"].partition("|")
        ax.set_ylabel(left_label)
        handles, labels = ax.get_legend_handles_labels()
        if right:
            ax2 = ax.twinx()
            for i, name in enumerate(right):
                xs, ys = p["series"][name]
                ax2.plot(xs, ys, color="C%d" % (len(names) + i), linewidth=1, label=name[1:])
            ax2.set_ylabel(right_label)
            ax2.set_ylim(bottom=0)
            h2, l2 = ax2.get_legend_handles_labels()
            handles, labels = handles + h2, labels + l2
        if len(handles) > 1:
            ax.legend(handles, labels)
    fig.suptitle("%s: %s" % (claim, verdict))
    fig.tight_layout()
    return plotstyle.save(fig, [os.path.join(out_dir, "%s.%s" % (claim, f)) for f in formats],
                          partial)


def main(argv=None):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("results", help="a claims or paper results directory")
    ap.add_argument("--out-dir", help="where the PNGs go (default: the results directory)")
    ap.add_argument("--allow-partial", action="store_true",
                    help="draw an incomplete directory anyway, marked PARTIAL RESULTS")
    ap.add_argument("--format", type=plotopts.parse_formats, default=["png"], metavar="png,pdf,svg",
                    help="output formats, a comma list of %s (default: png)"
                         % ", ".join(plotopts.FORMATS))
    ap.add_argument("--in-run", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not os.path.isdir(args.results):
        fail("%s: no such directory" % args.results)
    check_headers(args.results)
    ok, partial = rd.check_complete(args.results, allow_partial=True, in_run=args.in_run)
    if not ok and not args.allow_partial:
        sys.stderr.write("error: %s: %s; --allow-partial draws it anyway\n" % (args.results, partial))
        return 2
    if not ok:
        sys.stderr.write("warning: %s: %s; drawing it anyway\n" % (args.results, partial))
    figures, verdicts = load(args.results)
    out_dir = args.out_dir or args.results
    try:
        os.makedirs(out_dir, exist_ok=True)
        written = [p for c in figures
                   for p in draw(c, figures[c], verdicts.get(c, "?"), out_dir, partial, args.format)]
        rd.add_outputs(args.results, written)
    except OSError as e:
        sys.stderr.write("%s: error: cannot write '%s': %s\n" % (PROG, e.filename or out_dir, e.strerror or e))
        return 1
    except rd.ResultsDirError as e:
        sys.stderr.write("%s: error: %s\n" % (PROG, e))
        return 1
    print("plots: %d written (%s)" % (len(written), ", ".join(os.path.basename(w)
                                                            for w in written)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
