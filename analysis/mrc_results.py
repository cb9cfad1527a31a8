# SPDX-License-Identifier: GPL-2.0-only
"""Load, validate and summarise the results of one MRC / baseline simulation run.

A results directory holds up to five files (see README.md for the columns):
flows.csv, steps.csv, events.csv, links.csv and run.json.  Every loader here
returns ``None`` when its file is missing, and a table with zero rows when the
file has only a header (or is empty).  A table is a plain ``dict`` mapping each
column name to a numpy array (numeric columns) or a list of ``str`` (text
columns); use :func:`nrows` for its length.

A malformed file raises :class:`ResultsError` whose message names the file, the
line and the column, e.g.::

    /runs/r1/flows.csv: line 3, column 'bytes': expected an integer, got 'abc'

The statistics functions (:func:`cov`, :func:`jain`, :func:`min_max_ratio`,
:func:`percentiles`) take any 1-D sequence of numbers and return ``nan`` where
the value is undefined (no data, zero mean, ...).

A results directory must be complete (docs/results.md: manifest.json and run.json say
"complete": true and every listed file has its listed size and rows):
:func:`require_complete` and :func:`load_results` raise a ResultsError such as::

    results/q1: incomplete run (interrupted by SIGTERM at simulated 2.410 ms (mrc run)); --allow-partial draws it anyway

unless allow_partial is given, when they warn on stderr and return the reason.

This module imports only the standard library and numpy; it never imports
matplotlib, so ``summary.py`` starts quickly.
"""

import argparse
import csv
import gc
import io
import json
import math
import os
import sys

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import numpy as np

import results_dir as rd

FLOWS = "flows.csv"
STEPS = "steps.csv"
EVENTS = "events.csv"
LINKS = "links.csv"
RUN = "run.json"

# Column name -> type: "str", "int" or "float".  Columns not listed are kept as
# text; listed columns are required.
SCHEMAS = {
    FLOWS: [
        ("scheme", "str"), ("job", "str"), ("step", "int"),
        ("collective", "str"), ("src", "str"), ("dst", "str"), ("qp", "int"),
        ("bytes", "int"), ("start_us", "float"), ("end_us", "float"),
        ("throughput_gbps", "float"),
    ],
    STEPS: [
        ("scheme", "str"), ("job", "str"), ("step", "int"),
        ("start_us", "float"), ("end_us", "float"), ("duration_us", "float"),
        ("slowest_rank", "str"),
    ],
    EVENTS: [
        ("scheme", "str"), ("time_us", "float"), ("kind", "str"),
        ("target", "str"), ("state", "str"), ("detail", "str"),
    ],
    LINKS: [
        ("scheme", "str"), ("time_us", "float"), ("plane", "str"),
        ("tier", "str"), ("utilization", "float"),
        ("queue_bytes_mean", "float"), ("queue_bytes_max", "float"),
    ],
}

# A trailing free-text column: a row with one field too few gets "" for it,
# and unquoted commas inside it are tolerated (extra fields are re-joined).
FREE_TEXT_LAST = {EVENTS: "detail"}

EV_STATES = ("GOOD", "SKIP", "ASSUMED_BAD", "DENIED")
FAULT_KINDS = ("link", "switch_reboot", "blackhole", "nic_port")
FAULT_ONSET = ("down", "start")
FAULT_RECOVERY = ("up", "end")
TIERS = ("host-t0", "t0-t1", "t1-t0", "t0-host")
SCHEME_ORDER = ("mrc", "baseline")

SUMMARY_CSV = "summary.csv"


class ResultsError(Exception):
    """A results file or directory cannot be used; str(e) is a one-line message."""


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

def _parse_number(text, kind):
    """Parse text as 'int' or 'float'; return (value, None) or (None, why)."""
    s = text.strip()
    if s == "":
        return None, "expected a number, got an empty value"
    try:
        v = float(s)
    except ValueError:
        noun = "an integer" if kind == "int" else "a number"
        return None, "expected %s, got %r" % (noun, text)
    if not math.isfinite(v):
        return None, "expected a finite number, got %r" % text
    if kind == "int":
        if not v.is_integer():
            return None, "expected an integer, got %r" % text
        try:
            return int(s), None
        except ValueError:
            return int(v), None
    return v, None


