# SPDX-License-Identifier: GPL-2.0-only
"""The flow-level mode (--model=fluid) end to end: quickstart writes the same files as at packet
level, deterministically, with its provenance in run.json; packet and fluid agree on a
fault-free run; the hierarchical all-reduce runs at packet level with the documented bytes;
what fluid mode cannot run is refused in one line; mrc-permutation has the mode too.

Run with: /usr/bin/python3 -m pytest -q test/test_fluid.py
"""

import json
import os
import subprocess

import pytest

from test_quickstart import (BUILD_DIR, CSV_FILES, SMALL, STEPS, of_scheme, read_csv,
                             require_binary, run_quickstart, share, table)

NO_FAULTS = ["--flapRate=0", "--portLossAtUs=1e9", "--rebootAtUs=1e9"]


def steps_mean(run_dir, scheme):
    rows = of_scheme(table(run_dir, "steps.csv"), scheme)
    return sum(float(r["duration_us"]) for r in rows) / len(rows)


@pytest.fixture(scope="module")
def fluid_run(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("fluid") / "run")
    p = run_quickstart(d, "--model=fluid")
    return {"dir": d, "stdout": p.stdout}


def test_fluid_writes_the_same_files_with_the_same_columns(fluid_run, tmp_path):
    packet = str(tmp_path / "packet")
    run_quickstart(packet)
    for name in CSV_FILES:
        assert os.path.isfile(os.path.join(fluid_run["dir"], name)), name
        assert read_csv(os.path.join(fluid_run["dir"], name))[0] == \
            read_csv(os.path.join(packet, name))[0], name
    for scheme in ("mrc", "baseline"):
        assert len(of_scheme(table(fluid_run["dir"], "steps.csv"), scheme)) == STEPS
        assert of_scheme(table(fluid_run["dir"], "flows.csv"), scheme)
    # links.csv: utilisation per plane and tier from the model's rates, no backlogs.
    links = of_scheme(table(fluid_run["dir"], "links.csv"), "mrc")
    assert {r["tier"] for r in links} == {"host-t0", "t0-host", "t0-t1", "t1-t0"}
    util = [float(r["utilization"]) for r in links]
    assert all(0 <= u <= 1 for u in util) and max(util) > 0.1
    assert all(float(r["queue_bytes_max"]) == 0 for r in links)
    # The faults are recorded as at packet level (the same schedule).
    kinds = {r["kind"] for r in table(fluid_run["dir"], "events.csv")}
    assert {"nic_port", "switch_reboot"} <= kinds


def test_fluid_run_json_names_the_model_and_its_parameter_sources(fluid_run):
    with open(os.path.join(fluid_run["dir"], "run.json")) as f:
        meta = json.load(f)
    assert meta["parameters"]["model"] == "fluid"
    fl = meta["fluid"]
    assert fl["mrc_bypass_time_us"] == 11.3
    assert "mrc-link-flap" in fl["mrc_bypass_time_source"]
    assert fl["mrc_probe_time_us"] == 150.0
    assert "not_modelled" in fl


def test_fluid_is_deterministic(fluid_run, tmp_path):
    again = str(tmp_path / "again")
    run_quickstart(again, "--model=fluid")
    for name in ("flows.csv", "steps.csv", "events.csv"):
        with open(os.path.join(fluid_run["dir"], name), "rb") as a, \
                open(os.path.join(again, name), "rb") as b:
            assert a.read() == b.read(), name


def test_packet_and_fluid_agree_without_faults(tmp_path):
    runs = {}
    for model in ("packet", "fluid"):
        d = str(tmp_path / model)
        run_quickstart(d, "--model=%s" % model, "--schemes=mrc", "--reference=0",
                       "--bytes=4000000", *NO_FAULTS)
        runs[model] = steps_mean(d, "mrc")
    assert abs(runs["fluid"] / runs["packet"] - 1) < 0.15, runs


def hierarchical_sent(n, group, nbytes, rank):
    """Bytes a rank sends in a hierarchical all-reduce (MrcCollective::BytesSent)."""
    g, groups, i, b = group, n // group, rank % group, rank // group
    rs = nbytes - share(nbytes, g, i) if g > 1 else 0
    seg = share(nbytes, g, i)
    ar = (2 * seg - share(seg, groups, b) - share(seg, groups, (b + 1) % groups)
          if groups > 1 else 0)
    ag = nbytes - share(nbytes, g, (i + 1) % g) if g > 1 else 0
    return rs + ar + ag


