#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A sweep through a real Slurm: a single-node cluster on this host, started and stopped here.

The fixture generates a munge key, starts munged on a socket of its own, writes a slurm.conf
(this host as controller and only node, with the CPUs and memory `slurmd -C` reports; process
tracking by /proc, no task plugin, no cgroups, no accounting; ports, state, spool and log files
of its own), starts slurmctld and slurmd in the foreground and waits until the node is idle.
The test runs a 2 schemes x 3 flap rates x 3 seeds sweep of `quickstart` with `sweep.py run
--slurm` (one array task per point), checks every point, the gathered summary and the plot,
then resubmits a few points with --no-wait and gathers them.  The daemons are stopped and the
files removed afterwards, also on failure.  Nothing outside the temporary directory is used:
not the system's munge key or socket, nor any Slurm configuration it may have.

Needs root (slurmd launches jobs) and Debian's slurm-wlm and munge: `./ns3 test --slurm`
installs them and runs this file.  Without them the test is skipped, unless MRC_SLURM_TEST=1
(set by ./ns3 test --slurm) makes a missing piece a failure.  About 20 s on 2 cores.

Run with: /usr/bin/python3 -m pytest -q test/test_slurm.py
"""

import csv
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from test_sweep import FIXED_TOML  # the same tiny fabric as the local sweep tests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
TOOLS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel")
FORCED = os.environ.get("MRC_SLURM_TEST") == "1"
MISSING = [t for t in TOOLS if not shutil.which(t)]
if MISSING and not FORCED:
    pytest.skip("Slurm and munge are not installed (%s missing; ./ns3 test --slurm installs them)"
                % ", ".join(MISSING), allow_module_level=True)
if os.geteuid() != 0 and not FORCED:
    pytest.skip("slurmd needs root", allow_module_level=True)

SCHEMES = ["mrc", "baseline"]
FLAP_RATES = [0, 100, 1000]
SEEDS = [1, 2, 3]
SPEC = """
name = "slurm"
program = "quickstart"
seeds = %s
plot = { metric = "step_mean_us", x = "flapRate", logx = true }

%s
[grid]
schemes = %s
flapRate = %s