_cache = {}


def load_csv(path, schema=None):
    """Load one results CSV into {column: numpy array | list of str}.

    ``schema`` is a list of (column, type) pairs; by default it is looked up
    from the file's base name in SCHEMAS.  Returns None if the file does not
    exist.  Raises ResultsError naming file, line and column on bad input.

    A well-formed file is read by a vectorised fast path (the whole file at once, numeric
    columns converted by numpy); anything it does not accept as is (a malformed value, a row
    with the wrong number of fields, blank lines, a file that is not UTF-8) is read again by the
    row-by-row reader, which either accepts it (the events.csv tolerances) or names the line
    and column at fault.  Both give the same table.
    """
    name = os.path.basename(path)
    if schema is None:
        schema = SCHEMAS.get(name, [])
    if not os.path.exists(path):
        return None
    try:
        st = os.stat(path)
        key = (os.path.abspath(path), st.st_mtime_ns, st.st_size, tuple(schema))
    except OSError as e:
        raise ResultsError("%s: cannot read: %s" % (path, e.strerror or e))
    if key in _cache:
        return _cache[key]
    gc_was_on = gc.isenabled()
    gc.disable()  # millions of small objects: the cyclic collector would only slow this down
    try:
        table = _load_fast(path, name, schema)
        if table is None:
            table = _load_rows(path, name, schema)
    finally:
        if gc_was_on:
            gc.enable()
    if nrows(table) >= 100000:
        # millions of loaded values: keep the collector from walking them again and again while
        # the figures are drawn (they live as long as the process anyway)
        gc.freeze()
    _cache[key] = table
    return table


def _numeric(values, t):
    """numpy array of the text values as type t ("int" or "float"), or None if any value is not
    what the row-by-row reader would accept without complaint (it then names it)."""
    try:
        if t == "int":
            try:
                return np.array(values, dtype=np.int64)
            except (ValueError, OverflowError):
                a = np.array(values, dtype=np.float64)
                if not (np.isfinite(a).all() and (a == np.floor(a)).all()):
                    return None
                return a.astype(np.int64)
        a = np.array(values, dtype=np.float64)
    except (ValueError, OverflowError, TypeError):
        return None
    if not np.isfinite(a).all():
        return None
    return a


_ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _text(values):
    """A text column as a list of stripped str (as the row-by-row reader strips each cell)."""
    joined = "".join(values)
    if not joined.isascii() or any(c in joined for c in _ASCII_SPACE):
        return [v.strip() for v in values]
    return list(values)


def _columns_to_table(header, columns, schema, strip=True):
    types = dict(schema)
    table = {}
    for col, values in zip(header, columns):
        t = types.get(col, "str")
        if t == "str":
            table[col] = _text(values) if strip else values
        else:
            a = _numeric(values, t)
            if a is None:
                return None
            table[col] = a
    return table


