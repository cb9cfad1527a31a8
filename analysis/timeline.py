# SPDX-License-Identifier: GPL-2.0-only
"""Per-scheme time axes and fault intervals for the time-series figures (numpy only).

* :func:`scheme_timeline`: the time range a scheme's data covers, split into active segments
  around its long idle gaps (stalls), which the figures cut out of the time axis.
* :func:`fault_classes`: a scheme's fault events (events.csv rows of every kind but ev_state)
  paired into down intervals per target, grouped per target class ("T0-T1 links", "NIC ports",
  "T1 switch reboots", ...).
* :func:`merge`: the union of intervals, closing gaps below a resolution.

Times are microseconds of simulated time throughout.
"""

import re

import numpy as np

import mrc_results as mr

# A gap between two consecutive instants of activity is cut out of the time axis when it is
# longer than GAP_FACTOR times the median gap and longer than all the active time left once
# every such gap is removed; at most MAX_CUTS of them (the longest).
GAP_FACTOR = 20.0
MAX_CUTS = 8
# A segment gets at least this share of a panel's width.
MIN_SEGMENT_SHARE = 0.15


_memo = {}


def _memoised(name, tables, *key):
    """(hit, value) of an earlier call of `name` on the same table objects (loaded tables are
    cached and never changed) and arguments."""
    k = (name, tuple(id(t) for t in tables)) + key
    hit = _memo.get(k)
    if hit is not None and all(a is b for a, b in zip(hit[0], tables)):
        return True, hit[1]
    return False, k


def _remember(k, tables, value):
    if len(_memo) > 512:
        _memo.clear()
    _memo[k] = (tuple(tables), value)
    return value


def parse_window(text):
    """'START_US:END_US' (either side may be empty) -> (start, end) floats (-inf/inf when
    empty).  Raises ValueError with a message."""
    start, sep, end = text.partition(":")
    if not sep:
        raise ValueError("expected START_US:END_US, got %r" % text)
    try:
        lo = float(start) if start.strip() else -np.inf
        hi = float(end) if end.strip() else np.inf
    except ValueError:
        raise ValueError("expected START_US:END_US in microseconds, got %r" % text)
    if not lo < hi:
        raise ValueError("the start must be before the end, got %r" % text)
    return lo, hi


def in_window(t, window):
    """Boolean mask of the times t (µs) inside window (None: all), ends included."""
    t = np.asarray(t, dtype=np.float64)
    if window is None:
        return np.ones(t.shape, dtype=bool)
    return (t >= window[0]) & (t <= window[1])


def scheme_mask(table, scheme):
    """Rows of table that belong to scheme (all False for a missing or empty table)."""
    if mr.is_empty(table):
        return np.zeros(0, dtype=bool)
    return mr.column_equals(table, "scheme", scheme)


class Stall:
    """A gap cut out of a scheme's time axis: [start, end] µs; ``stuck`` is True when a transfer
    was in progress across it (a stall) and False when nothing was (idle time)."""

    def __init__(self, start, end, stuck):
        self.start, self.end, self.stuck = float(start), float(end), bool(stuck)

    @property
    def length(self):
        return self.end - self.start

    @property
    def word(self):
        return "stall" if self.stuck else "idle"

    def __repr__(self):
        return "Stall(%g, %g, %s)" % (self.start, self.end, self.word)


class Timeline:
    """One scheme's time axis: its data range [lo, hi] µs and the active segments
    [(start, end), ...] left once the stalls (a list of :class:`Stall`) are cut out."""

    def __init__(self, scheme, lo, hi, segments, stalls):
        self.scheme = scheme
        self.lo, self.hi = float(lo), float(hi)
        self.segments = [(float(a), float(b)) for a, b in segments]
        self.stalls = stalls

    @property
    def active_us(self):
        return sum(b - a for a, b in self.segments)

    def shares(self):
        """Each segment's share of the panel width: its part of the active time, at least
        MIN_SEGMENT_SHARE, normalised to 1."""
        lengths = np.array([b - a for a, b in self.segments], dtype=np.float64)
        share = lengths / lengths.sum() if lengths.sum() > 0 else np.ones(len(lengths))
        share = np.maximum(share, MIN_SEGMENT_SHARE)
        return share / share.sum()

    def __repr__(self):
        return "Timeline(%s, %g..%g, segments=%s, stalls=%s)" % (self.scheme, self.lo, self.hi,
                                                                self.segments, self.stalls)


