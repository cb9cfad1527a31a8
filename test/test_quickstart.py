# SPDX-License-Identifier: GPL-2.0-only
"""End-to-end tests of the `quickstart` experiment program and of the analysis scripts on its
output.

The program must have been built first (CI always builds before testing); it is looked up as
$MRC_BUILD_DIR/bin/quickstart (default: <repo>/build/bin/quickstart) and the tests FAIL, not
skip, when it is missing.

Every run uses a small fabric (8 GPUs, 2 planes, 2 T1s, 2 steps of a 256 KiB ring all-reduce)
with the faults compressed into the first ~100 us so that they fire during the ~1 ms of
simulated time; one run takes well under a second. Runs are shared by module-scoped fixtures.

Run with: /usr/bin/python3 -m pytest -q test
"""

import csv
import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
QUICKSTART = os.path.join(BUILD_DIR, "bin", "quickstart")
ANALYSIS = os.path.join(ROOT, "analysis")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

# ------------------------------------------------------------------ the small configuration

GPUS = 8
HOSTS_PER_T0 = 2
T1 = 2
PLANES = 2
STEPS = 2
BYTES = 262144
BIN_US = 10.0
PORT_LOSS_HOST = 1
PORT_LOSS_AT_US, PORT_LOSS_US = 30.0, 40.0
REBOOT_T1 = 1
REBOOT_AT_US, REBOOT_US = 60.0, 40.0

SMALL = [
    "--gpus=%d" % GPUS,
    "--hostsPerT0=%d" % HOSTS_PER_T0,
    "--t1=%d" % T1,
    "--planes=%d" % PLANES,
    "--steps=%d" % STEPS,
    "--bytes=%d" % BYTES,
    "--flapRate=2000",
    "--portLossAtUs=%g" % PORT_LOSS_AT_US,
    "--portLossUs=%g" % PORT_LOSS_US,
    "--rebootAtUs=%g" % REBOOT_AT_US,
    "--rebootUs=%g" % REBOOT_US,
    "--portLossHost=%d" % PORT_LOSS_HOST,
    "--rebootT1=%d" % REBOOT_T1,
    "--binUs=%g" % BIN_US,
    "--plots=0",
]

SCHEMES = ("mrc", "baseline")
CSV_FILES = ("flows.csv", "steps.csv", "events.csv", "links.csv")
HEADERS = {
    "flows.csv": ["scheme", "job", "step", "collective", "src", "dst", "qp", "bytes", "start_us",
                  "end_us", "throughput_gbps", "job_name"],
    "steps.csv": ["scheme", "job", "step", "start_us", "end_us", "duration_us", "slowest_rank",
                  "job_name"],
    "events.csv": ["scheme", "time_us", "kind", "target", "state", "detail"],
    "links.csv": ["scheme", "time_us", "plane", "tier", "utilization", "queue_bytes_mean",
                  "queue_bytes_max"],
}
TIERS = {"host-t0", "t0-t1", "t1-t0", "t0-host"}
FAULT_KINDS = {"link", "nic_port", "switch_reboot"}
EV_STATES = {"GOOD", "SKIP", "ASSUMED_BAD", "DENIED"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FIGURES = ("throughput.png", "steps.png", "links.png", "ev_states.png")

# The workload of test 6: two 4-rank jobs, interleaved over the 8 hosts. The buffer size is not
# a multiple of 4, so the uneven segment sizes of MrcCollective::Share are exercised.
WL_BYTES = 100003
WL_STEPS = 2
WORKLOAD = {
    "description": "test_quickstart: an alltoall and a ring all-reduce, interleaved",
    "jobs": [
        {"name": "a2a", "ranks": 4, "placement": "interleaved", "steps": WL_STEPS,
         "compute_us": 10, "collectives": [{"type": "alltoall", "bytes": WL_BYTES}]},
        {"name": "ring", "ranks": 4, "placement": "interleaved", "steps": WL_STEPS,
         "compute_us": 10, "collectives": [{"type": "ring-allreduce", "bytes": WL_BYTES}]},
    ],
}
# Interleaved placement, job by job on the hosts left free: job 0 gets hosts 0,2,4,6 and job 1
# the remaining 1,3,5,7 (MrcTrainingJob::Place: free[k * free.size() / ranks]).
WL_HOSTS = {"0": [0, 2, 4, 6], "1": [1, 3, 5, 7]}


# ------------------------------------------------------------------ collective arithmetic
# Python copies of contrib/mrc/helper/mrc-collective.cc.

def share(nbytes, parts, i):
    """MrcCollective::Share: bytes split into parts, the remainder one byte each to the first."""
    return nbytes // parts + (1 if i < nbytes % parts else 0)


def ring_allreduce_segment(n, i, r):
    """The segment rank i sends in round r of MrcCollective::RingAllReduce."""
    if r + 1 < n:
        return (i + 2 * n - r - 1) % n  # reduce-scatter
    return (i + 2 * n - (r - (n - 1))) % n  # all-gather


def ring_allreduce_sent(n, nbytes, i):
    """Bytes rank i sends (to rank i+1) in one ring all-reduce, summed over its 2(N-1) rounds."""
    return sum(share(nbytes, n, ring_allreduce_segment(n, i, r)) for r in range(2 * (n - 1)))


def ring_allreduce_transfers(n, nbytes, i):
    """Sorted sizes of the transfers rank i posts in one ring all-reduce (chunks = 1)."""
    return sorted(share(nbytes, n, ring_allreduce_segment(n, i, r)) for r in range(2 * (n - 1)))


def test_collective_arithmetic_matches_documented_formulas():
    """The Python copy agrees with the closed forms of mrc-collective.h (S(j) = Share(bytes,N,j)):
    rank i sends 2 bytes - S(i) - S(i+1), all ranks together 2 (N-1) bytes."""
    for n, b in ((8, BYTES), (4, WL_BYTES), (5, 7), (3, 100)):
        per_rank = [ring_allreduce_sent(n, b, i) for i in range(n)]
        for i in range(n):
            assert per_rank[i] == 2 * b - share(b, n, i) - share(b, n, (i + 1) % n)
        assert sum(per_rank) == 2 * (n - 1) * b
        assert sum(share(b, n, j) for j in range(n)) == b


# ------------------------------------------------------------------ helpers

def require_binary():
    if not os.path.isfile(QUICKSTART) or not os.access(QUICKSTART, os.X_OK):
        pytest.fail("quickstart binary not found at %s (build it first, e.g. `./ns3 build "
                    "quickstart`, or set MRC_BUILD_DIR to the build directory)" % QUICKSTART,
                    pytrace=False)
    return QUICKSTART


def run_quickstart(out, *extra, cwd=None, check=True):
    """Run the small configuration into `out` (None: no --out); return the CompletedProcess."""
    args = [require_binary()] + SMALL + list(extra)
    if out is not None:
        args.append("--out=%s" % out)
    p = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=cwd)
    if check:
        assert p.returncode == 0, "quickstart failed (%d): %s\nstderr:\n%s" % (
            p.returncode, " ".join(args), p.stderr[-3000:])
    return p