def _load_fast(path, name, schema):
    """The table of a well-formed file, or None (then :func:`_load_rows` reads it)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ResultsError("%s: cannot read: %s" % (path, e.strerror or e))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    if not first.strip() or "\r" in text or '"' in text:
        return _load_quoted(text, name, schema)
    header = [c.strip() for c in first.split(",")]
    if any(col not in header for col, _ in schema):
        return None
    ncols = len(header)
    body = "" if end < 0 else text[end + 1:]
    if body and not body.endswith("\n"):
        body += "\n"
    if body:
        nl = data.find(b"\n") + 1
        raw = np.frombuffer(data, np.uint8, offset=nl) if data.endswith(b"\n") else \
            np.frombuffer(data[nl:] + b"\n", np.uint8)
        newlines = np.flatnonzero(raw == 10)
        commas = np.flatnonzero(raw == 44)
        # line i holds commas i*(ncols-1) .. (i+1)*(ncols-1)-1: all after the previous newline,
        # all before its own; equivalent to every line holding ncols-1 (induction on i)
        if ncols > 1:
            ok = commas.size == newlines.size * (ncols - 1)
            if ok:
                grid = commas.reshape(newlines.size, ncols - 1)
                ok = bool((grid[:, -1] < newlines).all() and (grid[1:, 0] > newlines[:-1]).all())
        else:
            ok = commas.size == 0 and not (np.diff(newlines, prepend=-1) == 1).any()
        if not ok:
            return _load_quoted(text, name, schema)
        flat = body.replace("\n", ",").split(",")
        flat.pop()  # after the last newline
        columns = [flat[k::ncols] for k in range(ncols)]
        del flat
        # a cell has blanks to strip only if a space touches a comma, a newline or the start, or
        # another ASCII blank occurs (or the text is not ASCII)
        strip = not body.isascii() or any(c in data for c in (b"\t", b"\x0b", b"\x0c", b"\x1c", b"\x1d",
                                                                b"\x1e", b"\x1f"))
        if not strip:
            sp = np.flatnonzero(raw == 32)
            if sp.size:
                before = raw[np.maximum(sp - 1, 0)]
                after = raw[sp + 1]  # raw ends with a newline: a space is never last
                strip = bool(sp[0] == 0 or ((before == 44) | (before == 10) | (after == 44) | (after == 10)).any())
    else:
        columns = [[] for _ in header]
        strip = False
    return _columns_to_table(header, columns, schema, strip)


def _load_quoted(text, name, schema):
    """The fast path through the csv module (quoted fields, short or long rows): the table, or
    None."""
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error:
        return None
    h = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), None)
    if h is None:
        return None
    header = [c.strip() for c in rows[h]]
    if any(col not in header for col, _ in schema):
        return None
    ncols = len(header)
    body = rows[h + 1:]
    odd = [i for i, r in enumerate(body) if len(r) != ncols]
    if odd:
        free_last = FREE_TEXT_LAST.get(name)
        tolerate = free_last is not None and header[-1] == free_last
        blank = []
        for i in odd:
            r = body[i]
            if not any(c.strip() for c in r):
                blank.append(i)
            elif tolerate and len(r) > ncols:
                body[i] = r[:ncols - 1] + [",".join(r[ncols - 1:])]
            elif tolerate and len(r) == ncols - 1:
                body[i] = r + [""]
            else:
                return None
        for i in reversed(blank):
            del body[i]
    columns = [list(c) for c in zip(*body)] if body else [[] for _ in header]
    return _columns_to_table(header, columns, schema)


def _load_rows(path, name, schema):
    """The row-by-row reader: every tolerance, and the line and column of any fault."""
    types = dict(schema)
    free_last = FREE_TEXT_LAST.get(name)
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            header = None
            for row in reader:
                if any(cell.strip() for cell in row):
                    header = [c.strip() for c in row]
                    header_line = reader.line_num
                    break
            if header is None:  # zero-byte or blank file: no data rows
                return {c: ([] if t == "str" else np.array([], dtype=_dtype(t))) for c, t in schema}
            for col, _ in schema:
                if col not in header:
                    raise ResultsError("%s: line %d, column %r: required column is missing "
                                       "(header has: %s)" % (path, header_line, col, ",".join(header)))
            ncols = len(header)
            tolerate = free_last is not None and header[-1] == free_last
            values = [[] for _ in header]
            col_types = [types.get(c, "str") for c in header]
            for row in reader:
                line = reader.line_num
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) != ncols:
                    if tolerate and len(row) > ncols:
                        row = row[:ncols - 1] + [",".join(row[ncols - 1:])]
                    elif tolerate and len(row) == ncols - 1:
                        row = row + [""]
                    else:
                        col = header[min(len(row), ncols - 1)]
                        raise ResultsError("%s: line %d, column %r: expected %d fields, got %d"
                                           % (path, line, col, ncols, len(row)))
                for i, cell in enumerate(row):
                    t = col_types[i]
                    if t == "str":
                        values[i].append(cell.strip())
                    else:
                        v, why = _parse_number(cell, t)
                        if why is not None:
                            raise ResultsError("%s: line %d, column %r: %s"
                                               % (path, line, header[i], why))
                        values[i].append(v)
    except UnicodeDecodeError as e:
        raise ResultsError("%s: line ?, column ?: not UTF-8 text (%s)" % (path, e.reason))
    except csv.Error as e:
        raise ResultsError("%s: line %d, column ?: CSV syntax error: %s" % (path, reader.line_num, e))
    except OSError as e:
        raise ResultsError("%s: cannot read: %s" % (path, e.strerror or e))

    table = {}
    for i, col in enumerate(header):
        t = col_types[i]
        table[col] = values[i] if t == "str" else np.array(values[i], dtype=_dtype(t))
    return table


def _dtype(t):
    return np.int64 if t == "int" else np.float64


def nrows(table):
    """Number of data rows of a table (0 for None or an empty table)."""
    if not table:
        return 0
    return len(next(iter(table.values())))


def is_empty(table):
    return nrows(table) == 0


def select(table, mask):
    """Rows of table where the boolean numpy array mask is true."""
    mask = np.asarray(mask, dtype=bool)
    idx = np.flatnonzero(mask)
    out = {}
    for col, v in table.items():
        out[col] = v[mask] if isinstance(v, np.ndarray) else [v[i] for i in idx]
    return out


_codes = {}


def codes(table, col):
    """A text column as (codes, values): an int64 numpy array of indices into values, the
    column's distinct values in order of first appearance.  Computed once per column (the
    tables :func:`load_csv` returns are cached and never changed)."""
    v = table[col]
    hit = _codes.get(id(v))
    if hit is not None and hit[0] is v:
        return hit[1], hit[2]
    index = {k: i for i, k in enumerate(dict.fromkeys(v))}
    c = np.fromiter(map(index.__getitem__, v), dtype=np.int64, count=len(v))
    values = list(index)
    if len(_codes) > 256:
        _codes.clear()
    _codes[id(v)] = (v, c, values)
    return c, list(values)


def column_equals(table, col, value):
    """Boolean mask of rows whose text column equals value."""
    c, values = codes(table, col)
    if value not in values:
        return np.zeros(len(c), dtype=bool)
    return c == values.index(value)


def column_isin(table, col, wanted):
    """Boolean mask of rows whose text column is one of wanted."""
    c, values = codes(table, col)
    wanted = set(wanted)
    return np.array([v in wanted for v in values] + [False], dtype=bool)[c]


def check_dir(results_dir):
    """Raise ResultsError unless results_dir is an existing directory."""
    if not os.path.exists(results_dir):
        raise ResultsError("results directory not found: %s" % results_dir)
    if not os.path.isdir(results_dir):
        raise ResultsError("not a directory: %s" % results_dir)


def load_flows(results_dir):
    return load_csv(os.path.join(results_dir, FLOWS))


def load_steps(results_dir):
    return load_csv(os.path.join(results_dir, STEPS))


def load_events(results_dir):
    return load_csv(os.path.join(results_dir, EVENTS))


def load_links(results_dir):
    return load_csv(os.path.join(results_dir, LINKS))


def load_run(results_dir):
    """run.json as a dict, or None if missing.  Raises ResultsError if malformed."""
    path = os.path.join(results_dir, RUN)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsError("%s: cannot read: %s" % (path, e))
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ResultsError("%s: line %d, column %d: invalid JSON: %s" % (path, e.lineno, e.colno, e.msg))
    if not isinstance(data, dict):
        raise ResultsError("%s: line 1, column 1: expected a JSON object" % path)
    return data


_complete_cache = {}
_warned = set()
_trusted = {}


def trust_check(results_dir, in_run=False):
    """Let this process (and the processes it forks) reuse the answer of its last check of
    results_dir (:func:`require_complete`, made first if need be): make_all.py's scripts then
    do not check the directory again while they write their outputs into it (a check while
    another of them rewrites a figure would see that file half written)."""
    key = _check_key(results_dir, in_run)
    if key not in _complete_cache:
        _complete_cache[key] = rd.incomplete_reason(results_dir, in_run=in_run)
    _trusted[key[:2]] = _complete_cache[key]
    return _trusted[key[:2]]


def _check_key(results_dir, in_run):
    stamp = []
    for name in (rd.MANIFEST, rd.RUN):
        try:
            st = os.stat(os.path.join(results_dir, name))
            stamp.append((st.st_mtime_ns, st.st_size))
        except OSError:
            stamp.append(None)
    return (os.path.abspath(results_dir), bool(in_run), tuple(stamp))


def require_complete(results_dir, allow_partial=False, in_run=False):
    """Check that results_dir exists (:func:`check_dir`) and is a complete run
    (results_dir.incomplete_reason; in_run: the program's own directory before it is marked
    complete).  Returns None when it is; otherwise raises ResultsError
    "<dir>: <reason>; --allow-partial draws it anyway", or, with allow_partial, prints
    "warning: <dir>: <reason>; drawing it anyway" on stderr (once per process) and returns the
    reason."""
    check_dir(results_dir)
    key = _check_key(results_dir, in_run)
    if key[:2] in _trusted:
        reason = _trusted[key[:2]]
    else:
        if key not in _complete_cache:
            _complete_cache[key] = rd.incomplete_reason(results_dir, in_run=in_run)
        reason = _complete_cache[key]
    if reason is None:
        return None
    if not allow_partial:
        raise ResultsError("%s: %s; --allow-partial draws it anyway" % (results_dir, reason))
    if key[:2] not in _warned:
        _warned.add(key[:2])
        print("warning: %s: %s; drawing it anyway" % (results_dir, reason), file=sys.stderr)
    return reason


def load_results(results_dir, allow_partial=False, in_run=False):
    """Check the directory (:func:`require_complete`) and load every file:
    {"flows":..., "steps":..., "events":..., "links":..., "run":..., "partial":...}; missing
    files are None, "partial" is the reason the directory is incomplete (None if complete)."""
    partial = require_complete(results_dir, allow_partial, in_run)
    return {
        "flows": load_flows(results_dir),
        "steps": load_steps(results_dir),
        "events": load_events(results_dir),
        "links": load_links(results_dir),
        "run": load_run(results_dir),
        "partial": partial,
    }


def load_tables(results_dir, first=()):
    """Every CSV of a results directory, without the completeness check: {"flows", "steps",
    "events", "links"} (None where missing).  The tables named in `first` are loaded first (a
    script reports a fault in the file it draws before one in a file it only takes the time
    range from)."""
    loaders = {"flows": load_flows, "steps": load_steps, "events": load_events, "links": load_links}
    out = {name: loaders[name](results_dir) for name in first}
    for name, load in loaders.items():
        if name not in out:
            out[name] = load(results_dir)
    return out


# --------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------

def _arr(x):
    return np.asarray(x, dtype=np.float64).ravel()


def cov(x):
    """Coefficient of variation: population std (ddof=0) / mean.  nan if empty or mean 0."""
    a = _arr(x)
    if a.size == 0:
        return float("nan")
    m = a.mean()
    if m == 0:
        return float("nan")
    return float(a.std() / m)


def jain(x):
    """Jain's fairness index (sum x)^2 / (n * sum x^2), in [1/n, 1].  nan if empty or all zero."""
    a = _arr(x)
    if a.size == 0:
        return float("nan")
    sq = float(np.sum(a * a))
    if sq == 0:
        return float("nan")
    return float(np.sum(a) ** 2 / (a.size * sq))


