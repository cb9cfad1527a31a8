# SPDX-License-Identifier: GPL-2.0-only
"""Shared matplotlib setup, options and drawing for the plot_*.py scripts.

Imported lazily by the scripts (only once there is data to draw), so error paths and
summary.py never pay for importing matplotlib.  Uses the Agg backend: no display is needed.

* The options every plotting script takes (:func:`add_plot_options`): --scheme, --window,
  --logy, --faults, --format; :func:`chosen_schemes`, :func:`output_paths`, :func:`save`.
* Per-scheme time panels (:func:`time_panel`): a scheme's own time axis, its long idle gaps
  cut out and drawn as hatched bands labelled with their length ("stall 4.29 s").
* The fault layer (:func:`draw_faults`): one shaded band collection per fault target class
  (merged intervals), or lines when there are few events; legend entries with counts.
* :func:`mark_partial`: the PARTIAL RESULTS mark of an incomplete directory.
"""

import math
import os

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter, NullLocator  # noqa: E402
import numpy as np  # noqa: E402

import timeline as tl  # noqa: E402

plt.rcParams.update({
    "figure.dpi": 110,
    "savefig.dpi": 110,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": "small",
    "legend.framealpha": 0.85,
    "pdf.fonttype": 42,  # TrueType in PDFs: editable text, accepted by paper submission systems
    "svg.fonttype": "none",
    "path.simplify": True,
    "agg.path.chunksize": 20000,
})

_SCHEME_COLOURS = {"mrc": "tab:blue", "baseline": "tab:orange"}
_OTHER_COLOURS = ["tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:olive"]
_SCHEME_STYLES = {"mrc": "-", "baseline": "--"}
_OTHER_STYLES = [":", "-."]

FAULT_COLOURS = {
    "link": "tab:red",
    "switch_reboot": "tab:purple",
    "blackhole": "black",
    "nic_port": "tab:brown",
}
_LINK_SHADES = ["tab:red", "tab:pink", "lightcoral", "darkred"]
_OTHER_FAULT_COLOURS = ["tab:cyan", "tab:olive", "tab:gray"]
EV_STATE_COLOURS = {
    "GOOD": "tab:green",
    "SKIP": "tab:gray",
    "ASSUMED_BAD": "tab:orange",
    "DENIED": "tab:red",
}
FAULT_BAND_ALPHA = 0.22
STALL_RATIO = 0.065  # width of a stall band relative to the panel's segments (which sum to 1)



def scheme_colour(scheme, schemes):
    if scheme in _SCHEME_COLOURS:
        return _SCHEME_COLOURS[scheme]
    others = [s for s in schemes if s not in _SCHEME_COLOURS]
    return _OTHER_COLOURS[others.index(scheme) % len(_OTHER_COLOURS)] if scheme in others else "tab:gray"


def scheme_linestyle(scheme, schemes):
    if scheme in _SCHEME_STYLES:
        return _SCHEME_STYLES[scheme]
    others = [s for s in schemes if s not in _SCHEME_STYLES]
    return _OTHER_STYLES[others.index(scheme) % len(_OTHER_STYLES)] if scheme in others else ":"


def fault_colour(kind):
    return FAULT_COLOURS.get(kind, "tab:cyan")


def fault_class_colours(keys):
    """{class key: colour}: links in shades of red by tier pair, NIC ports brown, switch
    reboots purple, blackholes black, other kinds cyan, olive, grey."""
    out, links, others = {}, 0, 0
    for key in keys:
        kind = key.partition(":")[0]
        if kind == "link":
            out[key] = _LINK_SHADES[links % len(_LINK_SHADES)]
            links += 1
        elif kind in FAULT_COLOURS:
            out[key] = FAULT_COLOURS[kind]
        else:
            out[key] = _OTHER_FAULT_COLOURS[others % len(_OTHER_FAULT_COLOURS)]
            others += 1
    return out


# ------------------------------------------------------------------ options (plotopts.py)

from plotopts import (FORMATS, FAULT_MODES, add_plot_options, plot_argv, wanted_schemes,  # noqa: E402,F401
                      chosen_schemes, output_paths)


# ------------------------------------------------------------------ time

def time_unit(max_us):
    """(divisor, label) to show times of up to max_us microseconds readably."""
    if max_us >= 5e6:
        return 1e6, "s"
    if max_us >= 5e3:
        return 1e3, "ms"
    return 1.0, "\u00b5s"