def read_csv(path):
    """(header, rows as dicts)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows, "%s is empty" % path
    header = rows[0]
    out = []
    for n, r in enumerate(rows[1:], start=2):
        assert len(r) == len(header), "%s line %d: %d fields, header has %d" % (
            path, n, len(r), len(header))
        out.append(dict(zip(header, r)))
    return header, out


def table(run_dir, name):
    return read_csv(os.path.join(run_dir, name))[1]


def of_scheme(rows, scheme):
    return [r for r in rows if r["scheme"] == scheme]


def close(a, b, rel=1e-6, abs_=1e-9):
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


# ------------------------------------------------------------------ fixtures (shared runs)

@pytest.fixture(scope="module")
def tmp_root(tmp_path_factory):
    return tmp_path_factory.mktemp("quickstart")


@pytest.fixture(scope="module")
def run1(tmp_root):
    """The small configuration, seed 1."""
    d = str(tmp_root / "run1")
    p = run_quickstart(d)
    return {"dir": d, "stdout": p.stdout, "stderr": p.stderr}


@pytest.fixture(scope="module")
def run1_again(tmp_root):
    """The same configuration and seed, into another directory."""
    d = str(tmp_root / "run1-again")
    run_quickstart(d)
    return d


@pytest.fixture(scope="module")
def run_seed2(tmp_root):
    d = str(tmp_root / "seed2")
    run_quickstart(d, "--seed=2")
    return d


@pytest.fixture(scope="module")
def analysed(tmp_root):
    """A run of its own, then analysis/make_all.py on it."""
    d = str(tmp_root / "analysed")
    run_quickstart(d)
    p = subprocess.run([PYTHON, os.path.join(ANALYSIS, "make_all.py"), d],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    return {"dir": d, "proc": p}


@pytest.fixture(scope="module")
def workload_run(tmp_root):
    path = tmp_root / "workload.json"
    path.write_text(json.dumps(WORKLOAD, indent=2))
    d = str(tmp_root / "workload")
    run_quickstart(d, "--workload=%s" % path)
    return d


@pytest.fixture(scope="module")
def help_options():
    """The --option names of the 'Program Options' section of `quickstart --PrintHelp`."""
    p = subprocess.run([require_binary(), "--PrintHelp"], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    text = p.stdout + p.stderr
    assert "Program Options:" in text, text
    section = text.split("Program Options:", 1)[1].split("General Arguments:", 1)[0]
    names = re.findall(r"^\s+--([A-Za-z][A-Za-z0-9_]*):", section, flags=re.M)
    assert len(names) >= 20, "could not parse the options out of:\n%s" % text
    return names


# ------------------------------------------------------------------ 0. the binary

def test_binary_exists():
    assert require_binary()


def test_help_lists_the_options(help_options):
    for name in ("gpus", "planes", "hostsPerT0", "t1", "linkRate", "steps", "bytes", "flapRate",
                 "seed", "out", "workload", "faultFile", "schemes", "plots"):
        assert name in help_options
    assert len(set(help_options)) == len(help_options)


# ------------------------------------------------------------------ 1. CSV columns and units

def test_run_writes_every_file(run1):
    for name in CSV_FILES + ("run.json",):
        assert os.path.isfile(os.path.join(run1["dir"], name)), name
    # --plots=0: no figures
    assert not [f for f in os.listdir(run1["dir"]) if f.endswith(".png")]
    # the comparison table on stdout
    assert "steps completed" in run1["stdout"]


@pytest.mark.parametrize("name", CSV_FILES)
def test_csv_header_is_exactly_the_documented_one(run1, name):
    header, rows = read_csv(os.path.join(run1["dir"], name))
    assert header == HEADERS[name]
    assert rows, "%s has no data rows" % name
    assert {r["scheme"] for r in rows} == set(SCHEMES)


def test_flows_rows_and_units(run1):
    rows = table(run1["dir"], "flows.csv")
    for r in rows:
        start, end, nbytes = float(r["start_us"]), float(r["end_us"]), int(r["bytes"])
        gbps = float(r["throughput_gbps"])
        assert end > start, r
        assert start >= 0, r
        assert nbytes > 0, r
        assert math.isclose(gbps, nbytes * 8 / ((end - start) * 1e3), rel_tol=1e-6), r
        assert 0 <= int(r["step"]) < STEPS, r
        assert int(r["qp"]) >= 0, r
        assert r["collective"] == "ring-allreduce", r
        assert r["job"] == "0", r


def test_flows_bytes_are_a_ring_allreduce(run1):
    """Per scheme the bytes are exactly steps x what a ring all-reduce of N ranks moves
    (2 (N-1) bytes), and per step every rank i sends its exact share to rank i+1."""
    rows = table(run1["dir"], "flows.csv")
    n = GPUS
    expected_total = STEPS * sum(ring_allreduce_sent(n, BYTES, i) for i in range(n))
    assert expected_total == STEPS * 2 * (n - 1) * BYTES
    for scheme in SCHEMES:
        fl = of_scheme(rows, scheme)
        assert sum(int(r["bytes"]) for r in fl) == expected_total, scheme
        # one transfer per rank and round (chunks = 1)
        assert len(fl) == STEPS * n * 2 * (n - 1), scheme
        for step in range(STEPS):
            for i in range(n):
                sent = [r for r in fl if int(r["step"]) == step and int(r["src"]) == i]
                assert {int(r["dst"]) for r in sent} == {(i + 1) % n}, (scheme, step, i)
                assert sorted(int(r["bytes"]) for r in sent) == ring_allreduce_transfers(
                    n, BYTES, i), (scheme, step, i)


def test_flows_lie_within_their_step(run1):
    flows = table(run1["dir"], "flows.csv")
    steps = {(r["scheme"], r["job"], int(r["step"])): (float(r["start_us"]), float(r["end_us"]))
             for r in table(run1["dir"], "steps.csv")}
    for r in flows:
        s, e = steps[(r["scheme"], r["job"], int(r["step"]))]
        assert s <= float(r["start_us"]) and float(r["end_us"]) <= e, (r, s, e)


def test_steps(run1):
    rows = table(run1["dir"], "steps.csv")
    for scheme in SCHEMES:
        st = sorted(of_scheme(rows, scheme), key=lambda r: int(r["step"]))
        assert [int(r["step"]) for r in st] == list(range(STEPS)), scheme
        assert {r["job"] for r in st} == {"0"}
        for r in st:
            start, end, dur = float(r["start_us"]), float(r["end_us"]), float(r["duration_us"])
            assert end > start >= 0, r
            assert close(dur, end - start), r
            assert 0 <= int(r["slowest_rank"]) < GPUS, r
        for a, b in zip(st, st[1:]):
            assert float(b["start_us"]) >= float(a["end_us"]) - 1e-9, (a, b)


def test_links(run1):
    rows = table(run1["dir"], "links.csv")
    for r in rows:
        u = float(r["utilization"])
        assert 0.0 <= u <= 1.0, r
        qmean, qmax = float(r["queue_bytes_mean"]), float(r["queue_bytes_max"])
        assert 0 <= qmean <= qmax + 1e-9, r
        t = float(r["time_us"])
        assert t > 0 and close(t / BIN_US, round(t / BIN_US)), r  # one row per bin
    steps = table(run1["dir"], "steps.csv")
    for scheme, planes in (("mrc", set(range(PLANES))), ("baseline", {0})):
        lk = of_scheme(rows, scheme)
        assert {int(r["plane"]) for r in lk} == planes, scheme
        assert {r["tier"] for r in lk} >= TIERS, scheme
        assert {r["tier"] for r in lk} <= TIERS | {"t1-t2", "t2-t1"}, scheme
        # The bins cover the run: up to the end of the last step, and some traffic was seen.
        last = max(float(r["end_us"]) for r in of_scheme(steps, scheme))
        times = sorted({float(r["time_us"]) for r in lk})
        assert times[0] == pytest.approx(BIN_US)
        assert last - BIN_US <= times[-1] <= last + 1e-9, (scheme, times[-1], last)
        assert max(float(r["utilization"]) for r in lk if r["tier"] == "host-t0") > 0.05


def test_links_every_plane_has_every_tier(run1):
    rows = table(run1["dir"], "links.csv")
    for scheme, planes in (("mrc", range(PLANES)), ("baseline", [0])):
        lk = of_scheme(rows, scheme)
        for p in planes:
            assert {r["tier"] for r in lk if int(r["plane"]) == p} >= TIERS, (scheme, p)


def test_events(run1):
    rows = table(run1["dir"], "events.csv")
    steps = table(run1["dir"], "steps.csv")
    for scheme in SCHEMES:
        ev = of_scheme(rows, scheme)
        kinds = {r["kind"] for r in ev}
        assert kinds >= FAULT_KINDS, (scheme, kinds)
        times = [float(r["time_us"]) for r in ev]
        assert times == sorted(times), scheme
        # every fault fires within the run (before the last step ends)
        last = max(float(r["end_us"]) for r in of_scheme(steps, scheme))
        faults = [r for r in ev if r["kind"] != "ev_state"]
        assert all(0 <= float(r["time_us"]) < last for r in faults), scheme
        for r in faults:
            assert r["state"] in ({"down", "up"} if r["kind"] in ("link", "nic_port")
                                  else {"start", "end"}), r
        for r in ev:
            if r["kind"] == "link":
                assert re.fullmatch(r"plane(\d+)/t0-(\d+)/t1-(\d+)", r["target"]), r
        # the scheduled NIC port loss and T1 reboot, exactly once each, at the given times
        port_plane = min(3, PLANES - 1) if scheme == "mrc" else 0
        reboot_plane = min(2, PLANES - 1) if scheme == "mrc" else 0
        nic = [(float(r["time_us"]), r["target"], r["state"]) for r in ev if r["kind"] == "nic_port"]
        target = "host%d/plane%d" % (PORT_LOSS_HOST, port_plane)
        assert nic == [(PORT_LOSS_AT_US, target, "down"),
                       (PORT_LOSS_AT_US + PORT_LOSS_US, target, "up")], scheme
        rb = [(float(r["time_us"]), r["target"], r["state"]) for r in ev
              if r["kind"] == "switch_reboot"]
        target = "plane%d/t1-%d" % (reboot_plane, REBOOT_T1)
        assert rb == [(REBOOT_AT_US, target, "start"),
                      (REBOOT_AT_US + REBOOT_US, target, "end")], scheme
        # flaps: every link goes down and comes back up
        links = [r for r in ev if r["kind"] == "link"]
        assert links, scheme
        assert (sum(r["state"] == "down" for r in links)
                - sum(r["state"] == "up" for r in links)) in (0, 1), scheme
    ev_mrc = [r for r in of_scheme(rows, "mrc") if r["kind"] == "ev_state"]
    assert ev_mrc, "no ev_state rows for mrc"
    for r in ev_mrc:
        assert r["state"] in EV_STATES, r
        assert re.fullmatch(r"host(\d+)/qp(\d+)/ev(\d+)", r["target"]), r
        assert int(r["target"].split("/")[0][4:]) < GPUS, r
    # the faults make MRC retire some EVs
    assert any(r["state"] == "ASSUMED_BAD" for r in ev_mrc)


# ------------------------------------------------------------------ 2. run.json

def test_run_json(run1):
    with open(os.path.join(run1["dir"], "run.json")) as f:
        rj = json.load(f)
    for key in ("program", "version", "ns3_version", "seed", "parameters", "wall_time_s",
                "events_executed", "time_scaling", "schemes"):
        assert key in rj, key
    assert rj["program"] == "quickstart"
    assert isinstance(rj["version"], str) and rj["version"]
    assert isinstance(rj["ns3_version"], str) and rj["ns3_version"]
    assert rj["seed"] == 1
    assert isinstance(rj["wall_time_s"], (int, float)) and rj["wall_time_s"] > 0
    assert isinstance(rj["events_executed"], int) and rj["events_executed"] > 0
    assert isinstance(rj["time_scaling"], str) and rj["time_scaling"].strip()
    assert set(rj["schemes"]) == set(SCHEMES)
    steps = table(run1["dir"], "steps.csv")
    for scheme in SCHEMES:
        s = rj["schemes"][scheme]
        assert s["steps_completed"] == STEPS
        assert s["events_executed"] > 0
        last = max(float(r["end_us"]) for r in of_scheme(steps, scheme))
        assert s["simulated_us"] >= last - 1e-6
    assert rj["events_executed"] == sum(rj["schemes"][s]["events_executed"] for s in SCHEMES)
    # every packet lost, by where and why: the flaps and the reboot lose packets on both
    # fabrics (a port down, a frame on a wire that went down), and the table's rows agree
    table_rows = {}
    for line in run1["stdout"].splitlines():
        m = re.match(r"(packets lost \(all reasons\)|  lost: \S+)\s+(\d+)\s+(\d+)$", line)
        if m:
            table_rows[m.group(1).strip()] = [int(m.group(2)), int(m.group(3))]
    assert "packets lost (all reasons)" in table_rows, run1["stdout"]
    for k, scheme in enumerate(SCHEMES):
        drops = rj["schemes"][scheme]["drops"]
        assert isinstance(drops, dict) and drops, scheme
        for reason, n in drops.items():
            assert re.fullmatch(r"(nic|nic-queue|switch|switch-queue|link)/[A-Za-z]+", reason)
            assert isinstance(n, int) and n > 0, (scheme, reason)
            assert table_rows["lost: " + reason][k] == n, (scheme, reason)
        assert table_rows["packets lost (all reasons)"][k] == sum(drops.values()), scheme
        assert "switch/PortDown" in drops, scheme
    # the parameters record the values given on the command line
    p = rj["parameters"]
    assert isinstance(p, dict)
    for arg in SMALL:
        name, value = arg[2:].split("=", 1)
        if name in p:
            if name == "plots":
                assert str(p[name]).lower() in ("0", "false"), (name, p[name])
            else:
                assert float(p[name]) == float(value), (name, p[name], value)
    for name in ("gpus", "planes", "hostsPerT0", "t1", "steps", "bytes", "flapRate", "binUs"):
        assert name in p, name


def test_run_json_counters_are_the_tables_rows(run1):
    """run.json's per-scheme packet counters are the numbers the table prints."""
    with open(os.path.join(run1["dir"], "run.json")) as f:
        rj = json.load(f)
    rows = {}
    for line in run1["stdout"].splitlines():
        m = re.match(r"([a-zA-Z][a-zA-Z ]+?)\s{2,}(\S+)\s+(\S+)$", line)
        if m:
            rows[m.group(1)] = [m.group(2), m.group(3)]
    names = {"retransmissions": "retransmissions",
             "spurious retransmissions": "spurious_retransmissions",
             "retransmission timeouts": "retransmission_timeouts", "trims": "trims",
             "EV retirements": "ev_retirements", "failed transfers": "failed_transfers"}
    for row, key in names.items():
        for k, scheme in enumerate(SCHEMES):
            assert int(rows[row][k]) == rj["schemes"][scheme][key], (row, scheme)
    assert rj["schemes"]["mrc"]["retransmissions"] > 0, "the faults cost MRC retransmissions"


