# SPDX-License-Identifier: GPL-2.0-only
"""Tests of results directories on the Python side (analysis/results_dir.py, docs/results.md):
completeness, the files a directory owns and removing exactly those, the lock, the manifest,
the analysis scripts refusing an incomplete directory (and --allow-partial marking what they
draw), and sweep.py refusing an --out that is not a sweep's or cannot be written.  No build is
needed (the sweep parts use a stand-in program).

Run with: /usr/bin/python3 -m pytest -q test/test_results_dir.py
"""

import csv
import json
import os
import subprocess
import sys
import zlib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANALYSIS = os.path.join(ROOT, "analysis")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
sys.path.insert(0, ANALYSIS)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import results_dir as rd  # noqa: E402
from test_analysis import PLOTS, make_results, manifest_files, run_script, seal  # noqa: E402
from test_sweep import SWEEP, fake_spec, run_fake  # noqa: E402

REASON = "interrupted by SIGTERM at simulated 2.410 ms (mrc run)"


def files_under(d):
    return sorted(os.path.relpath(os.path.join(r, n), d) for r, _, ns in os.walk(d) for n in ns)


def png_text(path):
    """The tEXt chunks of a PNG: {keyword: text}."""
    data = open(path, "rb").read()
    out, i = {}, 8
    while i < len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        if kind == b"tEXt":
            k, _, v = body.partition(b"\0")
            out[k.decode("latin-1")] = v.decode("latin-1")
        elif kind == b"zTXt":
            k, _, v = body.partition(b"\0")
            out[k.decode("latin-1")] = zlib.decompress(v[1:]).decode("latin-1")
        elif kind == b"iTXt":
            k, _, rest = body.partition(b"\0")
            compressed, rest = rest[0], rest[2:]
            _, _, rest = rest.partition(b"\0")
            _, _, v = rest.partition(b"\0")
            out[k.decode("latin-1")] = (zlib.decompress(v) if compressed else v).decode("utf-8")
        i += 12 + n
    return out


@pytest.fixture
def results(tmp_path):
    return make_results(str(tmp_path / "run"))


# ---------------------------------------------------------------- completeness

def test_a_sealed_directory_is_complete(results):
    assert rd.incomplete_reason(results) is None
    assert rd.check_complete(results) == (True, None)
    m = json.load(open(os.path.join(results, "manifest.json")))
    assert m["files"]["flows.csv"] == {"bytes": os.path.getsize(os.path.join(results, "flows.csv")), "rows": 8}


def test_run_json_complete_false_gives_its_reason(results):
    seal(results, complete=False, reason=REASON)
    assert rd.incomplete_reason(results) == "incomplete run (%s)" % REASON
    assert rd.check_complete(results, allow_partial=True) == (False, "incomplete run (%s)" % REASON)
    with pytest.raises(rd.ResultsDirError, match=r"^incomplete run \(interrupted by SIGTERM"):
        rd.check_complete(results)
    # a program analysing its own directory before it marks it complete
    assert rd.incomplete_reason(results, in_run=True) is None


def test_a_truncated_csv_is_incomplete(results):
    path = os.path.join(results, "flows.csv")
    lines = open(path).read().splitlines()
    with open(path, "w") as f:
        f.write("\n".join(lines[:4]) + "\n")
    assert rd.incomplete_reason(results) == "flows.csv has 3 rows, the manifest says 8"
    assert rd.incomplete_reason(results, in_run=True) == "flows.csv has 3 rows, the manifest says 8"
    with open(path, "a") as f:  # the same rows, another size
        f.write("\n".join(lines[4:]) + "\n\n")
    reason = rd.incomplete_reason(results)
    assert reason.startswith("flows.csv has %d bytes, the manifest says " % os.path.getsize(path))


def test_a_missing_file_and_a_null_entry(results):
    os.remove(os.path.join(results, "steps.csv"))
    assert rd.incomplete_reason(results) == "steps.csv is missing"
    seal(results)
    m = json.load(open(os.path.join(results, "manifest.json")))
    m["files"]["links.csv"] = None
    json.dump(m, open(os.path.join(results, "manifest.json"), "w"))
    assert rd.incomplete_reason(results) == "links.csv is being written (its manifest entry is null)"
    assert rd.incomplete_reason(results, in_run=True) is None


def test_no_manifest(tmp_path):
    (tmp_path / "run.json").write_text('{"complete": true}')
    assert rd.incomplete_reason(str(tmp_path)) == rd.NO_MANIFEST
    assert rd.NO_MANIFEST == ("no manifest.json (not written by an MRC program, or written before "
                              "manifests existed)")
    assert rd.incomplete_reason(str(tmp_path / "nope")) == "directory not found"


