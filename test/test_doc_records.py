#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""analysis/doc_records.py: the numbers the docs quote from recorded runs agree with the
records in docs/records/, a wrong number or table is caught (and `update` rewrites it), and a
record is made from a real run, into its own directory only."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
TOOL = os.path.join(ROOT, "analysis", "doc_records.py")
RECORDS = os.path.join(ROOT, "docs", "records")


def tool(*args, cwd=None):
    return subprocess.run(["/usr/bin/python3", TOOL] + list(args), capture_output=True,
                          text=True, cwd=cwd or ROOT, timeout=600)


def test_the_docs_agree_with_their_records():
    p = tool("check")
    assert p.returncode == 0, p.stdout + p.stderr
    n = int(re.search(r"(\d+) marked number", p.stdout).group(1))
    assert n >= 20, "the docs quote recorded runs: %s" % p.stdout


def test_every_record_names_a_clean_commit_of_this_repository_and_its_commands():
    names = sorted(os.listdir(RECORDS))
    assert {"quickstart-seeds", "paper-quick"} <= set(names)
    # ... and is the current model's: its fingerprints are this tree's, or it was carried
    # across a change with a reason.
    p = tool("stale")
    assert p.returncode == 0 and p.stdout == "", "not current: " + p.stdout
    for name in names:
        with open(os.path.join(RECORDS, name, "record.json")) as f:
            rec = json.load(f)
        # A run made with local changes says how they differed (note).
        assert rec["name"] == name and (rec["local_changes"] is False or rec.get("note")), name
        assert subprocess.run(["git", "-C", ROOT, "cat-file", "-e", rec["commit"] + "^{commit}"],
                              capture_output=True).returncode == 0, (name, rec["commit"])
        assert rec["runs"] and all(r["command"].startswith("./ns3 run ") for r in rec["runs"])
        # The kept files are exactly those listed, and each run is a complete results directory.
        on_disk = sorted(os.path.relpath(os.path.join(d, f), os.path.join(RECORDS, name))
                         for d, _, fs in os.walk(os.path.join(RECORDS, name)) for f in fs)
        assert on_disk == sorted(rec["files"] + ["record.json"]), name
        sys.path.insert(0, os.path.join(ROOT, "analysis"))
        import results_dir
        for r in rec["runs"]:
            run = os.path.join(RECORDS, name, r["label"])
            if os.path.isfile(os.path.join(run, "stdout.txt")):
                continue  # a program that prints its results (mrc-permutation, mrc-link-flap)
            assert results_dir.incomplete_reason(run) is None, (name, r["label"])


def page_with(tmp_path, text):
    p = tmp_path / "page.md"
    p.write_text(text, encoding="utf-8")
    return str(p)


def fingerprints():
    with open(os.path.join(ROOT, "test", "fingerprints.json")) as f:
        return json.load(f)


def fake_record(tmp_path, values, fps=None):
    d = tmp_path / "recs" / "r"
    d.mkdir(parents=True)
    (d / "record.json").write_text(json.dumps({"name": "r", "commit": "abc1234", "values": values,
                                               "files": [],
                                               "fingerprints": fps or fingerprints()}))
    return str(tmp_path / "recs")