def test_stalls_are_shown_not_hidden_in_an_inflation(run1):
    """A step of a second or more (the baseline waiting out its 4.29 s local ACK timeout) sets
    its scheme's mean step: the table counts such steps in the main and the reference run,
    prints 'stall' instead of an inflation for that scheme, and says why under the table."""
    with open(os.path.join(run1["dir"], "run.json")) as f:
        rj = json.load(f)
    steps = table(run1["dir"], "steps.csv")
    rows = {}
    for line in run1["stdout"].splitlines():
        m = re.match(r"(steps over 1 s(?:, [^0-9-]+?)?|inflation from .*\(%\))\s+(\S+)\s+(\S+)$",
                     line)
        if m:
            rows[m.group(1)] = [m.group(2), m.group(3)]
    main = rows["steps over 1 s"]
    ref = [v for k, v in rows.items() if k.startswith("steps over 1 s, ")][0]
    inflation = [v for k, v in rows.items() if k.startswith("inflation")][0]
    stalled = 0
    for k, scheme in enumerate(SCHEMES):
        n = sum(1 for r in of_scheme(steps, scheme) if float(r["duration_us"]) >= 1e6)
        assert int(main[k]) == n == rj["schemes"][scheme]["steps_over_1s"], scheme
        assert int(ref[k]) == rj["schemes"][scheme]["steps_over_1s_port_loss_only"], scheme
        if n or int(ref[k]):
            stalled += 1
            assert inflation[k] == "stall", (scheme, inflation)
            assert re.search(r"^%s: %d step\(s\) over 1 s.*no inflation is given$" % (scheme, n),
                             run1["stdout"], re.M), run1["stdout"]
        else:
            assert re.fullmatch(r"-?\d+\.\d\d", inflation[k]), (scheme, inflation)
    # In this configuration the NIC port loss stalls the baseline (its host's only port) and
    # not MRC (another plane carries the transfer).
    assert inflation[0] != "stall" and inflation[1] == "stall" and stalled == 1