def min_max_ratio(x):
    """min(x) / max(x).  nan if empty or max is 0."""
    a = _arr(x)
    if a.size == 0:
        return float("nan")
    mx = a.max()
    if mx == 0:
        return float("nan")
    return float(a.min() / mx)


def percentiles(x, ps=(1, 50, 99)):
    """{p: percentile} using numpy's linear interpolation; nan for empty input."""
    a = _arr(x)
    if a.size == 0:
        return {p: float("nan") for p in ps}
    vals = np.percentile(a, list(ps))
    return {p: float(v) for p, v in zip(ps, vals)}


def order_schemes(names):
    """Distinct scheme names, 'mrc' and 'baseline' first, the rest sorted."""
    names = set(names)
    known = [s for s in SCHEME_ORDER if s in names]
    return known + sorted(names - set(known))


def schemes_of(*tables):
    found = []
    for t in tables:
        if not is_empty(t):
            found.extend(codes(t, "scheme")[1])
    return order_schemes(found)


def by_scheme(table, column):
    """{scheme: numpy array of column values}, schemes in order_schemes order."""
    if is_empty(table):
        return {}
    sc, schemes = codes(table, "scheme")
    vals = np.asarray(table[column])
    return {s: vals[sc == schemes.index(s)] for s in order_schemes(schemes)}


