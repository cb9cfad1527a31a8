# SPDX-License-Identifier: GPL-2.0-only
"""Results directories, driving the real programs (docs/results.md): --overwrite removes only a
run's own files, an interrupted run is marked incomplete and refused by the analysis, one
writer per directory, faults that cannot fire are reported, and the copied inputs reproduce
the run."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
BIN = os.path.join(BUILD_DIR, "bin")
PY = "/usr/bin/python3"
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import results_dir  # noqa: E402

QUICKSTART = os.path.join(BIN, "quickstart")
CLAIMS = os.path.join(BIN, "claims")
MAKE_ALL = os.path.join(ROOT, "analysis", "make_all.py")
SMALL = ["--gpus=8", "--hostsPerT0=2", "--t1=2", "--planes=2", "--steps=2", "--bytes=262144",
         "--portLossHost=1", "--rebootT1=1", "--portLossAtUs=30", "--portLossUs=40",
         "--rebootAtUs=60", "--rebootUs=40", "--flapRate=2000"]
# Long enough to be interrupted in each phase: MRC runs a few seconds of wall time, then the
# baseline (its 4.3 s local ACK timeout), then the plots.
MEDIUM = ["--gpus=16", "--hostsPerT0=4", "--t1=4", "--planes=4", "--steps=2",
          "--bytes=16777216", "--portLossHost=1", "--rebootT1=1", "--reference=0"]

pytestmark = pytest.mark.skipif(not os.path.isfile(QUICKSTART),
                                reason="build the programs first (./ns3 build)")


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


def tree(path):
    out = set()
    for d, dirs, files in os.walk(path):
        for f in files:
            out.add(os.path.relpath(os.path.join(d, f), path))
    return out


def run_json(path):
    with open(os.path.join(path, "run.json")) as f:
        return json.load(f)


def test_overwrite_refuses_a_directory_with_foreign_files(tmp_path):
    out = tmp_path / "mine"
    os.makedirs(out / ".git")
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / "notes.txt").write_text("my notes\n")
    before = tree(out)
    p = run([QUICKSTART] + SMALL + ["--plots=0", "--out=%s" % out, "--overwrite=1"])
    assert p.returncode == 1
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out:") and "leaves it alone" in lines[0]
    assert tree(out) == before
    assert (out / "notes.txt").read_text() == "my notes\n"


def test_overwrite_refuses_a_run_directory_holding_a_foreign_file(tmp_path):
    out = str(tmp_path / "run")
    assert run([QUICKSTART] + SMALL + ["--plots=0", "--out=" + out]).returncode == 0
    with open(os.path.join(out, "mine.txt"), "w") as f:
        f.write("x\n")
    before = tree(out)
    p = run([QUICKSTART] + SMALL + ["--plots=0", "--out=" + out, "--overwrite=1"])
    assert p.returncode == 1 and "'mine.txt', which no run wrote" in p.stderr
    assert tree(out) == before


def test_overwrite_removes_exactly_the_runs_own_files(tmp_path):
    out = str(tmp_path / "run")
    workload = tmp_path / "wl.json"
    workload.write_text(json.dumps({"jobs": [{"name": "dp", "ranks": 4, "steps": 1,
                                             "collectives": [{"type": "ring-allreduce",
                                                              "bytes": 65536}]}]}))
    assert run([QUICKSTART] + SMALL + ["--plots=0", "--out=" + out,
                                       "--workload=%s" % workload]).returncode == 0
    first = tree(out)
    assert "inputs/wl.json" in first and "manifest.json" in first
    # Without --overwrite the directory is refused.
    p = run([QUICKSTART] + SMALL + ["--plots=0", "--out=" + out])
    assert p.returncode == 1 and "exists and is not empty" in p.stderr
    # With it, the first run's files go (its inputs/ too), and only the second's remain.
    p = run([QUICKSTART] + SMALL + ["--plots=0", "--out=" + out, "--overwrite=1"])
    assert p.returncode == 0, p.stderr
    second = tree(out)
    assert not any(f.startswith("inputs/") for f in second)
    assert not os.path.exists(os.path.join(out, "inputs"))
    with open(os.path.join(out, "manifest.json")) as f:
        listed = set(json.load(f)["files"])
    assert second == listed | {"manifest.json"}
    assert results_dir.check_complete(out)[0]


def test_empty_out_is_a_one_line_error(tmp_path):
    p = run([QUICKSTART, "--out="], cwd=str(tmp_path))
    assert p.returncode == 1
    assert p.stderr.strip().splitlines() == [
        "error: --out needs a value (--out=value), or leave it out for its default "
        "(--help lists them)"]
    assert os.listdir(tmp_path) == []


def test_unwritable_out_names_the_os_reason(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    p = run([QUICKSTART] + SMALL + ["--plots=0", "--out=%s/sub" % blocker])
    assert p.returncode == 1
    assert "Not a directory" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def _wait_for(path, text, proc, timeout=300):
    """Wait until the file holds text (or the process ends)."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                if text in f.read():
                    return True
        if proc.poll() is not None:
            return False
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("moment,sig,marker,stream", [
    ("mrc", signal.SIGTERM, "[mrc]", "stderr"),
    ("baseline", signal.SIGINT, "[baseline]", "stderr"),
    ("plotting", signal.SIGTERM, "plots:", "stdout"),
])
def test_interrupted_run_is_marked_incomplete_and_refused(tmp_path, moment, sig, marker, stream):
    out = str(tmp_path / "run")
    logs = {"stdout": str(tmp_path / "stdout"), "stderr": str(tmp_path / "stderr")}
    with open(logs["stdout"], "w") as so, open(logs["stderr"], "w") as se:
        proc = subprocess.Popen([QUICKSTART] + MEDIUM + ["--out=" + out], stdout=so, stderr=se)
        try:
            assert _wait_for(logs[stream], marker, proc), "the run never reached " + moment
            if moment == "plotting":
                time.sleep(0.3)  # the plotting process is running
            proc.send_signal(sig)
            rc = proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
    with open(logs["stderr"]) as f:
        err = f.read()
    name = "SIGTERM" if sig == signal.SIGTERM else "SIGINT"
    assert rc == 128 + sig, err[-2000:]
    assert "interrupted by %s" % name in err
    meta = run_json(out)
    assert meta["complete"] is False
    assert meta["incomplete_reason"].startswith("interrupted by " + name)
    if moment != "plotting":
        assert "at simulated" in meta["incomplete_reason"]
    assert ("(%s run)" % moment if moment != "plotting" else "(plotting)") in meta["incomplete_reason"]
    assert not os.path.exists(os.path.join(out, ".mrc-lock"))
    # No child process is left behind (the reference runs are off, the plotter is stopped).
    reason = results_dir.incomplete_reason(out)
    assert reason is not None and "interrupted" in reason
    p = run([PY, MAKE_ALL, out])
    assert p.returncode == 2 and "incomplete" in p.stderr and "--allow-partial" in p.stderr