def test_run_json_parameters_cover_every_option(run1, help_options):
    with open(os.path.join(run1["dir"], "run.json")) as f:
        params = json.load(f)["parameters"]
    missing = [name for name in help_options if name not in params]
    assert not missing, "run.json parameters lack: %s" % ", ".join(missing)


# ------------------------------------------------------------------ 3. determinism

def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def test_same_seed_gives_identical_results(run1, run1_again):
    for name in CSV_FILES:
        a = read_bytes(os.path.join(run1["dir"], name))
        b = read_bytes(os.path.join(run1_again, name))
        assert a == b, "%s differs between two runs with the same seed" % name


def test_reference_runs_in_a_second_process_give_the_same_results(tmp_root):
    """--jobs=2 runs the reference simulations (NIC port loss only) in a second process beside
    the main ones; --jobs=1 runs them afterwards in this one. The results are the same: every
    CSV byte for byte, run.json apart from wall times and the command line, and the printed
    comparison apart from its wall-time lines."""
    runs = {}
    for jobs in (1, 2):
        d = str(tmp_root / ("jobs%d" % jobs))
        p = run_quickstart(d, "--jobs=%d" % jobs, "--plots=0")
        runs[jobs] = (d, p)
    (d1, p1), (d2, p2) = runs[1], runs[2]
    assert "second process" in p2.stderr and "second process" not in p1.stderr
    for name in CSV_FILES:
        assert read_bytes(os.path.join(d1, name)) == read_bytes(os.path.join(d2, name)), name

    def scrub(v):
        if isinstance(v, dict):
            return {k: scrub(x) for k, x in v.items()
                    if "wall" not in k and k not in ("command_line", "jobs", "out", "date")}
        if isinstance(v, list):
            return [scrub(x) for x in v]
        return v
    with open(os.path.join(d1, "run.json")) as f1, open(os.path.join(d2, "run.json")) as f2:
        j1, j2 = json.load(f1), json.load(f2)
    assert scrub(j1) == scrub(j2)
    refs = [s["mean_step_port_loss_only_us"] for s in j1["schemes"].values()]
    assert refs and all(r is not None for r in refs), "the reference runs ran"
    def table(p, d):
        return [l.replace(d, "DIR") for l in p.stdout.splitlines() if "wall" not in l]
    assert table(p1, d1) == table(p2, d2)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_scheme_alone_gives_the_same_rows(run1, tmp_root, scheme):
    """A scheme's results do not depend on which other schemes ran before it in the process
    (random streams are assigned before any queue pair draws from them)."""
    d = str(tmp_root / ("alone-" + scheme))
    run_quickstart(d, "--schemes=" + scheme)
    for name in CSV_FILES:
        both = [l for l in read_bytes(os.path.join(run1["dir"], name)).decode().splitlines()
                if l.startswith(scheme + ",")]
        alone = [l for l in read_bytes(os.path.join(d, name)).decode().splitlines()
                 if l.startswith(scheme + ",")]
        assert both, "no %s rows in %s" % (scheme, name)
        assert alone == both, "%s: --schemes=%s differs from the two-scheme run" % (name, scheme)


