# SPDX-License-Identifier: GPL-2.0-only
"""Shared matplotlib setup and styling for the plot_*.py scripts.

Imported lazily by the scripts (only once there is data to draw), so error
paths and summary.py never pay for importing matplotlib.  Uses the Agg
backend: no display is needed.
"""

import requirements_check  # noqa: F401,E402  (one-line error if numpy/matplotlib are missing)
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
import numpy as np  # noqa: E402

import mrc_results as mr  # noqa: E402

plt.rcParams.update({
    "figure.dpi": 110,
    "savefig.dpi": 110,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": "small",
    "legend.framealpha": 0.85,
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
EV_STATE_COLOURS = {
    "GOOD": "tab:green",
    "SKIP": "tab:gray",
    "ASSUMED_BAD": "tab:orange",
    "DENIED": "tab:red",
}


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


def time_unit(max_us):
    """(divisor, label) to show times of up to max_us microseconds readably."""
    if max_us >= 5e6:
        return 1e6, "s"
    if max_us >= 5e3:
        return 1e3, "ms"
    return 1.0, "\u00b5s"


def fault_events(events):
    """Fault events (kind != ev_state) as a list of (time_us, kind, state, target),
    de-duplicated across schemes and sorted by time."""
    if mr.is_empty(events):
        return []
    seen = set()
    for t, kind, state, target in zip(events["time_us"], events["kind"], events["state"], events["target"]):
        if kind != "ev_state":
            seen.add((float(t), kind, state, target))
    return sorted(seen)


def draw_fault_markers(ax, faults, divisor, alpha=0.6):
    """Vertical lines at each fault event: colour by kind, onset (down/start)
    solid, recovery (up/end) dashed, other states dotted.  Returns legend
    handles (one per kind present, plus the line-style key)."""
    groups = {}
    for t, kind, state, _ in faults:
        if state in mr.FAULT_ONSET:
            style = "-"
        elif state in mr.FAULT_RECOVERY:
            style = "--"
        else:
            style = ":"
        groups.setdefault((kind, style), []).append(t / divisor)
    kinds = []
    for (kind, style), xs in sorted(groups.items()):
        ax.vlines(xs, 0, 1, transform=ax.get_xaxis_transform(), colors=fault_colour(kind),
                  linestyles=style, linewidth=0.9, alpha=alpha, zorder=1)
        if kind not in kinds:
            kinds.append(kind)
    handles = [Line2D([], [], color=fault_colour(k), lw=1.2, label="fault: %s" % k) for k in kinds]
    if handles:
        styles = {s for (_, s) in groups}
        if "-" in styles:
            handles.append(Line2D([], [], color="0.3", lw=1.2, ls="-", label="down / start"))
        if "--" in styles:
            handles.append(Line2D([], [], color="0.3", lw=1.2, ls="--", label="up / end"))
        if ":" in styles:
            handles.append(Line2D([], [], color="0.3", lw=1.2, ls=":", label="other state"))
    return handles


PARTIAL_PREFIX = "PARTIAL RESULTS: "


def mark_partial(fig, reason):
    """Write "PARTIAL RESULTS: <reason>" in red across the middle of fig (an incomplete results
    directory drawn with --allow-partial).  Returns the Text artist, also kept as
    fig.mrc_partial; None (and nothing drawn) when reason is None."""
    if not reason:
        return None
    text = PARTIAL_PREFIX + reason
    width_pt = fig.get_figwidth() * 72.0
    size = max(8.0, min(26.0, 0.92 * width_pt / (0.6 * len(text))))
    artist = fig.text(0.5, 0.5, text, transform=fig.transFigure, ha="center", va="center",
                      color="red", fontsize=size, fontweight="bold", alpha=0.8, zorder=1000,
                      bbox={"facecolor": "white", "edgecolor": "red", "alpha": 0.75, "boxstyle": "round"})
    fig.mrc_partial = artist
    return artist


def save(fig, path, partial=None):
    """Save fig as path (with partial: marked by mark_partial, and the same text as the PNG's
    Description) and close it."""
    kwargs = {}
    if partial:
        mark_partial(fig, partial)
        if path.lower().endswith(".png"):
            kwargs["metadata"] = {"Description": PARTIAL_PREFIX + partial}
    fig.savefig(path, **kwargs)
    plt.close(fig)
    return path


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