def throughput_summary(flows):
    """Per-scheme flow throughput statistics (Gb/s):
    {scheme: {count, mean, p1, p50, p99, min, max, cov, jain, min_max_ratio}}."""
    out = {}
    for scheme, tp in by_scheme(flows, "throughput_gbps").items():
        pc = percentiles(tp, (1, 50, 99))
        out[scheme] = {
            "count": int(tp.size),
            "mean": float(tp.mean()),
            "p1": pc[1], "p50": pc[50], "p99": pc[99],
            "min": float(tp.min()), "max": float(tp.max()),
            "cov": cov(tp), "jain": jain(tp), "min_max_ratio": min_max_ratio(tp),
        }
    return out


def step_summary(steps):
    """Per-scheme step duration statistics (µs): {scheme: {count, mean, p99, max}}."""
    out = {}
    for scheme, d in by_scheme(steps, "duration_us").items():
        out[scheme] = {
            "count": int(d.size),
            "mean": float(d.mean()),
            "p99": percentiles(d, (99,))[99],
            "max": float(d.max()),
        }
    return out


def _counts_by_scheme(events, mask, col):
    """{scheme: {value of col: rows}} over the rows of mask, every scheme of events present."""
    sc, schemes = codes(events, "scheme")
    vc, values = codes(events, col)
    n = np.bincount(sc[mask] * len(values) + vc[mask], minlength=len(schemes) * len(values))
    n = n.reshape(len(schemes), len(values))
    return {s: {values[j]: int(n[i, j]) for j in np.flatnonzero(n[i])}
            for i, s in sorted(enumerate(schemes), key=lambda p: order_schemes(schemes).index(p[1]))}