@pytest.mark.parametrize("option,word,impl", [
    ("--scheduler=map", "map", "ns3::MrcSimulatorImpl"),
    ("--scheduler=heap", "heap", "ns3::MrcSimulatorImpl"),
    ("--SchedulerType=ns3::MapScheduler", "map", "ns3::MrcSimulatorImpl"),
    ("--SimulatorImplementationType=ns3::DefaultSimulatorImpl", "calendar",
     "ns3::DefaultSimulatorImpl")])
def test_the_scheduler_does_not_change_results(run1, tmp_root, option, word, impl):
    """Programs default to MrcCalendarScheduler (--scheduler=calendar) under MrcSimulatorImpl,
    both of which run.json records; ns-3's MapScheduler and MrcHeapScheduler, chosen by
    --scheduler or ns-3's --SchedulerType, and ns-3's DefaultSimulatorImpl run the same events in
    the same order, so every output file is byte-identical, and run.json names what ran."""
    with open(os.path.join(run1["dir"], "run.json")) as f:
        meta = json.load(f)
    assert meta["parameters"]["scheduler"] == "calendar"
    assert meta["simulator_implementation"] == "ns3::MrcSimulatorImpl"
    d = str(tmp_root / option.strip("-").replace("=", "-").replace(":", ""))
    run_quickstart(d, option)
    with open(os.path.join(d, "run.json")) as f:
        meta = json.load(f)
    assert meta["parameters"]["scheduler"] == word
    assert meta["simulator_implementation"] == impl
    for name in CSV_FILES:
        a = read_bytes(os.path.join(run1["dir"], name))
        b = read_bytes(os.path.join(d, name))
        assert a == b, "%s differs between the calendar scheduler and %s" % (name, option)