def test_a_record_of_another_model_is_not_current_until_re_recorded_or_carried(tmp_path):
    # The record keeps the fingerprints of the model that made it; one that differs from the
    # tree's makes every page quoting it fail the check, naming the output that changed.
    then = fingerprints()
    then["mrc-link-flap"] = "0" * 64
    then["gone-program"] = "1" * 64  # a fingerprint removed since counts as a change
    recs = fake_record(tmp_path, {"a.x": 1.5}, then)
    page = page_with(tmp_path, "1.5<!--rec:r:a.x-->\n")
    p = tool("--records", recs, "check", page)
    assert p.returncode == 1
    assert "docs/records/r: made at abc1234; the fingerprinted outputs gone-program, " \
           "mrc-link-flap changed since" in p.stdout, p.stdout
    assert "1 record(s) quoted, 1 not current" in p.stdout
    assert tool("--records", recs, "stale").stdout.split() == ["r"]
    # A fingerprint added since (a new program) does not make it stale.
    now = fingerprints()
    del now["mrc-link-flap"]
    recs2 = fake_record(tmp_path / "b", {"a.x": 1.5}, now)
    assert tool("--records", recs2, "check", page).returncode == 0
    # Carrying needs a reason; it is kept, with what changed, and the record is current.
    p = tool("--records", recs, "carry", "r")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "carry needs --reason" in p.stderr
    p = tool("--records", recs, "carry", "r", "--reason", "only  mrc-link-flap's  help text")
    assert p.returncode == 0, p.stderr
    rec = json.load(open(os.path.join(recs, "r", "record.json")))
    assert rec["fingerprints"] == fingerprints()
    assert rec["carried"][0]["changed"] == ["gone-program", "mrc-link-flap"]
    assert rec["carried"][0]["reason"] == "only mrc-link-flap's help text"
    assert tool("--records", recs, "check", page).returncode == 0
    assert tool("--records", recs, "stale").stdout == ""
    p = tool("--records", recs, "carry", "r", "--reason", "again")
    assert p.returncode == 2 and "is current; nothing to carry" in p.stderr
    # A record that keeps no fingerprints says nothing of its model: not current either.
    rec.pop("fingerprints")
    json.dump(rec, open(os.path.join(recs, "r", "record.json"), "w"))
    p = tool("--records", recs, "check", page)
    assert p.returncode == 1 and "keeps no fingerprints" in p.stdout


def test_a_record_whose_run_relied_on_a_default_that_changed_is_not_current(tmp_path):
    # A run's command means what the program's defaults make of it: quickstart's run.json
    # lists every parameter, so a run that left --gpus at its default is held to the
    # program's default now (`quickstart --PrintHelp`), in whichever way either writes it.
    exe = os.path.join(BUILD, "bin", "quickstart")
    assert os.path.isfile(exe), "build the programs first"
    gpus = re.search(r"--gpus:.*\[(\d+)\]", subprocess.run(
        [exe, "--PrintHelp"], capture_output=True, text=True).stdout).group(1)
    other = str(int(gpus) * 4)

    def record_with(command, params):
        d = tmp_path / ("recs%d" % len(os.listdir(tmp_path)))
        (d / "r" / "run").mkdir(parents=True)
        (d / "r" / "run" / "run.json").write_text(json.dumps(
            {"program": "quickstart", "parameters": dict(
                {"planes": "4", "detectionUs": "150000.000000", "pfc": "true",
                 "out": "/elsewhere", "jobs": "7"}, **params)}))
        (d / "r" / "record.json").write_text(json.dumps(
            {"name": "r", "commit": "abc1234", "values": {"a.x": 1.5},
             "files": ["run/run.json"], "fingerprints": fingerprints(),
             "runs": [{"label": "run", "command": command}]}))
        return str(d)

    page = page_with(tmp_path, "1.5<!--rec:r:a.x-->\n")
    recs = record_with('./ns3 run "quickstart --planes=4"', {"gpus": other})
    p = tool("--records", recs, "check", page)
    assert p.returncode == 1, p.stdout
    assert ("docs/records/r: run run left quickstart's --gpus at its default, %s then; the "
            "default is now %s" % (other, gpus)) in p.stdout, p.stdout
    assert tool("--records", recs, "stale").stdout.split() == ["r"]
    # Set explicitly, the same value is what the command asked for: current.
    recs = record_with('./ns3 run "quickstart --planes=4 --gpus=%s"' % other, {"gpus": other})
    assert tool("--records", recs, "check", page).returncode == 0
    # The default as it is, written as run.json writes numbers: current.
    recs = record_with('./ns3 run "quickstart --planes=4"', {"gpus": gpus + ".000000"})
    p = tool("--records", recs, "check", page)
    assert p.returncode == 0, p.stdout