def ev_state_counts(events):
    """Transitions by new state: {scheme: {state: count}} for kind == 'ev_state'.
    The four known states are always present (possibly 0); other states are added."""
    if is_empty(events):
        return {}
    found = _counts_by_scheme(events, column_equals(events, "kind", "ev_state"), "state")
    return {s: dict({st: 0 for st in EV_STATES}, **c) for s, c in found.items()}


def fault_event_counts(events):
    """Fault onsets (state 'down' or 'start') per kind: {scheme: {kind: count}}.
    All kinds other than 'ev_state' count; the four known kinds are always present."""
    if is_empty(events):
        return {}
    mask = ~column_equals(events, "kind", "ev_state") & column_isin(events, "state", FAULT_ONSET)
    found = _counts_by_scheme(events, mask, "kind")
    return {s: dict({k: 0 for k in FAULT_KINDS}, **c) for s, c in found.items()}


# summary.csv column -> key of throughput_summary()
TPUT_COLUMNS = [
    ("flows", "count"), ("tput_mean_gbps", "mean"), ("tput_p1_gbps", "p1"),
    ("tput_p50_gbps", "p50"), ("tput_p99_gbps", "p99"), ("tput_min_gbps", "min"),
    ("tput_max_gbps", "max"), ("tput_cov", "cov"), ("tput_jain", "jain"),
    ("tput_min_max_ratio", "min_max_ratio"),
]


