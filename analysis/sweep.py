#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parameter sweeps of one program: a local process pool or a Slurm job array.

  sweep.py run SPEC [--out DIR] [--jobs N] [--slurm [--no-wait]] [--build-dir DIR]
  sweep.py gather SWEEP_DIR
  sweep.py run-point SWEEP_DIR INDEX    what each Slurm array task runs
  sweep.py program SPEC [...]           print the spec's program (used by ./ns3 sweep)

`./ns3 sweep SPEC` builds the spec's program, then runs `sweep.py run`.
docs/sweeps.md describes the spec (TOML or JSON).  Every point (a set of
option values and a seed) runs BUILD/bin/PROGRAM in a directory of its own,
SWEEP_DIR/<name>/, with --out=<that directory> and --seed=N; its stdout and
stderr end up in stdout.log and stderr.log there.  A point is finished when
the program exited 0 and wrote the spec's outputs: then a marker, .done,
records the exit status, wall time and command (.failed if not).  A rerun
skips finished points and runs the others again, so a sweep resumes where it
stopped, whether its points ran here or on Slurm.

The sweep directory is a results directory (docs/results.md): `run` and
`gather` hold its lock (.mrc-lock) while they run, its manifest.json (program
"sweep") lists the files this script writes and the point directories, and
each point directory has the program's own manifest.  A point is rerun only
in a directory holding nothing but files those manifests list; an existing
--out that is not a sweep directory is refused.

At the end, `gather` merges every finished and complete point's per-scheme
summary (analysis/mrc_results.py) into SWEEP_DIR/sweep-summary.csv, and the
spec's plot, if any, is drawn by plot_sweep.py.

