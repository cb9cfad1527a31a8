#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Recorded runs behind the numbers in the docs, and the check that the docs quote them.

  doc_records.py list                  the recipes, their commands and their records
  doc_records.py record NAME [--jobs N] [--build DIR] [--source DIR] [--from DIR...]
                                       run a recipe's commands (the build's programs, into a
                                       temporary directory), or take their complete results
                                       directories (--from, one per run, in order; each must
                                       have been run with the recipe's arguments), and
                                       write docs/records/NAME/:
                                       record.json (commands, commit, date, machine, wall
                                       time, peak memory, the values the docs may quote) and
                                       the small files of its runs the tables are made from
  doc_records.py revalue NAME          recompute a paper or claims record's values from its
                                       kept files
  doc_records.py check [DOC...]        every marked number and generated table in the docs
                                       agrees with its record, and every record the docs
                                       quote is current (exit 1 naming each that is not)
  doc_records.py stale                 the records that are not current, one name a line
  doc_records.py carry NAME --reason TEXT
                                       declare a record current although fingerprinted
                                       outputs changed since it was made (the reason, kept in
                                       record.json, says why the change cannot reach its runs)
  doc_records.py update [DOC...]       rewrite the marked numbers and generated tables from
                                       the records

A measured number in a Markdown page is followed by a marker naming its record and value,
which renders as nothing:

    MRC's mean step is 1.06 %<!--rec:quickstart-seeds:seed1.inflation_pct--> longer

It agrees when the record's value, rounded to the decimals the page writes, is the number
written (thousands separators and a Unicode minus are allowed).  A generated table sits
between two markers; what lies between them is the output of `claims_tables.py` on the
record's run files:

    <!--rec:paper-quick:table:agreements:F9,F10-->
    ...
    <!--/rec-->

Records are only ever written by `record` (and `carry`), and into their own directory: a
file there that no record.json lists is an error, and nothing is deleted.

A record is current while the model that made it is the model of this tree.  The model's
outputs are pinned by the whole-run fingerprints of test/fingerprints.json (a change of
behaviour re-records them, with its reason): a record keeps the fingerprints of the commit
its runs were built at, and is stale once one of them differs from this tree's (fingerprints
added since do not count).  A stale record is re-recorded, or, when the change cannot reach
its runs (say, a program the record does not run printed one more line), carried with the
reason.  The fingerprints cover the example programs, quickstart and the claims at their
tiny scale, not every code path a record runs; they are the model's pins, not a proof.

