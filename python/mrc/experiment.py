# SPDX-License-Identifier: GPL-2.0-only
"""A comparison from Python: :class:`Experiment` (a results directory that runs are added to,
one scheme at a time) and :func:`compare` (several schemes on one job, in one call).

Each run builds the scheme's fabric and stack through MrcSchemeHelper, installs a training
job (or a workload file's jobs), schedules faults, records into the directory and runs the
simulation until the jobs complete, in the same order of calls as the C++ example
``mrc-hello`` (so the same description gives the same results in both)."""

import os
import sys
import time

from . import _core
from .results import load

VERSION = "1"


def _fault_row(f):
    """A fault as (at_us, action, target, duration_us, rate): a tuple or a dict with those
    keys (duration_us and rate optional)."""
    if isinstance(f, dict):
        unknown = set(f) - {"at_us", "action", "target", "duration_us", "rate"}
        if unknown:
            raise ValueError("fault: unknown keys %s (accepted: at_us, action, target, "
                             "duration_us, rate)" % ", ".join(sorted(unknown)))
        try:
            return (float(f["at_us"]), f["action"], f["target"], float(f.get("duration_us", 0)),
                    float(f.get("rate", 0)))
        except KeyError as e:
            raise ValueError("fault: missing key %s (a fault needs at_us, action, target)" % e)
    row = tuple(f)
    if not 3 <= len(row) <= 5:
        raise ValueError("fault: expected (at_us, action, target[, duration_us[, rate]]), got %r"
                         % (f,))
    at, action, target = row[:3]
    return (float(at), action, target, float(row[3]) if len(row) > 3 else 0.0,
            float(row[4]) if len(row) > 4 else 0.0)


