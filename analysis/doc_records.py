#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Recorded runs behind the numbers in the docs, and the check that the docs quote them.

  doc_records.py list                  the recipes, their commands and their records
  doc_records.py record NAME [--jobs N] [--build DIR] [--from DIR...]
                                       run a recipe's commands (the build's programs, into a
                                       temporary directory), or take their complete results
                                       directories (--from, one per run, in order; each must
                                       have been run with the recipe's arguments), and
                                       write docs/records/NAME/:
                                       record.json (commands, commit, date, machine, wall
                                       time, peak memory, the values the docs may quote) and
                                       the small files of its runs the tables are made from
  doc_records.py check [DOC...]        every marked number and generated table in the docs
                                       agrees with its record (exit 1 naming each that does not)
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

Records are only ever written by `record`, and into their own directory: a file there that
no record.json lists is an error, and nothing is deleted.
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
PROG = "doc_records.py"

sys.path.insert(0, HERE)
import claims_tables  # noqa: E402


def docs():
    """The pages that may carry markers."""
    out = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "analysis", "README.md")]
    d = os.path.join(ROOT, "docs")
    out += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
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
        ref = float(s["mean_step_port_loss_only_us"])
        values["%s.%s.mean_step_us" % (label, scheme)] = mean
        values["%s.%s.ref_mean_step_us" % (label, scheme)] = ref
        values["%s.%s.steps_over_1s" % (label, scheme)] = float(s["steps_over_1s"])
        if s["steps_over_1s"] == 0 and s["steps_over_1s_port_loss_only"] == 0:
            values["%s.%s.inflation_pct" % (label, scheme)] = (mean / ref - 1) * 100
        values["%s.%s.wall_time_s" % (label, scheme)] = float(s["wall_time_s"])
    # T0-T1 flaps: the link-down events of those links in each scheme's main run
    for r in _read_csv(os.path.join(outdir, "events.csv")):
        if r["kind"] == "link" and r["state"] == "down" and re.search(r"/t0-\d+/t1-", r["target"]):
            key = "%s.%s.t0t1_flaps" % (label, r["scheme"])
            values[key] = values.get(key, 0.0) + 1
    values["%s.wall_time_s" % label] = float(run_json["wall_time_s"])
    return values


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


def verdict_values(label, outdir, run_json):
    values = {}
    for claim, c in run_json.get("claims", {}).items():
        values["%s.%s.verdict" % (label, claim)] = c["verdict"]
    values["%s.wall_time_s" % label] = float(run_json.get("wall_time_s", 0))
    values["%s.simulations" % label] = float(run_json.get("simulations", 0))
    return values


class Recipe:
    def __init__(self, name, about, runs, keep, values, summary=None):
        self.name = name
        self.about = about
        self.runs = runs        # [(label, program, [args])]
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
    Recipe("hello",
           "mrc-hello, the smallest comparison (the tests record it)",
           [("run", "mrc-hello", [])],
           ["run.json", "steps.csv"], hello_values),
]}


# ------------------------------------------------------------------ record