Exit status: 0 when every point finished; 1 when a point failed or is not
finished; 2 with one line `error: ...` on a bad spec or command line, a
directory in use or not a sweep's, or a file that cannot be written (nothing
is started then, or nothing more).
"""

import argparse
import concurrent.futures
import csv
import difflib
import itertools
import json
import math
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.parse

import results_dir as rd

PROG = "sweep.py"
PROGRAM = "sweep"  # the program of the sweep directory's manifest
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INDEX_JSON = "sweep.json"
POINTS_CSV = "points.csv"
SUMMARY_CSV = "sweep-summary.csv"
DONE = ".done"
FAILED = ".failed"
POINT_LOGS = ("stdout.log", "stderr.log")
LOGS = "logs"  # where a running point's stdout/stderr are written, moved into its directory at the end
SLURM_DIR = "slurm"
POLL_S = float(os.environ.get("MRC_SWEEP_POLL_S", "2"))

TOP_KEYS = ("name", "program", "fixed", "grid", "points", "seeds", "seed_option", "out_option",
            "outputs", "slurm", "plot")
SLURM_KEYS = ("partition", "time", "cpus_per_task", "mem", "max_running")
PLOT_KEYS = ("metric", "x", "by", "error", "logx", "logy")
ERROR_KINDS = ("std", "ci95")
RESERVED_COLUMNS = ("point", "seed", "scheme")
SAFE_NAME = re.compile(r"^[A-Za-z0-9._+-]+$")


class SweepError(Exception):
    """A bad spec, command line or environment; str(e) is one line."""


# ------------------------------------------------------------------ the spec

def load_spec(path):
    """Read a TOML or JSON spec into a dict (not yet checked)."""
    if not os.path.isfile(path):
        raise SweepError("spec not found: %s" % path)
    ext = os.path.splitext(path)[1].lower()
    try:
        if ext == ".toml":
            with open(path, "rb") as f:
                return tomllib.load(f)
        if ext == ".json":
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            if not isinstance(data, dict):
                raise SweepError("%s: expected a JSON object at the top" % path)
            return data
    except tomllib.TOMLDecodeError as e:
        raise SweepError("%s: invalid TOML: %s" % (path, e))
    except json.JSONDecodeError as e:
        raise SweepError("%s: line %d, column %d: invalid JSON: %s" % (path, e.lineno, e.colno, e.msg))
    except (OSError, UnicodeDecodeError) as e:
        raise SweepError("%s: cannot read: %s" % (path, e))
    raise SweepError("%s: a spec is a .toml or .json file" % path)


def _is_scalar(v):
    if isinstance(v, float):
        return math.isfinite(v)
    return isinstance(v, (str, int, bool))


def _show(v):
    """A spec value in a message (TOML dates included)."""
    return json.dumps(v, default=str)


def _type_name(v):
    return {dict: "a table", list: "a list", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number", type(None): "null"}.get(type(v), type(v).__name__)


def _scalar_table(where, key, value):
    """A table of option -> scalar value."""
    if not isinstance(value, dict):
        raise SweepError("%s: key '%s': expected a table of option = value, got %s"
                         % (where, key, _type_name(value)))
    for k, v in value.items():
        if not _is_scalar(v):
            raise SweepError("%s: key '%s.%s': expected a string, number or boolean, got %s"
                             % (where, key, k, _type_name(v)))
    return value


def _string(where, key, value, allow_empty=False):
    if not isinstance(value, str) or (not value and not allow_empty):
        raise SweepError("%s: key '%s': expected a%s string, got %s"
                         % (where, key, "" if allow_empty else " non-empty", _type_name(value)))
    return value


def _positive_int(where, key, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SweepError("%s: key '%s': expected a positive integer, got %r" % (where, key, value))
    return value


def _unknown(where, prefix, table, accepted):
    for k in table:
        if k not in accepted:
            raise SweepError("%s: unknown key '%s%s' (accepted: %s)" % (where, prefix, k, ", ".join(accepted)))


def check_spec(raw, where):
    """Check a spec's structure and types (where: the spec's path, for the messages); return it
    with every default filled in."""
    _unknown(where, "", raw, TOP_KEYS)
    if "program" not in raw:
        raise SweepError("%s: key 'program' is missing (the program to run, e.g. \"quickstart\")" % where)
    spec = {"program": _string(where, "program", raw["program"])}
    if not SAFE_NAME.match(spec["program"]):
        raise SweepError("%s: key 'program': not a program name: %r" % (where, spec["program"]))
    name = raw.get("name", os.path.splitext(os.path.basename(where))[0])
    spec["name"] = _string(where, "name", name)
    if not SAFE_NAME.match(spec["name"]):
        raise SweepError("%s: key 'name': use letters, digits and . _ + - only (got %r)"
                         % (where, spec["name"]))
    spec["fixed"] = _scalar_table(where, "fixed", raw.get("fixed", {}))

    spec["grid"] = {}
    if "grid" in raw:
        grid = raw["grid"]
        if not isinstance(grid, dict):
            raise SweepError("%s: key 'grid': expected a table of option = [values], got %s"
                             % (where, _type_name(grid)))
        if not grid:
            raise SweepError("%s: key 'grid': empty (give each option to vary a non-empty list of values)"
                             % where)
        for k, vals in grid.items():
            if not isinstance(vals, list) or not vals or not all(_is_scalar(v) for v in vals):
                raise SweepError("%s: key 'grid.%s': expected a non-empty list of strings, numbers or "
                                 "booleans, got %s" % (where, k, _show(vals)))
            if len({fmt(v) for v in vals}) != len(vals):
                raise SweepError("%s: key 'grid.%s': a value appears twice in %s" % (where, k, _show(vals)))
            if k in spec["fixed"]:
                raise SweepError("%s: key 'grid.%s': also in 'fixed' (an option is either fixed or varied)"
                                 % (where, k))
        spec["grid"] = grid

    spec["points"] = []
    if "points" in raw:
        pts = raw["points"]
        if not isinstance(pts, list) or not pts:
            raise SweepError("%s: key 'points': expected a non-empty list of tables of option = value, got %s"
                             % (where, _show(pts)))
        for i, p in enumerate(pts):
            _scalar_table(where, "points[%d]" % i, p)
            if not p:
                raise SweepError("%s: key 'points[%d]': empty table" % (where, i))
        spec["points"] = pts

    spec["seed_option"] = _string(where, "seed_option", raw.get("seed_option", "seed"), allow_empty=True)
    spec["out_option"] = _string(where, "out_option", raw.get("out_option", "out"), allow_empty=True)
    seeds = raw.get("seeds", [1] if spec["seed_option"] else None)
    if seeds is None:
        spec["seeds"] = None
    elif not spec["seed_option"]:
        raise SweepError("%s: key 'seeds': seed_option is empty (the program takes no seed), so give no seeds"
                         % where)
    elif isinstance(seeds, int) and not isinstance(seeds, bool):
        spec["seeds"] = list(range(1, _positive_int(where, "seeds", seeds) + 1))
    elif (isinstance(seeds, list) and seeds
          and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds)):
        if len(set(seeds)) != len(seeds):
            raise SweepError("%s: key 'seeds': a seed appears twice in %s" % (where, seeds))
        spec["seeds"] = seeds
    else:
        raise SweepError("%s: key 'seeds': expected a non-empty list of non-negative integers or a count, "
                         "got %s"
                         % (where, _show(seeds)))

    outputs = raw.get("outputs", ["run.json"] if spec["out_option"] else [])
    if not isinstance(outputs, list) or not all(isinstance(o, str) and o for o in outputs):
        raise SweepError("%s: key 'outputs': expected a list of file names, got %s" % (where, _show(outputs)))
    spec["outputs"] = outputs

    for opt in (spec["seed_option"], spec["out_option"]):
        for table, key in ((spec["fixed"], "fixed"), (spec["grid"], "grid")):
            if opt and opt in table:
                raise SweepError("%s: key '%s.%s': --%s is set by the sweep itself (seed_option / out_option)"
                                 % (where, key, opt, opt))
        for i, p in enumerate(spec["points"]):
            if opt and opt in p:
                raise SweepError("%s: key 'points[%d].%s': --%s is set by the sweep itself"
                                 % (where, i, opt, opt))
    for k in parameters_of(spec):
        if k in RESERVED_COLUMNS:
            raise SweepError("%s: option '%s': its name is taken by a sweep-summary.csv column (%s)"
                             % (where, k, ", ".join(RESERVED_COLUMNS)))

    slurm = raw.get("slurm", {})
    if not isinstance(slurm, dict):
        raise SweepError("%s: key 'slurm': expected a table, got %s" % (where, _type_name(slurm)))
    _unknown(where, "slurm.", slurm, SLURM_KEYS)
    if "partition" in slurm:
        _string(where, "slurm.partition", slurm["partition"])
    for k in ("time", "mem"):
        v = slurm.get(k)
        if v is not None and not (isinstance(v, str) and v or isinstance(v, int) and not isinstance(v, bool)
                                  and v > 0):
            raise SweepError("%s: key 'slurm.%s': expected a string (e.g. %s) or a positive integer, got %s"
                             % (where, k, '"00:30:00"' if k == "time" else '"2G"', _show(v)))
    for k in ("cpus_per_task", "max_running"):
        if k in slurm:
            _positive_int(where, "slurm." + k, slurm[k])
    spec["slurm"] = slurm

    plot = raw.get("plot")
    if plot is not None:
        if not isinstance(plot, dict):
            raise SweepError("%s: key 'plot': expected a table, got %s" % (where, _type_name(plot)))
        _unknown(where, "plot.", plot, PLOT_KEYS)
        for k in ("metric", "x"):
            if k not in plot:
                raise SweepError("%s: key 'plot.%s' is missing (plot needs metric and x)" % (where, k))
            _string(where, "plot." + k, plot[k])
        params = parameters_of(spec)
        if plot["x"] not in params:
            raise SweepError("%s: key 'plot.x': '%s' is not a varied option (varied: %s)"
                             % (where, plot["x"], ", ".join(params) or "none"))
        by = _string(where, "plot.by", plot.get("by", "scheme"))
        if by != "scheme" and by not in params:
            raise SweepError("%s: key 'plot.by': '%s' is neither 'scheme' nor a varied option (varied: %s)"
                             % (where, by, ", ".join(params) or "none"))
        if plot.get("error", "std") not in ERROR_KINDS:
            raise SweepError("%s: key 'plot.error': expected one of %s, got %s"
                             % (where, ", ".join(ERROR_KINDS), _show(plot["error"])))
        for k in ("logx", "logy"):
            if not isinstance(plot.get(k, False), bool):
                raise SweepError("%s: key 'plot.%s': expected a boolean, got %s" % (where, k, _show(plot[k])))
    spec["plot"] = plot
    configurations(spec, where)  # duplicate points, overlong names
    return spec


def parameters_of(spec):
    """The varied options, in order: the grid's, then those the explicit points add."""
    params = list(spec["grid"])
    for p in spec["points"]:
        params += [k for k in p if k not in params]
    return params