def activity_times(results, scheme, window=None):
    """The instants (µs, sorted, distinct) at which the scheme did something: steps and flows
    starting and ending, link time bins (the link monitor writes no row for an idle bin), EV
    state changes.  Fault events are not activity: flaps keep firing while a transport is
    stuck."""
    parts = []
    for name, cols in (("steps", ("start_us", "end_us")), ("flows", ("start_us", "end_us")),
                       ("links", ("time_us",))):
        t = results.get(name)
        m = scheme_mask(t, scheme)
        if m.any():
            parts.extend(np.asarray(t[c])[m] for c in cols)
    ev = results.get("events")
    m = scheme_mask(ev, scheme)
    if m.any():
        m &= mr.column_equals(ev, "kind", "ev_state")
        parts.append(ev["time_us"][m])
    if not parts:
        return np.zeros(0)
    t = np.concatenate(parts)
    return np.unique(t[in_window(t, window)])


def fault_times(results, scheme, window=None):
    """Times (µs) of the scheme's fault events (kind != ev_state) in window."""
    ev = results.get("events")
    hit, k = _memoised("fault_times", [ev], scheme, window)
    if hit:
        return k
    m = scheme_mask(ev, scheme)
    if not m.any():
        return _remember(k, [ev], np.zeros(0))
    m &= ~mr.column_equals(ev, "kind", "ev_state")
    t = ev["time_us"][m]
    return _remember(k, [ev], t[in_window(t, window)])


def find_cuts(times):
    """Indices i of the gaps times[i] -> times[i+1] to cut (see GAP_FACTOR), in time order."""
    if times.size < 3:
        return np.zeros(0, dtype=np.int64)
    gaps = np.diff(times)
    median = float(np.median(gaps))
    span = float(times[-1] - times[0])
    candidates = np.flatnonzero(gaps > GAP_FACTOR * median)
    if candidates.size == 0:
        return candidates
    active = span - float(gaps[candidates].sum())
    cuts = candidates[gaps[candidates] > max(active, GAP_FACTOR * median)]
    if cuts.size > MAX_CUTS:
        cuts = cuts[np.argsort(gaps[cuts])[::-1][:MAX_CUTS]]
    return np.sort(cuts)


def scheme_timeline(results, scheme, window=None):
    """The :class:`Timeline` of scheme in the loaded results (mr.load_results), restricted to
    window (None: everything), or None when the scheme has no data there.  The range is that
    of the scheme's activity (:func:`activity_times`), or of its fault events if it has no
    other data."""
    tables = [results.get(n) for n in ("steps", "flows", "links", "events")]
    hit, k = _memoised("timeline", tables, scheme, window)
    if hit:
        return k
    return _remember(k, tables, _scheme_timeline(results, scheme, window))