class Experiment:
    """A results directory (``out``) that :meth:`run` adds one scheme's run to; :meth:`close`
    writes run.json, marks the directory complete and returns it as :class:`mrc.Results`.

    Used as a context manager, an exception (Ctrl-C included) leaves the directory marked
    incomplete with the reason, as the C++ programs do::

        with mrc.Experiment("results/my-comparison") as ex:
            ex.run("mrc", hosts=16, planes=4)
            ex.run("roce", hosts=16, planes=4)
        res = ex.results            # flows, steps, events, links as DataFrames
    """

    def __init__(self, out=None, overwrite=False, program="python"):
        if out is None:
            out = os.path.join("results", "%s-%s" % (program, time.strftime("%Y%m%d-%H%M%S")))
        self.path = out
        self.program = program
        self.runs = []
        self.results = None
        self._inputs = {}
        self._dir = _core.ResultsDir(out, program, bool(overwrite))
        self._dir.set_command_line([sys.executable] + list(sys.argv))
        self._dir.write_run_json(program, VERSION, 1, {}, {}, False, "running")
        self._rec = _core.Recorder(self._dir)
        self._closed = False

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if self._closed:
            return False
        if kind is None:
            self.close()
        else:
            self.abandon("%s: %s" % (kind.__name__, value) if str(value) else kind.__name__)
        return False

    def _copy_input(self, kind, path):
        """Copy an input file into the directory once; returns its name under inputs/."""
        if path in self._inputs:
            return self._inputs[path]
        if kind == "workload":
            name = self._dir.copy_workload(path)
        else:
            name = os.path.basename(path)
            if name in self._inputs.values():
                name = kind + "-" + name
            self._dir.copy_input(kind, path, name)
        self._inputs[path] = name
        return name

    def run(self, scheme, hosts=16, planes=4, hosts_per_t0=4, t1s_per_plane=4, plane_rate=None,
            steps=3, collective="ring-allreduce", bytes=16 << 20, chunks=1, qps_per_peer=1,
            ranks=None, workload=None, faults=(), fault_file=None, seed=1, label=None,
            job_name="job", link_bin_us=None, ev_states=False, until_us=None, attributes=None,
            queue_pair=None, fabric=None, queue=None, switch=None, control_plane=None):
        """Run one scheme and record it; returns a dict of what it did (scheme, label,
        steps_completed, mean_step_us, ended, now_us, drops).

        scheme: ``mrc``, ``roce`` or ``roce-multiplane`` (:func:`mrc.scheme_names`). hosts,
        planes, hosts_per_t0, t1s_per_plane, plane_rate (``"100Gbps"``): MrcSchemeHelper's
        Hosts, Planes, HostsPerT0, T1sPerPlane, PlaneRate; ``attributes`` sets any other of its
        attributes, ``queue_pair``/``fabric``/``queue``/``switch``/``control_plane`` (dicts)
        those of MrcQueuePair, MrcClosHelper, MrcTrimmingQueue, MrcSwitchNetDevice,
        MrcEcmpControlPlane. The job: ``steps`` steps of ``collective`` of ``bytes`` over
        ``ranks`` (default every host), or the jobs of a ``workload`` file instead. ``faults``:
        (at_us, action, target[, duration_us[, rate]]) tuples or dicts, and/or a
        ``fault_file``. ``label``: the scheme column in the files (default the scheme).
        ``link_bin_us``: also write links.csv rows; ``ev_states``: EV state changes into
        events.csv. ``until_us``: stop there even if the jobs have not completed."""
        if self._closed:
            raise ValueError("run: the experiment is closed")
        if not isinstance(seed, int) or seed < 1:
            raise ValueError("run: seed must be an integer >= 1 (got %r)" % (seed,))
        rows = [_fault_row(f) for f in faults]
        _core.set_seed(seed)
        s = _core.Scheme(scheme)
        s.set("Hosts", hosts)
        s.set("Planes", planes)
        s.set("HostsPerT0", hosts_per_t0)
        s.set("T1sPerPlane", t1s_per_plane)
        if plane_rate is not None:
            s.set("PlaneRate", plane_rate)
        for k, v in (attributes or {}).items():
            s.set(k, v)
        for setter, attrs in ((s.set_queue_pair, queue_pair), (s.set_fabric, fabric),
                              (s.set_queue, queue), (s.set_switch, switch),
                              (s.set_control_plane, control_plane)):
            for k, v in (attrs or {}).items():
                setter(k, v)
        why = s.validate()
        if why:
            raise ValueError(why)
        built = False
        try:
            fab = s.build()
            built = True
            stream = 1 + s.assign_streams(1)
            s.assign_nic_streams(3 << 40)
            if workload is not None:
                self._copy_input("workload", workload)
                jobs = _core.load_workload(workload, s)
            else:
                job = _core.TrainingJob(job_name)
                job.set("Steps", steps)
                job.set_ranks(list(range(fab.hosts)) if ranks is None else list(ranks))
                job.add_collective(collective, bytes, chunks, qps_per_peer)
                job.install(fab)
                jobs = [job]
            for j in jobs:
                stream += j.assign_streams(stream)
            if workload is None:
                jobs[0].start(0)
            fh = _core.FaultHelper()
            injector = fh.install(fab)
            fh.assign_streams(stream)
            for at, action, target, duration, rate in rows:
                injector.schedule(at, action, target, duration, rate)
            if fault_file is not None:
                self._copy_input("faults", fault_file)
                fh.load_schedule_file(fault_file)
            name = label or scheme
            self._rec.set_scheme(name)
            for j in jobs:
                self._rec.attach_job(j)
            self._rec.attach_faults(injector)
            if ev_states:
                self._rec.attach_ev_states(fab, s)
            if link_bin_us is not None:
                self._rec.sample_links(fab, link_bin_us)
            end = _core.run(jobs, self._rec, -1.0 if until_us is None else float(until_us))
            if link_bin_us is not None:
                self._rec.stop_sampling()
            records = [r for j in jobs for r in j.step_records()]
            durations = [r["duration_us"] for r in records]
            summary = {
                "scheme": scheme,
                "label": name,
                "steps_completed": sum(j.steps_completed for j in jobs),
                "failed_jobs": sum(1 for j in jobs if j.is_failed),
                "mean_step_us": sum(durations) / len(durations) if durations else float("nan"),
                "ended": end["ended"],
                "now_us": end["now_us"],
                "drops": fab.drops_by_reason(),
            }
        finally:
            if built:
                _core.destroy()
        self.runs.append(summary)
        return summary

    def close(self):
        """Write run.json (the runs as its ``runs`` entry), mark the directory complete and
        return it read back as :class:`mrc.Results`."""
        if self._closed:
            return self.results
        import json

        params = {"runs": str(len(self.runs))}
        extra = {"runs": json.dumps(self.runs)}
        self._rec.close()
        self._dir.write_run_json(self.program, VERSION, 1, params, extra, True, "")
        self._dir.set_complete()
        self._closed = True
        self.results = load(self.path)
        return self.results

    def abandon(self, reason):
        """Leave the directory incomplete, saying why (what an exception in a ``with`` block
        does)."""
        if self._closed:
            return
        try:
            self._rec.close()
        except ValueError:
            pass
        self._dir.write_run_json(self.program, VERSION, 1, {"runs": str(len(self.runs))}, {},
                                 False, reason)
        self._dir.close()
        self._closed = True


def compare(schemes=("mrc", "roce"), out=None, overwrite=False, **run_options):
    """Run the same description on each scheme (:meth:`Experiment.run`'s options) into one
    results directory, and return it as :class:`mrc.Results` (its ``runs`` attribute lists what
    each run did)."""
    with Experiment(out, overwrite=overwrite) as ex:
        for name in schemes:
            ex.run(name, **run_options)
    ex.results.runs = ex.runs
    return ex.results