def program_options(binary):
    """The option names a program's --help lists under 'Program Options'."""
    try:
        p = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SweepError("%s --help failed: %s" % (binary, e))
    names, inside = [], False
    for line in p.stdout.splitlines():
        if line.startswith("Program Options"):
            inside = True
        elif line and not line[0].isspace():
            inside = False
        elif inside:
            m = re.match(r"\s+--([^:\s]+):", line)
            if m:
                names.append(m.group(1))
    return names


def check_options(spec, spec_path, binary):
    """Every option the spec sets must be one the program's --help lists; ns-3 attribute
    options (names with '::') pass unchecked."""
    accepted = program_options(binary)
    used = [("fixed." + k, k) for k in spec["fixed"]] + [("grid." + k, k) for k in spec["grid"]]
    used += [("points[%d].%s" % (i, k), k) for i, p in enumerate(spec["points"]) for k in p]
    for key, opt in (("seed_option", spec["seed_option"]), ("out_option", spec["out_option"])):
        if opt:
            used.append((key, opt))
    for key, opt in used:
        if "::" not in opt and opt not in accepted:
            close = difflib.get_close_matches(opt, accepted, n=1)
            hint = "did you mean --%s? " % close[0] if close else ""
            raise SweepError("%s: key '%s': %s has no option --%s (%saccepted: %s)"
                             % (spec_path, key, spec["program"], opt, hint,
                                " ".join("--" + a for a in accepted)))


def fmt(v):
    """An option value as the program gets it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _enc(s):
    return urllib.parse.quote(s, safe="+@.-_")


def configurations(spec, where=""):
    """[(name, options of the point, seed)] in sweep order: the grid's cartesian product (last
    option fastest), then the explicit points; each with every seed (seeds innermost)."""
    configs = [dict(zip(spec["grid"], combo)) for combo in itertools.product(*spec["grid"].values())]
    configs = (configs if spec["grid"] else []) + [dict(p) for p in spec["points"]]
    out, names = [], set()
    for cfg in configs or [{}]:
        for seed in spec["seeds"] or [None]:
            parts = ["%s=%s" % (_enc(k), _enc(fmt(v))) for k, v in cfg.items()]
            if seed is not None:
                parts.append("seed=%d" % seed)
            name = ",".join(parts) or "run"
            if name in names:
                raise SweepError("%s: key 'points': two points are the same: %s" % (where, name))
            if len(name.encode()) > 200:
                raise SweepError("%s: a point's directory name is longer than 200 bytes (use fewer or shorter "
                                 "values): %s..." % (where, name[:60]))
            names.add(name)
            out.append((name, cfg, seed))
    return out


def expand(spec, sweep_dir, binary):
    """The sweep's points, in the order of configurations(), with their options and commands."""
    points = []
    for name, cfg, seed in configurations(spec):
        values = dict(spec["fixed"])
        values.update(cfg)
        options = ["--%s=%s" % (k, fmt(v)) for k, v in values.items()]
        if seed is not None:
            options.append("--%s=%d" % (spec["seed_option"], seed))
        argv = [binary] + options
        if spec["out_option"]:
            argv.append("--%s=%s" % (spec["out_option"], os.path.join(sweep_dir, name)))
        points.append({
            "index": len(points), "name": name, "seed": seed,
            "params": {k: fmt(values[k]) if k in values else "" for k in parameters_of(spec)},
            "options": [spec["program"]] + options, "argv": argv,
        })
    return points


# ------------------------------------------------------------------ the sweep directory

