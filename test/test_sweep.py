#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of parameter sweeps on the local pool (analysis/sweep.py, analysis/plot_sweep.py,
./ns3 sweep): spec parsing and its errors, a small real sweep of `quickstart` with two jobs,
resuming, a failing point, determinism, gather and the plot.  The Slurm side is in
test_slurm.py.

quickstart must have been built; it is looked up as $MRC_BUILD_DIR/bin/quickstart (default
<repo>/build/bin/quickstart).  A point is a 8-GPU fabric of about 0.1 s; the whole file takes
about 15 s.

Run with: /usr/bin/python3 -m pytest -q test/test_sweep.py
"""

import csv
import hashlib
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
ANALYSIS = os.path.join(ROOT, "analysis")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SWEEP = os.path.join(ANALYSIS, "sweep.py")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
sys.path.insert(0, ANALYSIS)

import sweep  # noqa: E402

# A tiny fabric; the fixed NIC port loss and T1 reboot are moved past the end of the run.
FIXED_TOML = """
[fixed]
gpus = 8
planes = 2
hostsPerT0 = 4
t1 = 2
steps = 2
bytes = 1000000
rebootT1 = 1
flapStop = 300
portLossAtUs = 1e9
rebootAtUs = 1e9
reference = false
plots = false
"""
FIXED = {"gpus": 8, "planes": 2, "hostsPerT0": 4, "t1": 2, "steps": 2, "bytes": 1000000, "rebootT1": 1,
         "flapStop": 300, "portLossAtUs": 1e9, "rebootAtUs": 1e9, "reference": False, "plots": False}

SPEC_TOML = """
name = "tiny"
program = "quickstart"
seeds = [1, 2]
points = [{schemes = "mrc,baseline", flapRate = 500}]
plot = {metric = "tput_cov", x = "flapRate"}
[grid]
schemes = ["mrc", "baseline"]
flapRate = [0, 1000]
""" + FIXED_TOML

SPEC_JSON = {"name": "tiny", "program": "quickstart", "seeds": [1, 2],
             "points": [{"schemes": "mrc,baseline", "flapRate": 500}],
             "plot": {"metric": "tput_cov", "x": "flapRate"},
             "grid": {"schemes": ["mrc", "baseline"], "flapRate": [0, 1000]}, "fixed": FIXED}

ORDER = ["schemes=mrc,flapRate=0,seed=1", "schemes=mrc,flapRate=0,seed=2",
         "schemes=mrc,flapRate=1000,seed=1", "schemes=mrc,flapRate=1000,seed=2",
         "schemes=baseline,flapRate=0,seed=1", "schemes=baseline,flapRate=0,seed=2",
         "schemes=baseline,flapRate=1000,seed=1", "schemes=baseline,flapRate=1000,seed=2",
         "schemes=mrc%2Cbaseline,flapRate=500,seed=1", "schemes=mrc%2Cbaseline,flapRate=500,seed=2"]
CSVS = ("flows.csv", "steps.csv", "events.csv", "links.csv")


def run_sweep(*args, cwd=ROOT):
    return subprocess.run([PYTHON, SWEEP] + list(args), capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=dict(os.environ, MRC_BUILD_DIR=BUILD_DIR))


def write(path, text):
    path.write_text(text)
    return str(path)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


# ------------------------------------------------------------------ the spec


def test_toml_and_json_give_the_same_points_in_grid_order(tmp_path):
    specs = []
    for name, text in (("tiny.toml", SPEC_TOML), ("tiny.json", json.dumps(SPEC_JSON))):
        path = write(tmp_path / name, text)
        specs.append(sweep.check_spec(sweep.load_spec(path), path))
    points = [sweep.expand(s, "/sweeps/tiny", "/bin/quickstart") for s in specs]
    assert points[0] == points[1]
    assert [p["name"] for p in points[0]] == ORDER
    first = points[0][0]
    assert first["argv"] == ["/bin/quickstart", "--gpus=8", "--planes=2", "--hostsPerT0=4", "--t1=2",
                             "--steps=2", "--bytes=1000000", "--rebootT1=1", "--flapStop=300",
                             "--portLossAtUs=1000000000.0", "--rebootAtUs=1000000000.0",
                             "--reference=false", "--plots=false", "--schemes=mrc", "--flapRate=0",
                             "--seed=1", "--out=/sweeps/tiny/schemes=mrc,flapRate=0,seed=1"]
    assert first["params"] == {"schemes": "mrc", "flapRate": "0"}
    assert sweep.parameters_of(specs[0]) == ["schemes", "flapRate"]


def test_defaults_and_a_seed_count(tmp_path):
    path = write(tmp_path / "s.toml", 'program = "mrc-permutation"\nout_option = ""\nseeds = 3\n')
    spec = sweep.check_spec(sweep.load_spec(path), path)
    assert spec["name"] == "s" and spec["seeds"] == [1, 2, 3] and spec["outputs"] == []
    points = sweep.expand(spec, "/d", "/bin/p")
    assert [p["name"] for p in points] == ["seed=1", "seed=2", "seed=3"]
    assert points[2]["argv"] == ["/bin/p", "--seed=3"]


BAD_SPECS = [
    ("unknown-key.toml", 'program = "quickstart"\nseed = [1]\n', "unknown key 'seed' (accepted: name, program"),
    ("no-program.toml", "seeds = [1]\n", "key 'program' is missing"),
    ("wrong-type.toml", 'program = "quickstart"\nseeds = "three"\n', "key 'seeds': expected a non-empty list"),
    ("empty-grid.toml", 'program = "quickstart"\n[grid]\n', "key 'grid': empty"),
    ("empty-values.toml", 'program = "quickstart"\n[grid]\nflapRate = []\n',
     "key 'grid.flapRate': expected a non-empty list"),
    ("table-value.json", '{"program": "quickstart", "fixed": {"gpus": [8]}}',
     "key 'fixed.gpus': expected a string, number or boolean, got a list"),
    ("fixed-and-grid.toml", 'program = "quickstart"\nfixed = {gpus = 8}\ngrid = {gpus = [8, 16]}\n',
     "key 'grid.gpus': also in 'fixed'"),
    ("seed-in-grid.toml", 'program = "quickstart"\ngrid = {seed = [1, 2]}\n',
     "key 'grid.seed': --seed is set by"),
    ("slurm-key.toml", 'program = "quickstart"\ngrid = {gpus = [8]}\n[slurm]\nqueue = "x"\n',
     "unknown key 'slurm.queue' (accepted: partition, time"),
    ("plot-x.toml", 'program = "quickstart"\ngrid = {gpus = [8]}\nplot = {metric = "tput_cov", x = "t1"}\n',
     "key 'plot.x': 't1' is not a varied option (varied: gpus)"),
    ("bad-toml.toml", 'program = "quickstart\n', "invalid TOML"),
    ("bad-json.json", '{"program": }', "line 1, column 13: invalid JSON"),
    ("unknown-program.toml", 'program = "no-such-program"\ngrid = {gpus = [8]}\n',
     "key 'program': no program 'no-such-program' in"),
    ("unknown-option.toml", 'program = "quickstart"\ngrid = {flapRat = [1, 2]}\n',
     "key 'grid.flapRat': quickstart has no option --flapRat (did you mean --flapRate? accepted: --gpus"),
    ("unknown-fixed.json", '{"program": "quickstart", "fixed": {"gpu": 8}, "seeds": 1}',
     "key 'fixed.gpu': quickstart has no option --gpu"),
]


@pytest.mark.parametrize("name,text,message", BAD_SPECS, ids=[b[0] for b in BAD_SPECS])
def test_a_bad_spec_is_one_line_and_status_2_and_starts_nothing(tmp_path, name, text, message):
    spec = write(tmp_path / name, text)
    out = tmp_path / "out"
    p = run_sweep("run", spec, "--out", str(out))
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("error: ") and p.stderr.count("\n") == 1, p.stderr
    assert message in p.stderr
    assert not out.exists()


def test_slurm_without_its_tools_is_an_error_before_anything_starts(tmp_path):
    spec = write(tmp_path / "s.toml", 'program = "quickstart"\nseeds = 2\n')
    p = subprocess.run([PYTHON, SWEEP, "run", spec, "--slurm", "--out", str(tmp_path / "out"),
                        "--build-dir", BUILD_DIR], capture_output=True, text=True,
                       env=dict(os.environ, PATH="/nonexistent"))
    assert p.returncode == 2
    assert p.stderr == ("error: --slurm: sbatch not found (install Slurm's client tools, or run this on the "
                        "cluster's login node)\n")
    assert not (tmp_path / "out").exists()


def test_the_front_door_reports_bad_specs_and_programs_with_status_2(tmp_path):
    env = dict(os.environ, MRC_SKIP_DEPS="1", MRC_BUILD_DIR=BUILD_DIR)
    for text, message in (('program = "quickstart"\n[grid]\n', "key 'grid': empty"),
                          ('program = "no-such-program"\n', "no program named 'no-such-program'")):
        spec = write(tmp_path / "s.toml", text)
        p = subprocess.run([os.path.join(ROOT, "ns3"), "sweep", spec, "--out", str(tmp_path / "out")],
                           capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
        assert p.returncode == 2, p.stderr
        assert message in p.stderr and "error: " in p.stderr
        assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ a real sweep


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    assert os.path.exists(os.path.join(BUILD_DIR, "bin", "quickstart")), "build quickstart first"
    d = tmp_path_factory.mktemp("sweep")
    spec = write(d / "tiny.toml", SPEC_TOML)
    out = str(d / "tiny")
    return {"spec": spec, "dir": out, "run": run_sweep("run", spec, "--out", out, "--jobs", "2")}


def test_every_point_finished_with_its_directory_marker_and_logs(tiny):
    p = tiny["run"]
    assert p.returncode == 0, p.stderr
    assert "10 point(s) (5 configuration(s) x 2 seed(s))" in p.stdout and "running 10 with 2 job(s)" in p.stdout
    # stderr is not a terminal: one progress line per change, the last one complete.
    assert p.stderr.splitlines()[-1].startswith("sweep tiny: 10/10 done, 0 failed, elapsed ")
    for name in ORDER:
        d = os.path.join(tiny["dir"], name)
        done = json.load(open(os.path.join(d, ".done")))
        assert done["status"] == 0 and done["wall_s"] > 0
        assert done["argv"][-1] == "--out=" + d
        for f in CSVS + ("run.json", "stdout.log", "stderr.log"):
            assert os.path.exists(os.path.join(d, f)), (name, f)
    index = json.load(open(os.path.join(tiny["dir"], "sweep.json")))
    assert [q["name"] for q in index["points"]] == ORDER
    rows = read_csv(os.path.join(tiny["dir"], "points.csv"))
    assert [r["point"] for r in rows] == ORDER
    assert rows[0]["command"].startswith("cd %s/schemes=mrc,flapRate=0,seed=1 && " % tiny["dir"])
    assert "--seed=1 --out=" in rows[0]["command"]


def test_the_summary_has_one_row_per_point_and_scheme(tiny):
    rows = read_csv(os.path.join(tiny["dir"], "sweep-summary.csv"))
    assert list(rows[0])[:6] == ["point", "schemes", "flapRate", "seed", "scheme", "flows"]
    assert {"tput_cov", "step_mean_us", "faults_link", "ev_ASSUMED_BAD"} <= set(rows[0])
    # 8 one-scheme points and 2 points that ran both schemes
    assert len(rows) == 12
    assert [(r["point"], r["scheme"]) for r in rows[-4:]] == [
        (ORDER[8], "mrc"), (ORDER[8], "baseline"), (ORDER[9], "mrc"), (ORDER[9], "baseline")]
    for r in rows[:8]:
        assert r["scheme"] == r["schemes"] and r["point"].endswith(",seed=" + r["seed"])
        assert int(r["steps"]) == 2 and float(r["step_mean_us"]) > 0
    # (an empty cell: the run had no event at all)
    assert sum(int(r["faults_link"] or 0) for r in rows if r["flapRate"] != "0") > 0
    assert all(r["faults_link"] in ("", "0") for r in rows if r["flapRate"] == "0")


def test_the_spec_plot_is_drawn(tiny):
    png = os.path.join(tiny["dir"], "sweep-tput_cov-vs-flapRate.png")
    assert png in tiny["run"].stdout
    assert open(png, "rb").read(8) == PNG_MAGIC


def test_a_rerun_runs_nothing(tiny):
    markers = {n: os.stat(os.path.join(tiny["dir"], n, ".done")).st_mtime_ns for n in ORDER}
    p = run_sweep("run", tiny["spec"], "--out", tiny["dir"], "--jobs", "2")
    assert p.returncode == 0, p.stderr
    assert "all finished earlier, nothing to run" in p.stdout
    assert "done," not in p.stderr
    assert markers == {n: os.stat(os.path.join(tiny["dir"], n, ".done")).st_mtime_ns for n in ORDER}


def test_an_unfinished_point_runs_again_with_identical_results(tiny):
    name = ORDER[3]
    d = os.path.join(tiny["dir"], name)
    before = {f: digest(os.path.join(d, f)) for f in CSVS}
    os.remove(os.path.join(d, ".done"))
    os.remove(os.path.join(d, "run.json"))
    p = run_sweep("run", tiny["spec"], "--out", tiny["dir"], "--jobs", "2")
    assert p.returncode == 0, p.stderr
    assert "9 finished earlier, running 1" in p.stdout
    assert os.path.exists(os.path.join(d, ".done"))
    assert before == {f: digest(os.path.join(d, f)) for f in CSVS}


def test_gather_alone_writes_the_same_summary(tiny):
    path = os.path.join(tiny["dir"], "sweep-summary.csv")
    before = open(path).read()
    os.remove(path)
    p = run_sweep("gather", tiny["dir"])
    assert p.returncode == 0, p.stderr
    assert "10 of 10 points finished, 12 row(s)" in p.stdout
    assert open(path).read() == before


def test_plot_sweep_options_and_errors(tiny):
    plot = os.path.join(ANALYSIS, "plot_sweep.py")
    out = os.path.join(tiny["dir"], "by.png")
    p = subprocess.run([PYTHON, plot, tiny["dir"], "--metric", "step_mean_us", "--x", "flapRate",
                        "--by", "schemes", "--error", "ci95", "--logx", "--out", out],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert open(out, "rb").read(8) == PNG_MAGIC
    for args, message in ((["--metric", "nope", "--x", "flapRate"], "--metric nope: not a summary column"),
                          (["--metric", "tput_cov", "--x", "gpus"], "--x gpus: not a varied option"),
                          (["--metric", "tput_cov", "--x", "schemes"],
                           "option flapRate takes several values (0, 1000) at schemes=mrc on line mrc")):
        p = subprocess.run([PYTHON, plot, tiny["dir"]] + args, capture_output=True, text=True)
        assert p.returncode == 2 and p.stderr.startswith("error: ") and p.stderr.count("\n") == 1, p.stderr
        assert message in p.stderr


def test_a_failing_point_is_reported_and_does_not_stop_the_others(tmp_path):
    spec = {"name": "fail", "program": "quickstart", "seeds": [1], "fixed": dict(FIXED, schemes="mrc"),
            "grid": {"flapRate": [0, -1, 1000]}}
    path = write(tmp_path / "fail.json", json.dumps(spec))
    out = tmp_path / "fail"
    p = run_sweep("run", path, "--out", str(out), "--jobs", "2")
    assert p.returncode == 1
    assert "sweep fail: 2/3 done, 1 failed" in p.stderr
    assert "FAILED flapRate=-1,seed=1: exit status 1" in p.stderr
    assert "command: cd %s/flapRate=-1,seed=1 && " % out in p.stderr and "--flapRate=-1 " in p.stderr
    assert "error: --flapRate must be" in p.stderr  # the tail of the program's stderr
    assert "1 of 3 point(s) not finished" in p.stderr
    failed = json.load(open(out / "flapRate=-1,seed=1" / ".failed"))
    assert failed["status"] == 1
    assert (out / "flapRate=0,seed=1" / ".done").exists() and (out / "flapRate=1000,seed=1" / ".done").exists()
    assert len(read_csv(out / "sweep-summary.csv")) == 2
    # A rerun tries the failed point again, and only it.
    p = run_sweep("run", path, "--out", str(out), "--jobs", "2")
    assert p.returncode == 1 and "2 finished earlier, running 1" in p.stdout


def test_a_program_that_writes_no_outputs_has_not_finished(tmp_path):
    # run.json is written last; a program that exits 0 without it did not finish.
    spec = {"name": "partial", "program": "quickstart", "seeds": [1], "fixed": dict(FIXED, schemes="mrc"),
            "outputs": ["run.json", "nothing.csv"]}
    path = write(tmp_path / "partial.json", json.dumps(spec))
    p = run_sweep("run", path, "--out", str(tmp_path / "partial"))
    assert p.returncode == 1
    assert "exited 0 after" in p.stderr and "did not write nothing.csv" in p.stderr


def test_the_slurm_batch_script_needs_only_absolute_paths():
    spec = {"name": "s", "slurm": {"partition": "p", "time": "00:05:00", "cpus_per_task": 1, "mem": "1G",
                                   "max_running": 4}}
    todo = [{"index": 3}, {"index": 7}]
    script = sweep.batch_script("/sweeps/s", spec, todo)
    lines = script.splitlines()
    for expected in ("#SBATCH --array=0-1%4", "#SBATCH --output=/sweeps/s/slurm/%A_%a.out",
                     "#SBATCH --partition=p", "#SBATCH --time=00:05:00", "#SBATCH --cpus-per-task=1",
                     "#SBATCH --mem=1G", "#SBATCH --chdir=/sweeps/s", "POINTS=(3 7)"):
        assert expected in lines
    assert lines[-1].startswith("exec %s %s run-point /sweeps/s " % (sys.executable, SWEEP))