def test_a_printing_run_is_held_to_the_defaults_it_relied_on(tmp_path):
    # mrc-link-flap prints its results and writes no run.json: record.json keeps, per run, the
    # defaults of the options its command did not set, and each is held to the build's
    # default as quickstart's run.json parameters are.
    exe = os.path.join(BUILD, "bin", "mrc-link-flap")
    assert os.path.isfile(exe), "build the programs first"
    flows = re.search(r"--flows:.*\[(\d+)\]", subprocess.run(
        [exe, "--PrintHelp"], capture_output=True, text=True).stdout).group(1)
    other = str(int(flows) + 3)

    def record_with(command, defaults):
        d = tmp_path / ("recs%d" % len(os.listdir(tmp_path)))
        (d / "r" / "run").mkdir(parents=True)
        (d / "r" / "run" / "stdout.txt").write_text("flows: 2\n")
        run = {"label": "run", "command": command}
        if defaults is not None:
            run["defaults"] = defaults
        (d / "r" / "record.json").write_text(json.dumps(
            {"name": "r", "commit": "abc1234", "values": {"a.x": 1.5},
             "files": ["run/stdout.txt"], "fingerprints": fingerprints(), "runs": [run]}))
        return str(d)

    page = page_with(tmp_path, "1.5<!--rec:r:a.x-->\n")
    recs = record_with('./ns3 run "mrc-link-flap --planes=8"', {"flows": other, "seed": "1"})
    p = tool("--records", recs, "check", page)
    assert p.returncode == 1, p.stdout
    assert ("docs/records/r: run run left mrc-link-flap's --flows at its default, %s then; the "
            "default is now %s" % (other, flows)) in p.stdout, p.stdout
    assert tool("--records", recs, "stale").stdout.split() == ["r"]
    # Set explicitly by the command: what it asked for, whatever the default.
    recs = record_with('./ns3 run "mrc-link-flap --flows=%s"' % other, {"seed": "1"})
    assert tool("--records", recs, "check", page).returncode == 0
    # The same defaults: current.
    recs = record_with('./ns3 run "mrc-link-flap"', {"flows": flows, "seed": "1"})
    p = tool("--records", recs, "check", page)
    assert p.returncode == 0, p.stdout
    # A printing run that kept no defaults cannot be checked: not current.
    recs = record_with('./ns3 run "mrc-link-flap"', None)
    p = tool("--records", recs, "check", page)
    assert p.returncode == 1 and "keeps no defaults" in p.stdout, p.stdout


def test_an_uncommitted_record_is_no_local_change_of_the_model(tmp_path):
    # A record made and not yet committed cannot reach the next record's runs: only tracked
    # changes outside docs/records/ make a record say local_changes.
    sys.path.insert(0, os.path.join(ROOT, "analysis"))
    import doc_records

    def git(*a):
        subprocess.run(["git", "-C", str(tmp_path)] + list(a), check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "docs" / "records" / "r").mkdir(parents=True)
    (tmp_path / "docs" / "records" / "r" / "record.json").write_text("{}\n")
    (tmp_path / "model.cc").write_text("int x;\n")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    assert doc_records.git_commit(str(tmp_path))[1] is False
    (tmp_path / "docs" / "records" / "r" / "record.json").write_text('{"a": 1}\n')
    assert doc_records.git_commit(str(tmp_path))[1] is False
    (tmp_path / "model.cc").write_text("int y;\n")
    assert doc_records.git_commit(str(tmp_path))[1] is True


def test_a_number_agrees_at_the_precision_it_is_written(tmp_path):
    recs = fake_record(tmp_path, {"a.x": 1234.5678, "a.y": -1.06, "a.z": 0.99499})
    good = page_with(tmp_path, "step 1,234.6 µs<!--rec:r:a.x-->, 1235<!--rec:r:a.x-->, "
                               "1 234.57<!--rec:r:a.x-->, −1.06 %<!--rec:r:a.y-->, "
                               "0.99 %<!--rec:r:a.z-->\n")
    p = tool("--records", recs, "check", good)
    assert p.returncode == 0, p.stdout
    assert "5 marked number(s)" in p.stdout