def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_recorded(manifest, sweep_dir, name, write):
    """Write SWEEP_DIR/name through name.tmp and a rename (write(tmp_path) writes it), with both
    listed in the manifest meanwhile (null entries) and name recorded at the end."""
    path = os.path.join(sweep_dir, *name.split("/"))
    manifest.begin(name + ".tmp", name)
    write(path + ".tmp")
    os.replace(path + ".tmp", path)
    manifest.finish(name)
    manifest.forget(name + ".tmp")
    return path


def point_files(name):
    """The files this script may write for a point, relative to the sweep directory: the logs
    while it runs, then its logs and marker in the point's directory."""
    return (["%s/%s" % (name, f) for f in POINT_LOGS + (DONE, FAILED)]
            + ["%s/%s.%s" % (LOGS, name, f) for f in POINT_LOGS])


def sweep_owned_in(sweep_dir, name):
    """The files of point directory `name` that the sweep's manifest lists (relative to it)."""
    try:
        manifest = rd.read_manifest(sweep_dir)
    except rd.ResultsDirError:
        manifest = None
    prefix = name + "/"
    return [f[len(prefix):] for f in (manifest or {}).get("files", {}) if f.startswith(prefix) and f != prefix]


def reconcile(sweep_dir, manifest, points):
    """Bring the manifest's entries of these points' files (point_files) and of SWEEP_DIR/slurm/
    up to date with what is on disk: record the files there, drop the ones that are gone.
    Slurm tasks write their markers, logs and output files without touching the manifest."""
    present, gone = [], []
    for p in points:
        for f in point_files(p["name"]):
            (present if os.path.isfile(os.path.join(sweep_dir, *f.split("/"))) else gone).append(f)
    slurm = os.path.join(sweep_dir, SLURM_DIR)
    if os.path.isdir(slurm):
        present += ["%s/%s" % (SLURM_DIR, n) for n in sorted(os.listdir(slurm))
                    if (n == "sweep.sbatch" or n.endswith(".out")) and os.path.isfile(os.path.join(slurm, n))]
    if present:
        manifest.finish(*present)
    if gone:
        manifest.forget(*gone)


def check_out(sweep_dir):
    """Refuse an --out that exists, holds anything and is not a sweep directory of ours."""
    if not os.path.lexists(sweep_dir):
        return
    if not os.path.isdir(sweep_dir):
        raise SweepError("--out: '%s' exists and is not a directory" % sweep_dir)
    held = sorted(n for n in os.listdir(sweep_dir) if n not in rd.BOOKKEEPING)
    if not held:
        return
    try:
        manifest = rd.read_manifest(sweep_dir)
    except rd.ResultsDirError as e:
        raise SweepError("--out: '%s': %s" % (sweep_dir, e))
    if manifest is None:
        raise SweepError("--out: '%s' is not a sweep directory (it holds '%s' and no %s); choose another "
                         "directory" % (sweep_dir, held[0], rd.MANIFEST))
    if manifest.get("program") != PROGRAM:
        raise SweepError("--out: '%s' holds the results of %s, not a sweep; choose another directory"
                         % (sweep_dir, manifest.get("program")))


def lock(sweep_dir, what):
    """The sweep directory's Lock, taken; a directory in use is a SweepError."""
    held = rd.Lock(sweep_dir, PROGRAM)
    try:
        held.__enter__()
    except rd.ResultsDirInUse as e:
        raise SweepError("%s: %s" % (what, e))
    return held


# ------------------------------------------------------------------ one point

def point_state(sweep_dir, index, point, verify=False):
    """'done' (finished with the current command and its outputs present), 'failed', or 'new'.
    verify: a point whose program writes a results directory (out_option) is done only if that
    directory is complete too (docs/results.md)."""
    pdir = os.path.join(sweep_dir, point["name"])
    done = _read_json(os.path.join(pdir, DONE))
    if (done and done.get("status") == 0 and done.get("options") == point["options"]
            and all(os.path.exists(os.path.join(pdir, o)) for o in index["outputs"])
            and not (verify and writes_results(index) and rd.incomplete_reason(pdir))):
        return "done"
    failed = _read_json(os.path.join(pdir, FAILED))
    if failed and failed.get("options") == point["options"]:
        return "failed"
    return "new"


def writes_results(index):
    """Whether the points' program writes a results directory (it takes an --out)."""
    return bool(index["spec"].get("out_option", "out"))


def command_line(point, sweep_dir):
    return "cd %s && %s" % (shlex.quote(os.path.join(sweep_dir, point["name"])), shlex.join(point["argv"]))


def check_rerunnable(sweep_dir, point):
    """Raise SweepError unless the point's directory holds only files the manifests list."""
    pdir = os.path.join(sweep_dir, point["name"])
    try:
        rd.owned_files(pdir, extra=sweep_owned_in(sweep_dir, point["name"]))
        empty_dirs(pdir)
    except rd.ResultsDirForeign as e:
        raise SweepError(foreign_message(e, point))


def empty_dirs(pdir):
    """Raise ResultsDirForeign for a directory under pdir that holds no file at all: no run
    wrote it, so it would stay, and the program refuses a non-empty --out."""
    for d, dirs, files in os.walk(pdir, topdown=False):
        if d != pdir and not files and not os.listdir(d):
            raise rd.ResultsDirForeign("'%s' holds '%s/', which no run wrote"
                                       % (pdir, os.path.relpath(d, pdir)), d)


def foreign_message(e, point):
    return "point %s: %s; a point is rerun only in a directory of its own files (move that file away)" % (
        point["name"], e)