[slurm]
partition = "sweeps"
time = "00:05:00"
cpus_per_task = 1
mem = "500M"
""" % (json.dumps(SEEDS), FIXED_TOML.strip(), json.dumps(SCHEMES), json.dumps(FLAP_RATES))


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def wait_for(what, check, timeout, logs):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    tails = []
    for path in logs:
        if os.path.exists(path):
            tails.append("--- %s\n%s" % (path, "".join(open(path, errors="replace").readlines()[-15:])))
    pytest.fail("%s: not within %d s\n%s" % (what, timeout, "\n".join(tails)))


@pytest.fixture(scope="module")
def cluster():
    """A running single-node Slurm; yields the environment its clients need."""
    assert not MISSING, "Slurm and munge are not installed (%s missing; ./ns3 test --slurm installs them)" \
        % ", ".join(MISSING)
    assert os.geteuid() == 0, "this test starts slurmd, which needs root"
    tmp = tempfile.mkdtemp(prefix="mrc-slurm-")
    os.chmod(tmp, 0o755)  # munged wants its socket's directories searchable by all
    procs = []
    env = dict(os.environ, SLURM_CONF=os.path.join(tmp, "slurm.conf"))
    try:
        key = os.path.join(tmp, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        sock = os.path.join(tmp, "munge.socket")
        munged_log = os.path.join(tmp, "munged.log")
        procs.append(subprocess.Popen(
            ["munged", "--foreground", "--socket=" + sock, "--key-file=" + key, "--log-file=" + munged_log,
             "--pid-file=" + os.path.join(tmp, "munged.pid"),
             "--seed-file=" + os.path.join(tmp, "munged.seed")],
            stdout=open(munged_log, "ab"), stderr=subprocess.STDOUT))
        wait_for("munged", lambda: os.path.exists(sock), 15, [munged_log])

        host = socket.gethostname()
        node = subprocess.run(["slurmd", "-C"], capture_output=True, text=True,
                              check=True).stdout.splitlines()[0]
        assert node.startswith("NodeName=%s " % host), node
        ctld_port, d_port = free_ports(2)
        for d in ("state", "spool"):
            os.mkdir(os.path.join(tmp, d))
        conf = [
            "ClusterName=mrctest",
            "SlurmctldHost=%s(127.0.0.1)" % host,
            "SlurmctldPort=%d" % ctld_port,
            "SlurmdPort=%d" % d_port,
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            "AuthInfo=socket=%s" % sock,
            "StateSaveLocation=%s/state" % tmp,
            "SlurmdSpoolDir=%s/spool" % tmp,
            "SlurmctldPidFile=%s/slurmctld.pid" % tmp,
            "SlurmdPidFile=%s/slurmd.pid" % tmp,
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SwitchType=switch/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "MpiDefault=none",
            "MailProg=/bin/true",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core_Memory",
            "ReturnToService=2",
            "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0",
            "%s NodeAddr=127.0.0.1 State=UNKNOWN" % node,
            "PartitionName=sweeps Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
        ]
        with open(env["SLURM_CONF"], "w") as f:
            f.write("\n".join(conf) + "\n")
        logs = [os.path.join(tmp, n) for n in ("slurmctld.log", "slurmd.log")]
        for daemon, log in zip(("slurmctld", "slurmd"), logs):
            procs.append(subprocess.Popen([daemon, "-D", "-f", env["SLURM_CONF"]], env=env,
                                          stdout=open(log, "ab"), stderr=subprocess.STDOUT))

        def idle():
            p = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], capture_output=True, text=True, env=env)
            return p.stdout.strip() == "idle"
        wait_for("the node to be idle", idle, 60, logs)
        yield env
    finally:
        if len(procs) == 3:
            jobs = subprocess.run(["squeue", "-h", "-o", "%A"], capture_output=True, text=True,
                                  env=env).stdout.split()
            if jobs:
                subprocess.run(["scancel"] + sorted(set(jobs)), env=env)
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and subprocess.run(
                        ["squeue", "-h"], capture_output=True, text=True, env=env).stdout.strip():
                    time.sleep(0.5)
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def sweep(*args, env=None):
    return subprocess.run([PYTHON, os.path.join(ROOT, "analysis", "sweep.py")] + list(args),
                          capture_output=True, text=True, timeout=600, env=env)


def test_a_sweep_runs_as_a_slurm_job_array(cluster, tmp_path):
    assert os.path.exists(os.path.join(BUILD_DIR, "bin", "quickstart")), "build quickstart first"
    spec = tmp_path / "slurm.toml"
    spec.write_text(SPEC)
    out = tmp_path / "sweep"
    t0 = time.monotonic()
    p = sweep("run", str(spec), "--out", str(out), "--slurm", "--build-dir", BUILD_DIR,
              env=dict(cluster, MRC_SWEEP_POLL_S="0.5"))
    wall = time.monotonic() - t0
    assert p.returncode == 0, p.stdout + p.stderr
    n = len(SCHEMES) * len(FLAP_RATES) * len(SEEDS)
    assert "submitted Slurm job" in p.stdout and "(%d array task(s))" % n in p.stdout
    assert p.stderr.splitlines()[-1].startswith("sweep slurm: %d/%d done, 0 failed" % (n, n))
    job = p.stdout.split("submitted Slurm job ")[1].split()[0]

    script = (out / "slurm" / "sweep.sbatch").read_text()
    assert "#SBATCH --array=0-%d\n" % (n - 1) in script and "#SBATCH --partition=sweeps\n" in script
    for task in range(n):  # every task wrote its own output file, saying which point it ran
        text = (out / "slurm" / ("%s_%d.out" % (job, task))).read_text()
        assert "sweep.py: point %d " % task in text and "exit status 0" in text, text

    names = []
    for scheme in SCHEMES:
        for rate in FLAP_RATES:
            for seed in SEEDS:
                name = "schemes=%s,flapRate=%d,seed=%d" % (scheme, rate, seed)
                names.append(name)
                d = out / name
                done = json.loads((d / ".done").read_text())
                assert done["status"] == 0 and done["host"] == socket.gethostname()
                for f in ("flows.csv", "steps.csv", "events.csv", "links.csv", "run.json", "stdout.log",
                          "stderr.log"):
                    assert (d / f).exists(), (name, f)
    with open(out / "sweep-summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0])[:5] == ["point", "schemes", "flapRate", "seed", "scheme"]
    assert [r["point"] for r in rows] == names
    assert [(r["schemes"], r["flapRate"], r["seed"]) for r in rows] == [
        (s, str(r), str(seed)) for s in SCHEMES for r in FLAP_RATES for seed in SEEDS]
    assert all(r["scheme"] == r["schemes"] and float(r["step_mean_us"]) > 0 for r in rows)
    png = out / "sweep-step_mean_us-vs-flapRate.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # Resuming through Slurm without waiting: only the points without a marker run again, then
    # gather merges them.
    again = names[1::5]
    for name in again:
        (out / name / ".done").unlink()
    p = sweep("run", str(spec), "--out", str(out), "--slurm", "--no-wait", "--build-dir", BUILD_DIR,
              env=cluster)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "%d finished earlier, running %d on Slurm" % (n - len(again), len(again)) in p.stdout
    assert "when it has finished" in p.stdout and "./ns3 sweep gather %s" % out in p.stdout
    job2 = p.stdout.split("submitted Slurm job ")[1].split()[0]
    deadline = time.monotonic() + 120
    while subprocess.run(["squeue", "-h", "-j", job2], capture_output=True, text=True,
                         env=cluster).stdout.strip():
        assert time.monotonic() < deadline, "job %s still queued" % job2
        time.sleep(0.5)
    assert all((out / name / ".done").exists() for name in again)
    (out / "sweep-summary.csv").unlink()
    p = sweep("gather", str(out))
    assert p.returncode == 0 and "18 of 18 points finished, 18 row(s)" in p.stdout, p.stdout + p.stderr
    with open(out / "sweep-summary.csv", newline="") as f:
        assert [r["point"] for r in csv.DictReader(f)] == names

    # The same sweep locally: the Slurm results count as finished.
    p = sweep("run", str(spec), "--out", str(out), "--build-dir", BUILD_DIR)
    assert p.returncode == 0 and "all finished earlier, nothing to run" in p.stdout, p.stdout + p.stderr
    print("Slurm sweep of %d points: %.1f s" % (n, wall))
