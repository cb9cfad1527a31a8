# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the figures the analysis scripts draw, on a recorded quickstart run and on a large
synthetic run: one panel per scheme on its own time axis, stalls cut out, faults as a few
aggregated bands, the options (--scheme, --window, --logy, --faults, --format) and the time a
million fault events take.  The figures are inspected as matplotlib Figure objects, built by
each script's make_figure().

The quickstart binary must have been built first ($MRC_BUILD_DIR/bin/quickstart, default
<repo>/build/bin/quickstart); the tests that need it FAIL, not skip, when it is missing.

Run with: /usr/bin/python3 -m pytest -q test/test_plots.py
"""

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANALYSIS = os.path.join(ROOT, "analysis")
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
QUICKSTART = os.path.join(BUILD_DIR, "bin", "quickstart")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
sys.path.insert(0, ANALYSIS)

import mrc_results as mr  # noqa: E402
import plotstyle as ps  # noqa: E402
import plot_ev_states  # noqa: E402
import plot_links  # noqa: E402
import plot_steps  # noqa: E402
import plot_sweep  # noqa: E402
import plot_throughput  # noqa: E402
import results_dir as rd  # noqa: E402
import timeline as tl  # noqa: E402

# test/test_quickstart.py's small configuration: 8 GPUs, 2 planes, faults in the first 100 us;
# the baseline's 4.29 s local ACK timeouts stretch its run to 8.6 s, MRC's takes 0.4 ms.
QUICKSTART_SMALL = ["--gpus=8", "--hostsPerT0=2", "--t1=2", "--planes=2", "--steps=2", "--bytes=262144",
                    "--flapRate=2000", "--portLossAtUs=30", "--portLossUs=40", "--rebootAtUs=60",
                    "--rebootUs=40", "--portLossHost=1", "--rebootT1=1", "--binUs=10", "--plots=0"]
TIME_PLOTS = (plot_steps, plot_links, plot_ev_states)
ALL_PLOTS = TIME_PLOTS + (plot_throughput,)
BANDS_PER_CLASS = 1  # per data Axes: one collection per fault class
LARGE_FAULTS = 1_000_000
LARGE_EV = 100_000


# ------------------------------------------------------------------ fixtures

@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A quickstart run of the small configuration, without its plots."""
    assert os.path.isfile(QUICKSTART), "build the programs first (./ns3 build): %s is missing" % QUICKSTART
    d = str(tmp_path_factory.mktemp("plots") / "run")
    p = subprocess.run([QUICKSTART, "--out=%s" % d] + QUICKSTART_SMALL, capture_output=True, text=True,
                       timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert rd.incomplete_reason(d) is None
    return d


@pytest.fixture(scope="module")
def results(recorded):
    return mr.load_results(recorded)


def seal(d, complete=True, reason=None):
    """run.json and manifest.json as a program leaves them (docs/results.md)."""
    run = {"program": "synthetic", "complete": complete}
    if not complete:
        run["incomplete_reason"] = reason or "running"
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run, f)
    files = {}
    for name in sorted(os.listdir(d)):
        if name not in rd.BOOKKEEPING:
            files[name] = rd.file_entry(os.path.join(d, name))
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump({"format": rd.FORMAT, "program": "synthetic", "complete": complete, "files": files}, f)
    return d


