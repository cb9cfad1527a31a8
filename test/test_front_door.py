#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The ./ns3 front door as a newcomer meets it: a broken build directory is configured again, a
new scratch program runs without reconfiguring by hand, an unknown suite or program is an error
that lists the known ones."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MRC_BUILD_DIR", os.path.join(ROOT, "build"))
ENV = dict(os.environ, MRC_SKIP_DEPS="1", MRC_BUILD_DIR=BUILD)


def ns3(*args, env=ENV, timeout=600):
    return subprocess.run([os.path.join(ROOT, "ns3")] + list(args), capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env=env)


def test_a_failed_configure_is_not_trusted(tmp_path):
    # What a failed or interrupted configure leaves: a cache and no Makefile.
    (tmp_path / "CMakeCache.txt").write_text("garbage\n")
    p = ns3("build", "help", env=dict(ENV, MRC_BUILD_DIR=str(tmp_path)), timeout=120)
    assert p.returncode == 0, p.stderr
    assert "configured Release build" in p.stdout
    assert (tmp_path / "Makefile").exists()


def test_unknown_suite_is_an_error_listing_the_suites():
    p = ns3("test", "-s", "transport")
    assert p.returncode != 0
    assert "no suite named 'transport'" in p.stderr
    assert "mrc-transport" in p.stderr and "mrc-failover" in p.stderr


def test_unknown_program_is_an_error_listing_the_programs():
    p = ns3("run", "no-such-program")
    assert p.returncode != 0
    assert "no program named 'no-such-program'" in p.stderr
    assert "quickstart" in p.stderr


def test_a_bad_bench_repeat_count_is_a_one_line_error():
    # Checked before anything is configured, built or run.
    for bad in ("--repeat=0", "--repeat=21", "--repeat=x", "--repeat"):
        p = ns3("bench", bad, timeout=60)
        assert p.returncode == 1, (bad, p.stdout, p.stderr)
        assert p.stderr.count("\n") == 1 and "--repeat" in p.stderr, (bad, p.stderr)
        assert "1 to 20" in p.stderr and p.stdout == "", (bad, p.stderr)


def test_a_new_scratch_program_runs_at_once():
    src = os.path.join(ROOT, "scratch", "pytest-new-program.cc")
    with open(src, "w") as f:
        f.write('#include "ns3/core-module.h"\n'
                "int main() { std::cout << \"scratch ok\" << std::endl; return 0; }\n")
    try:
        p = ns3("run", "pytest-new-program")
        assert p.returncode == 0, p.stderr
        assert "scratch ok" in p.stdout
    finally:
        os.remove(src)
        subprocess.run(["cmake", BUILD], capture_output=True, cwd=ROOT)  # forget the target