def test_other_seed_gives_other_results(run1, run_seed2):
    differ = [name for name in CSV_FILES
              if read_bytes(os.path.join(run1["dir"], name))
              != read_bytes(os.path.join(run_seed2, name))]
    assert differ, "--seed=2 produced the same CSVs as --seed=1"
    with open(os.path.join(run_seed2, "run.json")) as f:
        assert json.load(f)["seed"] == 2
    # ... and is still a complete, correct run
    flows = table(run_seed2, "flows.csv")
    for scheme in SCHEMES:
        assert sum(int(r["bytes"]) for r in of_scheme(flows, scheme)) == \
            STEPS * 2 * (GPUS - 1) * BYTES


# ------------------------------------------------------------------ 4. bad input

BAD_FAULT_CSV = "time_us,action,target,duration_us\n10,explode,plane0/t1-0,5\n"
BAD_WORKLOAD_JSON = '{"jobs": [ {"ranks": 4,\n "steps": }]}\n'

BAD_CASES = [
    # (id, extra args ({dir} = a scratch directory), option named, further required substrings)
    ("gpus", ["--gpus=3"], "--gpus", []),
    ("hostsPerT0", ["--hostsPerT0=3"], "--hostsPerT0", []),
    ("linkRate", ["--linkRate=fast"], "--linkRate", ["fast"]),
    ("schemes", ["--schemes=foo"], "--schemes", []),
    ("ecmpHashing", ["--ecmpHashing=random"], "--ecmpHashing", ["resilient", "modulo"]),
    ("seed-negative", ["--seed=-1"], "--seed", ["4294967086"]),
    ("seed-zero", ["--seed=0"], "--seed", []),
    ("unknown-option", ["--gpu=32"], "--gpu", ["did you mean '--gpus'"]),
    ("faultFile", ["--faultFile={dir}/faults.csv"], "--faultFile", ["action", "explode"]),
    ("workload", ["--workload={dir}/workload.json"], "--workload", ["workload.json:2: JSON"]),
    ("workload-missing", ["--workload={dir}/nonexistent.json"], "--workload", ["nonexistent"]),
]