def test_two_runs_into_one_directory_exactly_one_succeeds(tmp_path):
    out = str(tmp_path / "run")
    cmd = [QUICKSTART] + SMALL + ["--plots=0", "--out=" + out]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    codes = sorted(r[0] for r in results)
    assert codes == [0, 1], results
    loser = [e for rc, e in results if rc == 1][0]
    # Either it found the lock held, or the winner had already finished and left results.
    assert ("is in use by another run (quickstart, pid" in loser
            or "exists and is not empty" in loser), loser
    assert results_dir.check_complete(out)[0]


def test_fault_after_the_end_is_a_warning(tmp_path):
    faults = tmp_path / "late.txt"
    faults.write_text("time_us,action,target,duration_us\n"
                      "100000000,link_down,plane0/t0-0/t1-0,10\n")
    out = str(tmp_path / "run")
    p = run([QUICKSTART] + SMALL + ["--plots=0", "--schemes=mrc", "--faultFile=%s" % faults,
                                    "--out=" + out])
    assert p.returncode == 0, p.stderr
    assert "never fired" in p.stderr
    warnings = run_json(out)["warnings"]
    assert any("link_down plane0/t0-0/t1-0" in w and "never fired" in w for w in warnings)


def test_copied_inputs_reproduce_the_run(tmp_path):
    wdir = tmp_path / "w"
    os.makedirs(wdir / "lists")
    (wdir / "lists" / "t.csv").write_text("step,src,dst,bytes,deps\n0,0,1,200000,\n0,1,2,200000,0\n"
                                          "0,2,3,100000,\n1,3,0,50000,\n")
    (wdir / "wl.json").write_text(json.dumps({"jobs": [
        {"name": "ring", "ranks": 4, "steps": 2,
         "collectives": [{"type": "ring-allreduce", "bytes": 131072}]},
        {"name": "replay", "transfers": "lists/t.csv", "steps": 2}]}))
    (tmp_path / "f.txt").write_text("time_us,action,target,duration_us\n"
                                    "40,link_flap,plane0/t0-1/t1-0,30\n")
    first = str(tmp_path / "first")
    args = SMALL + ["--plots=0", "--gpus=16", "--hostsPerT0=4", "--t1=2", "--portLossHost=3"]
    p = run([QUICKSTART] + args + ["--workload=%s" % (wdir / "wl.json"),
                                   "--faultFile=%s" % (tmp_path / "f.txt"), "--out=" + first])
    assert p.returncode == 0, p.stderr
    meta = run_json(first)
    assert [i["copy"] for i in meta["inputs"]] == ["inputs/wl.json", "inputs/lists/t.csv",
                                                   "inputs/f.txt"]
    assert meta["code"]["commit"] != "" and meta["ns3_library"]["path"] != "unknown"
    assert meta["command_line"][0] == QUICKSTART and "cpu_model" in meta["host"]
    second = str(tmp_path / "second")
    p = run([QUICKSTART] + args + ["--workload=%s/inputs/wl.json" % first,
                                   "--faultFile=%s/inputs/f.txt" % first, "--out=" + second])
    assert p.returncode == 0, p.stderr
    for name in ("flows.csv", "steps.csv", "events.csv", "links.csv"):
        with open(os.path.join(first, name), "rb") as a, open(os.path.join(second, name), "rb") as b:
            assert a.read() == b.read(), name
    # The workload's job names reach the CSVs.
    with open(os.path.join(first, "steps.csv")) as f:
        names = {line.rstrip("\n").split(",")[-1] for line in list(f)[1:]}
    assert names == {"ring", "replay"}


@pytest.mark.skipif(not os.path.isfile(CLAIMS), reason="build the claims program first")
def test_claims_overwrite_and_interrupt(tmp_path):
    out = tmp_path / "claims"
    os.makedirs(out)
    (out / "keep.txt").write_text("mine\n")
    p = run([CLAIMS, "--claim=C1", "--scale=tiny", "--plots=0", "--out=%s" % out,
             "--overwrite=1"])
    assert p.returncode == 1 and "keep.txt" in p.stderr
    assert (out / "keep.txt").read_text() == "mine\n"
    out2 = str(tmp_path / "claims2")
    with open(str(tmp_path / "err"), "w") as se:
        proc = subprocess.Popen([CLAIMS, "--claim=C1,C2", "--scale=quick", "--plots=0",
                                 "--out=" + out2], stdout=subprocess.DEVNULL, stderr=se)
        assert _wait_for(str(tmp_path / "err"), "[C2] running", proc)
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=120)
    assert rc == 143
    meta = run_json(out2)
    assert meta["complete"] is False and meta["incomplete_reason"].startswith("interrupted by SIGTERM")
    assert meta["claims_done"] == "1" or meta["claims_done"] == 1
    assert results_dir.incomplete_reason(out2) is not None