def test_a_wrong_number_is_caught_and_update_rewrites_it(tmp_path):
    recs = fake_record(tmp_path, {"a.x": 1885.74})
    bad = page_with(tmp_path, "line one\nMRC's step: 1884.4 µs<!--rec:r:a.x--> (seed 1)\n")
    p = tool("--records", recs, "check", bad)
    assert p.returncode == 1
    assert "page.md:2: 1884.4 written, the record r (commit abc1234) gives 1885.7" in p.stdout
    assert tool("--records", recs, "update", bad).returncode == 0
    assert open(bad, encoding="utf-8").read() == \
        "line one\nMRC's step: 1885.7 µs<!--rec:r:a.x--> (seed 1)\n"
    assert tool("--records", recs, "check", bad).returncode == 0


def test_a_missing_record_or_value_is_an_error(tmp_path):
    recs = fake_record(tmp_path, {"a.x": 1.0})
    page = page_with(tmp_path, "1.0<!--rec:r:a.nope--> and 2<!--rec:gone:a.x-->\n")
    p = tool("--records", recs, "check", page)
    assert p.returncode == 1
    assert "record 'r' has no value 'a.nope'" in p.stdout and "no record 'gone'" in p.stdout


def test_a_generated_table_is_checked_against_the_record(tmp_path):
    # The paper-quick record's agreements for F10, as claims_tables.py prints them.
    want = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "analysis", "claims_tables.py"),
                           "agreements", os.path.join(RECORDS, "paper-quick", "run"),
                           "--only", "F10"], capture_output=True, text=True, check=True).stdout
    assert "| F10 |" in want
    page = page_with(tmp_path, "x\n<!--rec:paper-quick:table:agreements:F10-->\n" + want
                     + "<!--/rec-->\n")
    assert tool("check", page).returncode == 0
    edited = open(page, encoding="utf-8").read().replace("| yes |", "| **no** |", 1)
    open(page, "w", encoding="utf-8").write(edited)
    p = tool("check", page)
    assert p.returncode == 1 and "the agreements table differs" in p.stdout
    assert tool("update", page).returncode == 0 and tool("check", page).returncode == 0


def test_a_record_is_made_from_a_real_run_and_only_its_own_files_are_replaced(tmp_path):
    if not os.path.exists(os.path.join(BUILD, "bin", "mrc-hello")):
        pytest.skip("mrc-hello not built")
    recs = str(tmp_path / "recs")
    p = tool("--records", recs, "record", "hello", cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    with open(os.path.join(recs, "hello", "record.json")) as f:
        rec = json.load(f)
    assert rec["runs"][0]["command"] == './ns3 run "mrc-hello"'
    # It keeps the fingerprints of the model that made it: this tree's (test/fingerprints.json
    # at the commit, when the tree is clean).
    assert rec["fingerprints"] == fingerprints()
    assert rec["values"]["run.mrc.steps"] == rec["values"]["run.roce.steps"] == 3
    # The recorded steps.csv gives the recorded mean.
    rows = open(os.path.join(recs, "hello", "run", "steps.csv")).read().splitlines()[1:]
    mrc = [float(r.split(",")[5]) for r in rows if r.startswith("mrc,")]
    assert abs(sum(mrc) / len(mrc) - rec["values"]["run.mrc.mean_step_us"]) < 1e-3
    page = page_with(tmp_path, "%.1f µs<!--rec:hello:run.mrc.mean_step_us-->\n"
                     % rec["values"]["run.mrc.mean_step_us"])
    assert tool("--records", recs, "check", page).returncode == 0
    # Recording again replaces the record; nothing else is left in the working directory.
    assert tool("--records", recs, "record", "hello", cwd=str(tmp_path)).returncode == 0
    assert sorted(os.listdir(tmp_path)) == ["page.md", "recs"]
    # A file no record wrote stops it, and is kept.
    mine = os.path.join(recs, "hello", "notes.txt")
    open(mine, "w").write("mine")
    p = tool("--records", recs, "record", "hello", cwd=str(tmp_path))
    assert p.returncode != 0 and "notes.txt, which no record wrote" in p.stderr
    assert open(mine).read() == "mine"
    assert os.path.isfile(os.path.join(recs, "hello", "record.json"))


def test_from_takes_only_a_complete_run_of_the_recipes_command(tmp_path):
    if not os.path.exists(os.path.join(BUILD, "bin", "mrc-hello")):
        pytest.skip("mrc-hello not built")
    out = str(tmp_path / "run")
    subprocess.run([os.path.join(BUILD, "bin", "mrc-hello"), "--out=" + out], check=True,
                   capture_output=True, cwd=str(tmp_path))
    recs = str(tmp_path / "recs")
    p = tool("--records", recs, "record", "quickstart-default", "--from", out)
    assert p.returncode == 2 and "a mrc-hello run, not quickstart" in p.stderr
    assert tool("--records", recs, "record", "hello", "--from", out).returncode == 0
    with open(os.path.join(out, "run.json")) as f:
        meta = json.load(f)
    meta["complete"] = False
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump(meta, f)
    p = tool("--records", recs, "record", "hello", "--from", out)
    assert p.returncode == 2 and "incomplete" in p.stderr
    p = tool("--records", recs, "record", "nosuch")
    assert p.returncode == 2 and "no recipe 'nosuch' (known:" in p.stderr


def test_bad_input_is_one_line(tmp_path):
    for args, needle in ((["check", str(tmp_path / "nope.md")], "no such page"),
                         (["record", "hello", "--jobs", "0"], "--jobs must be at least 1"),
                         (["record", "hello", "--from", "a", "b"], "--from takes 1 directories")):
        p = tool("--records", str(tmp_path / "recs"), *args)
        assert p.returncode == 2, (args, p.stderr)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], (args, p.stderr)
    assert not os.path.exists(str(tmp_path / "recs")), "nothing written"