def _scheme_timeline(results, scheme, window):
    times = activity_times(results, scheme, window)
    if times.size == 0:
        times = np.unique(fault_times(results, scheme, window))
    if times.size == 0 and window is not None:
        # nothing happens inside the window (it lies in a stall): the window, within the data
        every = activity_times(results, scheme)
        if every.size:
            lo, hi = max(window[0], float(every[0])), min(window[1], float(every[-1]))
            if lo < hi:
                return Timeline(scheme, lo, hi, [(lo, hi)], [])
    if times.size == 0:
        return None
    lo, hi = float(times[0]), float(times[-1])
    cuts = find_cuts(times)
    segments, stalls = [], []
    start = lo
    flows = results.get("flows")
    fm = scheme_mask(flows, scheme)
    f_start = flows["start_us"][fm] if fm.any() else np.zeros(0)
    f_end = flows["end_us"][fm] if fm.any() else np.zeros(0)
    for i in cuts:
        a, b = float(times[i]), float(times[i + 1])
        segments.append((start, a))
        stuck = bool(((f_start <= a) & (f_end >= b)).any())
        stalls.append(Stall(a, b, stuck))
        start = b
    segments.append((start, hi))
    # a segment of one instant gets a width: 1% of the longest segment, at least 1 µs
    longest = max(b - a for a, b in segments)
    pad = max(1.0, 0.01 * longest)
    segments = [(a - pad / 2, b + pad / 2) if b - a <= 0 else (a, b) for a, b in segments]
    if len(segments) == 1:
        a, b = segments[0]
        lo, hi = min(lo, a), max(hi, b)
    return Timeline(scheme, lo, hi, segments, stalls)


def prepare(results, window=None):
    """Compute, once, what the time-series figures of every scheme need (the codes of the text
    columns, each scheme's timeline and fault classes): they are memoised, so processes forked
    afterwards share them."""
    for name in ("steps", "flows", "links", "events"):
        t = results.get(name)
        if not mr.is_empty(t):
            for col in ("scheme", "job", "tier", "plane", "kind", "target", "state"):
                if col in t and col in dict(mr.SCHEMAS.get(name + ".csv", [])):
                    mr.codes(t, col)
    for scheme in mr.schemes_of(*(results.get(n) for n in ("steps", "flows", "links", "events"))):
        tline = scheme_timeline(results, scheme, window)
        if tline is not None:
            fault_classes(results.get("events"), scheme, tline.lo, tline.hi)
            fault_times(results, scheme, window)


# ------------------------------------------------------------------ faults

FAULT_LINE_LIMIT = 50  # --faults=lines draws lines only up to this many events per panel

_TIER_RANK = {"host": 0, "nic": 0, "t0": 1, "t1": 2, "t2": 3, "t3": 4}


def _node_tier(node):
    """'t0-3' -> 't0', 'host5' -> 'host', 'plane1' or 'qp2' -> None."""
    name = re.sub(r"[-_]?\d+$", "", node.strip()).lower()
    return name if re.fullmatch(r"t\d+|host|nic", name) else None


def _tier_label(tier):
    return tier.upper() if re.fullmatch(r"t\d+", tier) else tier


class FaultClass:
    """The fault events of one target class of one scheme.

    key, label (e.g. "T0-T1 links"), kind, noun (what a target is: "link", "port", "switch");
    starts, ends: the down intervals (µs), one per fault of one target, unmerged; onsets,
    recoveries: the times of the down/start and up/end events (sorted); onset_targets: the
    target of each onset (an index); targets: distinct targets; union: (starts, ends) of the
    merged intervals, sorted and disjoint."""

    def __init__(self, key, label, kind, noun):
        self.key, self.label, self.kind, self.noun = key, label, kind, noun
        self.starts = self.ends = self.onsets = self.recoveries = np.zeros(0)
        self.onset_targets = np.zeros(0, dtype=np.int64)
        self.union = (np.zeros(0), np.zeros(0))
        self.targets = 0

    def onsets_in(self, lo, hi):
        return int(((self.onsets >= lo) & (self.onsets <= hi)).sum())

    def targets_in(self, lo, hi):
        """Distinct targets with an onset in [lo, hi] (all targets if none has)."""
        m = (self.onsets >= lo) & (self.onsets <= hi)
        return int(np.unique(self.onset_targets[m]).size) if m.any() else self.targets

    def events_in(self, lo, hi):
        return self.onsets_in(lo, hi) + int(((self.recoveries >= lo) & (self.recoveries <= hi)).sum())

    def __repr__(self):
        return "FaultClass(%s, %d onsets, %d targets)" % (self.key, self.onsets.size, self.targets)