def test_a_manifest_naming_a_file_outside_is_refused(results):
    m = json.load(open(os.path.join(results, "manifest.json")))
    m["files"]["../elsewhere.txt"] = {"bytes": 1}
    json.dump(m, open(os.path.join(results, "manifest.json"), "w"))
    assert "is not a path inside the directory" in rd.incomplete_reason(results)
    with pytest.raises(rd.ResultsDirError, match="not a path inside"):
        rd.remove_owned(results)
    assert os.path.exists(os.path.join(results, "flows.csv"))


# ---------------------------------------------------------------- owned files

def owned_tree(d):
    """A run's directory with a subdirectory of inputs and a nested directory with a manifest of
    its own (as a sweep's point), plus an empty directory nobody wrote."""
    os.makedirs(os.path.join(d, "inputs"))
    os.makedirs(os.path.join(d, "p1", "deep"))
    os.makedirs(os.path.join(d, "empty-before"))
    for rel in ("flows.csv", "run.json", "inputs/workload.json", "p1/flows.csv", "p1/deep/x.txt", "p1/stdout.log"):
        with open(os.path.join(d, rel), "w") as f:
            f.write("a,b\n1,2\n" if rel.endswith(".csv") else "x\n")
    m = rd.Manifest(d, "sweep")
    m.finish("flows.csv", "run.json", "inputs/workload.json", "p1/stdout.log")
    m.add_dirs("p1")
    inner = rd.Manifest(os.path.join(d, "p1"), "quickstart")
    inner.finish("flows.csv", "deep/x.txt")
    open(os.path.join(d, ".mrc-lock"), "w").close()  # left by a killed run
    return d


def test_owned_files_lists_every_file_the_manifests_name(tmp_path):
    d = owned_tree(str(tmp_path / "r"))
    owned = rd.owned_files(d)
    assert sorted(os.path.relpath(f, d) for f in owned) == files_under(d)
    # the point directory alone: its sweep-owned log is named by the outer manifest
    with pytest.raises(rd.ResultsDirForeign, match=r"holds 'stdout.log', which no run wrote"):
        rd.owned_files(os.path.join(d, "p1"))
    assert len(rd.owned_files(os.path.join(d, "p1"), extra=["stdout.log"])) == 4


@pytest.mark.parametrize("foreign", ["notes.txt", "p1/notes.txt", ".git/HEAD", "inputs/more.json"])
def test_a_foreign_file_is_refused_and_nothing_is_deleted(tmp_path, foreign):
    d = owned_tree(str(tmp_path / "r"))
    path = os.path.join(d, foreign)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").close()
    before = files_under(d)
    with pytest.raises(rd.ResultsDirForeign) as e:
        rd.owned_files(d)
    assert str(e.value) == "'%s' holds '%s', which no run wrote" % (d, foreign)
    assert e.value.path == path
    with pytest.raises(rd.ResultsDirForeign):
        rd.remove_owned(d, remove_root=True)
    assert files_under(d) == before


def test_remove_owned_removes_exactly_the_owned_files(tmp_path):
    d = owned_tree(str(tmp_path / "r"))
    removed = rd.remove_owned(d)
    assert len(removed) == 9
    assert [os.path.basename(f) for f in removed[-3:]] == ["manifest.json", "manifest.json", ".mrc-lock"]
    # the directories that became empty are gone; one that was empty before, and root, stay
    assert sorted(os.listdir(d)) == ["empty-before"]
    os.rmdir(os.path.join(d, "empty-before"))
    owned_tree(d)
    os.rmdir(os.path.join(d, "empty-before"))
    rd.remove_owned(d, remove_root=True)
    assert not os.path.exists(d)
    assert rd.remove_owned(d) == [] and rd.owned_files(d) == []


# ---------------------------------------------------------------- the lock

HOLDER = """
import sys
sys.path.insert(0, %r)
import results_dir as rd
with rd.Lock(sys.argv[1], "holder"):
    print("locked", flush=True)
    sys.stdin.read()
"""