def _unit_of(us):
    a = abs(us)
    if a >= 1e6:
        return 1e6, "s"
    if a >= 1e3:
        return 1e3, "ms"
    return 1.0, "\u00b5s"


def fmt_duration(us, digits=3):
    """'4.29 s', '250 µs', '1.88 ms'."""
    div, unit = _unit_of(us)
    return "%.*g %s" % (digits, us / div, unit)


def fmt_time(us, resolution_us):
    """A time with the decimals its resolution needs: fmt_time(4295030, 20) = '4.29503 s'."""
    div, unit = _unit_of(us)
    decimals = 0
    if resolution_us > 0:
        decimals = max(0, int(math.ceil(math.log10(div / resolution_us) - 1e-9)))
    text = "%.*f" % (min(decimals, 9), us / div)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "%s %s" % (text, unit)


def _tick_text(v):
    text = "%.6g" % v
    return "0" if text in ("-0", "0") else text


def segment_ticks(a, b, nbins=5, relative=None):
    """Ticks for the segment [a, b] µs: (positions µs, labels, xlabel).  A segment that starts
    near 0 (before its own length) is labelled in absolute time ("time (ms)"); a later one
    relative to its start ("+50", "µs after 4.29503 s")."""
    length = max(b - a, 1e-9)
    if relative is None:
        relative = a > length
    if not relative:
        div, unit = time_unit(max(abs(a), abs(b)))
        vals = MaxNLocator(nbins=nbins, steps=[1, 2, 2.5, 5, 10]).tick_values(a / div, b / div)
        eps = 1e-9 * max(1.0, abs(b / div))
        vals = [v for v in vals if a / div - eps <= v <= b / div + eps]
        return [v * div for v in vals], [_tick_text(v) for v in vals], "time (%s)" % unit
    div, unit = time_unit(length)
    vals = MaxNLocator(nbins=nbins, steps=[1, 2, 2.5, 5, 10]).tick_values(0, length / div)
    eps = 1e-9 * max(1.0, length / div)
    vals = [v for v in vals if -eps <= v <= length / div + eps]
    labels = ["+" + _tick_text(v) if v > eps else "" for v in vals]  # its 0 is the segment's start
    return [a + v * div for v in vals], labels, "%s after %s" % (unit, fmt_time(a, length / 20))


class Panel:
    """One scheme's time axis in a figure: ``rows[r][k]`` is the Axes of row r and active
    segment k (``timeline.segments[k]``), all in microseconds; ``stall_bands`` the hatched
    Rectangles (figure artists) between segments, each with ``mrc_stall`` (its
    timeline.Stall); ``data_range`` = (timeline.lo, timeline.hi)."""

    def __init__(self, scheme, timeline):
        self.scheme = scheme
        self.timeline = timeline
        self.rows = []
        self.stall_bands = []

    @property
    def data_range(self):
        return (self.timeline.lo, self.timeline.hi)

    @property
    def axes(self):
        return [ax for row in self.rows for ax in row]

    def segments(self):
        """(ax, start, end) for every data Axes."""
        for row in self.rows:
            for ax, (a, b) in zip(row, self.timeline.segments):
                yield ax, a, b