def target_class(kind, target):
    """(key, label, noun) of the class a fault target belongs to."""
    nodes = [n for n in target.split("/") if n]
    tiers = [t for t in (_node_tier(n) for n in nodes) if t]
    if kind == "link":
        if len(tiers) >= 2:
            pair = sorted(tiers[:2], key=lambda t: (_TIER_RANK.get(t, 9), t))
            return ("link:%s-%s" % tuple(pair), "%s\u2013%s links" % tuple(_tier_label(t) for t in pair), "link")
        return ("link", "links", "link")
    if kind == "nic_port":
        return ("nic_port", "NIC ports", "port")
    if kind == "switch_reboot":
        tier = tiers[-1] if tiers else None
        if tier:
            return ("switch_reboot:%s" % tier, "%s switch reboots" % _tier_label(tier), "switch")
        return ("switch_reboot", "switch reboots", "switch")
    if kind == "blackhole":
        tier = tiers[-1] if tiers else None
        if tier:
            return ("blackhole:%s" % tier, "%s blackholes" % _tier_label(tier), "target")
        return ("blackhole", "blackholes", "target")
    return (kind, kind.replace("_", " "), "target")


def _class_rank(key):
    kind, _, rest = key.partition(":")
    order = {"link": 0, "nic_port": 1, "switch_reboot": 2, "blackhole": 3}.get(kind, 4)
    tiers = [_TIER_RANK.get(t, 9) for t in rest.split("-")] if rest else []
    return (order, tiers, key)


def fault_classes(events, scheme, lo=-np.inf, hi=np.inf):
    """The scheme's fault events as a list of :class:`FaultClass`, in a fixed order (links by
    tier, NIC ports, switch reboots, blackholes, others).

    Each target's events are taken in time order: a down/start opens a fault (a second one
    while open changes nothing), an up/end closes it.  A fault still open at the end closes at
    hi; a target whose first event is an up/end was down from lo.  Other states are ignored.
    """
    if mr.is_empty(events):
        return []
    hit, k = _memoised("faults", [events], scheme, float(lo), float(hi))
    if hit:
        return k
    return _remember(k, [events], _fault_classes(events, scheme, lo, hi))


def _fault_classes(events, scheme, lo, hi):
    m = scheme_mask(events, scheme) & ~mr.column_equals(events, "kind", "ev_state")
    if not m.any():
        return []
    kc, kinds = mr.codes(events, "kind")
    tc, targets = mr.codes(events, "target")
    on_all = mr.column_isin(events, "state", mr.FAULT_ONSET)
    off_all = mr.column_isin(events, "state", mr.FAULT_RECOVERY)
    t = events["time_us"][m]
    k, tg, on, off = kc[m], tc[m], on_all[m], off_all[m]
    time_sorted = bool((t[1:] >= t[:-1]).all())
    # the (kind, target) pairs present, numbered 0.. in (kind, target) order, and their classes
    present = np.zeros((len(kinds), len(targets)), dtype=bool)
    present[k, tg] = True
    pk, pt = np.nonzero(present)
    number = np.full(present.shape, -1, dtype=np.int64)
    number[pk, pt] = np.arange(pk.size)
    pinv = number[k, tg]
    classes = {}
    keys = []
    pair_class = np.empty(pk.size, dtype=np.int64)
    for j in range(pk.size):
        key, label, noun = target_class(kinds[pk[j]], targets[pt[j]])
        if key not in classes:
            classes[key] = FaultClass(key, label, kinds[pk[j]], noun)
            keys.append(key)
        pair_class[j] = keys.index(key)
    cls = pair_class[pinv]
    for ci, key in enumerate(keys):
        c = classes[key]
        sel = cls == ci if len(keys) > 1 else np.ones(t.size, dtype=bool)
        ons = sel & on
        if time_sorted:
            c.onsets, c.onset_targets = t[ons], pinv[ons]
            c.recoveries = t[sel & off]
        else:
            o = np.argsort(t[ons], kind="stable")
            c.onsets, c.onset_targets = t[ons][o], pinv[ons][o]
            c.recoveries = np.sort(t[sel & off])
        c.targets = int(np.count_nonzero(np.bincount(pinv[sel], minlength=pk.size)))
        c.starts, c.ends = _intervals(t[sel], pinv[sel], on[sel], off[sel], lo, hi, time_sorted)
        c.union = merge(c.starts, c.ends)
    return [classes[k] for k in sorted(keys, key=_class_rank)]