def _interruption(status, pdir):
    """Why a point's program stopped early, or None: exit status 130/143 or a signal, with the
    reason its run.json gives."""
    if status not in (130, 143) and status >= 0:
        return None
    run = _read_json(os.path.join(pdir, "run.json"))
    reason = run.get("incomplete_reason") if isinstance(run, dict) and run.get("complete") is False else None
    if reason and reason != "running":
        return reason
    sig = -status if status < 0 else status - 128
    try:
        name = signal.Signals(sig).name
    except ValueError:
        name = "signal %d" % sig
    return "interrupted by %s" % name if status > 0 else "killed by %s" % name


def run_point(sweep_dir, index, point):
    """Run one point from a clean directory; write .done or .failed.  Returns the marker.

    An earlier run's files are removed with results_dir.remove_owned (the files the point's
    manifest and the sweep's list); a directory holding anything else is a SweepError, and
    nothing is removed."""
    pdir = os.path.join(sweep_dir, point["name"])
    try:
        empty_dirs(pdir)
        rd.remove_owned(pdir, remove_root=True, extra=sweep_owned_in(sweep_dir, point["name"]))
    except rd.ResultsDirForeign as e:
        raise SweepError(foreign_message(e, point))
    os.makedirs(pdir, exist_ok=True)
    logs = os.path.join(sweep_dir, LOGS)
    os.makedirs(logs, exist_ok=True)
    out_log = os.path.join(logs, point["name"] + ".stdout.log")
    err_log = os.path.join(logs, point["name"] + ".stderr.log")
    t0 = time.monotonic()
    with open(out_log, "wb") as out, open(err_log, "wb") as err:
        try:
            status = subprocess.call(point["argv"], stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=pdir)
        except OSError as e:
            err.write(("error: cannot run %s: %s\n" % (point["argv"][0], e)).encode())
            status = 127
    wall = time.monotonic() - t0
    os.replace(out_log, os.path.join(pdir, "stdout.log"))
    os.replace(err_log, os.path.join(pdir, "stderr.log"))
    missing = [o for o in index["outputs"] if not os.path.exists(os.path.join(pdir, o))] if status == 0 else []
    marker = {"status": status, "wall_s": round(wall, 3), "host": socket.gethostname(),
              "options": point["options"], "argv": point["argv"]}
    if missing:
        marker["missing"] = missing
    reason = _interruption(status, pdir)
    if reason:
        marker["reason"] = reason
    ok = status == 0 and not missing
    # Written in place: a torn marker does not parse, and the point is simply not finished.
    _write(os.path.join(pdir, DONE if ok else FAILED), json.dumps(marker, indent=1) + "\n")
    return marker


def failure_report(sweep_dir, point):
    """Lines describing why a point is not finished: its command and the tail of its stderr."""
    pdir = os.path.join(sweep_dir, point["name"])
    marker = _read_json(os.path.join(pdir, FAILED))
    if marker is None:
        why = "did not finish (no marker; for a Slurm task see %s/)" % os.path.join(sweep_dir, SLURM_DIR)
    elif marker.get("missing"):
        why = "exited 0 after %.1f s but did not write %s" % (marker["wall_s"], ", ".join(marker["missing"]))
    else:
        why = "exit status %s after %.1f s" % (marker["status"], marker["wall_s"])
        if marker.get("reason"):
            why += " (%s)" % marker["reason"]
    lines = ["FAILED %s: %s" % (point["name"], why), "  command: %s" % command_line(point, sweep_dir)]
    err = os.path.join(pdir, "stderr.log")
    if not os.path.exists(err):  # a point stopped while it ran keeps its logs in LOGS
        err = os.path.join(sweep_dir, LOGS, point["name"] + ".stderr.log")
    if os.path.exists(err):
        with open(err, encoding="utf-8", errors="replace") as f:
            tail = f.read().splitlines()[-8:]
        lines.append("  stderr (%s), last %d line(s):" % (err, len(tail)))
        lines += ["    " + t for t in tail]
    return lines


# ------------------------------------------------------------------ progress

def _hms(s):
    s = int(round(s))
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


class Progress:
    """One line on stderr: rewritten in place on a terminal, a new line per change otherwise."""

    def __init__(self, label, total):
        self.label, self.total = label, total
        self.done = self.failed = 0
        self.t0 = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.last = None

    def set(self, done, failed):
        self.done, self.failed = done, failed
        self.show()

    def show(self):
        finished = self.done + self.failed
        elapsed = time.monotonic() - self.t0
        eta = _hms(elapsed / finished * (self.total - finished)) if finished else "?"
        counts = "%s: %d/%d done, %d failed" % (self.label, self.done, self.total, self.failed)
        if self.tty:
            sys.stderr.write("\r%s, elapsed %s, ETA %s\033[K" % (counts, _hms(elapsed), eta))
            sys.stderr.flush()
        elif counts != self.last:
            sys.stderr.write("%s, elapsed %s, ETA %s\n" % (counts, _hms(elapsed), eta))
            sys.stderr.flush()
        self.last = counts

    def close(self):
        if self.tty:
            sys.stderr.write("\n")