def test_a_second_lock_fails_with_the_holders_pid_and_is_free_once_it_exits(tmp_path):
    d = str(tmp_path / "r")
    p = subprocess.Popen([PYTHON, "-c", HOLDER % ANALYSIS, d], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    try:
        assert p.stdout.readline() == "locked\n"
        assert open(os.path.join(d, ".mrc-lock")).read() == "holder %d\n" % p.pid
        with pytest.raises(rd.ResultsDirInUse) as e:
            with rd.Lock(d, "test"):
                pass
        assert str(e.value) == "'%s' is in use by another run (holder, pid %d)" % (d, p.pid)
        # nothing is removed from a directory in use
        with pytest.raises(rd.ResultsDirInUse):
            rd.remove_owned(d)
        assert os.path.exists(os.path.join(d, ".mrc-lock"))
    finally:
        p.stdin.close()
        p.wait(timeout=30)
    assert not os.path.exists(os.path.join(d, ".mrc-lock"))  # unlinked on exit
    with rd.Lock(d, "test") as lock:
        assert open(lock.path).read() == "test %d\n" % os.getpid()
        with pytest.raises(rd.ResultsDirInUse, match=r"\(test, pid %d\)" % os.getpid()):
            rd.Lock(d, "again").__enter__()
        rd.remove_owned(d)  # keeps the lock this process holds
        assert os.path.exists(lock.path)
    assert os.listdir(d) == []


def test_a_killed_holder_leaves_a_lock_that_is_free(tmp_path):
    d = str(tmp_path / "r")
    p = subprocess.Popen([PYTHON, "-c", HOLDER % ANALYSIS, d], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    assert p.stdout.readline() == "locked\n"
    p.kill()
    p.wait(timeout=30)
    p.stdin.close()
    assert os.path.exists(os.path.join(d, ".mrc-lock"))
    with rd.Lock(d, "next"):
        pass
    assert rd.owned_files(d) == []


# ---------------------------------------------------------------- the manifest

def test_manifest_begin_finish_and_complete(tmp_path):
    d = str(tmp_path / "r")
    m = rd.Manifest(d, "quickstart")
    m.begin("flows.csv")
    data = json.load(open(os.path.join(d, "manifest.json")))
    assert data == {"format": "mrc-results/1", "program": "quickstart", "complete": False,
                    "files": {"flows.csv": None}}
    with open(os.path.join(d, "flows.csv"), "w") as f:
        f.write("a,b\n1,2\n\n3,4\n")
    os.makedirs(os.path.join(d, "inputs"))
    with open(os.path.join(d, "inputs", "w.json"), "w") as f:
        f.write("{}")
    m.finish("flows.csv")
    m.finish("inputs/w.json", sha256=True)
    m.set_complete(True)
    data = json.load(open(os.path.join(d, "manifest.json")))
    assert list(data) == ["format", "program", "complete", "files"] and data["complete"] is True
    assert data["files"]["flows.csv"] == {"bytes": 13, "rows": 2}
    assert data["files"]["inputs/w.json"] == {
        "bytes": 2, "sha256": "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"}
    assert not os.path.exists(os.path.join(d, "manifest.json.tmp"))
    # another Manifest of this process (or add_outputs) meanwhile: its change is kept
    with open(os.path.join(d, "run.json"), "w") as f:
        f.write('{"complete": true}')
    assert rd.add_outputs(d, [os.path.join(d, "run.json"), str(tmp_path / "elsewhere.png")]) == ["run.json"]
    m.forget("inputs/w.json")
    assert set(manifest_files(d)) == {"flows.csv", "run.json"}
    assert rd.Manifest(d, "other").program == "quickstart"
    assert rd.add_outputs(str(tmp_path / "no-manifest"), [str(tmp_path / "no-manifest" / "x")]) == []


# ---------------------------------------------------------------- the analysis scripts

def test_make_all_refuses_an_incomplete_directory(results):
    seal(results, complete=False, reason=REASON)
    before = files_under(results)
    r = run_script("make_all.py", results)
    assert r.returncode == 2
    assert r.stderr == "error: %s: incomplete run (%s); --allow-partial draws it anyway\n" % (results, REASON)
    assert files_under(results) == before
    for script in list(PLOTS) + ["summary.py"]:
        r = run_script(script, results)
        assert r.returncode == 2 and r.stderr.startswith("error: %s: incomplete run (" % results), script
    assert files_under(results) == before


def test_allow_partial_draws_it_marked(results):
    seal(results, complete=False, reason=REASON)
    r = run_script("make_all.py", results, "--allow-partial")
    assert r.returncode == 0, r.stderr
    assert r.stderr == "warning: %s: incomplete run (%s); drawing it anyway\n" % (results, REASON)
    assert "9 file(s) written" in r.stdout
    mark = "PARTIAL RESULTS: incomplete run (%s)" % REASON
    for name in PLOTS.values():
        assert png_text(os.path.join(results, name)).get("Description") == mark, name
    with open(os.path.join(results, "summary.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["partial"] for r in rows] == ["1", "1"]
    # recorded in the manifest, which stays incomplete
    files = manifest_files(results)
    assert {"summary.csv"} | set(PLOTS.values()) <= set(files)
    assert json.load(open(os.path.join(results, "manifest.json")))["complete"] is False
    # once complete again, the same figures carry no mark and summary.csv says 0
    seal(results)
    r = run_script("make_all.py", results)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "Description" not in png_text(os.path.join(results, "steps.png"))
    with open(os.path.join(results, "summary.csv"), newline="") as f:
        assert [r["partial"] for r in csv.DictReader(f)] == ["0", "0"]
    assert rd.incomplete_reason(results) is None


def test_in_run_accepts_the_programs_own_running_directory(results):
    seal(results, complete=False, reason="running")
    r = run_script("make_all.py", results, "--in-run")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "Description" not in png_text(os.path.join(results, "throughput.png"))
    assert "--in-run" not in run_script("make_all.py", "--help").stdout
    with open(os.path.join(results, "flows.csv"), "a") as f:  # but the data must match
        f.write("mrc,0,9,allreduce,h0,h1,0,1,0,1,1\n")
    r = run_script("make_all.py", results, "--in-run")
    assert r.returncode == 2 and "flows.csv has 9 rows, the manifest says 8" in r.stderr


def test_the_partial_mark_is_a_red_text_across_the_figure(tmp_path):
    import plotstyle as ps
    fig, ax = ps.plt.subplots()
    ax.plot([0, 1], [0, 1])
    assert ps.mark_partial(fig, None) is None
    out = ps.save(fig, str(tmp_path / "f.png"), "incomplete run (running)")
    text = fig.mrc_partial
    assert text.get_text() == "PARTIAL RESULTS: incomplete run (running)" and text.get_color() == "red"
    assert text in fig.texts
    assert png_text(out)["Description"] == "PARTIAL RESULTS: incomplete run (running)"


CLAIMS_HEADER = "claim,metric,unit,mrc,baseline,threshold,check,verdict,threshold_source"
FIGURES_HEADER = "claim,panel,kind,title,xlabel,ylabel,logx,logy,categories,series,x,y"


def test_plot_claims_refuses_an_incomplete_directory(tmp_path):
    d = str(tmp_path / "claims")
    os.makedirs(d)
    with open(os.path.join(d, "claims.csv"), "w") as f:
        f.write(CLAIMS_HEADER + "\nC1,m,us,1,2,x,pass,supported,ours\n")
    with open(os.path.join(d, "figures.csv"), "w") as f:
        f.write(FIGURES_HEADER + "\n" + "\n".join("C1,0,line,t,x,y,0,0,,mrc,%d,%d" % (i, i) for i in range(3)) + "\n")
    seal(d, complete=False, reason=REASON, program="claims")
    script = os.path.join(ANALYSIS, "plot_claims.py")
    r = subprocess.run([PYTHON, script, d], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == "error: %s: incomplete run (%s); --allow-partial draws it anyway\n" % (d, REASON)
    assert not os.path.exists(os.path.join(d, "C1.png"))
    r = subprocess.run([PYTHON, script, d, "--allow-partial"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert png_text(os.path.join(d, "C1.png"))["Description"] == "PARTIAL RESULTS: incomplete run (%s)" % REASON
    assert "C1.png" in manifest_files(d)


# ---------------------------------------------------------------- sweep.py

def test_sweep_refuses_an_out_that_is_not_a_sweep_directory(tmp_path, results):
    spec = fake_spec(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    for out, message in ((str(mine), "error: --out: '%s' is not a sweep directory (it holds 'notes.txt' and no "
                                     "manifest.json); choose another directory\n" % mine),
                         (results, "error: --out: '%s' holds the results of quickstart, not a sweep; choose "
                                   "another directory\n" % results)):
        before = files_under(out)
        p = run_fake(tmp_path, spec, out)
        assert p.returncode == 2 and p.stderr == message
        assert files_under(out) == before


def test_sweep_reports_an_unwritable_out_in_one_line(tmp_path):
    spec = fake_spec(tmp_path)
    (tmp_path / "a-file").write_text("")
    out = tmp_path / "a-file" / "sweep"  # a file where a directory is expected: fails as root too
    p = run_fake(tmp_path, spec, out)
    assert p.returncode == 2
    assert p.stderr == "error: sweep: cannot write '%s': Not a directory\n" % out


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_sweep_reports_a_read_only_directory_in_one_line(tmp_path):
    spec = fake_spec(tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        p = run_fake(tmp_path, spec, ro / "sweep")
    finally:
        ro.chmod(0o755)
    assert p.returncode == 2
    assert p.stderr == "error: sweep: cannot write '%s': Permission denied\n" % (ro / "sweep")


def test_gather_refuses_a_directory_that_is_not_a_sweep(tmp_path, results):
    p = subprocess.run([PYTHON, SWEEP, "gather", results], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.startswith("error: not a sweep directory") and p.stderr.count("\n") == 1
