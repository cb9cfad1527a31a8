# SPDX-License-Identifier: GPL-2.0-only
"""Results directories as pandas DataFrames: :func:`load` and :class:`Results`.

The files are read and validated by the analysis library (analysis/mrc_results.py, the same
checks the plotting scripts make: completeness, required columns, numeric values), then turned
into DataFrames with the columns analysis/README.md lists for each file.
"""

import os
import sys

import pandas as pd

from . import _paths

_ANALYSIS = os.path.join(_paths.SOURCE_DIR, "analysis")

TABLES = ("flows", "steps", "events", "links")


def _analysis():
    """The analysis library (analysis/mrc_results.py of the source tree this package was built
    from)."""
    if _ANALYSIS not in sys.path:
        sys.path.insert(0, _ANALYSIS)
    import mrc_results  # noqa: E402

    return mrc_results


class ResultsError(Exception):
    """A results directory that cannot be read: missing, incomplete or malformed (the message
    names the directory or the file, line and column)."""


def _frame(table, schema):
    """An analysis table (dict of numpy arrays and lists) as a DataFrame: the schema's columns
    first, in its order, with its types (text as object), then any extra columns."""
    names = [name for name, _ in schema]
    if table is None:
        table = {}
    cols = {}
    for name, kind in schema:
        values = table.get(name, [])
        dtype = {"int": "int64", "float": "float64"}.get(kind, object)
        cols[name] = pd.Series(values, dtype=dtype)
    for name, values in table.items():
        if name not in cols:
            cols[name] = pd.Series(values, dtype=object)
    return pd.DataFrame(cols, columns=names + [c for c in cols if c not in names])


class Results:
    """One results directory: ``flows``, ``steps``, ``events``, ``links`` (DataFrames; a file
    the run did not write gives an empty DataFrame with the file's columns), ``run`` (run.json
    as a dict), ``path`` and ``partial`` (why the directory is incomplete, or None).

    ``table(name)`` reads any other CSV of the directory (``summary.csv``, ``claims.csv``, a
    paper figure's table) with pandas; ``step_summary()`` gives per-scheme step statistics."""

    def __init__(self, path, tables, run, partial):
        self.path = path
        self.run = run
        self.partial = partial
        for name in TABLES:
            setattr(self, name, tables[name])

    def __repr__(self):
        rows = ", ".join("%s: %d" % (n, len(getattr(self, n))) for n in TABLES)
        return "<mrc.Results %s (%s)%s>" % (self.path, rows, " PARTIAL" if self.partial else "")

    @property
    def schemes(self):
        """The schemes in the directory, in the figures' order (mrc, baseline, then others)."""
        names = set()
        for n in TABLES:
            names.update(getattr(self, n)["scheme"].unique())
        return _analysis().order_schemes(sorted(names))

    def table(self, name):
        """Another CSV of the directory (name with or without .csv) as a DataFrame."""
        file = name if name.endswith(".csv") else name + ".csv"
        path = os.path.join(self.path, file)
        if not os.path.isfile(path):
            raise ResultsError("%s: no %s" % (self.path, file))
        return pd.read_csv(path)

    def step_summary(self):
        """Per scheme: steps, mean, median, p99, min and max step duration (µs)."""
        g = self.steps.groupby("scheme")["duration_us"]
        out = pd.DataFrame({
            "steps": g.size(),
            "mean_us": g.mean(),
            "median_us": g.median(),
            "p99_us": g.quantile(0.99),
            "min_us": g.min(),
            "max_us": g.max(),
        })
        order = [s for s in self.schemes if s in out.index]
        return out.loc[order]


def load(path, allow_partial=False):
    """Read a results directory written by any MRC program (quickstart, claims, paper,
    mrc-hello, an :class:`mrc.Experiment`) into a :class:`Results`.

    An incomplete directory (an interrupted run) raises :class:`ResultsError` unless
    allow_partial is true; then its ``partial`` says why."""
    mr = _analysis()
    try:
        data = mr.load_results(path, allow_partial=allow_partial)
    except mr.ResultsError as e:
        raise ResultsError(str(e)) from None
    files = {"flows": mr.FLOWS, "steps": mr.STEPS, "events": mr.EVENTS, "links": mr.LINKS}
    tables = {n: _frame(data[n], mr.SCHEMAS[files[n]]) for n in TABLES}
    return Results(path, tables, data["run"], data["partial"])