def run_local(sweep_dir, index, todo, jobs, progress, manifest):
    """Run the points of todo on a pool of `jobs` threads; the manifest records each finished
    point's files (in one update per batch of points that finished together)."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        pending = {pool.submit(run_point, sweep_dir, index, p): p for p in todo}
        progress.show()
        while pending:
            finished, _ = concurrent.futures.wait(pending, timeout=1.0,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
            points = [pending.pop(f) for f in finished]
            if points:
                reconcile(sweep_dir, manifest, points)
            for f in finished:
                marker = f.result()
                if marker["status"] == 0 and not marker.get("missing"):
                    progress.done += 1
                else:
                    progress.failed += 1
            progress.show()
    finally:  # on Ctrl-C: start no other point, wait for the running ones (interrupted too)
        pool.shutdown(wait=True, cancel_futures=True)


# ------------------------------------------------------------------ Slurm

def batch_script(sweep_dir, spec, todo):
    """A job array, one task per point of todo.  It names everything by absolute path (Python,
    this script, the sweep directory; sweep.json names the binary), so it needs nothing from the
    submitting shell; Slurm's default --export=ALL still passes that environment on, as the local
    pool does."""
    slurm = spec["slurm"]
    array = "0-%d" % (len(todo) - 1)
    if "max_running" in slurm:
        array += "%%%d" % slurm["max_running"]
    lines = ["#!/bin/bash",
             "#SBATCH --job-name=sweep-%s" % spec["name"],
             "#SBATCH --array=%s" % array,
             "#SBATCH --output=%s" % os.path.join(sweep_dir, SLURM_DIR, "%A_%a.out"),
             "#SBATCH --chdir=%s" % sweep_dir]
    for key, opt in (("partition", "partition"), ("time", "time"), ("cpus_per_task", "cpus-per-task"),
                     ("mem", "mem")):
        if key in slurm:
            lines.append("#SBATCH --%s=%s" % (opt, slurm[key]))
    lines += ["# Written by analysis/sweep.py: one array task per unfinished point of this sweep;",
              "# each runs its point as the local pool does (same directory, markers and logs).",
              "POINTS=(%s)" % " ".join(str(p["index"]) for p in todo),
              "exec %s %s run-point %s \"${POINTS[$SLURM_ARRAY_TASK_ID]}\""
              % (shlex.quote(sys.executable), shlex.quote(os.path.abspath(__file__)), shlex.quote(sweep_dir)),
              ""]
    return "\n".join(lines)


def submit(sweep_dir, spec, todo, manifest):
    for p in todo:  # a stale marker would count as this run's result
        for m in (DONE, FAILED):
            path = os.path.join(sweep_dir, p["name"], m)
            if os.path.exists(path):
                os.remove(path)
    os.makedirs(os.path.join(sweep_dir, SLURM_DIR), exist_ok=True)
    script = write_recorded(manifest, sweep_dir, SLURM_DIR + "/sweep.sbatch",
                            lambda path: _write(path, batch_script(sweep_dir, spec, todo)))
    p = subprocess.run(["sbatch", "--parsable", script], capture_output=True, text=True)
    if p.returncode != 0:
        msg = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
        raise SweepError("sbatch %s failed: %s" % (script, msg))
    return p.stdout.strip().split(";")[0]


def job_running(job):
    """True while squeue still lists any task of the array job."""
    p = subprocess.run(["squeue", "-h", "-j", job, "-o", "%i"], capture_output=True, text=True)
    if p.returncode != 0:
        # Slurm forgets a finished job after MinJobAge; any other error: ask again later.
        return "Invalid job id" not in p.stderr
    return bool(p.stdout.strip())


def wait_slurm(sweep_dir, index, todo, job, progress):
    while True:
        running = job_running(job)
        states = [point_state(sweep_dir, index, p) for p in todo]
        progress.set(states.count("done"), states.count("failed"))
        if not running:
            return
        time.sleep(POLL_S)


# ------------------------------------------------------------------ gather

def gather(sweep_dir, manifest):
    """Merge every finished point's per-scheme summary into SWEEP_DIR/sweep-summary.csv (through
    a temporary file, recorded in the manifest).  A finished point whose results directory is
    not complete (docs/results.md) is not merged: it counts as unfinished, with one line on
    stderr saying why.  Returns (path or None, number of unfinished points)."""
    import mrc_results as mr
    index = load_index(sweep_dir)
    params = index["parameters"]
    rows, unfinished, empty = [], 0, 0
    for p in index["points"]:
        if point_state(sweep_dir, index, p) != "done":
            unfinished += 1
            continue
        pdir = os.path.join(sweep_dir, p["name"])
        if not writes_results(index):
            summary = []  # the program takes no --out: its results are in its logs
        else:
            reason = rd.incomplete_reason(pdir)
            if reason:
                print("%s: point %s not gathered: %s" % (PROG, p["name"], reason), file=sys.stderr)
                unfinished += 1
                continue
            try:
                summary = mr.summary_rows(mr.load_results(pdir))
            except mr.ResultsError as e:
                raise SweepError(str(e))
        empty += not summary
        for s in summary:
            row = {"point": p["name"]}
            row.update((k, p["params"][k]) for k in params)
            if p["seed"] is not None:
                row["seed"] = str(p["seed"])
            for k, v in s.items():
                # A summary column named like an option (quickstart's --steps) is renamed.
                column = "summary_" + k if k in params else k
                row[column] = v if k == "scheme" else mr.format_value(v, digits=10)
            rows.append(row)
    total = len(index["points"])
    note = "; %d finished point(s) had no flows/steps/events data" % empty if empty else ""
    if not rows:
        print("%s: nothing to gather in %s (%d of %d points finished%s)"
              % (PROG, sweep_dir, total - unfinished, total, note))
        return None, unfinished
    columns = []
    for r in rows:
        columns += [c for c in r if c not in columns]

    def write(tmp):
        with open(tmp, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=columns, restval="")
            w.writeheader()
            w.writerows(rows)
    path = write_recorded(manifest, sweep_dir, SUMMARY_CSV, write)
    print("%s: %d of %d points finished, %d row(s)%s: %s"
          % (PROG, total - unfinished, total, len(rows), note, path))
    return path, unfinished


def load_index(sweep_dir):
    index = _read_json(os.path.join(sweep_dir, INDEX_JSON))
    if not isinstance(index, dict) or "points" not in index:
        raise SweepError("not a sweep directory (no readable %s): %s" % (INDEX_JSON, sweep_dir))
    return index


def write_index(sweep_dir, spec, spec_path, binary, points, manifest):
    """sweep.json and points.csv, recorded in the manifest with every point directory."""
    index = {"name": spec["name"], "spec_file": os.path.abspath(spec_path), "spec": spec,
             "program": spec["program"], "binary": binary, "parameters": parameters_of(spec),
             "outputs": spec["outputs"], "points": points}
    write_recorded(manifest, sweep_dir, INDEX_JSON, lambda path: _write(path, json.dumps(index, indent=1) + "\n"))

    def write_points(path):
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["index", "point"] + index["parameters"] + (["seed"] if spec["seeds"] else [])
                       + ["command"])
            for p in points:
                w.writerow([p["index"], p["name"]] + [p["params"][k] for k in index["parameters"]]
                           + ([p["seed"]] if spec["seeds"] else []) + [command_line(p, sweep_dir)])
    write_recorded(manifest, sweep_dir, POINTS_CSV, write_points)
    manifest.add_dirs(*[p["name"] for p in points])
    return index


def draw_plot(sweep_dir, plot):
    """plot_sweep.py in this process; it records its PNG in the sweep's manifest."""
    import plot_sweep
    argv = [sweep_dir, "--metric", plot["metric"], "--x", plot["x"], "--by", plot.get("by", "scheme"),
            "--error", plot.get("error", "std")]
    argv += ["--" + k for k in ("logx", "logy") if plot.get(k)]
    return plot_sweep.main(argv)