A record is also stale once a program's default changes under a run that relied on it: a kept
run.json lists the run's parameters, and each one the recorded command did not set must equal
the build's default (`PROG --PrintHelp`; the build is $MRC_BUILD_DIR, else build/).  The
programs that print their results keep no run.json: for their runs, record.json keeps the
defaults of the options the command did not set (`defaults`, from `PROG --PrintHelp` when the
run was made), and those are held to the build's defaults the same way.
"""

import argparse
import contextlib
import io
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RECORDS = os.path.join(ROOT, "docs", "records")
FINGERPRINTS = os.path.join(ROOT, "test", "fingerprints.json")
PROG = "doc_records.py"

sys.path.insert(0, HERE)
import claims_tables  # noqa: E402


def docs():
    """The pages that may carry markers."""
    out = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "analysis", "README.md")]
    d = os.path.join(ROOT, "docs")
    out += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
    d = os.path.join(ROOT, "contrib", "mrc", "doc")
    out += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".rst"))
    return out


# ------------------------------------------------------------------ recipes

def _read_csv(path):
    import csv
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def quickstart_values(label, outdir, run_json):
    """A quickstart run's step means per scheme, its reference's, the inflation."""
    steps = _read_csv(os.path.join(outdir, "steps.csv"))
    values = {}
    for scheme, s in run_json["schemes"].items():
        mine = [float(r["duration_us"]) for r in steps if r["scheme"] == scheme]
        mean = _mean(mine)
        values["%s.%s.mean_step_us" % (label, scheme)] = mean
        values["%s.%s.mean_step_s" % (label, scheme)] = mean / 1e6
        values["%s.%s.wall_time_s" % (label, scheme)] = float(s["wall_time_s"])
        for key in ("retransmissions", "spurious_retransmissions", "retransmission_timeouts",
                    "trims", "ev_retirements", "failed_transfers", "failed_jobs", "pfc_pauses",
                    "events_executed"):
            if s.get(key) is not None:
                values["%s.%s.%s" % (label, scheme, key)] = float(s[key])
        if isinstance(s.get("drops"), dict):
            values["%s.%s.packets_lost" % (label, scheme)] = float(sum(s["drops"].values()))
            for reason, n in s["drops"].items():
                values["%s.%s.lost.%s" % (label, scheme, reason.replace("/", "."))] = float(n)
        for i, d in enumerate(mine[:10]):
            values["%s.%s.step%d_us" % (label, scheme, i)] = d
            values["%s.%s.step%d_s" % (label, scheme, i)] = d / 1e6
        if len(mine) >= 2:
            values["%s.%s.step0_over_step1_pct" % (label, scheme)] = (mine[0] / mine[1] - 1) * 100
        if s.get("mean_step_port_loss_only_us") is None:
            continue  # no reference run (--reference=0, or no fault beyond the port loss)
        ref = float(s["mean_step_port_loss_only_us"])
        values["%s.%s.ref_mean_step_us" % (label, scheme)] = ref
        values["%s.%s.added_us" % (label, scheme)] = mean - ref
        values["%s.%s.steps_over_1s" % (label, scheme)] = float(s["steps_over_1s"])
        if s["steps_over_1s"] == 0 and s["steps_over_1s_port_loss_only"] == 0:
            values["%s.%s.inflation_pct" % (label, scheme)] = (mean / ref - 1) * 100
    # T0-T1 flaps: the link-down events of those links in each scheme's main run
    for r in _read_csv(os.path.join(outdir, "events.csv")):
        if r["kind"] == "link" and r["state"] == "down" and re.search(r"/t0-\d+/t1-", r["target"]):
            key = "%s.%s.t0t1_flaps" % (label, r["scheme"])
            values[key] = values.get(key, 0.0) + 1
    values["%s.wall_time_s" % label] = float(run_json["wall_time_s"])
    flows = os.path.join(outdir, "flows.csv")
    per_t0 = run_json.get("parameters", {}).get("hostsPerT0")
    if per_t0 and os.path.isfile(flows) and os.path.getsize(flows) < 64 << 20:
        values.update(transfer_classes(label, flows, int(float(per_t0))))
    return values


def _cov(xs):
    m = _mean(xs)
    return (sum((x - m) ** 2 for x in xs) / len(xs)) ** 0.5 / m if xs and m else float("nan")


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2) if n else float("nan")


def transfer_classes(label, flows, per_t0):
    """Per scheme: the transfers under one T0 and across the T1s, their median throughput and
    their CoV (the default quickstart's CoV paragraph, docs/experiments.md), and all of them."""
    by = {}
    for r in _read_csv(flows):
        cls = "same_t0" if int(r["src"]) // per_t0 == int(r["dst"]) // per_t0 else "across_t1"
        g = float(r["throughput_gbps"])
        by.setdefault((r["scheme"], cls), []).append(g)
        by.setdefault((r["scheme"], "all"), []).append(g)
    values = {}
    for (scheme, cls), xs in by.items():
        values["%s.%s.%s.median_gbps" % (label, scheme, cls)] = _median(xs)
        values["%s.%s.%s.cov" % (label, scheme, cls)] = _cov(xs)
    return values


def permutation_values(label, text):
    """mrc-permutation's summary lines (it writes no results directory)."""
    values = {}
    pats = {"fct_min_us": r"^fct-us min: ([\d.]+)", "fct_median_us": r"^fct-us .*median: ([\d.]+)",
            "fct_p99_us": r"^fct-us .*p99: ([\d.]+)", "ideal_min_us": r"^ideal-fct-us min: ([\d.]+)",
            "ideal_max_us": r"^ideal-fct-us .*max: ([\d.]+)",
            "median_over_ideal": r"^median/ideal: ([\d.]+)", "wall_s": r" wall: ([\d.]+) s",
            "data_packets": r"^data packets: (\d+)", "events": r" events: (\d+)",
            "retransmissions": r" retransmissions: (\d+)",
            "flows_completed": r"^flows completed: (\d+)", "fct_max_us": r"^fct-us .*max: ([\d.]+)",
            "min_over_ideal": r"min/ideal: ([\d.]+)", "goodput_gbps": r"^aggregate goodput: ([\d.]+)",
            "pfc_pauses": r"pfc pauses: (\d+)", "congestion_drops": r"congestion drops: (\d+)",
            "timeouts": r" timeouts (\d+)", "spurious": r" spurious (\d+)"}
    for key, pat in pats.items():
        m = re.search(pat, text, re.M)
        if m:
            values["%s.%s" % (label, key)] = float(m.group(1))
    m = re.search(r"^ecmp collisions .*?: (.*)$", text, re.M)
    if m:  # flows by the most QPs on one link of their path: 1x:33 2x:53 ...
        counts = {int(k): int(v) for k, v in re.findall(r"(\d+)x:(\d+)", m.group(1))}
        values["%s.collided_flows" % label] = float(sum(v for k, v in counts.items() if k > 1))
        values["%s.max_collision" % label] = float(max(counts))
    m = re.search(r"^slowest flows \(fct/ideal, collision\): (.*)$", text, re.M)
    if m:
        worst = [float(x) for x in re.findall(r"([\d.]+)x/", m.group(1))]
        values["%s.slowest_over_ideal" % label] = max(worst)
        values["%s.fifth_slowest_over_ideal" % label] = min(worst)
    return values


def ib_write_values(label, text):
    """mrc-ib-write's P1-P3 lines."""
    values = {}
    for name, where, v in re.findall(r"^(P\d) .*?(same T0|across a T1)[^:]*:\s+([\d.]+)",
                                     text, re.M):
        values["%s.%s.%s" % (label, name, "same_t0" if where == "same T0" else "across_t1")] = \
            float(v)
    return values


def link_flap_values(label, text):
    """mrc-link-flap's 'name scheme: value' lines."""
    values = {}
    for name, scheme, v in re.findall(r"^([a-z-]+) (mrc|baseline): ([\d.]+)$", text, re.M):
        values["%s.%s.%s" % (label, scheme, name)] = float(v)
    return values


def program_values(label, outdir, run_json):
    """A results directory of quickstart (or the other training programs)."""
    return quickstart_values(label, outdir, run_json)


def quickstart_seeds_summary(values):
    infl = [values["seed%d.mrc.inflation_pct" % s] for s in range(1, 5)
            if "seed%d.mrc.inflation_pct" % s in values]
    if len(infl) == 4:
        values["mean.mrc.inflation_pct"] = _mean(infl)
        values["max.mrc.inflation_pct"] = max(infl)
    return values


def hello_values(label, outdir, run_json):
    steps = _read_csv(os.path.join(outdir, "steps.csv"))
    values = {}
    for scheme in sorted({r["scheme"] for r in steps}):
        mine = [float(r["duration_us"]) for r in steps if r["scheme"] == scheme]
        values["%s.%s.mean_step_us" % (label, scheme)] = _mean(mine)
        values["%s.%s.steps" % (label, scheme)] = float(len(mine))
    return values


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def verdict_values(label, outdir, run_json):
    """A claims or paper run: each verdict, the run's size, and every row of its tables:
    LABEL.CLAIM.SLUG.mrc / .baseline (claims.csv, checks.csv) and LABEL.FIG.SETUP.SLUG
    (agreements.csv: ours), SLUG the metric's words in lower case joined by '-'."""
    values = {}
    for claim, c in run_json.get("claims", {}).items():
        values["%s.%s.verdict" % (label, claim)] = c["verdict"]
    values["%s.wall_time_s" % label] = float(run_json.get("wall_time_s", 0))
    values["%s.simulations" % label] = float(run_json.get("simulations", 0))
    for name in ("claims.csv", "checks.csv"):
        path = os.path.join(outdir, name)
        if os.path.isfile(path):
            for r in _read_csv(path):
                claim = r.get("claim") or r.get("figure")
                for col in ("mrc", "baseline"):
                    if r[col] not in ("", None):
                        values["%s.%s.%s.%s" % (label, claim, slug(r["metric"]), col)] = \
                            float(r[col])
    path = os.path.join(outdir, "agreements.csv")
    if os.path.isfile(path):
        for r in _read_csv(path):
            if r["ours"] != "":
                values["%s.%s.%s.%s" % (label, r["figure"], slug(r["setup"]),
                                        slug(r["metric"]))] = float(r["ours"])
    return values


def all_mutants(build):
    """Every mutant the build knows (its one-line error for an unknown one lists them), and
    the pair the claims and figures list together."""
    p = subprocess.run([os.path.join(build, "bin", "claims"), "--mutant=?"],
                       capture_output=True, text=True)
    m = re.search(r"accepted: none, ([^)]*)\)", p.stderr + p.stdout)
    if not m:
        raise SystemExit("error: %s: could not list the mutants: %s" % (PROG, p.stderr.strip()))
    return [n.strip() for n in m.group(1).split(",")] + ["rto-only,slow-rto"]


def claims_mutant_runs(build):
    return [(m.replace(",", "+"), "claims",
             ["--scale=quick", "--seed=1", "--plots=0", "--mutant=%s" % m, "--jobs={jobs}"])
            for m in all_mutants(build)]


def paper_mutant_runs(build):
    """Each mutant a figure lists, on the figures that list it (paper --listMutants)."""
    p = subprocess.run([os.path.join(build, "bin", "paper"), "--listMutants"],
                       capture_output=True, text=True, check=True)
    figures = {}
    for line in p.stdout.splitlines():
        fig, _, names = line.partition(" ")
        for n in names.split(","):
            if n.strip() not in ("", "-"):
                figures.setdefault(n.strip(), []).append(fig)
    return [(m, "paper", ["--scale=quick", "--seed=1", "--plots=0",
                          "--figure=%s" % ",".join(figs), "--mutant=%s" % m.replace("+", ","),
                          "--jobs={jobs}"])
            for m, figs in sorted(figures.items())]


# Programs that print their results and write no results directory: their stdout is kept
# (stdout.txt) and parsed.
STDOUT_PROGRAMS = {"mrc-permutation": permutation_values, "mrc-link-flap": link_flap_values,
                   "mrc-ib-write": ib_write_values}

QS_NO_FAULTS = ["--flapTier=none", "--portLossAtUs=1e9", "--rebootAtUs=1e9"]


def fluid_crosscheck_runs():
    """Each case of docs/fluid.md's table at packet and at flow level."""
    perm = ["--planes=1", "--hostsPerT0=16", "--t1=16", "--size=2000000"]
    qs = ["--schemes=mrc", "--reference=0", "--plots=0"] + QS_NO_FAULTS
    cases = [
        ("perm128", "mrc-permutation", ["--hosts=128"] + perm),
        ("perm1024", "mrc-permutation", ["--hosts=1024", "--planes=1", "--hostsPerT0=32",
                                         "--t1=32", "--size=2000000"]),
        ("perm128-roce", "mrc-permutation", ["--hosts=128"] + perm + ["--roce"]),
        ("ring128", "quickstart", qs + ["--gpus=128", "--bytes=33554432", "--steps=2"]),
        ("ring1024", "quickstart", qs + ["--gpus=1024", "--hostsPerT0=32", "--t1=32",
                                         "--bytes=33554432", "--steps=1"]),
        ("hier128", "quickstart", qs + ["--gpus=128", "--bytes=33554432", "--steps=2",
                                        "--collective=hierarchical"]),
        ("a2a128", "quickstart", qs + ["--gpus=128",
                                       "--workload=experiments/workloads/alltoall-128.json"]),
        ("ring1024-faults", "quickstart", ["--schemes=mrc", "--plots=0", "--gpus=1024",
                                           "--hostsPerT0=32", "--t1=32", "--bytes=33554432",
                                           "--steps=1"]),
        ("qs64", "quickstart", ["--plots=0", "--gpus=64"]),
    ]
    return [("%s-%s" % (label, model), prog, argv + ["--model=%s" % model])
            for label, prog, argv in cases for model in ("packet", "fluid")]


def fluid_over_packet(values):
    """ratio.CASE.REST = CASE-fluid.REST / CASE-packet.REST, for every value both have."""
    out = dict(values)
    for key, v in values.items():
        case, _, rest = key.partition(".")
        if case.endswith("-fluid") and isinstance(v, float):
            other = values.get(case[:-len("-fluid")] + "-packet." + rest)
            if isinstance(other, float) and other != 0:
                out["ratio.%s.%s" % (case[:-len("-fluid")], rest)] = v / other
    return out


# Fig 16's 32 MB ring in quickstart on 64 GPUs (ranks in T0 order), without faults; two steps.
RING32 = ["--reference=0", "--plots=0", "--flapTier=none", "--portLossAtUs=1e9",
          "--rebootAtUs=1e9", "--gpus=64", "--hostsPerT0=8", "--t1=8", "--planes=4",
          "--bytes=32000000", "--steps=2"]


def loss_ring_runs():
    """The 1 GB ring of Fig 16 in quickstart (ranks in T0 order), lossless and at 1 % NIC
    loss with the model's loss detection and two variants."""
    ring = ["--schemes=mrc", "--reference=0", "--plots=0", "--flapTier=none",
            "--portLossAtUs=1e9", "--rebootAtUs=1e9", "--gpus=64", "--hostsPerT0=8", "--t1=8",
            "--planes=4", "--bytes=1000000000", "--steps=1"]
    loss = ["--faultFile=experiments/faults/nic-rx-loss-1pct.csv"]
    ring32 = RING32
    return [("ring32-roce", "quickstart", ["--schemes=baseline"] + ring32),
            ("ring32-lossless", "quickstart", ["--schemes=mrc"] + ring32),
            ("ring32-loss-0.1pct", "quickstart",
             ["--schemes=mrc"] + ring32
             + ["--faultFile=experiments/faults/nic-rx-loss-0.1pct.csv"]),
            ("lossless", "quickstart", ring),
            ("loss", "quickstart", ring + loss),
            ("loss-recvwindow-1024", "quickstart",
             ring + loss + ["--ns3::MrcQueuePair::RecvWindow=1024"]),
            ("loss-no-time-rule", "quickstart",
             ring + loss + ["--ns3::MrcSelectiveRecovery::ReorderWindow=10s"])]


def loss_ring_summary(values):
    for label, base in (("ring32-loss-0.1pct", "ring32-lossless"),):
        a = values.get("%s.mrc.mean_step_us" % base)
        b = values.get("%s.mrc.mean_step_us" % label)
        if a and b:
            values["%s.mrc.of_lossless" % label] = a / b
    for label in ("lossless", "loss", "loss-recvwindow-1024", "loss-no-time-rule"):
        lost = values.get("%s.mrc.packets_lost" % label)
        if lost:
            for what in ("retransmissions", "ev_retirements"):
                n = values.get("%s.mrc.%s" % (label, what))
                if n is not None:
                    values["%s.mrc.%s_per_loss" % (label, what)] = n / lost
    base = values.get("lossless.mrc.mean_step_us")
    for label in ("loss", "loss-recvwindow-1024", "loss-no-time-rule"):
        v = values.get("%s.mrc.mean_step_us" % label)
        if base and v:
            values["%s.mrc.of_lossless" % label] = base / v
    return values


def loss_ring32_runs():
    """The 32 MB ring of Fig 16 in quickstart, lossless and at 1 % NIC loss (two steps, so
    every step is a whole ring of 126 rounds of 0.5 MB)."""
    ring32 = ["--schemes=mrc"] + RING32
    loss = ["--faultFile=experiments/faults/nic-rx-loss-1pct.csv"]
    return [("lossless", "quickstart", ring32),
            ("loss", "quickstart", ring32 + loss),
            ("loss-no-time-rule", "quickstart",
             ring32 + loss + ["--ns3::MrcSelectiveRecovery::ReorderWindow=10s"])]


def loss_ring32_summary(values):
    base = values.get("lossless.mrc.mean_step_us")
    for label in ("loss", "loss-no-time-rule"):
        v = values.get("%s.mrc.mean_step_us" % label)
        if base and v:
            values["%s.mrc.of_lossless" % label] = base / v
    return values


def path_flush_runs():
    """The three PathFlush modes on a lossy and a lossless ring and on quickstart's default
    faults at 64 GPUs (whose flaps and reboot are real path failures: eight ring transfers
    cross the T1 tier, against two at the default 16 GPUs)."""
    runs = []
    for mode in ("held", "retired", "none"):
        flush = ["--ns3::MrcSelectiveRecovery::PathFlush=" + mode]
        for label, extra in (("loss", ["--faultFile=experiments/faults/nic-rx-loss-1pct.csv"]),
                             ("lossless", [])):
            runs.append(("ring32-%s-%s" % (label, mode), "quickstart",
                         loss_ring32_runs()[0][2] + extra + flush))
        runs += [("seed%d-%s" % (s, mode), "quickstart",
                  ["--schemes=mrc", "--plots=0", "--gpus=64", "--seed=%d" % s] + flush)
                 for s in range(1, 5)]
    return runs


def path_flush_summary(values):
    for mode in ("held", "retired", "none"):
        infl = [values.get("seed%d-%s.mrc.inflation_pct" % (s, mode)) for s in range(1, 5)]
        if all(v is not None for v in infl):
            values["mean-%s.mrc.inflation_pct" % mode] = _mean(infl)
    for mode in ("held", "retired", "none"):
        base = values.get("ring32-lossless-%s.mrc.mean_step_us" % mode)
        v = values.get("ring32-loss-%s.mrc.mean_step_us" % mode)
        if base and v:
            values["ring32-loss-%s.mrc.of_lossless" % mode] = base / v
    return values


class Recipe:
    def __init__(self, name, about, runs, keep, values, summary=None):
        self.name = name
        self.about = about
        self.runs = runs        # [(label, program, [args])], or build -> that list
        self.keep = keep        # files of each run copied into the record
        self.values = values    # (label, outdir, run_json) -> {key: value}
        self.summary = summary  # values -> values, after every run


RECIPES = {r.name: r for r in [
    Recipe("quickstart-seeds",
           "the default quickstart, MRC only (the baseline's mean is its 4.29 s stall), seeds 1 to 4",
           [("seed%d" % s, "quickstart", ["--schemes=mrc", "--plots=0", "--seed=%d" % s])
            for s in range(1, 5)],
           ["run.json", "steps.csv"], quickstart_values, quickstart_seeds_summary),
    Recipe("quickstart-default",
           "the default quickstart, both schemes, seed 1",
           [("run", "quickstart", ["--plots=0"])],
           ["run.json", "steps.csv"], quickstart_values),
    Recipe("paper-quick",
           "every figure of the paper at the quick scale, seed 1",
           [("run", "paper", ["--scale=quick", "--seed=1", "--plots=0", "--jobs={jobs}"])],
           ["run.json", "checks.csv", "agreements.csv"], verdict_values),
    Recipe("claims-quick",
           "every claim at the quick scale, seed 1",
           [("run", "claims", ["--scale=quick", "--seed=1", "--plots=0", "--jobs={jobs}"])],
           ["run.json", "claims.csv"], verdict_values),
    Recipe("claims-full",
           "every claim at the full scale (1024 GPUs), seed 1",
           [("run", "claims", ["--scale=full", "--seed=1", "--plots=0", "--jobs={jobs}"])],
           ["run.json", "claims.csv"], verdict_values),
    Recipe("claims-quick-mutants",
           "every mutant on every claim at the quick scale, seed 1",
           claims_mutant_runs, ["run.json", "claims.csv"], verdict_values),
    Recipe("paper-quick-mutants",
           "each mutant a figure lists, on the figures that list it, at the quick scale, seed 1",
           paper_mutant_runs, ["run.json", "checks.csv", "agreements.csv"], verdict_values),
    Recipe("paper-f19-thresholds",
           "Fig 19 at the quick scale with the adaptive count threshold (the default) and with "
           "it fixed at one BDP (144 packets) and at 480 packets",
           [("adaptive", "paper", ["--figure=19", "--scale=quick", "--plots=0", "--jobs=1"]),
            ("fixed-144", "paper", ["--figure=19", "--scale=quick", "--plots=0", "--jobs=1",
                                    "--ns3::MrcSelectiveRecovery::ReorderThreshold=144"]),
            ("fixed-480", "paper", ["--figure=19", "--scale=quick", "--plots=0", "--jobs=1",
                                    "--ns3::MrcSelectiveRecovery::ReorderThreshold=480"])],
           ["run.json", "checks.csv", "agreements.csv"], verdict_values),
    Recipe("quickstart-variants",
           "the default quickstart's MRC without faults, with the T1 reboot and port loss only "
           "(no flaps), and both schemes with every default fault, seed 1",
           [("fault-free", "quickstart", ["--schemes=mrc", "--plots=0", "--reference=0"]
             + QS_NO_FAULTS),
            ("reboot", "quickstart", ["--schemes=mrc", "--plots=0", "--flapRate=0"]),
            ("port-loss-16", "quickstart", ["--schemes=mrc", "--plots=0", "--reference=0",
                                            "--gpus=16", "--hostsPerT0=4", "--t1=4",
                                            "--planes=4", "--bytes=8000000", "--steps=2",
                                            "--flapRate=0", "--rebootAtUs=1e9",
                                            "--portLossAtUs=100", "--portLossUs=3000"]),
            ("port-loss-16-none", "quickstart", ["--schemes=mrc", "--plots=0", "--reference=0",
                                                 "--gpus=16", "--hostsPerT0=4", "--t1=4",
                                                 "--planes=4", "--bytes=8000000", "--steps=2",
                                                 "--flapRate=0", "--rebootAtUs=1e9",
                                                 "--portLossAtUs=1e9"]),
            ("default", "quickstart", ["--plots=0"])],
           ["run.json", "steps.csv"], program_values,  # flows.csv read, not kept
           lambda v: dict(v, **({"port-loss-16.mrc.over_none_pct":
                                 (v["port-loss-16.mrc.mean_step_us"]
                                  / v["port-loss-16-none.mrc.mean_step_us"] - 1) * 100}
                                if "port-loss-16-none.mrc.mean_step_us" in v else {}))),
    Recipe("fluid-crosscheck",
           "docs/fluid.md's cases at packet and at flow level, seed 1",
           fluid_crosscheck_runs(), ["run.json", "steps.csv"], program_values,
           fluid_over_packet),
    Recipe("link-flap",
           "mrc-link-flap at its defaults",
           [("run", "mrc-link-flap", [])], [], None),
    Recipe("paper-f16-full",
           "Fig 16 at the full scale at 4 MB and 1 GB, RoCE with 1, 8 and 16 QPs, MRC with 1",
           [("run", "paper", ["--figure=16", "--scale=full", "--sizes=4000000,1000000000",
                              "--roceQps=1,8,16", "--mrcQps=1", "--jobs={jobs}"])],
           ["run.json", "checks.csv", "agreements.csv"], verdict_values),
    Recipe("paper-f17-full",
           "Fig 17 at the full scale at 4 MB and 1 GB",
           [("run", "paper", ["--figure=17", "--scale=full", "--sizes=4000000,1000000000",
                              "--jobs={jobs}"])],
           ["run.json", "checks.csv", "agreements.csv"], verdict_values),
    Recipe("fluid-paper-fabric",
           "the paper's 131,072-GPU fabric at flow level, both schemes, 10 steps, the paper's "
           "flap rate",
           [("run", "quickstart", ["--model=fluid", "--gpus=131072", "--planes=8",
                                   "--hostsPerT0=256", "--t1=256", "--collective=hierarchical",
                                   "--steps=10", "--plots=0", "--flapPerLink=0",
                                   "--flapRate=0.0833"])],
           ["run.json", "steps.csv"], program_values),
    Recipe("ib-write",
           "mrc-ib-write on Cluster B, MRC and RoCE on one 800G plane",
           [("mrc", "mrc-ib-write", []), ("roce", "mrc-ib-write", ["--scheme=roce"])], [], None),
    Recipe("claims-c13-cut-through",
           "claims C13 at the quick scale with store-and-forward switches (the default) and with "
           "cut-through switches",
           [("store-and-forward", "claims", ["--claim=C13", "--plots=0", "--jobs={jobs}"]),
            ("cut-through", "claims", ["--claim=C13", "--plots=0", "--jobs={jobs}",
                                       "--ns3::MrcSwitchNetDevice::CutThrough=true"])],
           ["run.json", "claims.csv"], verdict_values),
    Recipe("f16-loss-quickstart",
           "Fig 16's 1 GB ring on 64 GPUs in quickstart (ranks in T0 order), lossless and at 1 % "
           "NIC receive loss: the model, a 1024-PSN in-flight window, no time rule",
           loss_ring_runs(), ["run.json", "steps.csv"], program_values, loss_ring_summary),
    Recipe("f16-loss-32mb",
           "Fig 16's ring at 32 MB on 64 GPUs in quickstart (ranks in T0 order), lossless and at "
           "1 % NIC receive loss, with the model and with no time rule",
           loss_ring32_runs(), ["run.json", "steps.csv"], program_values, loss_ring32_summary),
    Recipe("path-flush",
           "MrcSelectiveRecovery::PathFlush (held, the default; retired; none): the 32 MB ring of "
           "f16-loss-32mb at 1 % NIC loss and lossless, and quickstart's MRC at 64 GPUs with its "
           "default faults, seeds 1 to 4",
           path_flush_runs(), ["run.json", "steps.csv"], program_values, path_flush_summary),
    Recipe("claims-c9-full",
           "claims C9 at the full scale (the 64 -> 1 incast with trimming and drop-only, the "
           "mid-incast uplink failure), with the model and with two of its additions off",
           [("model", "claims", ["--claim=C9", "--scale=full", "--plots=0", "--jobs={jobs}"]),
            ("no-loss-guard", "claims", ["--claim=C9", "--scale=full", "--plots=0",
                                         "--jobs={jobs}", "--mutant=no-loss-guard"]),
            ("no-time-rule", "claims", ["--claim=C9", "--scale=full", "--plots=0",
                                        "--jobs={jobs}", "--mutant=no-time-rule"])],
           ["run.json", "claims.csv"], verdict_values),
    Recipe("hello",
           "mrc-hello, the smallest comparison (the tests record it)",
           [("run", "mrc-hello", [])],
           ["run.json", "steps.csv"], hello_values),
]}


# ------------------------------------------------------------------ record

def git_commit(source):
    """The source tree's commit, and whether it has local changes that can reach a run: a
    tracked file changed outside docs/records/ (a record made and not yet committed is no
    change of the model; run.json's code counts any tracked file)."""
    try:
        c = subprocess.run(["git", "-C", source, "rev-parse", "--short=7", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.strip()
        status = subprocess.run(["git", "-C", source, "status", "--porcelain",
                                 "--untracked-files=no", "--", ".",
                                 ":(exclude)docs/records"],
                                capture_output=True, text=True, check=True).stdout
        return c, status.strip() != ""
    except (OSError, subprocess.CalledProcessError):
        return "unknown", None


def fingerprints_at(source, commit, dirty):
    """test/fingerprints.json as the runs' build had it: the commit's, or, for a build with
    local changes, the source tree's file as it is."""
    if not dirty:
        p = subprocess.run(["git", "-C", source, "show", "%s:test/fingerprints.json" % commit],
                           capture_output=True, text=True)
        if p.returncode == 0:
            return json.loads(p.stdout)
    with open(os.path.join(source, "test", "fingerprints.json")) as f:
        return json.load(f)


def build_dir():
    """The build whose programs' defaults the records are held to."""
    return os.path.abspath(os.environ.get("MRC_BUILD_DIR") or os.path.join(ROOT, "build"))


def current_fingerprints():
    with open(FINGERPRINTS) as f:
        return json.load(f)


def changed_since(rec, now):
    """The fingerprinted outputs that differ between the record's model and this tree's
    (None: the record keeps no fingerprints)."""
    then = rec.get("fingerprints")
    if not isinstance(then, dict):
        return None
    return sorted(k for k in then if now.get(k) != then[k])


def staleness(name, rec, now):
    """Why a record is not current (None if it is)."""
    changed = changed_since(rec, now)
    if changed is None:
        return ("docs/records/%s: keeps no fingerprints, so nothing says which model made it: "
                "re-record it (%s record %s)" % (name, PROG, name))
    if changed:
        return ("docs/records/%s: made at %s; the fingerprinted outputs %s changed since: "
                "re-record it (%s record %s), or, if that change cannot reach its runs, carry "
                "it (%s carry %s --reason TEXT)"
                % (name, rec.get("commit"), ", ".join(changed), PROG, name, PROG, name))
    return None


# Parameters a run.json lists that say where or how fast it ran, not what it computed.
NOT_COMPARED = {"out", "jobs", "overwrite", "quiet"}


class ProgramDefaults:
    """The options' defaults of the build's programs, as `PROG --PrintHelp` prints them
    (`    --name:  description [default]`); None for a program the build does not have."""

    def __init__(self, build):
        self.build = build
        self.cache = {}

    def get(self, prog):
        if prog not in self.cache:
            exe = os.path.join(self.build, "bin", prog)
            found = None
            if os.path.isfile(exe):
                try:
                    p = subprocess.run([exe, "--PrintHelp"], capture_output=True, text=True,
                                       timeout=60, cwd=tempfile.gettempdir())
                    found = {m.group(1): m.group(2) for m in
                             re.finditer(r"^\s+--([A-Za-z0-9_]+):.*\[(.*)\]\s*$", p.stdout,
                                         re.M)}
                except (OSError, subprocess.SubprocessError):
                    found = None
            self.cache[prog] = found or None
        return self.cache[prog]


def same_setting(a, b):
    """A run.json parameter and a --PrintHelp default: the same value, written either way
    (150000.000000 and 150000, 1e+12 and 1000000000000.000000, true and 1)."""
    a, b = str(a).strip(), str(b).strip()
    if a == b:
        return True
    truth = {"true": "1", "false": "0"}
    a, b = truth.get(a.lower(), a), truth.get(b.lower(), b)
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    return x == y or abs(x - y) <= 1e-9 * max(abs(x), abs(y))


def command_words(command):
    """A recorded command's program and arguments (`./ns3 run "prog --a=1 --b=x"`)."""
    import shlex
    words = shlex.split(command)
    if words[:2] == ["./ns3", "run"]:
        words = words[2:]
    if len(words) == 1:
        words = shlex.split(words[0])
    return words


def explicit_options(command):
    """The option names a recorded command sets."""
    return {w[2:].split("=", 1)[0] for w in command_words(command)[1:] if w.startswith("--")}


def command_program(command):
    """The program a recorded command runs, or ""."""
    words = command_words(command)
    return words[0] if words else ""


def default_drift(name, rec, records, defaults):
    """Why a record's runs no longer match their commands (None if they do): a run that left
    an option at its default, when the program's default is now another. A run is checked
    through its run.json (kept in the record), which lists its parameters, or, for a program
    that prints its results, through the defaults record.json kept for it."""
    for r in rec.get("runs", []):
        path = os.path.join(records, name, r.get("label", ""), "run.json")
        if os.path.isfile(path):
            try:
                with open(path) as f:
                    meta = json.load(f)
            except (OSError, ValueError):
                continue
            prog, params = meta.get("program", ""), meta.get("parameters")
        else:
            prog = command_program(r.get("command", ""))
            if prog not in STDOUT_PROGRAMS:
                continue
            params = r.get("defaults")
            if not isinstance(params, dict):
                return ("docs/records/%s: run %s (%s, which prints its results) keeps no "
                        "defaults, so nothing says what its command meant: re-record it "
                        "(%s record %s)" % (name, r.get("label"), prog, PROG, name))
        now = defaults.get(prog)
        if not isinstance(params, dict) or not now:
            continue
        given = explicit_options(r.get("command", ""))
        for key in sorted(params):
            if key in given or key in NOT_COMPARED or key not in now:
                continue
            if not same_setting(params[key], now[key]):
                return ("docs/records/%s: run %s left %s's --%s at its default, %s then; the "
                        "default is now %s: re-record it (%s record %s)"
                        % (name, r.get("label"), prog, key, params[key], now[key], PROG, name))
    return None


def write_record_dir(dest, files, record):
    """Replace dest's record: only files a previous record.json lists may be there."""
    if os.path.lexists(dest):
        if not os.path.isdir(dest) or os.path.islink(dest):
            raise SystemExit("error: %s is not a directory" % dest)
        owned = {"record.json"}
        prev = os.path.join(dest, "record.json")
        if os.path.isfile(prev):
            with open(prev) as f:
                owned |= set(json.load(f).get("files", []))
        for dirpath, _, names in os.walk(dest):
            for n in names:
                rel = os.path.relpath(os.path.join(dirpath, n), dest).replace(os.sep, "/")
                if rel not in owned:
                    raise SystemExit("error: %s holds %s, which no record wrote; nothing was "
                                     "changed" % (dest, rel))
        for rel in sorted(owned):
            p = os.path.join(dest, rel)
            if os.path.isfile(p):
                os.remove(p)
    os.makedirs(dest, exist_ok=True)
    for rel, src in files:
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copyfile(src, os.path.join(dest, rel))
    tmp = os.path.join(dest, "record.json.tmp")
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, os.path.join(dest, "record.json"))


def taken_run_problem(out, prog, argv):
    """Why a results directory cannot stand for the recipe's run (None if it can)."""
    import results_dir as rd
    why = rd.incomplete_reason(out)
    if why:
        return why
    with open(os.path.join(out, "run.json")) as f:
        meta = json.load(f)
    if meta.get("program") != prog:
        return "a %s run, not %s" % (meta.get("program"), prog)
    given = [a for a in meta.get("command_line", [])[1:]
             if not a.startswith("--out=") and not a.startswith("--jobs=")]
    want = [a for a in argv if not a.startswith("--jobs=")]
    if given != want:
        return "run with %s, the recipe's arguments are %s" % (" ".join(given) or "none",
                                                              " ".join(want) or "none")
    return None


def pruned_manifest(outdir, keep):
    """The run's manifest listing only the kept files (so the record is a complete results
    directory for analysis/results_dir.py)."""
    with open(os.path.join(outdir, "manifest.json")) as f:
        m = json.load(f)
    m["files"] = {k: v for k, v in m["files"].items() if k in keep}
    m["note"] = "a record of this run: only the files listed were kept (docs/records)"
    return m


def record(args):
    recipe = RECIPES.get(args.name)
    if recipe is None:
        sys.stderr.write("error: %s: no recipe '%s' (known: %s)\n"
                         % (PROG, args.name, ", ".join(sorted(RECIPES))))
        return 2
    build = os.path.abspath(args.build or os.environ.get("MRC_BUILD_DIR")
                            or os.path.join(ROOT, "build"))
    source = os.path.abspath(args.source)
    commit, dirty = git_commit(source)
    dest = os.path.join(args.records, recipe.name)
    work = tempfile.mkdtemp(prefix="mrc-record-")
    files, runs, values = [], [], {}
    program_defaults = ProgramDefaults(build)
    try:
        plan = recipe.runs(build) if callable(recipe.runs) else recipe.runs
        if args.from_dirs and len(args.from_dirs) != len(plan):
            sys.stderr.write("error: %s: --from takes %d directories for '%s' (one per run), "
                             "got %d\n" % (PROG, len(plan), recipe.name,
                                            len(args.from_dirs)))
            return 2
        if dirty and not args.from_dirs:
            sys.stderr.write("warning: %s: %s has local changes (outside docs/records/): the "
                             "record will say local_changes, and "
                             "the docs' records must name a clean commit "
                             "(test_doc_records.py)\n" % (PROG, source))
        for i, (label, prog, argv) in enumerate(plan):
            argv = [a.format(jobs=args.jobs) for a in argv]
            parse = STDOUT_PROGRAMS.get(prog)
            out = os.path.join(work, label)
            if args.from_dirs:
                if parse:
                    sys.stderr.write("error: %s: --from: %s writes no results directory\n"
                                     % (PROG, prog))
                    return 2
                out = os.path.abspath(args.from_dirs[i])
                why = taken_run_problem(out, prog, argv)
                if why:
                    sys.stderr.write("error: %s: --from %s: %s\n" % (PROG, out, why))
                    return 2
                with open(os.path.join(out, "run.json")) as f:
                    wall = float(json.load(f).get("wall_time_s", 0))
            else:
                exe = os.path.join(build, "bin", prog)
                if not os.path.isfile(exe):
                    sys.stderr.write("error: %s: no %s in %s (build it first)\n"
                                     % (PROG, prog, build))
                    return 2
                start = time.time()
                # From the source tree, so that relative input paths (workload files) resolve;
                # every output goes to --out, in the temporary directory.
                p = subprocess.run([exe] + argv + ([] if parse else ["--out=%s" % out]),
                                   cwd=source, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
                wall = time.time() - start
                if p.returncode != 0:
                    sys.stderr.write(p.stdout[-4000:])
                    sys.stderr.write("error: %s: %s %s failed (status %d); no record written\n"
                                     % (PROG, prog, " ".join(argv), p.returncode))
                    return 1
            if parse:
                os.makedirs(out)
                with open(os.path.join(out, "stdout.txt"), "w") as f:
                    f.write(p.stdout)
                values.update(parse(label, p.stdout))
                files.append(("%s/stdout.txt" % label, os.path.join(out, "stdout.txt")))
                command = "./ns3 run \"%s\"" % " ".join([prog] + argv)
                # No run.json lists this run's parameters: keep the defaults it relied on,
                # so that a later change of one makes the record stale (default_drift).
                given = explicit_options(command)
                known = program_defaults.get(prog) or {}
                runs.append({"label": label, "command": command,
                             "wall_time_s": round(wall, 1), "commit": commit,
                             "local_changes": dirty,
                             "defaults": {k: v for k, v in sorted(known.items())
                                          if k not in given and k not in NOT_COMPARED}})
                continue
            with open(os.path.join(out, "run.json")) as f:
                run_json = json.load(f)
            values.update(recipe.values(label, out, run_json))
            keep = [k for k in recipe.keep if os.path.isfile(os.path.join(out, k))]
            mpath = os.path.join(work, label + ".manifest.json")
            with open(mpath, "w") as f:
                json.dump(pruned_manifest(out, keep), f, indent=2)
                f.write("\n")
            files += [("%s/%s" % (label, k), os.path.join(out, k)) for k in keep]
            files.append(("%s/manifest.json" % label, mpath))
            code = run_json.get("code", {})
            local = code.get("dirty", dirty)
            if local is True and dirty is False and not args.from_dirs:
                # run.json counts every tracked file; the tree's only changes, as this run
                # was made from it, were records, which cannot reach the model.
                local = False
            runs.append({"label": label,
                         "command": "./ns3 run \"%s\"" % " ".join([prog] + argv),
                         "wall_time_s": round(wall, 1),
                         "commit": code.get("commit", "")[:7] or commit,
                         "local_changes": local})
        # The model's commit is the one the runs were built at (run.json's code).
        built = {(r["commit"], r["local_changes"]) for r in runs}
        if len(built) != 1:
            names = sorted("%s%s" % (c, " with local changes" if d else "") for c, d in built)
            sys.stderr.write("error: %s: the runs were built at different commits (%s; a run "
                             "notes local changes when the source tree had any as it ran); no "
                             "record written\n" % (PROG, ", ".join(names)))
            return 2
        commit, dirty = built.pop()
        if recipe.summary:
            values = recipe.summary(values)
        rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        rec = {"name": recipe.name, "about": recipe.about, "commit": commit,
               "local_changes": dirty, "date": time.strftime("%Y-%m-%d"),
               "machine": {"host": socket.gethostname(), "cpus": os.cpu_count(),
                           "build": os.path.basename(build)},
               "runs": runs, "wall_time_s": round(sum(r["wall_time_s"] for r in runs), 1),
               "peak_rss_mib": None if args.from_dirs else round(rss_kb / 1024.0, 1),
               "values": {k: (round(v, 6) if isinstance(v, float) else v)
                          for k, v in sorted(values.items())},
               "files": sorted(rel for rel, _ in files),
               "fingerprints": fingerprints_at(source, commit, dirty)}
        if args.note:
            rec["note"] = args.note
        write_record_dir(dest, files, rec)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # the temporary directory this run made
    print("%s: %d value(s), %s" % (os.path.relpath(dest, ROOT), len(values),
                                   ", ".join(r["command"] for r in runs)))
    return 0


# ------------------------------------------------------------------ check / update

# A number: digits with an optional fraction, or groups of three digits separated by commas,
# spaces or thin spaces; not the tail of a word ("p99") or of another number.
NUMBER = r"(?<![\w.,])(?P<num>[-−]?(?:\d{1,3}(?:[,  ]\d{3})+|\d+)(?:\.\d+)?)"
UNIT = r"(?P<unit>\s*(?:%|µs|ms|s|x|Gb/s|GB|MB|MiB|GiB)?)"
MARK = re.compile(NUMBER + UNIT + r"<!--rec:(?P<name>[\w.-]+):(?P<key>@?[\w.-]+)-->")
# reStructuredText has no inline comment: a quoted number there is a substitution,
# |rec:NAME:KEY|, defined once on the page as ".. |rec:NAME:KEY| replace:: 0.83".
RST = re.compile(r"^\.\. \|rec:(?P<name>[\w.-]+):(?P<key>[\w.-]+)\| replace:: " + NUMBER + r"$",
                 re.M)
TABLE = re.compile(r"^(?P<indent>[ ]*)(?P<open><!--rec:(?P<name>[\w.-]+):table:(?P<kind>\w+)"
                   r"(?::(?P<arg>[\w,.-]+))?-->)\n(?P<body>.*?)(?P=indent)<!--/rec-->", re.S | re.M)


def load_record(records, name, cache):
    if name not in cache:
        path = os.path.join(records, name, "record.json")
        if not os.path.isfile(path):
            cache[name] = None
        else:
            with open(path) as f:
                cache[name] = json.load(f)
    return cache[name]


def formatted(value, written):
    """value rounded like the written number (its decimals, its separators)."""
    text = written.replace("−", "-")
    decimals = len(text.split(".")[1]) if "." in text else 0
    s = "%.*f" % (decimals, value)
    if "," in written.split(".")[0]:
        i, _, d = s.partition(".")
        s = "{:,}".format(int(i)) + ("." + d if d else "")
    elif " " in written or " " in written:
        sep = " " if " " in written else " "
        i, _, d = s.partition(".")
        s = "{:,}".format(int(i)).replace(",", sep) + ("." + d if d else "")
    if written.startswith("−"):
        s = s.replace("-", "−")
    return s


def run_dirs(records, name):
    """A record's run directories, in the recipe's order."""
    with open(os.path.join(records, name, "record.json")) as f:
        rec = json.load(f)
    return [os.path.join(records, name, r["label"]) for r in rec["runs"]]


def info_table(args):
    """A claim's information rows (check "info"), metric by metric."""
    meta, rows = claims_tables.load(args.dir)
    print(claims_tables.header(meta))
    print("| %s | unit | MRC | baseline |" % args.only)
    print("| --- | --- | --- | --- |")
    for r in rows:
        if r["claim"] == args.only and r["check"] == "info":
            print("| %s | %s | %s | %s |" % (r["metric"], r["unit"], claims_tables.num(r["mrc"]),
                                             claims_tables.num(r["baseline"])))
    return 0


def series_table(records, name, setup):
    """One row per run of the record: the values of the agreement rows of one setup."""
    print("| run | %s (%s) |" % (setup, "ours, row by row"))
    print("| --- | --- |")
    for d in run_dirs(records, name):
        rows = [r for r in _read_csv(os.path.join(d, "agreements.csv")) if r["setup"] == setup]
        unit = rows[0]["unit"] if rows else ""
        print("| %s | %s%s |" % (os.path.basename(d), ", ".join("%.0f" % float(r["ours"])
                                                             for r in rows),
                                  " " + unit if unit else ""))
    return 0


def records_table(records):
    """Every record: what it is, its commit and date, its commands, time and memory."""
    print("| record | what | commit, date | runs | wall time | peak RSS |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in sorted(os.listdir(records)):
        path = os.path.join(records, name, "record.json")
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            rec = json.load(f)
        cmds = [r["command"].replace("./ns3 run ", "") for r in rec["runs"]]
        shown = "; ".join("`%s`" % c.strip('"') for c in cmds[:2])
        if len(cmds) > 2:
            shown += "; and %d more (`record.json`)" % (len(cmds) - 2)
        rss = rec.get("peak_rss_mib")
        made = "%s, %s" % (rec["commit"], rec["date"])
        for c in rec.get("carried", []):
            made += "; carried to %s across %s (the reason: `record.json`)" % (
                c["commit"], ", ".join(c["changed"]))
        print("| `%s` | %s | %s | %s | %.0f s | %s |" % (
            name, rec["about"], made, shown, rec["wall_time_s"],
            "%.0f MiB" % rss if rss is not None else "-"))
    return 0


TABLE_KINDS = ("agreements", "results", "info", "matrix", "checks", "series", "records")


def table_text(records, name, kind, arg):
    """The table a marker stands for.  agreements, results [ARG: the claims or figures],
    info [ARG: one claim]: of the record's run; matrix, checks: the record's runs are the
    mutants, ARG names the record of the real model's run; series [ARG: a setup]: a row per
    run of the record."""
    if kind not in TABLE_KINDS:
        raise ValueError("unknown table kind '%s' (%s)" % (kind, ", ".join(TABLE_KINDS)))
    if kind in ("series", "records"):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            if kind == "series":
                series_table(records, name, arg)
            else:
                records_table(records)
        return buf.getvalue()
    if kind in ("matrix", "checks"):
        args = argparse.Namespace(real=run_dirs(records, arg)[0],
                                  mutants=run_dirs(records, name))
        fn = getattr(claims_tables, kind)
    else:
        args = argparse.Namespace(dir=run_dirs(records, name)[0], only=arg)
        fn = info_table if kind == "info" else getattr(claims_tables, kind)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(args)
    return buf.getvalue()


def scan(path, records, fix, cache):
    """(problems, marks) for one page; cache collects the records it quotes."""
    text = open(path, encoding="utf-8").read()
    problems, count = [], [0]
    rel = os.path.relpath(path, ROOT)

    def number(m):
        count[0] += 1
        rec = load_record(records, m.group("name"), cache)
        line = text.count("\n", 0, m.start()) + 1
        if rec is None:
            problems.append("%s:%d: no record '%s'" % (rel, line, m.group("name")))
            return m.group(0)
        key = m.group("key")
        # @field: a field of the record itself (@wall_time_s, @peak_rss_mib)
        v = rec.get(key[1:]) if key.startswith("@") else rec["values"].get(key)
        if not isinstance(v, (int, float)):
            problems.append("%s:%d: record '%s' has no value '%s'"
                            % (rel, line, m.group("name"), m.group("key")))
            return m.group(0)
        written = m.group("num").strip()
        want = formatted(v, written)
        if want != written:
            problems.append("%s:%d: %s written, the record %s (commit %s) gives %s"
                            % (rel, line, written, m.group("name"), rec["commit"], want))
            g = m.group(0)
            at = m.start("num") - m.start()
            return g[:at] + g[at:].replace(written, want, 1)
        return m.group(0)

    def table(m):
        count[0] += 1
        line = text.count("\n", 0, m.start()) + 1
        if m.group("kind") == "records":
            for name in sorted(os.listdir(records)):  # the table shows every record
                load_record(records, name, cache)
        elif load_record(records, m.group("name"), cache) is None:
            problems.append("%s:%d: no record '%s'" % (rel, line, m.group("name")))
            return m.group(0)
        try:
            want = table_text(records, m.group("name"), m.group("kind"), m.group("arg"))
        except (ValueError, OSError, KeyError) as e:
            problems.append("%s:%d: %s" % (rel, line, e))
            return m.group(0)
        ind = m.group("indent")
        want = "".join(ind + l + "\n" if l else "\n" for l in want.strip("\n").split("\n"))
        if m.group("body") != want:
            problems.append("%s:%d: the %s table differs from the record %s's"
                            % (rel, line, m.group("kind"), m.group("name")))
            return ind + m.group("open") + "\n" + want + ind + "<!--/rec-->"
        return m.group(0)

    new = TABLE.sub(table, text)
    text = new
    new = MARK.sub(number, new)
    if path.endswith(".rst"):
        new = RST.sub(number, new)
        used = set(re.findall(r"\|rec:[\w.-]+:[\w.-]+\|", re.sub(RST, "", new)))
        defined = {"|rec:%s:%s|" % (m.group("name"), m.group("key")) for m in RST.finditer(new)}
        for ref in sorted(used - defined):
            problems.append("%s: %s is used but not defined (.. %s replace:: <number>)"
                            % (rel, ref, ref))
    if fix and new != open(path, encoding="utf-8").read():
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(path + ".tmp", path)
    return problems, count[0]


def check(args, fix=False):
    pages = [os.path.abspath(p) for p in args.docs] if args.docs else docs()
    for p in pages:
        if not os.path.isfile(p):
            sys.stderr.write("error: %s: no such page: %s\n" % (PROG, p))
            return 2
    problems, marks, cache = [], 0, {}
    for p in pages:
        got, n = scan(p, args.records, fix, cache)
        problems += got
        marks += n
    for line in problems:
        print(("fixed: " if fix else "") + line)
    if fix:
        return 0
    # Every record the pages quote must be the current model's, and its runs' commands must
    # still mean what they meant: no option they left at its default has another default now.
    now = current_fingerprints()
    defaults = ProgramDefaults(build_dir())
    stale = [why for why in (staleness(n, r, now) or default_drift(n, r, args.records, defaults)
                             for n, r in sorted(cache.items()) if r)
             if why]
    for line in stale:
        print(line)
    print("%d marked number(s) and table(s) in %d page(s); %d disagree; %d record(s) quoted, "
          "%d not current" % (marks, len(pages), len(problems), sum(1 for r in cache.values()
                                                                     if r), len(stale)))
    return 1 if problems or stale else 0


def all_records(records):
    out = {}
    for name in sorted(os.listdir(records)) if os.path.isdir(records) else []:
        path = os.path.join(records, name, "record.json")
        if os.path.isfile(path):
            with open(path) as f:
                out[name] = json.load(f)
    return out


def stale(args):
    now = current_fingerprints()
    defaults = ProgramDefaults(build_dir())
    for name, rec in all_records(args.records).items():
        if staleness(name, rec, now) or default_drift(name, rec, args.records, defaults):
            print(name)
    return 0


def carry(args):
    """Declare a record current across a fingerprint change that cannot reach its runs."""
    path = os.path.join(args.records, args.name, "record.json")
    if not os.path.isfile(path):
        sys.stderr.write("error: %s: no record '%s'\n" % (PROG, args.name))
        return 2
    reason = " ".join(args.reason.split())
    if not reason:
        sys.stderr.write("error: %s: carry needs --reason: why the change cannot reach the "
                         "record's runs\n" % PROG)
        return 2
    with open(path) as f:
        rec = json.load(f)
    now = current_fingerprints()
    changed = changed_since(rec, now)
    if changed is None:
        sys.stderr.write("error: %s: record '%s' keeps no fingerprints; re-record it\n"
                         % (PROG, args.name))
        return 2
    if not changed:
        sys.stderr.write("error: %s: record '%s' is current; nothing to carry\n"
                         % (PROG, args.name))
        return 2
    commit, dirty = git_commit(ROOT)
    rec.setdefault("carried", []).append({"date": time.strftime("%Y-%m-%d"), "commit": commit,
                                          "changed": changed, "reason": reason})
    rec["fingerprints"] = dict(rec["fingerprints"], **{k: now[k] for k in changed if k in now})
    for k in changed:
        if k not in now:
            del rec["fingerprints"][k]
    with open(path + ".tmp", "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print("%s: carried across %s" % (args.name, ", ".join(changed)))
    return 0


def revalue(args):
    """Recompute a record's values from its kept files (recipes whose values need only
    those: paper and claims runs)."""
    recipe = RECIPES.get(args.name)
    path = os.path.join(args.records, args.name, "record.json")
    if recipe is None or not os.path.isfile(path):
        sys.stderr.write("error: %s: no record '%s'\n" % (PROG, args.name))
        return 2
    with open(path) as f:
        rec = json.load(f)
    values = {}
    for r in rec["runs"]:
        d = os.path.join(args.records, args.name, r["label"])
        with open(os.path.join(d, "run.json")) as f:
            values.update(recipe.values(r["label"], d, json.load(f)))
    if recipe.summary:
        values = recipe.summary(values)
    rec["values"] = {k: (round(v, 6) if isinstance(v, float) else v)
                     for k, v in sorted(values.items())}
    with open(path + ".tmp", "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print("%s: %d value(s)" % (args.name, len(values)))
    return 0


def list_recipes(args):
    for name, r in sorted(RECIPES.items()):
        path = os.path.join(args.records, name, "record.json")
        state = "no record"
        if os.path.isfile(path):
            with open(path) as f:
                rec = json.load(f)
            state = "recorded at %s on %s (%d values), %s" % (
                rec["commit"], rec["date"], len(rec["values"]),
                "not current" if staleness(name, rec, current_fingerprints()) else "current")
        print("%s: %s; %s" % (name, r.about, state))
        build = os.environ.get("MRC_BUILD_DIR") or os.path.join(ROOT, "build")
        try:
            plan = r.runs(build) if callable(r.runs) else r.runs
        except (OSError, subprocess.CalledProcessError, SystemExit):
            print("    (the runs need a build: %s)" % build)
            plan = []
        for label, prog, argv in plan:
            print("    ./ns3 run \"%s\"" % " ".join([prog] + [a.format(jobs="N") for a in argv]))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--records", default=RECORDS, help="records directory (default docs/records)")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    r = sub.add_parser("record")
    r.add_argument("name")
    r.add_argument("--jobs", type=int, default=int(os.environ.get("MRC_JOBS", os.cpu_count() or 1)))
    r.add_argument("--build")
    r.add_argument("--source", default=ROOT,
                   help="the source tree the build was made from (its commit is recorded for "
                        "programs that write no run.json; default: this repository)")
    r.add_argument("--note", help="a sentence kept in record.json (e.g. how the build differed "
                                   "from the commit run.json names)")
    r.add_argument("--from", dest="from_dirs", nargs="+", metavar="DIR",
                   help="complete results directories of the recipe's runs, in order")
    v = sub.add_parser("revalue")
    v.add_argument("name")
    sub.add_parser("stale")
    c = sub.add_parser("carry")
    c.add_argument("name")
    c.add_argument("--reason", default="")
    for c in ("check", "update"):
        s = sub.add_parser(c)
        s.add_argument("docs", nargs="*")
    args = p.parse_args(argv)
    args.records = os.path.abspath(args.records)
    if args.cmd == "list":
        return list_recipes(args)
    if args.cmd == "revalue":
        return revalue(args)
    if args.cmd == "stale":
        return stale(args)
    if args.cmd == "carry":
        return carry(args)
    if args.cmd == "record":
        if args.jobs < 1:
            sys.stderr.write("error: %s: --jobs must be at least 1\n" % PROG)
            return 2
        return record(args)
    return check(args, fix=args.cmd == "update")


if __name__ == "__main__":
    sys.exit(main())