@pytest.mark.parametrize("model", ["packet", "fluid"])
def test_hierarchical_allreduce_sends_the_documented_bytes(model, tmp_path):
    d = str(tmp_path / model)
    run_quickstart(d, "--model=%s" % model, "--collective=hierarchical", "--schemes=mrc",
                   "--reference=0")
    flows = of_scheme(table(d, "flows.csv"), "mrc")
    assert {r["collective"] for r in flows} == {"hierarchical-allreduce"}
    gpus = int([a for a in SMALL if a.startswith("--gpus=")][0].split("=")[1])
    group = int([a for a in SMALL if a.startswith("--hostsPerT0=")][0].split("=")[1])
    nbytes = int([a for a in SMALL if a.startswith("--bytes=")][0].split("=")[1])
    for step in range(STEPS):
        for rank in range(gpus):
            sent = sum(int(r["bytes"]) for r in flows
                       if int(r["step"]) == step and int(r["src"]) == rank)
            if model == "packet":
                assert sent == hierarchical_sent(gpus, group, nbytes, rank), (step, rank)
            else:
                # One record per ring edge and stage: what rank 0 of each ring sends.
                assert sent > 0
    assert len(of_scheme(table(d, "steps.csv"), "mrc")) == STEPS


def test_fluid_refuses_what_it_cannot_run(tmp_path):
    wl = tmp_path / "replay.json"
    trace = tmp_path / "t.csv"
    trace.write_text("step,src,dst,bytes,deps\n0,0,1,1000,\n")
    wl.write_text(json.dumps({"jobs": [{"ranks": 2, "transfers": str(trace)}]}))
    p = run_quickstart(None, "--model=fluid", "--workload=%s" % wl, check=False)
    assert p.returncode == 1
    assert "packet level only" in p.stderr and p.stderr.count("\n") == 1, p.stderr
    faults = tmp_path / "faults.csv"
    faults.write_text("time_us,action,target,duration_us\n10,blackhole,plane0/t1-0,5\n")
    p = run_quickstart(None, "--model=fluid", "--faultFile=%s" % faults, check=False)
    assert p.returncode == 1
    assert "blackhole" in p.stderr and "fluid" in p.stderr and p.stderr.count("\n") == 1, p.stderr


def test_permutation_has_a_fluid_mode():
    exe = os.path.join(BUILD_DIR, "bin", "mrc-permutation")
    require_binary()
    out = {}
    for model in ("packet", "fluid"):
        p = subprocess.run([exe, "--hosts=32", "--hostsPerT0=8", "--t1=8", "--planes=2",
                            "--size=500000", "--model=%s" % model],
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        assert "flows completed: 32 / 32" in p.stdout
        line = [x for x in p.stdout.splitlines() if x.startswith("fct-us")][0]
        out[model] = float(line.split("median:")[1].split()[0])
    assert abs(out["fluid"] / out["packet"] - 1) < 0.15, out


def test_the_shipped_all_to_all_workload_runs_as_docs_fluid_md_says(tmp_path):
    # docs/fluid.md's all-to-all row: 128 ranks, 16 MiB each, fluid step 184.2 us.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    wl = os.path.join(root, "experiments", "workloads", "alltoall-128.json")
    d = str(tmp_path / "a2a")
    p = subprocess.run([require_binary(), "--schemes=mrc", "--reference=0", "--plots=0",
                        "--flapRate=0", "--portLossAtUs=1e9", "--rebootAtUs=1e9", "--gpus=128",
                        "--workload=%s" % wl, "--model=fluid", "--out=%s" % d],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    flows = of_scheme(table(d, "flows.csv"), "mrc")
    # Every rank sends 1/128 of its 16 MiB to each of the 127 others, in each of 2 steps.
    assert len(flows) == 2 * 128 * 127
    assert {int(r["bytes"]) for r in flows} == {(16 << 20) // 128}
    assert {(int(r["src"]), int(r["dst"])) for r in flows} == \
        {(s, t) for s in range(128) for t in range(128) if s != t}
    assert steps_mean(d, "mrc") == pytest.approx(184.2, abs=0.1)