def time_panel(fig, spec, timeline, nrows=1, sharey=None, hspace=0.25, stall_text_rows=None,
               fault_times=None):
    """Lay out a :class:`Panel` in the SubplotSpec spec: nrows rows of the scheme's active
    segments side by side (widths by :meth:`Timeline.shares`), separated by hatched bands, one
    per stall, labelled with its length (in the rows of stall_text_rows, default all) and the
    number of fault events during it (fault_times: their times, µs).  sharey[r]: an Axes row r
    shares its y axis with.  x limits and ticks are set; the x axis does not autoscale."""
    panel = Panel(timeline.scheme, timeline)
    nseg = len(timeline.segments)
    shares = timeline.shares()
    ratios = []
    for k in range(nseg):
        ratios.append(shares[k])
        if k + 1 < nseg:
            ratios.append(STALL_RATIO)
    gs = spec.subgridspec(nrows, len(ratios), width_ratios=ratios, wspace=0.0 if nseg > 1 else 0.2,
                          hspace=hspace)
    if stall_text_rows is None:
        stall_text_rows = range(nrows)
    ticks = [segment_ticks(a, b, nbins=max(2, int(round(8 * shares[k]))), relative=False if k == 0 else None)
             for k, (a, b) in enumerate(timeline.segments)]
    notes = []
    for st in timeline.stalls:
        text = "%s %s" % (st.word, fmt_duration(st.length))
        if fault_times is not None:
            n = int(((fault_times > st.start) & (fault_times < st.end)).sum())
            if n:
                text += "\n%s fault events" % format(n, ",")
        notes.append(text)
    for r in range(nrows):
        row = []
        for k, (a, b) in enumerate(timeline.segments):
            share_x = panel.rows[0][k] if r > 0 else None
            share_y = row[0] if k > 0 else (sharey[r] if sharey else None)
            ax = fig.add_subplot(gs[r, 2 * k], sharex=share_x, sharey=share_y)
            pad = 0.015 * (b - a)
            ax.set_xlim(a - pad, b + pad)
            ax.set_autoscalex_on(False)
            pos, labels, xlabel = ticks[k]
            ax.set_xticks(pos)
            ax.set_xticklabels(labels)
            ax.xaxis.set_minor_locator(NullLocator())
            if r + 1 < nrows:
                ax.tick_params(labelbottom=False)
            elif nseg > 1 or k > 0:
                ax.set_xlabel(xlabel, fontsize="small")
            else:
                ax.set_xlabel(xlabel)
            if k > 0:
                ax.tick_params(labelleft=False, left=False, which="both")
                ax.spines["left"].set_visible(False)
            if k + 1 < nseg:
                ax.spines["right"].set_visible(False)
            ax.mrc_scheme = timeline.scheme
            ax.mrc_segment = (a, b)
            row.append(ax)
            if k + 1 < nseg:
                pos = gs[r, 2 * k + 1].get_position(fig)
                band = Rectangle((pos.x0 + 0.12 * pos.width, pos.y0), 0.76 * pos.width, pos.height,
                                 transform=fig.transFigure, facecolor="0.93", edgecolor="0.55", hatch="///",
                                 linewidth=0.6, zorder=1)
                fig.add_artist(band)
                band.mrc_stall = timeline.stalls[k]
                band.mrc_scheme = timeline.scheme
                band.set_gid("stall")
                if r in stall_text_rows:
                    fig.text(pos.x0 + pos.width / 2, pos.y0 + pos.height / 2, notes[k], rotation=90, ha="center",
                             va="center", fontsize="small", color="0.15", zorder=2,
                             bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1.5})
                panel.stall_bands.append(band)
        panel.rows.append(row)
    return panel


def side_legend(fig, spec, handles, title=None, y=None):
    """A legend whose upper left corner is that of the SubplotSpec spec (or at figure height
    y), in figure coordinates: no Axes needed.  Returns it (None without handles)."""
    if not handles:
        return None
    pos = spec.get_position(fig)
    leg = fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(pos.x0, pos.y1 if y is None else y),
                     bbox_transform=fig.transFigure, borderaxespad=0.0, title=title, title_fontsize="x-small")
    leg._legend_box.align = "left"
    return leg


def pixels(ax):
    """The width of ax in pixels."""
    fig = ax.figure
    return max(1.0, ax.get_position().width * fig.get_figwidth() * fig.dpi)


def plot_series(ax, x, y, a, b, **style):
    """Draw the series (x sorted) on the segment Axes ax = [a, b]: only its points in [a, b]
    and one on either side; when they are more than three per pixel, as the mean per pixel
    column with the min-max range shaded behind (same colour)."""
    i0 = max(0, int(np.searchsorted(x, a, side="left")) - 1)
    i1 = min(x.size, int(np.searchsorted(x, b, side="right")) + 1)
    x, y = x[i0:i1], y[i0:i1]
    if x.size == 0:
        return None
    px = pixels(ax)
    if x.size <= 3 * px or not b > a:
        return ax.plot(x, y, **style)
    col = np.clip(((x - a) / (b - a) * px).astype(np.int64), -1, int(px) + 1)
    first = np.flatnonzero(np.r_[True, col[1:] != col[:-1]])
    count = np.diff(np.r_[first, x.size])
    xm = np.add.reduceat(x, first) / count
    ym = np.add.reduceat(y, first) / count
    lo = np.minimum.reduceat(y, first)
    hi = np.maximum.reduceat(y, first)
    colour = style.get("color")
    ax.fill_between(xm, lo, hi, color=colour, alpha=0.25, linewidth=0, zorder=style.get("zorder", 2) - 0.1)
    return ax.plot(xm, ym, **style)