def git_commit():
    try:
        c = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=7", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--",
                                "contrib", "experiments", "scratch"],
                               capture_output=True, text=True).stdout.strip() != ""
        return c, dirty
    except (OSError, subprocess.CalledProcessError):
        return "unknown", None


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
    commit, dirty = git_commit()
    dest = os.path.join(args.records, recipe.name)
    work = tempfile.mkdtemp(prefix="mrc-record-")
    files, runs, values = [], [], {}
    t0 = time.time()
    try:
        if args.from_dirs and len(args.from_dirs) != len(recipe.runs):
            sys.stderr.write("error: %s: --from takes %d directories for '%s' (one per run), "
                             "got %d\n" % (PROG, len(recipe.runs), recipe.name,
                                            len(args.from_dirs)))
            return 2
        for i, (label, prog, argv) in enumerate(recipe.runs):
            argv = [a.format(jobs=args.jobs) for a in argv]
            if args.from_dirs:
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
                out = os.path.join(work, label)
                start = time.time()
                p = subprocess.run([exe] + argv + ["--out=%s" % out], cwd=work,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                wall = time.time() - start
                if p.returncode != 0:
                    sys.stderr.write(p.stdout[-4000:])
                    sys.stderr.write("error: %s: %s %s failed (status %d); no record written\n"
                                     % (PROG, prog, " ".join(argv), p.returncode))
                    return 1
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
            runs.append({"label": label,
                         "command": "./ns3 run \"%s\"" % " ".join([prog] + argv),
                         "wall_time_s": round(wall, 1),
                         "commit": code.get("commit", "")[:7] or commit,
                         "local_changes": code.get("dirty", dirty)})
        # The model's commit is the one the runs were built at (run.json's code).
        built = {(r["commit"], r["local_changes"]) for r in runs}
        if len(built) != 1:
            sys.stderr.write("error: %s: the runs were built at different commits (%s); no "
                             "record written\n" % (PROG, ", ".join(sorted(c for c, _ in built))))
            return 2
        commit, dirty = built.pop()
        if recipe.summary:
            values = recipe.summary(values)
        rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        rec = {"name": recipe.name, "about": recipe.about, "commit": commit,
               "local_changes": dirty, "date": time.strftime("%Y-%m-%d"),
               "machine": {"host": socket.gethostname(), "cpus": os.cpu_count(),
                           "build": os.path.basename(build)},
               "runs": runs, "wall_time_s": round(time.time() - t0, 1),
               "peak_rss_mib": None if args.from_dirs else round(rss_kb / 1024.0, 1),
               "values": {k: (round(v, 6) if isinstance(v, float) else v)
                          for k, v in sorted(values.items())},
               "files": sorted(rel for rel, _ in files)}
        write_record_dir(dest, files, rec)
    finally:
        shutil.rmtree(work, ignore_errors=True)  # the temporary directory this run made
    print("%s: %d value(s), %s" % (os.path.relpath(dest, ROOT), len(values),
                                   ", ".join(r["command"] for r in runs)))
    return 0


# ------------------------------------------------------------------ check / update

NUMBER = r"(?P<num>[-−]?\d[\d,  ]*(?:\.\d+)?)"
UNIT = r"(?P<unit>\s*(?:%|µs|ms|s|x|Gb/s|GB|MB|MiB|GiB)?)"
MARK = re.compile(NUMBER + UNIT + r"<!--rec:(?P<name>[\w.-]+):(?P<key>[\w.-]+)-->")
TABLE = re.compile(r"<!--rec:(?P<name>[\w.-]+):table:(?P<kind>\w+)(?::(?P<only>[\w,]+))?-->\n"
                   r"(?P<body>.*?)<!--/rec-->", re.S)


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


def table_text(records, name, kind, only):
    if kind not in ("agreements", "results"):
        raise ValueError("unknown table kind '%s' (agreements, results)" % kind)
    run = os.path.join(records, name, "run")
    args = argparse.Namespace(dir=run, only=only)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        getattr(claims_tables, kind)(args)
    return buf.getvalue()


def scan(path, records, fix):
    """(problems, marks, new_text) for one page."""
    text = open(path, encoding="utf-8").read()
    problems, cache, count = [], {}, [0]
    rel = os.path.relpath(path, ROOT)

    def number(m):
        count[0] += 1
        rec = load_record(records, m.group("name"), cache)
        line = text.count("\n", 0, m.start()) + 1
        if rec is None:
            problems.append("%s:%d: no record '%s'" % (rel, line, m.group("name")))
            return m.group(0)
        v = rec["values"].get(m.group("key"))
        if not isinstance(v, (int, float)):
            problems.append("%s:%d: record '%s' has no value '%s'"
                            % (rel, line, m.group("name"), m.group("key")))
            return m.group(0)
        written = m.group("num").strip()
        want = formatted(v, written)
        if want != written:
            problems.append("%s:%d: %s written, the record %s (commit %s) gives %s"
                            % (rel, line, written, m.group("name"), rec["commit"], want))
            return m.group(0).replace(written, want, 1)
        return m.group(0)

    def table(m):
        count[0] += 1
        line = text.count("\n", 0, m.start()) + 1
        if load_record(records, m.group("name"), cache) is None:
            problems.append("%s:%d: no record '%s'" % (rel, line, m.group("name")))
            return m.group(0)
        want = table_text(records, m.group("name"), m.group("kind"), m.group("only"))
        if m.group("body").strip("\n") != want.strip("\n"):
            problems.append("%s:%d: the %s table differs from the record %s's"
                            % (rel, line, m.group("kind"), m.group("name")))
            return m.group(0).replace(m.group("body"), want.strip("\n") + "\n", 1)
        return m.group(0)

    new = TABLE.sub(table, text)
    text = new
    new = MARK.sub(number, new)
    if fix and new != open(path, encoding="utf-8").read():
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(path + ".tmp", path)
    return problems, count[0]


def check(args, fix=False):
    pages = [os.path.abspath(p) for p in args.docs] if args.docs else docs()
    problems, marks = [], 0
    for p in pages:
        got, n = scan(p, args.records, fix)
        problems += got
        marks += n
    for line in problems:
        print(("fixed: " if fix else "") + line)
    if not fix:
        print("%d marked number(s) and table(s) in %d page(s); %d disagree"
              % (marks, len(pages), len(problems)))
    return 1 if problems and not fix else 0


def list_recipes(args):
    for name, r in sorted(RECIPES.items()):
        path = os.path.join(args.records, name, "record.json")
        state = "no record"
        if os.path.isfile(path):
            with open(path) as f:
                rec = json.load(f)
            state = "recorded at %s on %s (%d values)" % (rec["commit"], rec["date"],
                                                          len(rec["values"]))
        print("%s: %s; %s" % (name, r.about, state))
        for label, prog, argv in r.runs:
            print("    ./ns3 run \"%s\"" % " ".join([prog] + argv))
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
    r.add_argument("--from", dest="from_dirs", nargs="+", metavar="DIR",
                   help="complete results directories of the recipe's runs, in order")
    for c in ("check", "update"):
        s = sub.add_parser(c)
        s.add_argument("docs", nargs="*")
    args = p.parse_args(argv)
    args.records = os.path.abspath(args.records)
    if args.cmd == "list":
        return list_recipes(args)
    if args.cmd == "record":
        if args.jobs < 1:
            sys.stderr.write("error: %s: --jobs must be at least 1\n" % PROG)
            return 2
        return record(args)
    return check(args, fix=args.cmd == "update")


if __name__ == "__main__":
    sys.exit(main())
