#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of parameter sweeps on the local pool (analysis/sweep.py, analysis/plot_sweep.py,
./ns3 sweep): spec parsing and its errors, a small real sweep of `quickstart` with two jobs,
resuming, a failing point, determinism, gather and the plot; and, with a stand-in program (a
Python script that writes a results directory as docs/results.md describes), the sweep
directory's manifest and lock, rerunning a point, interrupted and incomplete points.  The
Slurm side is in test_slurm.py.

quickstart must have been built; it is looked up as $MRC_BUILD_DIR/bin/quickstart (default
<repo>/build/bin/quickstart).  The tests of a real sweep are skipped while quickstart writes
no manifest.json.  A point is a 8-GPU fabric of about 0.1 s; the whole file takes about 15 s.

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

import results_dir as rd  # noqa: E402
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


@pytest.fixture(scope="module")
def quickstart_manifests(tmp_path_factory):
    """Skip unless quickstart writes a results directory with a manifest (docs/results.md)."""
    binary = os.path.join(BUILD_DIR, "bin", "quickstart")
    assert os.path.exists(binary), "build quickstart first"
    out = str(tmp_path_factory.mktemp("probe") / "q")
    argv = [binary] + ["--%s=%s" % (k, sweep.fmt(v)) for k, v in FIXED.items()] + ["--schemes=mrc",
                                                                                  "--out=" + out]
    subprocess.run(argv, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    if not os.path.exists(os.path.join(out, "manifest.json")):
        pytest.skip("quickstart writes no manifest.json (docs/results.md); a sweep of it cannot be gathered")


# ------------------------------------------------------------------ a stand-in program

FAKE = r"""#!/usr/bin/python3
# A stand-in for an MRC program: writes a results directory (run.json, flows.csv, manifest.json).
import json, os, signal, sys, time
sys.path.insert(0, %(analysis)r)
import results_dir as rd

if "--help" in sys.argv:
    print("fake: a stand-in\n\nProgram Options:\n    --x:     flow throughput (Gb/s)\n"
          "    --mode:  ok, fail, interrupt, truncate, sleep, nomanifest\n    --seed:  seed\n"
          "    --out:   results directory\n")
    sys.exit(0)
opts = dict(a[2:].split("=", 1) for a in sys.argv[1:])
out, mode = opts["out"], opts.get("mode", "ok")
if mode == "fail":
    print("error: --mode=fail", file=sys.stderr)
    sys.exit(1)
if os.path.exists(out) and os.listdir(out):
    print("error: --out: %%r is not empty" %% out, file=sys.stderr)
    sys.exit(1)
with rd.Lock(out, "fake"):
    m = rd.Manifest(out, "fake")

    def run_json(complete, reason=None):
        m.begin("run.json")
        with open(os.path.join(out, "run.json"), "w") as f:
            json.dump(dict({"program": "fake", "seed": int(opts.get("seed", 1)), "complete": complete},
                           **({"incomplete_reason": reason} if reason else {})), f)
        m.finish("run.json")

    run_json(False, "running")
    m.begin("flows.csv")
    with open(os.path.join(out, "flows.csv"), "w") as f:
        f.write("scheme,job,step,collective,src,dst,qp,bytes,start_us,end_us,throughput_gbps\n")
        for i in range(2):
            f.write("mrc,0,%%d,allreduce,h0,h1,0,1000,0,1,%%s\n" %% (i, opts.get("x", "1")))
    if mode == "sleep":
        def stop(sig, frame):
            run_json(False, "interrupted by %%s at simulated 1.000 ms (mrc run)" %% signal.Signals(sig).name)
            sys.exit(128 + sig)
        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        print("sleeping", flush=True)
        time.sleep(60)
    if mode == "interrupt":
        run_json(False, "interrupted by SIGTERM at simulated 1.000 ms (mrc run)")
        sys.exit(143)
    m.finish("flows.csv")
    if mode == "truncate":
        with open(os.path.join(out, "flows.csv"), "a") as f:
            f.write("mrc,0,9,allreduce,h0,h1,0,1000,0,1,1\n")
    run_json(True)
    m.set_complete(True)
if mode == "nomanifest":
    os.remove(os.path.join(out, "manifest.json"))
"""


def fake_build(tmp_path):
    """A build directory whose bin/fake is the stand-in program."""
    bindir = tmp_path / "build" / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    fake = bindir / "fake"
    fake.write_text(FAKE % {"analysis": ANALYSIS})
    fake.chmod(0o755)
    return str(tmp_path / "build")


def fake_spec(tmp_path, points=None, name="f", **extra):
    """A spec of the stand-in: by default x = 1, 2 and seeds 1, 2 (4 points)."""
    spec = {"name": name, "program": "fake", "seeds": [1, 2], "grid": {"x": [1, 2]},
            "plot": {"metric": "tput_mean_gbps", "x": "x"}}
    if points is not None:
        spec = {"name": name, "program": "fake", "seeds": [1], "points": points}
    spec.update(extra)
    return write(tmp_path / (name + ".json"), json.dumps(spec))


def run_fake(tmp_path, spec, out, *args, env=None):
    p = subprocess.run([PYTHON, SWEEP, "run", spec, "--out", str(out), "--build-dir", fake_build(tmp_path)]
                       + list(args), capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in p.stderr, p.stderr
    return p


def sweep_manifest(out):
    with open(os.path.join(str(out), "manifest.json")) as f:
        return json.load(f)


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
def tiny(tmp_path_factory, quickstart_manifests):
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
    # a results directory of its own, and every point's directory one too
    manifest = sweep_manifest(tiny["dir"])
    assert manifest["program"] == "sweep" and manifest["complete"] is True
    assert all(manifest["files"][n + "/"] == {"dir": True} for n in ORDER)
    assert all(rd.incomplete_reason(os.path.join(tiny["dir"], n)) is None for n in ORDER)
    assert rd.owned_files(tiny["dir"])  # every file is listed by a manifest
    assert not os.path.exists(os.path.join(tiny["dir"], ".mrc-lock"))
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


def test_a_failing_point_is_reported_and_does_not_stop_the_others(tmp_path, quickstart_manifests):
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


# ------------------------------------------------------------------ with a stand-in program


def test_jobs_default_to_mrc_jobs(tmp_path):
    """Without --jobs a sweep runs MRC_JOBS points at once, as the C++ programs do; a bad
    MRC_JOBS is a one-line error and nothing runs."""
    p = run_fake(tmp_path, fake_spec(tmp_path), tmp_path / "a", env=dict(os.environ, MRC_JOBS="1"))
    assert p.returncode == 0, p.stderr
    assert "with 1 job(s)" in p.stdout + p.stderr
    p = run_fake(tmp_path, fake_spec(tmp_path), tmp_path / "b", env=dict(os.environ, MRC_JOBS="0"))
    assert p.returncode == 2 and p.stderr.strip() == "error: sweep: MRC_JOBS must be 1 to 32, not '0'"
    assert not (tmp_path / "b").exists()


def test_the_sweep_directory_is_a_results_directory_of_its_own(tmp_path):
    out = tmp_path / "f"
    p = run_fake(tmp_path, fake_spec(tmp_path), out, "--jobs", "2")
    assert p.returncode == 0, p.stderr
    names = ["x=1,seed=1", "x=1,seed=2", "x=2,seed=1", "x=2,seed=2"]
    m = sweep_manifest(out)
    assert (m["format"], m["program"], m["complete"]) == ("mrc-results/1", "sweep", True)
    files = m["files"]
    for f in ("sweep.json", "points.csv", "sweep-summary.csv", "sweep-tput_mean_gbps-vs-x.png"):
        assert files[f]["bytes"] == os.path.getsize(out / f), f
    assert files["points.csv"]["rows"] == 4 and files["sweep-summary.csv"]["rows"] == 4
    for n in names:
        assert files[n + "/"] == {"dir": True}
        for f in ("stdout.log", "stderr.log", ".done"):
            assert files["%s/%s" % (n, f)] == {"bytes": os.path.getsize(out / n / f)}
        assert "%s/.failed" % n not in files and "logs/%s.stdout.log" % n not in files
        assert rd.incomplete_reason(str(out / n)) is None
    assert not any(f.endswith(".tmp") for f in files)
    assert rd.incomplete_reason(str(out)) is None
    owned = rd.owned_files(str(out))  # nothing in it that no manifest lists
    assert str(out / names[0] / "flows.csv") in owned and str(out / "sweep.json") in owned
    assert not (out / ".mrc-lock").exists()


def test_a_point_is_rerun_from_exactly_its_own_files(tmp_path):
    out = tmp_path / "f"
    spec = fake_spec(tmp_path)
    assert run_fake(tmp_path, spec, out).returncode == 0
    d = out / "x=2,seed=1"
    (d / ".done").unlink()
    (out / "notes.txt").write_text("mine")  # outside any point: left alone
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 0, p.stderr
    assert "3 finished earlier, running 1" in p.stdout
    assert (d / ".done").exists() and (out / "notes.txt").read_text() == "mine"
    # an empty directory nobody wrote would stay (and the program refuses a non-empty --out)
    (d / ".done").unlink()
    (d / "extra").mkdir()
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 2 and "holds 'extra/', which no run wrote" in p.stderr, p.stderr
    (d / "extra").rmdir()
    # a file nobody listed: one line naming it, nothing started, nothing removed
    (d / "mine.txt").write_text("x")
    before = sorted(os.listdir(d))
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("error: point x=2,seed=1: "), p.stderr
    assert "holds 'mine.txt', which no run wrote" in p.stderr
    assert sorted(os.listdir(d)) == before
    assert sweep_manifest(out)["complete"] is False


def test_a_second_run_on_the_same_directory_fails_at_once(tmp_path):
    out = tmp_path / "f"
    spec = fake_spec(tmp_path)
    assert run_fake(tmp_path, spec, out).returncode == 0
    with rd.Lock(str(out), "sweep"):
        for args in (["run", spec, "--out", str(out), "--build-dir", fake_build(tmp_path)], ["gather", str(out)]):
            p = subprocess.run([PYTHON, SWEEP] + args, capture_output=True, text=True, timeout=60)
            assert p.returncode == 2
            what = "--out" if args[0] == "run" else "gather"
            assert p.stderr == "error: %s: '%s' is in use by another run (sweep, pid %d)\n" % (what, out, os.getpid())
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 0 and "all finished earlier" in p.stdout, p.stderr


def test_an_interrupted_point_is_failed_with_its_reason(tmp_path):
    out = tmp_path / "f"
    spec = fake_spec(tmp_path, points=[{"x": 1, "mode": "ok"}, {"x": 2, "mode": "interrupt"}])
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 1
    failed = json.load(open(out / "x=2,mode=interrupt,seed=1" / ".failed"))
    assert failed["status"] == 143
    assert failed["reason"] == "interrupted by SIGTERM at simulated 1.000 ms (mrc run)"
    assert ("FAILED x=2,mode=interrupt,seed=1: exit status 143 after " in p.stderr
            and "(interrupted by SIGTERM at simulated 1.000 ms (mrc run))" in p.stderr)
    m = sweep_manifest(out)
    assert m["complete"] is False and "x=2,mode=interrupt,seed=1/.failed" in m["files"]
    assert len(read_csv(out / "sweep-summary.csv")) == 1
    rd.owned_files(str(out))


def test_gather_counts_an_incomplete_point_as_unfinished(tmp_path):
    out = tmp_path / "f"
    spec = fake_spec(tmp_path, points=[{"x": 1, "mode": "ok"}, {"x": 2, "mode": "truncate"},
                                       {"x": 3, "mode": "nomanifest"}])
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 1
    assert ("sweep.py: point x=2,mode=truncate,seed=1 not gathered: flows.csv has 3 rows, the manifest says 2\n"
            in p.stderr)
    assert "sweep.py: point x=3,mode=nomanifest,seed=1 not gathered: no manifest.json" in p.stderr
    assert "1 of 3 points finished, 1 row(s)" in p.stdout
    assert [r["point"] for r in read_csv(out / "sweep-summary.csv")] == ["x=1,mode=ok,seed=1"]
    assert sweep_manifest(out)["complete"] is False
    p = subprocess.run([PYTHON, SWEEP, "gather", str(out)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "2 point(s) not finished" in p.stderr
    # the next run reruns the incomplete one, and refuses the one whose files no manifest lists
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 2 and "point x=3,mode=nomanifest,seed=1: " in p.stderr
    assert "holds 'flows.csv', which no run wrote" in p.stderr


def test_ctrl_c_stops_the_sweep_and_leaves_a_consistent_directory(tmp_path):
    import signal
    import time
    out = tmp_path / "f"
    spec = fake_spec(tmp_path, points=[{"x": 1, "mode": "sleep"}])
    p = subprocess.Popen([PYTHON, SWEEP, "run", spec, "--out", str(out), "--build-dir", fake_build(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         # as at a terminal: a shell running the tests in the background would
                         # hand the sweep SIGINT ignored, and Ctrl-C would never reach it
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        log = out / "logs" / "x=1,mode=sleep,seed=1.stdout.log"
        deadline = time.monotonic() + 30
        while not (log.exists() and "sleeping" in log.read_text()):
            assert time.monotonic() < deadline and p.poll() is None, "the point did not start"
            time.sleep(0.05)
        assert open(out / ".mrc-lock").read() == "sweep %d\n" % p.pid
        os.killpg(p.pid, signal.SIGINT)  # Ctrl-C: the sweep and its point
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, err
    assert "interrupted; run the same command again to resume" in err and "Traceback" not in err
    failed = json.load(open(out / "x=1,mode=sleep,seed=1" / ".failed"))
    assert failed["status"] == 130 and failed["reason"] == "interrupted by SIGINT at simulated 1.000 ms (mrc run)"
    assert sweep_manifest(out)["complete"] is False
    assert not (out / ".mrc-lock").exists()
    rd.owned_files(str(out))


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