def stall_summary(timeline):
    """'time axis cut at 2 stalls (4.29 s, 4.29 s)' or ''."""
    if not timeline.stalls:
        return ""
    return "time axis cut at %s" % ", ".join("%s %s" % (s.word, fmt_duration(s.length)) for s in timeline.stalls)


# ------------------------------------------------------------------ faults

def _plural(n, noun):
    if n == 1:
        return noun
    return noun + ("es" if noun.endswith(("ch", "sh", "s")) else "s")


def fault_label(c, lo, hi):
    """'T0–T1 links: 131,770 faults, 8 links' for the class's onsets in [lo, hi]."""
    n = c.onsets_in(lo, hi)
    targets = c.targets_in(lo, hi)
    return "%s: %s %s, %d %s" % (c.label, format(n, ","), _plural(n, "fault"), targets, _plural(targets, c.noun))


def draw_faults(panel, classes, mode="bands", colours=None, alpha=FAULT_BAND_ALPHA,
                limit=tl.FAULT_LINE_LIMIT):
    """Draw the fault classes (timeline.fault_classes) of panel's scheme on every data Axes of
    the panel.  bands: per class and Axes one collection of shaded intervals, merged (gaps
    narrower than a pixel closed); lines: per class and Axes one collection of lines at the
    onsets (solid) and one at the recoveries (dashed), when the panel's time range holds at
    most `limit` fault events (else bands).  Returns (legend handles, note or None); every
    artist drawn has a gid starting with 'fault:'."""
    if mode == "none" or not classes:
        return [], None
    lo, hi = panel.data_range
    shown = [c for c in classes if c.events_in(lo, hi) or tl.clip_sorted(c.union[0], c.union[1], lo, hi)[0].size]
    if not shown:
        return [], None
    colours = colours or fault_class_colours([c.key for c in classes])
    events = sum(c.events_in(lo, hi) for c in shown)
    lines = mode == "lines" and events <= limit
    note = None
    if mode == "lines" and not lines:
        note = "%s fault events: drawn as bands (lines up to %d)" % (format(events, ","), limit)
    bands = {}  # (segment, class) -> vertices: the rows of a panel share them
    for ax, a, b in panel.segments():
        trans = ax.get_xaxis_transform()
        pixel = (b - a) / 1500.0
        for c in shown:
            col = colours[c.key]
            if lines:
                for times, style, what in ((c.onsets, "-", "onset"), (c.recoveries, "--", "recovery")):
                    x = times[(times >= a) & (times <= b)]
                    if x.size:
                        coll = ax.vlines(x, 0, 1, transform=trans, colors=col, linestyles=style,
                                         linewidth=0.9, alpha=0.8, zorder=1)
                        coll.set_gid("fault:%s:%s" % (c.key, what))
                continue
            got = bands.get((a, b, c.key))
            if got is None:
                got = bands[(a, b, c.key)] = _band_shapes(c, a, b, pixel, col, alpha)
            verts, faces = got
            if verts.shape[0] == 0:
                continue
            coll = PolyCollection(verts, transform=trans, facecolors=faces, edgecolors="none", zorder=0.5,
                                  antialiased=False)
            coll.set_gid("fault:%s" % c.key)
            ax.add_collection(coll, autolim=False)
    handles = []
    for c in shown:
        label = fault_label(c, lo, hi)
        if lines:
            handles.append(Line2D([], [], color=colours[c.key], lw=1.2, label=label))
        else:
            handles.append(Patch(facecolor=colours[c.key], alpha=min(1.0, alpha * 2), edgecolor="none",
                                 label=label))
    if lines:
        handles.append(Line2D([], [], color="0.3", lw=1.2, ls="-", label="down / start"))
        handles.append(Line2D([], [], color="0.3", lw=1.2, ls="--", label="up / end"))
    return handles, note


DENSE_BANDS = 300  # more intervals than this in a segment: shaded by coverage per pixel column


