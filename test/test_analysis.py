# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the Python analysis scripts in analysis/ on small hand-made results.

Run with: /usr/bin/python3 -m pytest -q test
"""

import csv
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANALYSIS = os.path.join(ROOT, "analysis")
sys.path.insert(0, ANALYSIS)

import mrc_results as mr  # noqa: E402
import results_dir as rd  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PLOTS = {
    "plot_throughput.py": "throughput.png",
    "plot_steps.py": "steps.png",
    "plot_links.py": "links.png",
    "plot_ev_states.py": "ev_states.png",
}
ALL_SCRIPTS = list(PLOTS) + ["summary.py", "make_all.py"]

FLOWS_HEADER = "scheme,job,step,collective,src,dst,qp,bytes,start_us,end_us,throughput_gbps"
STEPS_HEADER = "scheme,job,step,start_us,end_us,duration_us,slowest_rank"
EVENTS_HEADER = "scheme,time_us,kind,target,state,detail"
LINKS_HEADER = "scheme,time_us,plane,tier,utilization,queue_bytes_mean,queue_bytes_max"

MRC_TPUT = [10.0, 10.0, 10.0, 10.0]
BASE_TPUT = [2.0, 4.0, 6.0, 8.0]
MRC_STEPS = [100.0, 200.0, 300.0, 400.0]
BASE_STEPS = [1000.0, 3000.0]


def run_script(name, *args):
    return subprocess.run([sys.executable, os.path.join(ANALYSIS, name), *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def seal(d, complete=True, reason=None, program="quickstart"):
    """Make d a results directory as a program leaves it (docs/results.md): run.json (kept, or
    a small one) says "complete" (with "incomplete_reason" when not), and manifest.json lists
    every file in d with its size and rows.  Call again after changing a file."""
    run_path = os.path.join(d, "run.json")
    try:
        with open(run_path) as f:
            run = json.load(f)
    except (OSError, ValueError):
        run = {"program": program}
    run["complete"] = complete
    run.pop("incomplete_reason", None)
    if not complete:
        run["incomplete_reason"] = reason or "running"
    with open(run_path, "w") as f:
        json.dump(run, f)
    files = {}
    for root, _, names in os.walk(d):
        for n in sorted(names):
            if n not in rd.BOOKKEEPING:
                path = os.path.join(root, n)
                files[os.path.relpath(path, d).replace(os.sep, "/")] = rd.file_entry(path)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump({"format": rd.FORMAT, "program": program, "complete": complete, "files": files}, f)
    return d


def manifest_files(d):
    with open(os.path.join(d, "manifest.json")) as f:
        return json.load(f)["files"]


def write(path, header, lines):
    with open(path, "w") as f:
        f.write(header + "\n")
        for line in lines:
            f.write(line + "\n")


def flow_lines(scheme, tputs):
    """Rows whose throughput_gbps is consistent with bytes and times."""
    out = []
    b = 1_000_000
    for i, tp in enumerate(tputs):
        dur = b * 8 / (tp * 1e3)
        out.append("%s,0,%d,allreduce,host%d,host%d,0,%d,0,%r,%r" % (scheme, i // 2, i, i + 1, b, dur, tp))
    return out


def step_lines(scheme, durations):
    out, t = [], 0.0
    for i, d in enumerate(durations):
        out.append("%s,0,%d,%r,%r,%r,%d" % (scheme, i, t, t + d, d, i))
        t += d
    return out


EVENT_LINES = [
    "mrc,100,link,plane0/t0-3/t1-1,down,",
    "mrc,150,ev_state,host5/qp2/ev17,ASSUMED_BAD,rtt timeout",
    "mrc,160,ev_state,host5/qp2/ev18,ASSUMED_BAD,",
    "mrc,170,ev_state,host6/qp0/ev1,DENIED,\"nack, trimmed\"",
    "mrc,180,ev_state,host6/qp0/ev2,ASSUMED_BAD,unquoted, comma",
    "mrc,300,link,plane0/t0-3/t1-1,up,",
    "mrc,400,ev_state,host5/qp2/ev17,GOOD,probe ok",
    "mrc,410,ev_state,host5/qp2/ev18,GOOD",
    "mrc,500,switch_reboot,plane1/t1-0,start,",
    "mrc,700,switch_reboot,plane1/t1-0,end,",
    "mrc,800,blackhole,plane2/t0-1,start,drop all",
    "baseline,100,link,plane0/t0-3/t1-1,down,",
    "baseline,300,link,plane0/t0-3/t1-1,up,",
]


def link_lines():
    out = []
    for scheme in ("mrc", "baseline"):
        for t in (0, 100, 200, 300):
            for plane in (0, 1):
                for tier in mr.TIERS:
                    u = 0.5 + 0.1 * plane + (0.2 if scheme == "mrc" else 0.0)
                    out.append("%s,%d,%d,%s,%r,%r,%r" % (scheme, t, plane, tier, u, 1000.0 * u, 4000.0 * u))
    return out


def make_results(d):
    os.makedirs(d, exist_ok=True)
    write(os.path.join(d, "flows.csv"), FLOWS_HEADER, flow_lines("mrc", MRC_TPUT) + flow_lines("baseline", BASE_TPUT))
    write(os.path.join(d, "steps.csv"), STEPS_HEADER, step_lines("mrc", MRC_STEPS) + step_lines("baseline", BASE_STEPS))
    write(os.path.join(d, "events.csv"), EVENTS_HEADER, EVENT_LINES)
    write(os.path.join(d, "links.csv"), LINKS_HEADER, link_lines())
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump({"program": "mrc-sim", "version": "0.1", "ns3_version": "3.x", "seed": 7,
                   "parameters": {"planes": 2}, "wall_time_s": 1.5, "events_executed": 1234,
                   "time_scaling": "none"}, f)
    return seal(d)


@pytest.fixture
def results(tmp_path):
    return make_results(str(tmp_path / "run1"))


# ---------------------------------------------------------------- statistics

def test_jain_index():
    assert mr.jain([1, 1, 1, 1]) == pytest.approx(1.0)
    assert mr.jain([1, 0, 0, 0]) == pytest.approx(0.25)
    assert mr.jain([2, 4, 6, 8]) == pytest.approx(400 / 480)
    assert math.isnan(mr.jain([]))
    assert math.isnan(mr.jain([0, 0]))


def test_coefficient_of_variation():
    # population std of [2,4,6,8] is sqrt(5); mean 5
    assert mr.cov([2, 4, 6, 8]) == pytest.approx(math.sqrt(5) / 5)
    assert mr.cov([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2 / 5)
    assert mr.cov([3, 3, 3]) == 0.0
    assert math.isnan(mr.cov([]))
    assert math.isnan(mr.cov([0, 0]))


def test_min_max_ratio_and_percentiles():
    assert mr.min_max_ratio([2, 4, 6, 8]) == pytest.approx(0.25)
    assert mr.min_max_ratio([5, 5]) == 1.0
    assert math.isnan(mr.min_max_ratio([]))
    p = mr.percentiles(np.arange(1, 102), (1, 50, 99))  # 1..101
    assert p == {1: pytest.approx(2.0), 50: pytest.approx(51.0), 99: pytest.approx(100.0)}
    assert mr.percentiles([2, 4, 6, 8], (1,))[1] == pytest.approx(2.06)


def test_throughput_summary(results):
    s = mr.throughput_summary(mr.load_flows(results))
    assert list(s) == ["mrc", "baseline"]
    m, b = s["mrc"], s["baseline"]
    assert m["count"] == 4 and m["mean"] == pytest.approx(10.0)
    assert m["cov"] == 0.0 and m["jain"] == pytest.approx(1.0) and m["min_max_ratio"] == 1.0
    assert b["count"] == 4
    assert b["mean"] == pytest.approx(5.0)
    assert b["p1"] == pytest.approx(2.06) and b["p50"] == pytest.approx(5.0) and b["p99"] == pytest.approx(7.94)
    assert (b["min"], b["max"]) == (2.0, 8.0)
    assert b["cov"] == pytest.approx(math.sqrt(5) / 5)
    assert b["jain"] == pytest.approx(5 / 6)
    assert b["min_max_ratio"] == pytest.approx(0.25)


def test_step_summary(results):
    s = mr.step_summary(mr.load_steps(results))
    assert s["mrc"] == {"count": 4, "mean": pytest.approx(250.0), "p99": pytest.approx(397.0),
                        "max": pytest.approx(400.0)}
    assert s["baseline"] == {"count": 2, "mean": pytest.approx(2000.0), "p99": pytest.approx(2980.0),
                             "max": pytest.approx(3000.0)}


def test_event_counts(results):
    ev = mr.load_events(results)
    # unquoted comma in the trailing detail column is re-joined; a missing trailing detail is ""
    assert ev["detail"][4] == "unquoted, comma"
    assert ev["detail"][3] == "nack, trimmed"
    assert ev["detail"][7] == ""
    assert mr.ev_state_counts(ev) == {
        "mrc": {"GOOD": 2, "SKIP": 0, "ASSUMED_BAD": 3, "DENIED": 1},
        "baseline": {"GOOD": 0, "SKIP": 0, "ASSUMED_BAD": 0, "DENIED": 0},
    }
    assert mr.fault_event_counts(ev) == {
        "mrc": {"link": 1, "switch_reboot": 1, "blackhole": 1, "nic_port": 0},
        "baseline": {"link": 1, "switch_reboot": 0, "blackhole": 0, "nic_port": 0},
    }


def test_ev_state_binning():
    import plot_ev_states
    c = plot_ev_states.bin_counts([0, 5, 10, 19.9, 20, 35], ["GOOD", "GOOD", "SKIP", "GOOD", "DENIED", "GOOD"],
                                  10.0, 0.0, 4, ["GOOD", "SKIP", "DENIED"])
    assert c["GOOD"].tolist() == [2, 1, 0, 1]
    assert c["SKIP"].tolist() == [0, 1, 0, 0]
    assert c["DENIED"].tolist() == [0, 0, 1, 0]


def test_loader_types(results):
    f = mr.load_flows(results)
    assert mr.nrows(f) == 8
    assert f["bytes"].dtype == np.int64 and f["throughput_gbps"].dtype == np.float64
    assert f["scheme"][:1] == ["mrc"] and f["src"][0] == "host0"
    lk = mr.load_links(results)
    assert mr.nrows(lk) == 2 * 4 * 2 * 4
    assert mr.load_csv(os.path.join(results, "nope.csv")) is None


# ---------------------------------------------------------------- CLIs

def test_summary_csv(results):
    r = run_script("summary.py", results)
    assert r.returncode == 0, r.stderr
    out = os.path.join(results, "summary.csv")
    assert out in r.stdout.splitlines()
    assert "throughput Jain index" in r.stdout and "seed=7" in r.stdout
    with open(out, newline="") as f:
        rows = {row["scheme"]: row for row in csv.DictReader(f)}
    assert list(rows) == ["mrc", "baseline"]
    m, b = rows["mrc"], rows["baseline"]
    assert int(m["flows"]) == 4 and int(b["flows"]) == 4
    assert float(m["tput_jain"]) == pytest.approx(1.0)
    assert float(m["tput_cov"]) == 0.0
    assert float(b["tput_mean_gbps"]) == pytest.approx(5.0)
    assert float(b["tput_p1_gbps"]) == pytest.approx(2.06)
    assert float(b["tput_p50_gbps"]) == pytest.approx(5.0)
    assert float(b["tput_p99_gbps"]) == pytest.approx(7.94)
    assert float(b["tput_min_gbps"]) == 2.0 and float(b["tput_max_gbps"]) == 8.0
    assert float(b["tput_cov"]) == pytest.approx(0.4472135955, rel=1e-8)
    assert float(b["tput_jain"]) == pytest.approx(0.8333333333, rel=1e-8)
    assert float(b["tput_min_max_ratio"]) == pytest.approx(0.25)
    assert int(m["steps"]) == 4 and float(m["step_mean_us"]) == pytest.approx(250.0)
    assert float(m["step_p99_us"]) == pytest.approx(397.0) and float(m["step_max_us"]) == 400.0
    assert float(b["step_max_us"]) == 3000.0
    assert (m["ev_GOOD"], m["ev_SKIP"], m["ev_ASSUMED_BAD"], m["ev_DENIED"]) == ("2", "0", "3", "1")
    assert b["ev_GOOD"] == "0"
    assert (m["faults_link"], m["faults_switch_reboot"], m["faults_blackhole"], m["faults_nic_port"]) == \
        ("1", "1", "1", "0")
    assert list(m)[-1] == "partial" and m["partial"] == b["partial"] == "0"
    # recorded in the directory's manifest, which stays complete
    assert manifest_files(results)["summary.csv"] == {"bytes": os.path.getsize(out), "rows": 2}
    assert rd.incomplete_reason(results) is None


def test_summary_only_flows(tmp_path):
    d = str(tmp_path)
    write(os.path.join(d, "flows.csv"), FLOWS_HEADER, flow_lines("baseline", [1.0, 3.0]))
    seal(d)
    r = run_script("summary.py", d)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(d, "summary.csv"), newline="") as f:
        (row,) = list(csv.DictReader(f))
    assert row["scheme"] == "baseline" and float(row["tput_mean_gbps"]) == 2.0
    assert float(row["tput_cov"]) == pytest.approx(0.5) and float(row["tput_jain"]) == pytest.approx(0.8)
    assert row["steps"] == "" and row["ev_GOOD"] == ""


@pytest.fixture(scope="module")
def plotted(tmp_path_factory):
    """Run the four plot CLIs and make_all.py on one results directory, concurrently
    (each starts matplotlib; two at a time keeps the suite quick on 2 cores)."""
    base = tmp_path_factory.mktemp("plots")
    results = make_results(str(base / "run"))
    out_tp = str(base / "figs" / "tp.png")
    out_dir = str(base / "all")
    cmds = {s: [s, results] for s in PLOTS}
    cmds["plot_throughput.py"] += ["--out", out_tp]
    cmds["make_all.py"] = ["make_all.py", results, "--out-dir", out_dir]
    procs = {k: subprocess.Popen([sys.executable, os.path.join(ANALYSIS, c[0]), *c[1:]],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for k, c in cmds.items()}
    done = {}
    for k, p in procs.items():
        out, err = p.communicate(timeout=60)
        done[k] = (p.returncode, out, err)
    return {"results": results, "out_tp": out_tp, "out_dir": out_dir, "runs": done}


def assert_png(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == PNG_MAGIC and len(data) > 5000, path


@pytest.mark.parametrize("script", sorted(PLOTS))
def test_plot_writes_png(plotted, script):
    rc, out, err = plotted["runs"][script]
    assert rc == 0, err
    if script == "plot_throughput.py":  # run with --out
        path = plotted["out_tp"]
        assert not os.path.exists(os.path.join(plotted["results"], PLOTS[script]))
    else:
        path = os.path.join(plotted["results"], PLOTS[script])
    assert out.strip().splitlines()[-1] == path
    assert_png(path)


def test_make_all(plotted):
    rc, out, err = plotted["runs"]["make_all.py"]
    assert rc == 0, err
    pdfs = [n[:-len(".png")] + ".pdf" for n in PLOTS.values()]
    for n in ["summary.csv"] + list(PLOTS.values()) + pdfs:
        p = os.path.join(plotted["out_dir"], n)
        assert p in out.splitlines()
        assert os.path.getsize(p) > 0
        if n.endswith(".png"):
            assert_png(p)
        if n.endswith(".pdf"):
            with open(p, "rb") as f:
                assert f.read(5) == b"%PDF-"
    # each figure as PNG and PDF (make_all.py's default --format), in the order of the scripts
    lines = [line for line in out.splitlines() if line.startswith(plotted["out_dir"])]
    assert [os.path.basename(line) for line in lines] == [
        "summary.csv", "throughput.png", "throughput.pdf", "steps.png", "steps.pdf", "links.png", "links.pdf",
        "ev_states.png", "ev_states.pdf"]
    assert "9 file(s) written" in out
    # --out-dir elsewhere: nothing is recorded in the results directory's manifest
    assert set(manifest_files(plotted["results"])) == {"flows.csv", "steps.csv", "events.csv", "links.csv",
                                                        "run.json"} | {n for s, n in PLOTS.items()
                                                                       if s != "plot_throughput.py"}
    assert not os.path.exists(os.path.join(plotted["out_dir"], "manifest.json"))


def test_malformed_flows(results):
    path = os.path.join(results, "flows.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    fields = lines[2].split(",")
    fields[7] = "12x4"  # bytes, on line 3 (header is line 1)
    lines[2] = ",".join(fields)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    seal(results)
    for script in ("plot_throughput.py", "summary.py", "make_all.py"):
        r = run_script(script, results)
        assert r.returncode == 2, (script, r.stdout, r.stderr)
        err = r.stderr.strip().splitlines()
        assert len(err) == 1, r.stderr
        assert err[0].startswith("error: ")
        assert "flows.csv" in err[0] and "line 3" in err[0] and "'bytes'" in err[0] and "12x4" in err[0]
    assert not os.path.exists(os.path.join(results, "throughput.png"))
    with pytest.raises(mr.ResultsError, match=r"flows\.csv: line 3, column 'bytes'"):
        mr.load_flows(results)


def test_malformed_other_files(tmp_path):
    d = str(tmp_path)
    write(os.path.join(d, "steps.csv"), "scheme,job,step,start_us,end_us,slowest_rank", ["mrc,0,0,0,1,0"])
    seal(d)
    r = run_script("plot_steps.py", d)
    assert r.returncode == 2
    assert "steps.csv" in r.stderr and "line 1" in r.stderr and "'duration_us'" in r.stderr
    write(os.path.join(d, "links.csv"), LINKS_HEADER, ["mrc,0,0,t0-t1,0.5,1,2", "mrc,100,0,t0-t1,,1,2"])
    seal(d)
    r = run_script("plot_links.py", d)
    assert r.returncode == 2
    assert "links.csv" in r.stderr and "line 3" in r.stderr and "'utilization'" in r.stderr
    write(os.path.join(d, "events.csv"), EVENTS_HEADER, ["mrc,1,link,x,down,", "mrc,2,link"])
    seal(d)
    r = run_script("plot_ev_states.py", d)
    assert r.returncode == 2 and "events.csv" in r.stderr and "line 3" in r.stderr
    with open(os.path.join(d, "run.json"), "w") as f:
        f.write('{"seed": 1,\n  oops}')
    with pytest.raises(mr.ResultsError, match=r"run\.json: line 2"):
        mr.load_run(d)


def test_missing_directory(tmp_path):
    missing = str(tmp_path / "does-not-exist")
    for script in ("plot_steps.py", "summary.py", "make_all.py"):
        r = run_script(script, missing)
        assert r.returncode == 2
        assert r.stderr.strip() == "error: results directory not found: %s" % missing


def test_empty_results_dir(tmp_path):
    empty = str(tmp_path / "empty")
    os.makedirs(empty)
    # no manifest: not a run's directory
    r = run_script("make_all.py", empty)
    assert r.returncode == 2
    assert r.stderr == ("error: %s: no manifest.json (not written by an MRC program, or written before "
                        "manifests existed); --allow-partial draws it anyway\n" % empty)
    assert os.listdir(empty) == []
    # a complete run that wrote no data
    seal(empty)
    r = run_script("make_all.py", empty)
    assert r.returncode == 0, r.stderr
    assert "nothing written" in r.stdout and "0 file(s) written" in r.stdout
    assert sorted(os.listdir(empty)) == ["manifest.json", "run.json"]
    # header-only files and a zero-byte file: still nothing to draw, no crash
    write(os.path.join(empty, "flows.csv"), FLOWS_HEADER, [])
    write(os.path.join(empty, "steps.csv"), STEPS_HEADER, [])
    write(os.path.join(empty, "events.csv"), EVENTS_HEADER, ["mrc,5,link,plane0/t0-0/t1-0,down,"])
    open(os.path.join(empty, "links.csv"), "w").close()
    seal(empty)
    r = run_script("make_all.py", empty)
    assert r.returncode == 0, r.stderr
    assert "no ev_state rows" in r.stdout
    # only the summary (fault counts from events.csv) is written
    assert sorted(os.listdir(empty)) == ["events.csv", "flows.csv", "links.csv", "manifest.json", "run.json",
                                         "steps.csv", "summary.csv"]
    assert "summary.csv" in manifest_files(empty)


@pytest.mark.parametrize("script", ALL_SCRIPTS)
def test_help_and_shebang(script):
    r = run_script(script, "--help")
    assert r.returncode == 0 and "RESULTS_DIR" in r.stdout
    with open(os.path.join(ANALYSIS, script)) as f:
        assert f.readline() == "#!/usr/bin/env python3\n"
        assert f.readline() == "# SPDX-License-Identifier: GPL-2.0-only\n"
        assert f.readline().startswith('"""')


@pytest.mark.parametrize("script", ["summary.py", "make_all.py", "plot_steps.py"])
def test_missing_packages_give_one_line(tmp_path, script):
    """Without numpy/matplotlib (here: Python with its site directories switched off, as an
    interpreter outside Debian's would be), a script says what to install in one line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    p = subprocess.run(["/usr/bin/python3", "-S", os.path.join(ANALYSIS, script),
                        str(tmp_path)], capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "python3-numpy" in lines[0] and "/usr/bin/python3" in lines[0]
    assert "Traceback" not in p.stderr