def _intervals(t, target, on, off, lo, hi, time_sorted=False):
    """Down intervals (starts, ends) of events at times t of the given targets (see
    :func:`fault_classes`); time_sorted: t is in time order already."""
    keep = on | off
    t, target, on = t[keep], target[keep], on[keep]
    if t.size == 0:
        return np.zeros(0), np.zeros(0)
    if time_sorted and target.max() < 32768:
        order = np.argsort(target.astype(np.int16), kind="stable")  # a radix sort
    else:
        order = np.lexsort((t, target))
    t, target, on = t[order], target[order], on[order]
    first = np.ones(t.size, dtype=bool)
    first[1:] = target[1:] != target[:-1]
    prev_on = np.zeros(t.size, dtype=bool)
    prev_on[1:] = on[:-1]
    prev_on[first] = False
    opens = on & ~prev_on
    closes = ~on & prev_on
    orphan = ~on & first  # the target's first event is a recovery: down since lo
    idx = np.flatnonzero(opens | closes)
    is_open = opens[idx]
    closed_next = np.zeros(idx.size, dtype=bool)
    closed_next[:-1] = ~is_open[1:] & (target[idx[1:]] == target[idx[:-1]])
    o = np.flatnonzero(is_open)
    starts = t[idx[o]]
    nxt = idx[np.minimum(o + 1, idx.size - 1)]
    ends = np.where(closed_next[o], t[nxt], max(hi, float(t.max())))
    if orphan.any():
        starts = np.concatenate([np.full(int(orphan.sum()), min(lo, float(t.min()))), starts])
        ends = np.concatenate([t[orphan], ends])
    return starts, ends


def merge(starts, ends, min_gap=0.0):
    """Union of the intervals [starts[i], ends[i]]: (starts, ends) sorted and disjoint, gaps of
    at most min_gap closed."""
    starts = np.asarray(starts, dtype=np.float64)
    ends = np.asarray(ends, dtype=np.float64)
    if starts.size == 0:
        return starts, ends
    order = np.argsort(starts, kind="stable")
    s, e = starts[order], ends[order]
    reach = np.maximum.accumulate(e)
    new = np.ones(s.size, dtype=bool)
    new[1:] = s[1:] > reach[:-1] + min_gap
    first = np.flatnonzero(new)
    return s[first], np.maximum.reduceat(e, first)


def clip(starts, ends, lo, hi):
    """The parts of the intervals inside [lo, hi]."""
    keep = (ends >= lo) & (starts <= hi)
    return np.maximum(starts[keep], lo), np.minimum(ends[keep], hi)


def coverage(starts, ends, edges):
    """The fraction of each bin [edges[i], edges[i+1]] that the sorted, disjoint intervals
    cover."""
    edges = np.asarray(edges, dtype=np.float64)
    if starts.size == 0:
        return np.zeros(max(0, edges.size - 1))
    cum = np.concatenate([[0.0], np.cumsum(ends - starts)])
    i = np.searchsorted(starts, edges, side="right")  # intervals started by each edge
    covered = cum[i] - np.where(i > 0, np.maximum(0.0, ends[np.maximum(i - 1, 0)] - edges), 0.0)
    width = np.diff(edges)
    return np.clip(np.diff(covered) / np.where(width > 0, width, 1.0), 0.0, 1.0)


def clip_sorted(starts, ends, lo, hi):
    """clip() of sorted, disjoint intervals (a union from :func:`merge`), by bisection."""
    i0 = int(np.searchsorted(ends, lo, side="left"))
    i1 = int(np.searchsorted(starts, hi, side="right"))
    return np.maximum(starts[i0:i1], lo), np.minimum(ends[i0:i1], hi)
