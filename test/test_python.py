#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The Python package mrc (python/, docs/python.md): importable by Debian's python3 after a
build, the same results as the C++ example it mirrors, DataFrames with the columns
analysis/README.md documents, errors that name the parameter, results directories as safe as
the programs', and the notebook executed headless."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
PKG = os.path.join(BUILD, "python")
PY = "/usr/bin/python3"
NOTEBOOK = os.path.join(ROOT, "analysis", "notebooks", "mrc-compare.ipynb")

if not os.path.isdir(os.path.join(PKG, "mrc")):
    pytest.skip("the build has no Python package (pybind11-dev missing at configure time)",
                allow_module_level=True)
sys.path.insert(0, PKG)
import mrc  # noqa: E402

HELLO = dict(hosts=16, planes=4, hosts_per_t0=4, t1s_per_plane=4, steps=3, bytes=16 << 20,
             job_name="hello", faults=[(100, "switch_reboot", "plane0/t0-0", 200)])


def env_without_pythonpath():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    return env


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    """Both schemes with EV states and link samples: every file a run can write."""
    out = str(tmp_path_factory.mktemp("py") / "full")
    res = mrc.compare(["mrc", "roce"], out=out, ev_states=True, link_bin_us=20, **HELLO)
    return out, res


def test_import_with_debian_python_from_anywhere(tmp_path):
    if os.environ.get("MRC_NO_PYTHON_PATH") == "1":
        pytest.skip("MRC_NO_PYTHON_PATH=1: the build leaves site-packages alone")
    r = subprocess.run([PY, "-c", "import mrc; print(mrc.__file__)"], cwd=str(tmp_path),
                       env=env_without_pythonpath(), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == os.path.join(PKG, "mrc", "__init__.py")


def test_same_results_as_the_cpp_example(tmp_path):
    """The Experiment makes the calls mrc-hello makes, in its order: the files are the same,
    byte for byte."""
    cpp = str(tmp_path / "cpp")
    subprocess.run([os.path.join(BUILD, "bin", "mrc-hello"), "--out=" + cpp], check=True,
                   capture_output=True)
    py = str(tmp_path / "py")
    with mrc.Experiment(py, program="mrc-hello") as ex:
        runs = [ex.run(name, **HELLO) for name in ("mrc", "roce")]
    for name in ("flows.csv", "steps.csv", "events.csv"):
        with open(os.path.join(cpp, name), "rb") as a, open(os.path.join(py, name), "rb") as b:
            assert a.read() == b.read(), name
    assert [r["steps_completed"] for r in runs] == [3, 3]
    assert all(r["ended"] == "jobs" for r in runs)
    # The reboot loses packets on both fabrics, and the summary says where.
    assert all(r["drops"].get("switch/PortDown", 0) > 0 for r in runs)


def readme_columns():
    """The columns analysis/README.md documents for each CSV of a run."""
    text = open(os.path.join(ROOT, "analysis", "README.md"), encoding="utf-8").read()
    out = {}
    for name in ("flows", "steps", "events", "links"):
        section = re.search(r"### %s\.csv.*?\n(.*?)\n###" % name, text, re.S).group(1)
        cols = []
        for line in section.splitlines():
            m = re.match(r"\| ([a-z_, ]+) \|", line)
            if m and m.group(1).strip() != "column":
                cols += [c.strip() for c in m.group(1).split(",")]
        out[name] = cols
    return out


def test_load_gives_the_documented_columns(full_run):
    out, res = full_run
    documented = readme_columns()
    loaded = mrc.load(out)
    for name in ("flows", "steps", "events", "links"):
        df = getattr(loaded, name)
        assert len(df) > 0, name
        assert sorted(df.columns) == sorted(documented[name]), name
        assert list(df.columns) == list(getattr(res, name).columns)
    assert str(loaded.flows["bytes"].dtype) == "int64"
    assert str(loaded.steps["duration_us"].dtype) == "float64"
    assert set(loaded.flows["scheme"]) == {"mrc", "roce"}
    # Every step of both schemes, every ring transfer (16 ranks x 15 chunks x 2 phases... as
    # the job reports them), and EV states of MRC only.
    assert loaded.step_summary()["steps"].to_dict() == {"mrc": 3, "roce": 3}
    ev = loaded.events[loaded.events["kind"] == "ev_state"]
    assert len(ev) > 0 and set(ev["scheme"]) == {"mrc"}
    assert loaded.run["complete"] is True
    assert [r["scheme"] for r in json.loads(json.dumps(loaded.run["runs"]))] == ["mrc", "roce"]


def test_load_reads_a_program_directory(tmp_path):
    out = str(tmp_path / "hello")
    subprocess.run([os.path.join(BUILD, "bin", "mrc-hello"), "--out=" + out], check=True,
                   capture_output=True)
    res = mrc.load(out)
    assert res.schemes == ["mrc", "roce"]
    assert len(res.flows) == 2880 and len(res.steps) == 6


def test_an_interrupted_experiment_is_incomplete(tmp_path):
    out = str(tmp_path / "broken")
    with pytest.raises(RuntimeError):
        with mrc.Experiment(out) as ex:
            ex.run("mrc", **HELLO)
            raise RuntimeError("stopped on purpose")
    run = json.load(open(os.path.join(out, "run.json")))
    assert run["complete"] is False and "stopped on purpose" in run["incomplete_reason"]
    with pytest.raises(mrc.ResultsError, match="incomplete run"):
        mrc.load(out)
    partial = mrc.load(out, allow_partial=True)
    assert partial.partial and len(partial.steps) == 3


def test_ctrl_c_stops_the_simulation_and_marks_the_run(tmp_path):
    out = str(tmp_path / "long")
    script = ("import mrc\n"
              "with mrc.Experiment(%r) as ex:\n"
              "    print('running', flush=True)\n"
              "    ex.run('mrc', hosts=16, planes=4, steps=100000)\n" % out)
    # SIGINT at its default in the child: a Python started with SIGINT ignored (inherited from
    # a parent that ignores it) never raises KeyboardInterrupt.
    p = subprocess.Popen([PY, "-c", script], env=dict(env_without_pythonpath(), PYTHONPATH=PKG),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stdout.readline().strip() == "running"
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode != 0 and "KeyboardInterrupt" in err
    run = json.load(open(os.path.join(out, "run.json")))
    assert run["complete"] is False and run["incomplete_reason"] == "KeyboardInterrupt"
    assert not os.path.exists(os.path.join(out, ".mrc-lock"))


def test_a_foreign_directory_is_refused_and_kept(tmp_path):
    d = tmp_path / "mine"
    d.mkdir()
    (d / "thesis.tex").write_text("precious")
    with pytest.raises(ValueError, match="not empty|not written|refus"):
        mrc.Experiment(str(d))
    assert (d / "thesis.tex").read_text() == "precious"
    assert sorted(os.listdir(d)) == ["thesis.tex"]


@pytest.mark.parametrize("call, message", [
    (lambda: mrc.Scheme("tcp"), r"Scheme: 'tcp' is not a scheme \(accepted: mrc, roce"),
    (lambda: mrc.Scheme("mrc").set("Hosts", "many"), r"MrcSchemeHelper::Hosts: cannot take 'many' \(expected"),
    (lambda: mrc.Scheme("mrc").set("Hostz", 4), r"no attribute 'Hostz' \(accepted: .*Hosts"),
    (lambda: mrc.Scheme("mrc").set_queue_pair("AckDelay", "soon"), r"MrcQueuePair::AckDelay: cannot take 'soon'"),
    (lambda: mrc.set_default("ns3::MrcQueuePair::Nope", 1), r"MrcQueuePair: no attribute 'Nope'"),
    (lambda: mrc.TrainingJob().add_collective("ring", 1 << 20), r"unknown collective 'ring' \(accepted: ring-allreduce, allgather"),
    (lambda: mrc.set_seed(0), r"seed must be >= 1"),
])
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_run_options_leave_no_simulation_behind(tmp_path):
    with mrc.Experiment(str(tmp_path / "e")) as ex:
        with pytest.raises(ValueError, match="HostsPerT0|hosts"):
            ex.run("mrc", hosts=10, hosts_per_t0=4)
        with pytest.raises(ValueError, match="fault"):
            ex.run("mrc", faults=[(100, "switch_reboot")])
        with pytest.raises(ValueError, match="schedule: "):
            ex.run("mrc", faults=[(100, "switch_reboot", "plane9/t0-0", 10)])
        r = ex.run("mrc", **HELLO)
    assert r["steps_completed"] == 3


def test_the_notebook_runs_headless(tmp_path):
    out = str(tmp_path / "nb")
    executed = str(tmp_path / "executed.ipynb")
    env = dict(env_without_pythonpath(), PYTHONPATH=PKG, MRC_NOTEBOOK_OUT=out)
    r = subprocess.run(["jupyter", "nbconvert", "--execute", "--to", "notebook",
                        "--output", executed, NOTEBOOK], cwd=str(tmp_path), env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    nb = json.load(open(executed))
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert any(o["output_type"] == "display_data" and "image/png" in o["data"] for o in outputs)
    text = "".join("".join(o.get("text", "")) for o in outputs)
    assert "mrc 3 steps" in text and "roce 3 steps" in text
    assert mrc.load(out).step_summary()["steps"].sum() == 6