def test_the_rst_pages_render_every_quoted_number_through_docutils():
    # Sphinx resolves |rec:NAME:KEY| substitutions as docutils does: every one is defined on its
    # page, none is left unresolved, and the rendered text holds the recorded number.
    import docutils.core
    import docutils.nodes
    import io
    doc_dir = os.path.join(ROOT, "contrib", "mrc", "doc")
    pages = 0
    for page in sorted(os.listdir(doc_dir)):
        if not page.endswith(".rst"):
            continue
        with open(os.path.join(doc_dir, page)) as f:
            src = f.read()
        refs = set(re.findall(r"(?<!\.\. )\|(rec:[^|]+)\|(?! replace::)", src))
        if not refs:
            continue
        pages += 1
        warnings = io.StringIO()
        tree = docutils.core.publish_doctree(
            src, settings_overrides={"warning_stream": warnings, "report_level": 2,
                                     "halt_level": 5})
        assert "ubstitution" not in warnings.getvalue(), (page, warnings.getvalue())
        left = list(tree.findall(docutils.nodes.substitution_reference))
        assert not left, (page, [n.astext() for n in left])
        text = tree.astext()
        assert "|rec:" not in text and "rec:" not in text, page
        for ref in refs:
            value = re.search(r"\.\. \|%s\| replace:: (\S+)" % re.escape(ref), src).group(1)
            assert value in text, (page, ref, value)
    assert pages >= 1


def test_an_undefined_rst_substitution_is_caught(tmp_path):
    import docutils.core
    import docutils.nodes
    import io
    warnings = io.StringIO()
    tree = docutils.core.publish_doctree(
        "A number: |rec:x:y|.\n", settings_overrides={"warning_stream": warnings,
                                                    "report_level": 2, "halt_level": 5})
    assert "ubstitution" in warnings.getvalue()
    # ... and doc_records.py's check says so before Sphinx would.
    page = tmp_path / "page.rst"
    page.write_text("A number: |rec:missing:value|.\n")
    p = tool("--records", str(tmp_path), "check", str(page))
    assert p.returncode == 1 and "is used but not defined" in p.stdout, p.stdout + p.stderr