def make_large_run(d, faults=LARGE_FAULTS, ev=LARGE_EV, seed=1):
    """A synthetic results directory with `faults` fault events (link flaps on 64 T0-T1 links
    per scheme, most of them on the baseline during its 4.29 s stall, plus a NIC port loss and
    a T1 reboot each) and `ev` EV state changes (MRC): 50 steps of ~2 ms per scheme, one of the
    baseline's with a 4.29 s stall; links.csv bins of 20 us on 4 planes and 4 tiers."""
    rng = np.random.default_rng(seed)
    os.makedirs(d, exist_ok=True)
    stall = 4294967.296
    steps, flows = [], []
    step_times = {}
    for scheme in ("mrc", "baseline"):
        t, rows = 0.0, []
        for i in range(50):
            dur = 2000.0 * (1 + 0.05 * rng.random()) + (stall if scheme == "baseline" and i == 3 else 0.0)
            rows.append((t, t + dur))
            steps.append("%s,0,%d,%.3f,%.3f,%.3f,%d" % (scheme, i, t, t + dur, dur, i % 8))
            for f in range(64):
                fs = t + 50 + 5 * rng.random()
                fe = t + dur - 5 * rng.random()
                b = 1 << 20
                flows.append("%s,0,%d,ring-allreduce,%d,%d,0,%d,%.3f,%.3f,%.6f"
                             % (scheme, i, f % 16, (f + 1) % 16, b, fs, fe, b * 8 / ((fe - fs) * 1e3)))
            t += dur
        step_times[scheme] = rows
    links = []
    for scheme, rows in step_times.items():
        for a, b in rows:
            active = (a, min(b, a + 2100.0))
            bins = np.arange(np.ceil(active[0] / 20) * 20, active[1], 20.0)
            for tier in mr.TIERS:
                for plane in range(4):
                    u = np.clip(0.6 + 0.2 * rng.standard_normal(bins.size), 0, 1)
                    links.extend("%s,%g,%d,%s,%.4f,%.1f,%.1f" % (scheme, x, plane, tier, y, 1000 * y, 4000 * y)
                                 for x, y in zip(bins, u))
    events = []
    span = {s: rows[-1][1] for s, rows in step_times.items()}
    targets = ["plane%d/t0-%d/t1-%d" % (p, i, j) for p in range(2) for i in range(8) for j in range(4)]
    flaps = faults // 2 - 4  # and 2 x (NIC port loss + T1 reboot), down and up each
    share = {"mrc": flaps // 10, "baseline": flaps - flaps // 10}
    for scheme, n in share.items():
        start = rng.uniform(0, span[scheme], n)
        down = rng.exponential(20.0, n)
        tg = rng.integers(0, len(targets), n)
        for t0, dt, k in zip(start, down, tg):
            events.append((t0, "%s,%.3f,link,%s,down," % (scheme, t0, targets[k])))
            events.append((t0 + dt, "%s,%.3f,link,%s,up," % (scheme, t0 + dt, targets[k])))
        for t0, kind, target, on, off in ((1000.0, "nic_port", "host5/plane1", "down", "up"),
                                          (2500.0, "switch_reboot", "plane1/t1-3", "start", "end")):
            events.append((t0, "%s,%.3f,%s,%s,%s," % (scheme, t0, kind, target, on)))
            events.append((t0 + 500, "%s,%.3f,%s,%s,%s," % (scheme, t0 + 500, kind, target, off)))
    states = np.array(["GOOD", "SKIP", "ASSUMED_BAD", "DENIED"])
    ev_t = np.sort(rng.uniform(0, span["mrc"], ev))
    for t0, st, q in zip(ev_t, states[rng.integers(0, 4, ev)], rng.integers(0, 512, ev)):
        events.append((t0, "mrc,%.3f,ev_state,host%d/qp0/ev%d,%s,GOOD->%s (probe)" % (t0, q % 16, q, st, st)))
    events.sort(key=lambda e: e[0])
    for name, header, rows in (("steps.csv", "scheme,job,step,start_us,end_us,duration_us,slowest_rank", steps),
                               ("flows.csv", "scheme,job,step,collective,src,dst,qp,bytes,start_us,end_us,"
                                             "throughput_gbps", flows),
                               ("links.csv", "scheme,time_us,plane,tier,utilization,queue_bytes_mean,"
                                             "queue_bytes_max", links),
                               ("events.csv", "scheme,time_us,kind,target,state,detail", [e[1] for e in events])):
        with open(os.path.join(d, name), "w") as f:
            f.write(header + "\n" + "\n".join(rows) + "\n")
    return seal(d)


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    return make_large_run(str(tmp_path_factory.mktemp("large") / "run"))


def figure(module, *argv):
    fig = module.make_figure([str(a) for a in argv])
    assert fig is not None
    return fig


def close(fig):
    ps.plt.close(fig)


def schemes_in(results, name):
    return mr.schemes_of(results[name])


def data_range(results, scheme):
    t = tl.activity_times(results, scheme)
    return float(t.min()), float(t.max())


# ------------------------------------------------------------------ the timeline itself

def test_the_baseline_stall_is_cut_out_and_mrc_keeps_one_segment(results):
    mrc = tl.scheme_timeline(results, "mrc")
    base = tl.scheme_timeline(results, "baseline")
    assert mrc.stalls == [] and len(mrc.segments) == 1
    assert mrc.hi < 1000  # MRC's run: well under a millisecond
    assert len(base.stalls) >= 1
    assert all(s.length > 4e6 and s.stuck for s in base.stalls)  # 4.29 s each, transfers stuck
    assert base.active_us < 2000
    assert base.hi > 4e6
    for (a, b), st in zip(base.segments, base.stalls):
        assert b <= st.start and st.end >= b


def test_fault_intervals_pair_down_and_up_per_target_and_merge():
    ev = {"scheme": ["s"] * 7, "time_us": np.array([1.0, 2.0, 3.0, 5.0, 6.0, 9.0, 10.0]),
          "kind": ["link", "link", "link", "link", "nic_port", "nic_port", "link"],
          "target": ["plane0/t0-1/t1-0", "plane0/t0-1/t1-0", "plane0/t0-2/t1-1", "plane0/t0-2/t1-1", "host1/plane0",
                     "host1/plane0", "plane0/t1-0/t0-3"],
          "state": ["down", "down", "down", "up", "down", "up", "up"], "detail": [""] * 7}
    classes = tl.fault_classes(ev, "s", 0.0, 20.0)
    assert [c.label for c in classes] == ["T0\u2013T1 links", "NIC ports"]
    links, nic = classes
    assert links.targets == 3 and links.onsets.tolist() == [1.0, 2.0, 3.0]
    # t0-1/t1-0: down at 1 (the second down changes nothing), never up: open to the end (20);
    # t0-2/t1-1: 3..5; t1-0/t0-3: up at 10 first: down from the start (0)
    got = sorted(zip(links.starts.tolist(), links.ends.tolist()))
    assert got == [(0.0, 10.0), (1.0, 20.0), (3.0, 5.0)]
    assert tl.merge(links.starts, links.ends)[0].tolist() == [0.0]
    assert list(zip(nic.starts, nic.ends)) == [(6.0, 9.0)]
    s, e = tl.merge([0, 2, 10], [1, 3, 11], min_gap=1.5)
    assert s.tolist() == [0, 10] and e.tolist() == [3, 11]


# ------------------------------------------------------------------ the figures

@pytest.mark.parametrize("module", TIME_PLOTS, ids=lambda m: m.__name__)
def test_one_panel_per_scheme_on_its_own_time_axis(recorded, results, module):
    fig = figure(module, recorded)
    try:
        table = {plot_steps: "steps", plot_links: "links", plot_ev_states: "events"}[module]
        schemes = schemes_in(results, table)
        assert [p.scheme for p in fig.mrc_panels] == schemes == ["mrc", "baseline"]
        for p in fig.mrc_panels:
            lo, hi = data_range(results, p.scheme)
            assert p.data_range == pytest.approx((lo, hi))
            tol = 0.02 * (hi - lo)
            for ax, a, b in p.segments():
                x0, x1 = ax.get_xlim()
                assert lo - tol <= x0 < x1 <= hi + tol, (p.scheme, x0, x1, lo, hi)
                assert x1 - x0 <= 1.04 * (b - a)
        mrc, base = fig.mrc_panels
        # MRC's 0.4 ms are not squeezed against the baseline's 8.6 s: its axis ends at its own data
        assert max(ax.get_xlim()[1] for ax in mrc.axes) < 1000
        # the baseline's stalls are bands labelled with their length, not axis
        assert len(base.stall_bands) >= len(base.timeline.stalls) >= 1
        texts = [t.get_text() for t in fig.texts]
        assert any(t.startswith("stall 4.29 s") for t in texts), texts
        assert sum(b - a for _, a, b in base.segments()) < 1e4 * len(base.rows)
    finally:
        close(fig)


@pytest.mark.parametrize("module", TIME_PLOTS, ids=lambda m: m.__name__)
def test_faults_are_a_few_aggregated_bands(recorded, results, module):
    fig = figure(module, recorded)
    try:
        n_faults = int((~mr.column_equals(results["events"], "kind", "ev_state")).sum())
        assert n_faults > 100000  # the baseline's flaps
        classes = {p.scheme: tl.fault_classes(results["events"], p.scheme) for p in fig.mrc_panels}
        total = 0
        for p in fig.mrc_panels:
            for ax in p.axes:
                arts = ps.fault_artists(ax)
                assert len(arts) <= BANDS_PER_CLASS * len(classes[p.scheme]), (p.scheme, arts)
                total += len(arts)
        assert 0 < total < 200
        # the legend counts the faults per class
        labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
        assert any(t.startswith("T0\u2013T1 links: 131,770 faults") or t.startswith("T0\u2013T1 links: ")
                   for t in labels), labels
        base_links = [c for c in classes["baseline"] if c.key == "link:t0-t1"][0]
        assert any(t.startswith("T0\u2013T1 links: %s faults" % format(base_links.onsets.size, ","))
                   for t in labels), labels
    finally:
        close(fig)


@pytest.mark.parametrize("module", TIME_PLOTS, ids=lambda m: m.__name__)
def test_fault_modes(recorded, module):
    fig = figure(module, recorded, "--faults=none")
    try:
        assert all(not ps.fault_artists(ax) for ax in fig.axes)
    finally:
        close(fig)
    # lines: MRC's 38 fault events are drawn as lines; the baseline's 263,000 fall back to bands
    fig = figure(module, recorded, "--faults=lines")
    try:
        mrc, base = fig.mrc_panels
        gids = [a.get_gid() for ax in mrc.axes for a in ps.fault_artists(ax)]
        assert gids and all(g.endswith((":onset", ":recovery")) for g in gids)
        assert sum(len(a.get_segments()) for a in ps.fault_artists(mrc.rows[0][0])) <= tl.FAULT_LINE_LIMIT
        gids = [a.get_gid() for ax in base.axes for a in ps.fault_artists(ax)]
        assert gids and not any(g.endswith((":onset", ":recovery")) for g in gids)
        titles = [leg.get_title().get_text() for leg in fig.legends]
        assert any("drawn as bands" in t for t in titles), titles
    finally:
        close(fig)


@pytest.mark.parametrize("module", ALL_PLOTS, ids=lambda m: m.__name__)
def test_scheme_filters(recorded, module):
    for argv, want in ((["--scheme", "baseline"], ["baseline"]), (["--scheme", "baseline,mrc"], ["baseline", "mrc"]),
                       (["--scheme", "mrc", "--scheme", "baseline"], ["mrc", "baseline"])):
        fig = figure(module, recorded, *argv)
        try:
            if module is plot_throughput:
                assert fig.mrc_schemes == want
            else:
                assert [p.scheme for p in fig.mrc_panels] == want
        finally:
            close(fig)
    with pytest.raises(mr.ResultsError, match=r"--scheme nope: no such scheme in .* \(schemes: mrc, baseline\)"):
        module.make_figure([recorded, "--scheme", "nope"])
    r = subprocess.run([PYTHON, os.path.join(ANALYSIS, module.PROG), recorded, "--scheme", "nope"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("error: --scheme nope:") and r.stderr.count("\n") == 1


@pytest.mark.parametrize("module", TIME_PLOTS, ids=lambda m: m.__name__)
def test_window_limits_the_time_axes(recorded, module):
    fig = figure(module, recorded, "--window", "20:150")
    try:
        for p in fig.mrc_panels:
            assert p.timeline.lo >= 20 and p.timeline.hi <= 150
            for ax, a, b in p.segments():
                x0, x1 = ax.get_xlim()
                assert 20 - 0.02 * 130 <= x0 and x1 <= 150 + 0.02 * 130
    finally:
        close(fig)
    fig = figure(module, recorded, "--window", "4000000:", "--scheme", "baseline")
    try:
        (p,) = fig.mrc_panels
        assert p.timeline.lo >= 4e6
    finally:
        close(fig)


def test_window_on_the_flows(recorded, results):
    fig = figure(plot_throughput, recorded, "--window", ":100")
    try:
        f = results["flows"]
        n = int((f["start_us"] <= 100).sum())
        texts = [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
        assert sum(int(t.split("(n=")[1].split(")")[0]) for t in texts) == n
    finally:
        close(fig)


@pytest.mark.parametrize("module", ALL_PLOTS, ids=lambda m: m.__name__)
def test_logy(recorded, module):
    fig = figure(module, recorded, "--logy")
    try:
        if module is plot_throughput:
            assert {ax.get_xscale() for ax in fig.axes[:1]} == {"log"}
            assert fig.axes[1].get_yscale() == "log"
        else:
            assert all(ax.get_yscale() == "log" for p in fig.mrc_panels for ax in p.axes)
        if module is plot_steps:
            assert fig.mrc_distribution.get_xscale() == "log"
    finally:
        close(fig)
    if module is plot_links:
        fig = figure(module, recorded)
        try:
            assert all(ax.get_yscale() == "linear" for p in fig.mrc_panels for ax in p.axes)
        finally:
            close(fig)


def test_step_durations_spanning_decades_get_log_axes(recorded):
    fig = figure(plot_steps, recorded)
    try:
        # 0.2 ms (MRC) against 4.3 s (baseline): the distribution is on a log axis
        assert fig.mrc_distribution.get_xscale() == "log"
        assert "step duration (" in fig.mrc_distribution.get_xlabel()
        assert [t.get_text() for t in fig.mrc_distribution.get_yticklabels()] == ["mrc", "baseline"]
    finally:
        close(fig)


@pytest.mark.parametrize("module", ALL_PLOTS, ids=lambda m: m.__name__)
def test_format_writes_each_file(recorded, tmp_path, module):
    out = str(tmp_path / "fig.png")
    r = subprocess.run([PYTHON, os.path.join(ANALYSIS, module.PROG), recorded, "--out", out,
                        "--format", "png,pdf,svg"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    paths = [str(tmp_path / ("fig." + ext)) for ext in ("png", "pdf", "svg")]
    assert r.stdout.strip().splitlines()[-3:] == paths
    with open(paths[0], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    with open(paths[1], "rb") as f:
        assert f.read(5) == b"%PDF-"
    with open(paths[2], encoding="utf-8") as f:
        assert "<svg" in f.read(2000)
    assert rd.incomplete_reason(recorded) is None  # --out elsewhere: the run is untouched


def test_make_all_writes_png_and_pdf_and_records_them(recorded, tmp_path):
    import shutil
    d = str(tmp_path / "copy")
    shutil.copytree(recorded, d)
    r = subprocess.run([PYTHON, os.path.join(ANALYSIS, "make_all.py"), d], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    names = ["summary.csv"] + ["%s.%s" % (n, e) for n in ("throughput", "steps", "links", "ev_states")
                               for e in ("png", "pdf")]
    for n in names:
        assert os.path.join(d, n) in r.stdout.splitlines()
    assert "%d file(s) written" % len(names) in r.stdout
    with open(os.path.join(d, "manifest.json")) as f:
        assert set(names) <= set(json.load(f)["files"])
    assert rd.incomplete_reason(d) is None
    # again, over its own figures, in two processes: neither sees the other's half-written file
    for _ in range(2):
        r = subprocess.run([PYTHON, os.path.join(ANALYSIS, "make_all.py"), d, "--jobs", "2"], capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        assert rd.incomplete_reason(d) is None
    # the options reach every figure
    out = str(tmp_path / "figs")
    r = subprocess.run([PYTHON, os.path.join(ANALYSIS, "make_all.py"), d, "--out-dir", out, "--format", "svg",
                        "--scheme", "mrc", "--window", "0:200", "--logy", "--faults", "lines"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(out)) == ["ev_states.svg", "links.svg", "steps.svg", "summary.csv",
                                       "throughput.svg"]
    r = subprocess.run([PYTHON, os.path.join(ANALYSIS, "make_all.py"), d, "--scheme", "nope"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.startswith("error: --scheme nope: no such scheme")


def test_make_all_in_one_process_or_two_prints_the_same(recorded, tmp_path):
    outs = []
    for jobs in ("1", "2"):
        out = str(tmp_path / ("jobs" + jobs))
        r = subprocess.run([PYTHON, os.path.join(ANALYSIS, "make_all.py"), recorded, "--out-dir", out,
                            "--jobs", jobs, "--format", "png"], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.replace(out, "OUT"))
        assert sorted(os.listdir(out)) == ["ev_states.png", "links.png", "steps.png", "summary.csv",
                                           "throughput.png"]
    assert outs[0] == outs[1]


@pytest.mark.parametrize("module", ALL_PLOTS, ids=lambda m: m.__name__)
def test_partial_results_are_marked_on_every_figure(recorded, tmp_path, module):
    import shutil
    d = str(tmp_path / "partial")
    shutil.copytree(recorded, d)
    with open(os.path.join(d, "run.json")) as f:
        run = json.load(f)
    run["complete"], run["incomplete_reason"] = False, "interrupted by SIGTERM at simulated 0.3 ms (mrc run)"
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run, f)
    with pytest.raises(mr.ResultsError, match="incomplete run"):
        module.make_figure([d])
    fig = figure(module, d, "--allow-partial")
    try:
        assert fig.mrc_partial.get_text() == ("PARTIAL RESULTS: incomplete run (interrupted by SIGTERM at "
                                              "simulated 0.3 ms (mrc run))")
        assert fig.mrc_partial in fig.texts and fig.mrc_partial.get_color() == "red"
    finally:
        close(fig)


def test_every_time_axis_has_a_unit(recorded):
    for module in TIME_PLOTS:
        fig = figure(module, recorded)
        try:
            for p in fig.mrc_panels:
                labels = [ax.get_xlabel() for ax in p.rows[-1]]
                assert all(labels), labels
                assert all(("\u00b5s" in t or "ms" in t or t.endswith(" s)") or "s after" in t) for t in labels), labels
                assert p.rows[0][0].get_ylabel() or module is plot_links
        finally:
            close(fig)


# ------------------------------------------------------------------ plot_sweep's x axis

@pytest.mark.parametrize("name,label", [
    ("flapRate", "flap rate (1/s per link)"),
    ("portLossUs", "NIC port loss duration (\u00b5s)"),
    ("rebootAtUs", "T1 reboot start (\u00b5s)"),
    ("numQPs", "num QPs"),
    ("maxQueueBytes", "max queue (bytes)"),
    ("probeRate", "probe rate (1/s)"),
    ("t2PerPlane", "t2 per plane"),
    ("bytes", "all-reduce buffer (bytes)"),
    ("linkRate", "plane link rate"),
    ("gpus", "GPUs"),
    ("computeUs", "compute phase per step (\u00b5s)"),
    ("msgBytes", "msg (bytes)"),
    ("timeoutMs", "timeout (ms)"),
    ("bandwidthGbps", "bandwidth (Gb/s)"),
    ("x", "x"),
])
def test_sweep_axis_labels_carry_the_unit(name, label):
    assert plot_sweep.option_label(name) == label


def test_sweep_figure_options(tmp_path):
    d = str(tmp_path / "sweep")
    os.makedirs(d)
    with open(os.path.join(d, "sweep.json"), "w") as f:
        json.dump({"parameters": ["flapRate"]}, f)
    with open(os.path.join(d, "sweep-summary.csv"), "w") as f:
        f.write("point,flapRate,seed,scheme,step_mean_us\n")
        for rate in (0, 100, 1000):
            for seed in (1, 2):
                for scheme, base in (("mrc", 2000), ("baseline", 2000 + 1000 * rate)):
                    f.write('"flapRate=%d,seed=%d",%d,%d,%s,%g\n' % (rate, seed, rate, seed, scheme, base + seed))
    fig = plot_sweep.make_figure([d, "--metric", "step_mean_us", "--x", "flapRate", "--logx", "--logy"])
    try:
        (ax,) = fig.axes
        assert ax.get_xlabel() == "flap rate (1/s per link)"
        assert ax.get_ylabel() == "step mean (\u00b5s)"
        assert ax.get_yscale() == "log" and ax.get_xscale() == "symlog"
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["mrc", "baseline"]
    finally:
        close(fig)
    fig = plot_sweep.make_figure([d, "--metric", "step_mean_us", "--x", "flapRate", "--scheme", "baseline"])
    try:
        assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["baseline"]
    finally:
        close(fig)
    r = subprocess.run([PYTHON, os.path.join(ANALYSIS, "plot_sweep.py"), d, "--metric", "step_mean_us", "--x",
                        "flapRate", "--format", "pdf,svg"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [os.path.join(d, "sweep-step_mean_us-vs-flapRate." + e) for e in ("pdf", "svg")]


# ------------------------------------------------------------------ a million fault events

def test_a_million_fault_events_plot(large, tmp_path):
    # How long it takes is printed (a benchmark figure), not asserted: a timed assertion
    # fails on a busy machine, not on a slow program.
    events = mr.load_events(large)
    kinds = mr.codes(events, "kind")
    n_ev = int(mr.column_equals(events, "kind", "ev_state").sum())
    assert mr.nrows(events) - n_ev == LARGE_FAULTS and n_ev == LARGE_EV, kinds[1]
    t = time.time()
    r = subprocess.run([PYTHON, os.path.join(ANALYSIS, "make_all.py"), large, "--out-dir", str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    took = time.time() - t
    print("\nmake_all.py (png, pdf) on %s fault and %s EV events: %.1f s"
          % (format(LARGE_FAULTS, ","), format(LARGE_EV, ","), took))
    assert r.returncode == 0, r.stderr
    assert "9 file(s) written" in r.stdout
    fig = figure(plot_steps, large)
    try:
        base = fig.mrc_panels[1]
        assert [round(s.length / 1e6, 2) for s in base.timeline.stalls] == [4.29]
        assert all(len(ps.fault_artists(ax)) <= 3 for ax in base.axes)
    finally:
        close(fig)