def summary_rows(results):
    """One dict per scheme with every summary.csv column (scheme first); values are
    numbers, or None where the scheme has no data of that sort."""
    tp = throughput_summary(results.get("flows"))
    st = step_summary(results.get("steps"))
    ev = ev_state_counts(results.get("events"))
    fa = fault_event_counts(results.get("events"))
    schemes = order_schemes(list(tp) + list(st) + list(ev))
    ev_states = list(EV_STATES) + sorted({s for c in ev.values() for s in c} - set(EV_STATES))
    kinds = list(FAULT_KINDS) + sorted({k for c in fa.values() for k in c} - set(FAULT_KINDS))
    rows = []
    for s in schemes:
        row = {"scheme": s}
        t = tp.get(s)
        for name, k in TPUT_COLUMNS:
            row[name] = t[k] if t else None
        d = st.get(s)
        row["steps"] = d["count"] if d else None
        for k in ("mean", "p99", "max"):
            row["step_%s_us" % k] = d[k] if d else None
        for state in ev_states:
            row["ev_%s" % state] = ev[s].get(state, 0) if s in ev else None
        for kind in kinds:
            row["faults_%s" % kind] = fa[s].get(kind, 0) if s in fa else None
        rows.append(row)
    return rows


def format_value(v, digits=6):
    """Text for a summary value: '' for None, integers as is, floats with `digits`
    significant digits, 'nan' for nan."""
    if v is None:
        return ""
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return "nan"
    return "%.*g" % (digits, v)


# --------------------------------------------------------------------------
# CLI plumbing shared by the scripts
# --------------------------------------------------------------------------

def add_partial_options(parser):
    """--allow-partial, and the hidden --in-run (for the programs that run the scripts on their
    own directory before they mark it complete)."""
    parser.add_argument("--allow-partial", action="store_true",
                        help="read an incomplete results directory anyway: figures are marked "
                             "PARTIAL RESULTS, summary.csv has partial=1")
    parser.add_argument("--in-run", action="store_true", help=argparse.SUPPRESS)


def partial_of(args, results_dir=None):
    """require_complete() with the options of add_partial_options()."""
    return require_complete(results_dir or args.results_dir, getattr(args, "allow_partial", False),
                            getattr(args, "in_run", False))


def run_cli(parser, run, argv=None, written=None):
    """Parse argv, call run(args) -> list of written paths, print each path and
    record the ones inside the results directory in its manifest.json
    (results_dir.add_outputs; nothing if it has none).

    Returns the exit status: 0 on success (also when nothing could be drawn),
    2 with a one-line 'error: ...' on stderr for a missing, incomplete or
    malformed directory or file, 1 if an output file cannot be written.  Paths
    written are appended to `written` if given.
    """
    args = parser.parse_args(argv)
    prog = parser.prog
    try:
        paths = run(args)
        root = getattr(args, "results_dir", None) or getattr(args, "sweep_dir", None)
        if root and paths:
            rd.add_outputs(root, paths)
    except ResultsError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except rd.ResultsDirError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("error: %s: cannot write: %s" % (getattr(e, "filename", "") or prog, e.strerror or e),
              file=sys.stderr)
        return 1
    for p in paths:
        print(p)
    if written is not None:
        written.extend(paths)
    return 0


def output_path(results_dir, out, default_name):
    """--out if given (its directory is created), else RESULTS_DIR/default_name."""
    path = out if out else os.path.join(results_dir, default_name)
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    return path


def say_nothing_written(prog, what, path):
    print("%s: no %s (%s missing or has no data rows); nothing written" % (prog, what, path))