@pytest.mark.parametrize("case", BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_input(tmp_path, case):
    _, extra, option, needles = case
    scratch = tmp_path / "inputs"
    scratch.mkdir()
    (scratch / "faults.csv").write_text(BAD_FAULT_CSV)
    (scratch / "workload.json").write_text(BAD_WORKLOAD_JSON)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    out = tmp_path / "out"
    args = [a.format(dir=scratch) for a in extra]
    for with_out in (True, False):  # --out given, and the default results/quickstart-<time>
        p = run_quickstart(str(out) if with_out else None, *args, cwd=str(cwd), check=False)
        assert p.returncode != 0, "accepted %s" % " ".join(args)
        lines = [line for line in p.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, "expected one line on stderr, got:\n%s" % p.stderr
        msg = lines[0]
        assert msg.startswith("error:"), msg
        assert option in msg, msg
        for needle in needles:
            assert needle in msg, msg
        assert not out.exists(), "a results directory was left behind"
        assert os.listdir(cwd) == [], "files were left behind: %s" % os.listdir(cwd)


def test_bad_fault_file_names_the_line(tmp_path):
    f = tmp_path / "faults.csv"
    f.write_text(BAD_FAULT_CSV)
    p = run_quickstart(str(tmp_path / "out"), "--faultFile=%s" % f, check=False)
    assert p.returncode != 0
    msg = p.stderr.strip()
    # e.g. "error: --faultFile (mrc fabric): .../faults.csv:2: field 'action': unknown action ..."
    assert re.search(r"(:2:|line 2\b)", msg), msg
    assert "'action'" in msg or "action" in msg.split(":2:")[-1], msg
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ 5. with the analysis

def test_make_all_writes_every_figure(analysed):
    p = analysed["proc"]
    assert p.returncode == 0, "make_all.py failed:\n%s\n%s" % (p.stdout, p.stderr)
    d = analysed["dir"]
    for name in FIGURES:
        path = os.path.join(d, name)
        assert os.path.isfile(path), name
        data = read_bytes(path)
        assert data[:8] == PNG_MAGIC, name
        assert len(data) > 10000, "%s is only %d bytes" % (name, len(data))
        # IHDR: width and height of a real figure
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert w >= 300 and h >= 200, (name, w, h)
        assert path in p.stdout or name in p.stdout
    assert os.path.isfile(os.path.join(d, "summary.csv"))
    assert "9 file(s) written" in p.stdout


def test_summary_matches_the_flows(analysed):
    d = analysed["dir"]
    flows = table(d, "flows.csv")
    steps = table(d, "steps.csv")
    events = table(d, "events.csv")
    header, summary = read_csv(os.path.join(d, "summary.csv"))
    assert header[0] == "scheme"
    assert [r["scheme"] for r in summary] == list(SCHEMES)
    for row in summary:
        fl = of_scheme(flows, row["scheme"])
        assert int(row["flows"]) == len(fl)
        tput = np.array([float(r["throughput_gbps"]) for r in fl])
        assert float(row["tput_mean_gbps"]) == pytest.approx(tput.mean(), rel=1e-8)
        recomputed = np.array([int(r["bytes"]) * 8 / ((float(r["end_us"]) - float(r["start_us"]))
                                                       * 1e3) for r in fl])
        assert float(row["tput_mean_gbps"]) == pytest.approx(recomputed.mean(), rel=1e-6)
        assert float(row["tput_min_gbps"]) == pytest.approx(tput.min(), rel=1e-8)
        assert float(row["tput_max_gbps"]) == pytest.approx(tput.max(), rel=1e-8)
        assert int(row["steps"]) == len(of_scheme(steps, row["scheme"])) == STEPS
        ev = of_scheme(events, row["scheme"])
        for kind in FAULT_KINDS:
            onsets = sum(r["kind"] == kind and r["state"] in ("down", "start") for r in ev)
            assert int(row["faults_" + kind]) == onsets, (row["scheme"], kind)
        for state in EV_STATES:
            n = sum(r["kind"] == "ev_state" and r["state"] == state for r in ev)
            assert int(row["ev_" + state]) == n, (row["scheme"], state)


# ------------------------------------------------------------------ 6. a workload file

def test_workload_jobs_complete_every_step(workload_run):
    steps = table(workload_run, "steps.csv")
    for scheme in SCHEMES:
        st = of_scheme(steps, scheme)
        for job in ("0", "1"):
            got = sorted(int(r["step"]) for r in st if r["job"] == job)
            assert got == list(range(WL_STEPS)), (scheme, job, got)
        assert {r["job"] for r in st} == {"0", "1"}
        for r in st:
            assert close(float(r["duration_us"]), float(r["end_us"]) - float(r["start_us"]))
    with open(os.path.join(workload_run, "run.json")) as f:
        rj = json.load(f)
    assert rj["parameters"]["workload"].endswith("workload.json")
    for scheme in SCHEMES:
        assert rj["schemes"][scheme]["steps_completed"] == 2 * WL_STEPS


def test_workload_flows_match_the_collectives(workload_run):
    flows = table(workload_run, "flows.csv")
    n = 4
    for r in flows:
        assert float(r["end_us"]) > float(r["start_us"]), r
        assert math.isclose(float(r["throughput_gbps"]), int(r["bytes"]) * 8 / (
            (float(r["end_us"]) - float(r["start_us"])) * 1e3), rel_tol=1e-6), r
    for scheme in SCHEMES:
        fl = of_scheme(flows, scheme)
        assert {r["job"] for r in fl} == {"0", "1"}
        for job, ctype in (("0", "alltoall"), ("1", "ring-allreduce")):
            jf = [r for r in fl if r["job"] == job]
            hosts = WL_HOSTS[job]
            assert {r["collective"] for r in jf} == {ctype}
            assert {int(r["src"]) for r in jf} == set(hosts), (scheme, job)
            assert {int(r["dst"]) for r in jf} == set(hosts), (scheme, job)
            for step in range(WL_STEPS):
                sf = [r for r in jf if int(r["step"]) == step]
                for i, host in enumerate(hosts):
                    sent = [r for r in sf if int(r["src"]) == host]
                    if ctype == "alltoall":
                        # rank i sends block j (Share(bytes, N, j)) to every other rank j
                        got = {int(r["dst"]): int(r["bytes"]) for r in sent}
                        assert len(sent) == n - 1
                        assert got == {hosts[j]: share(WL_BYTES, n, j)
                                       for j in range(n) if j != i}, (scheme, step, i)
                    else:
                        assert {int(r["dst"]) for r in sent} == {hosts[(i + 1) % n]}
                        assert sorted(int(r["bytes"]) for r in sent) == \
                            ring_allreduce_transfers(n, WL_BYTES, i), (scheme, step, i)
                total = sum(int(r["bytes"]) for r in sf)
                if ctype == "alltoall":
                    assert total == (n - 1) * WL_BYTES
                else:
                    assert total == 2 * (n - 1) * WL_BYTES