# ------------------------------------------------------------------ commands

def cmd_program(args):
    print(check_spec(load_spec(args.spec), args.spec)["program"])
    return 0


def cmd_run(args):
    spec = check_spec(load_spec(args.spec), args.spec)
    binary = os.path.join(os.path.abspath(args.build_dir), "bin", spec["program"])
    if not os.access(binary, os.X_OK):
        bindir = os.path.dirname(binary)
        known = sorted(n for n in os.listdir(bindir) if os.access(os.path.join(bindir, n), os.X_OK)) \
            if os.path.isdir(bindir) else []
        raise SweepError("%s: key 'program': no program '%s' in %s (built: %s)"
                         % (args.spec, spec["program"], bindir, " ".join(known) or "none; ./ns3 build"))
    check_options(spec, args.spec, binary)
    if args.slurm:
        for tool in ("sbatch", "squeue"):
            if not shutil.which(tool):
                raise SweepError("--slurm: %s not found (install Slurm's client tools, or run this on the "
                                 "cluster's login node)" % tool)
    sweep_dir = os.path.abspath(args.out or os.path.join("results", "sweep-" + spec["name"]))
    check_out(sweep_dir)
    points = expand(spec, sweep_dir, binary)
    held = lock(sweep_dir, "--out")
    try:
        return run_locked(args, spec, binary, sweep_dir, points)
    finally:
        held.release()


def run_locked(args, spec, binary, sweep_dir, points):
    """cmd_run once the sweep directory's lock is held."""
    manifest = rd.Manifest(sweep_dir, PROGRAM)
    manifest.set_complete(False)
    index = write_index(sweep_dir, spec, args.spec, binary, points, manifest)
    reconcile(sweep_dir, manifest, points)  # files an earlier run or Slurm task left
    states = [point_state(sweep_dir, index, p, verify=True) for p in points]
    todo = [p for p, s in zip(points, states) if s != "done"]
    for p in todo:  # before anything starts: every point to rerun can be
        check_rerunnable(sweep_dir, p)
    configs = len(points) // len(spec["seeds"] or [None])
    head = "%s %s: %d point(s) (%d configuration(s) x %d seed(s)) in %s" % (
        PROG, spec["name"], len(points), configs, len(spec["seeds"] or [None]), sweep_dir)
    if not todo:
        print("%s; all finished earlier, nothing to run" % head)
    else:
        where = "on Slurm" if args.slurm else "with %d job(s)" % args.jobs
        print("%s; %d finished earlier, running %d %s" % (head, len(points) - len(todo), len(todo), where))
        sys.stdout.flush()
        manifest.begin(*[f for p in todo for f in point_files(p["name"])])
        progress = Progress("sweep %s" % spec["name"], len(todo))
        try:
            if args.slurm:
                job = submit(sweep_dir, spec, todo, manifest)
                print("%s: submitted Slurm job %s (%d array task(s)); script %s"
                      % (PROG, job, len(todo), os.path.join(sweep_dir, SLURM_DIR, "sweep.sbatch")))
                if args.no_wait:
                    print("%s: when it has finished (squeue -j %s lists nothing): ./ns3 sweep gather %s"
                          % (PROG, job, shlex.quote(sweep_dir)))
                    return 0
                sys.stdout.flush()
                wait_slurm(sweep_dir, index, todo, job, progress)
            else:
                run_local(sweep_dir, index, todo, args.jobs, progress, manifest)
        except KeyboardInterrupt:
            progress.close()
            print("%s: interrupted; run the same command again to resume%s" % (
                PROG, " (the Slurm job goes on: scancel it, or gather later)" if args.slurm else ""),
                file=sys.stderr)
            return 130
        finally:
            reconcile(sweep_dir, manifest, todo)
        progress.close()
    status, unfinished = finish(sweep_dir, index, manifest, points, spec["plot"])
    if unfinished:
        print("%s: %d of %d point(s) not finished; run the same command again to retry them"
              % (PROG, unfinished, len(points)), file=sys.stderr)
    return status