def _band_shapes(c, a, b, pixel, colour, alpha):
    """(vertices, face colours) of class c's fault intervals in [a, b]: the intervals, merged
    (gaps under a pixel closed), in the class colour at alpha; or, when there are more than
    DENSE_BANDS of them, one rectangle per pixel column with faults, its opacity growing with
    the share of the column's time some target of the class was down."""
    from matplotlib.colors import to_rgba
    s, e = tl.clip_sorted(c.union[0], c.union[1], a, b)
    ms, me = tl.merge(s, e, pixel)
    rgba = np.array(to_rgba(colour, alpha))
    if ms.size <= DENSE_BANDS:
        s, e, faces = ms, np.maximum(me, ms + pixel), rgba[None, :]
    else:
        edges = a + pixel * np.arange(int(np.ceil((b - a) / pixel)) + 1)
        cover = tl.coverage(s, e, edges)
        hit = np.flatnonzero(cover > 0)
        s, e = edges[hit], edges[hit + 1]
        faces = np.repeat(rgba[None, :], hit.size, axis=0)
        faces[:, 3] = alpha * (0.2 + 0.8 * cover[hit])  # down throughout: as a merged interval
    verts = np.empty((s.size, 4, 2))
    verts[:, 0, 0] = verts[:, 1, 0] = s
    verts[:, 2, 0] = verts[:, 3, 0] = e
    verts[:, 0, 1] = verts[:, 3, 1] = 0.0
    verts[:, 1, 1] = verts[:, 2, 1] = 1.0
    return verts, faces


def fault_artists(ax):
    """The fault layer's artists on ax (gid 'fault:...')."""
    return [a for a in ax.get_children() if (a.get_gid() or "").startswith("fault:")]


# ------------------------------------------------------------------ saving

PARTIAL_PREFIX = "PARTIAL RESULTS: "


def mark_partial(fig, reason):
    """Write "PARTIAL RESULTS: <reason>" in red across the middle of fig (an incomplete results
    directory drawn with --allow-partial).  Returns the Text artist, also kept as
    fig.mrc_partial; None (and nothing drawn) when reason is None.  Marks a figure once."""
    if not reason:
        return None
    if getattr(fig, "mrc_partial", None) is not None:
        return fig.mrc_partial
    text = PARTIAL_PREFIX + reason
    width_pt = fig.get_figwidth() * 72.0
    size = max(8.0, min(26.0, 0.92 * width_pt / (0.6 * len(text))))
    artist = fig.text(0.5, 0.5, text, transform=fig.transFigure, ha="center", va="center",
                      color="red", fontsize=size, fontweight="bold", alpha=0.8, zorder=1000,
                      bbox={"facecolor": "white", "edgecolor": "red", "alpha": 0.75, "boxstyle": "round"})
    fig.mrc_partial = artist
    fig.mrc_partial_reason = reason
    return artist


def save(fig, paths, partial=None):
    """Save fig as each of paths (one or a list; the format from the extension), marked by
    mark_partial when partial (or fig.mrc_partial_reason) is given, with the same text as the
    file's Description (PNG, SVG) or Subject (PDF); close it.  Returns the path, or the list."""
    single = isinstance(paths, str)
    partial = partial or getattr(fig, "mrc_partial_reason", None)
    if partial:
        mark_partial(fig, partial)
    out = []
    for path in ([paths] if single else paths):
        kwargs = {}
        ext = os.path.splitext(path)[1].lower()
        if partial:
            key = {".png": "Description", ".svg": "Description", ".pdf": "Subject"}.get(ext)
            if key:
                kwargs["metadata"] = {key: PARTIAL_PREFIX + partial}
        fig.savefig(path, **kwargs)
        out.append(path)
    plt.close(fig)
    return out[0] if single else out


def nice_bin(span, target_bins=40):
    """A 1/2/5 x 10^k bin width giving about target_bins bins over span (> 0)."""
    if not span > 0:
        return 1.0
    raw = span / target_bins
    exp = np.floor(np.log10(raw))
    for m in (1, 2, 5, 10):
        w = m * 10 ** exp
        if w >= raw:
            return float(w)
    return float(10 ** (exp + 1))


def set_log(ax, which="y"):
    """A log scale on ax's x or y axis, labelled with plain numbers (1, 10, 100, 0.01: no
    mathtext powers), no labels on the minor ticks."""
    (ax.set_yscale if which == "y" else ax.set_xscale)("log")
    axis = ax.yaxis if which == "y" else ax.xaxis
    axis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
    axis.set_minor_formatter(NullFormatter())


def log_useful(values, decades=2.0):
    """True when the positive values span at least `decades` decades (and none is <= 0)."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    if v.size < 2 or (v <= 0).any():
        return False
    return float(v.max() / v.min()) >= 10 ** decades
