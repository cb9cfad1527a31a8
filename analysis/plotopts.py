# SPDX-License-Identifier: GPL-2.0-only
"""The options every plotting script takes, without importing matplotlib (so --help and the
error paths stay quick): --scheme, --window, --logy, --faults, --format; and the helpers that
apply them (:func:`chosen_schemes`, :func:`output_paths`, :func:`plot_argv`)."""

import argparse
import os

import numpy as np

import mrc_results as mr
import timeline as tl

FORMATS = ("png", "pdf", "svg")
FAULT_MODES = ("none", "bands", "lines")


def parse_formats(text):
    """A --format value: a comma list of FORMATS (argparse type)."""
    names = [f.strip().lower().lstrip(".") for f in text.split(",") if f.strip()]
    bad = [f for f in names if f not in FORMATS]
    if bad or not names:
        raise argparse.ArgumentTypeError("expected a comma list of %s, got %r" % (", ".join(FORMATS), text))
    return list(dict.fromkeys(names))


def _window(text):
    try:
        return tl.parse_window(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def add_plot_options(parser, default_format=None, faults=True, window=True, logy_help=None):
    """--scheme, --window, --logy, --faults and --format.  default_format None: the extension
    of --out, else png."""
    parser.add_argument("--scheme", action="append", metavar="NAME",
                        help="draw only this scheme (repeatable, or a comma list; default: every scheme)")
    if window:
        parser.add_argument("--window", type=_window, metavar="START_US:END_US",
                            help="draw only the data between these simulated times, in microseconds "
                                 "(either may be empty: 1000: or :5000)")
    parser.add_argument("--logy", action="store_true",
                        help=logy_help or "log scale on the value axes")
    if faults:
        parser.add_argument("--faults", choices=FAULT_MODES, default="bands",
                            help="fault events: none; bands (default): shaded intervals merged per target "
                                 "class; lines: a line per event when a panel has at most %d, else bands"
                                 % tl.FAULT_LINE_LIMIT)
    parser.add_argument("--format", type=parse_formats, default=default_format, metavar="png,pdf,svg",
                        help="output formats, a comma list of %s (default: %s)"
                             % (", ".join(FORMATS), ",".join(default_format) if default_format
                                else "the extension of --out, else png"))


def plot_argv(args):
    """The options of add_plot_options as argv (make_all.py passes them on)."""
    out = []
    for s in getattr(args, "scheme", None) or []:
        out += ["--scheme", s]
    if getattr(args, "window", None) is not None:
        lo, hi = args.window
        out += ["--window", "%s:%s" % ("" if lo == -np.inf else repr(lo), "" if hi == np.inf else repr(hi))]
    if getattr(args, "logy", False):
        out.append("--logy")
    if getattr(args, "faults", None):
        out += ["--faults", args.faults]
    if getattr(args, "format", None):
        out += ["--format", ",".join(args.format)]
    return out


def wanted_schemes(args):
    """The schemes --scheme names, in order, or None for all."""
    names = []
    for item in getattr(args, "scheme", None) or []:
        names += [s.strip() for s in item.split(",") if s.strip()]
    return list(dict.fromkeys(names)) or None


def chosen_schemes(args, available, prog, what, everywhere=None):
    """The schemes to draw: those of `available` that --scheme names (in its order), or all.
    A --scheme name found in none of `everywhere` (default: available) raises ResultsError; one
    found elsewhere but not here is skipped with a line on stdout."""
    wanted = wanted_schemes(args)
    if wanted is None:
        return list(available)
    known = list(everywhere if everywhere is not None else available)
    unknown = [s for s in wanted if s not in known and s not in available]
    if unknown:
        raise mr.ResultsError("--scheme %s: no such scheme in %s (schemes: %s)"
                              % (",".join(unknown), args.results_dir, ", ".join(known) or "none"))
    for s in wanted:
        if s not in available:
            print("%s: scheme %s has no %s; not drawn" % (prog, s, what))
    return [s for s in wanted if s in available]


def output_paths(results_dir, out, default_name, formats):
    """The files to write: --out (its extension replaced by each format), else
    RESULTS_DIR/default_name, once per format.  Formats None: the extension of --out if it is
    one of FORMATS, else png.  The directory is created."""
    base = out if out else os.path.join(results_dir, default_name)
    stem, ext = os.path.splitext(base)
    ext = ext.lower().lstrip(".")
    if ext not in FORMATS:
        stem = base
    if not formats:
        formats = [ext] if out and ext in FORMATS else ["png"]
    paths = [stem + "." + f for f in formats]
    parent = os.path.dirname(stem)
    if parent:
        os.makedirs(parent, exist_ok=True)
    return paths