def finish(sweep_dir, index, manifest, points, plot):
    """Gather, plot, report the unfinished points; the manifest is complete when every point is
    and the summary is written.  Returns the exit status."""
    path, unfinished = gather(sweep_dir, manifest)
    status = 1 if unfinished else 0
    if path and plot:
        status = draw_plot(sweep_dir, plot) or status
    manifest.set_complete(path is not None and unfinished == 0)
    for p in points:
        if point_state(sweep_dir, index, p) != "done":
            print("\n".join(failure_report(sweep_dir, p)), file=sys.stderr)
    return status, unfinished


def require_sweep_dir(sweep_dir):
    """A sweep directory: sweep.json and a manifest of program "sweep"."""
    index = load_index(sweep_dir)
    try:
        manifest = rd.read_manifest(sweep_dir)
    except rd.ResultsDirError as e:
        raise SweepError("%s: %s" % (sweep_dir, e))
    if manifest is None or manifest.get("program") != PROGRAM:
        raise SweepError("not a sweep directory (no %s of program \"%s\"): %s" % (rd.MANIFEST, PROGRAM, sweep_dir))
    return index


def cmd_gather(args):
    sweep_dir = os.path.abspath(args.sweep_dir)
    index = require_sweep_dir(sweep_dir)
    held = lock(sweep_dir, "gather")
    try:
        manifest = rd.Manifest(sweep_dir, PROGRAM)
        reconcile(sweep_dir, manifest, index["points"])
        status, unfinished = finish(sweep_dir, index, manifest, [], index["spec"].get("plot"))
    finally:
        held.release()
    if unfinished:
        print("%s: %d point(s) not finished (./ns3 sweep SPEC --out %s runs them)"
              % (PROG, unfinished, shlex.quote(sweep_dir)), file=sys.stderr)
    return status


def cmd_run_point(args):
    sweep_dir = os.path.abspath(args.sweep_dir)
    index = load_index(sweep_dir)
    if not 0 <= args.index < len(index["points"]):
        raise SweepError("point index %d out of range (the sweep has %d points)"
                         % (args.index, len(index["points"])))
    point = index["points"][args.index]
    marker = run_point(sweep_dir, index, point)
    print("%s: point %d %s: exit status %d after %.1f s on %s%s" % (
        PROG, point["index"], point["name"], marker["status"], marker["wall_s"], marker["host"],
        "; missing " + ", ".join(marker["missing"]) if marker.get("missing") else ""))
    return 0 if marker["status"] == 0 and not marker.get("missing") else 1


def default_jobs():
    """--jobs when it is not given, as the C++ programs' (MrcCommandLine::DefaultJobs):
    MRC_JOBS (1 to 32), else the CPU count. A bad MRC_JOBS raises ValueError naming it."""
    env = os.environ.get("MRC_JOBS", "")
    if env:
        if not env.isdigit() or not 1 <= int(env) <= 32:
            raise ValueError("MRC_JOBS must be 1 to 32, not %r" % env)
        return int(env)
    return max(1, min(32, os.cpu_count() or 1))


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    default_build = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))

    def jobs(text):
        if not text.isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError("expected a positive integer, got %r" % text)
        return int(text)

    for name, func, helptext in (("run", cmd_run, "run a sweep (the default of ./ns3 sweep)"),
                                 ("program", cmd_program, "check the spec and print its program")):
        s = sub.add_parser(name, help=helptext, description=helptext)
        s.add_argument("spec", metavar="SPEC", help="sweep spec, .toml or .json (docs/sweeps.md)")
        s.add_argument("--out", metavar="DIR", help="sweep directory (default: results/sweep-<name>)")
        s.add_argument("--jobs", type=jobs, default=None, metavar="N",
                       help="points run at once, locally (default: MRC_JOBS, else the number of "
                            "cores)")
        s.add_argument("--slurm", action="store_true", help="run the points as a Slurm job array")
        s.add_argument("--no-wait", action="store_true", help="with --slurm: return once submitted")
        s.add_argument("--build-dir", default=default_build, metavar="DIR",
                       help="build directory holding bin/PROGRAM (default: $MRC_BUILD_DIR or build/)")
        s.set_defaults(func=func)
    s = sub.add_parser("gather", help="merge the finished points' summaries into SWEEP_DIR/" + SUMMARY_CSV)
    s.add_argument("sweep_dir", metavar="SWEEP_DIR")
    s.set_defaults(func=cmd_gather)
    s = sub.add_parser("run-point", help="run one point (what a Slurm array task runs)")
    s.add_argument("sweep_dir", metavar="SWEEP_DIR")
    s.add_argument("index", type=int, metavar="INDEX")
    s.set_defaults(func=cmd_run_point)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    if getattr(args, "jobs", 0) is None:
        try:
            args.jobs = default_jobs()
        except ValueError as e:
            print("error: sweep: %s" % e, file=sys.stderr)
            return 2
    if getattr(args, "no_wait", False) and not args.slurm:
        print("error: --no-wait goes with --slurm", file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except SweepError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except rd.ResultsDirError as e:  # a directory in use, a file that cannot be written
        print("error: sweep: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("error: sweep: cannot write '%s': %s" % (e.filename or "?", e.strerror or e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
