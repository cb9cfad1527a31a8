#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The ./ns3 front door as a newcomer meets it: a broken build directory is configured again, a
new scratch program runs without reconfiguring by hand, an unknown suite or program is an error
that lists the known ones, and a verb waits for a build in progress in the same directory."""

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


def test_a_bad_bench_option_is_a_one_line_error_before_any_build(tmp_path):
    # A name the forwarding benchmark does not take is refused before configure and build:
    # nothing is made in the build directory.
    build = tmp_path / "build"
    for bad in ("--bogus", "--t0x=3", "t1=3", "-x"):
        p = ns3("bench", bad, env=dict(ENV, MRC_BUILD_DIR=str(build)), timeout=60)
        assert p.returncode == 1, (bad, p.stdout, p.stderr)
        assert p.stderr.count("\n") == 1, (bad, p.stderr)
        assert "unknown option '%s'" % bad in p.stderr, (bad, p.stderr)
        assert "--hostsPerT0" in p.stderr and p.stdout == "", (bad, p.stderr)
        assert not build.exists(), bad


def test_the_bench_option_names_are_the_forwarding_programs():
    # ./ns3 bench checks the names it passes on against its own list: the list must be the
    # program's options and ns-3's global values, no more, no fewer.
    import re
    with open(os.path.join(ROOT, "ns3")) as f:
        found = re.search(r'^BENCH_FORWARDING_OPTIONS="([^"]*)"', f.read(), re.M)
    listed = set(found.group(1).split())
    exe = os.path.join(BUILD, "bin", "mrc-bench-forwarding")
    shown = set()
    for flag in ("--PrintHelp", "--PrintGlobals"):
        out = subprocess.run([exe, flag], capture_output=True, text=True, timeout=60).stdout
        shown |= set(re.findall(r"^\s+--([A-Za-z0-9]+)(?::|=)", out, re.M))
    shown -= {n for n in shown if n.startswith("Print")}
    assert listed == shown, (sorted(listed - shown), sorted(shown - listed))


def test_the_memory_probe_prints_a_line_per_size_that_the_bench_reads():
    # ./ns3 bench runs mrc-bench-memory before and after each round and reads its line with sed:
    # one line per size, in the order given, with a positive time.
    import re
    exe = os.path.join(BUILD, "bin", "mrc-bench-memory")
    p = subprocess.run([exe, "--sizes=2,1,8", "--loads=100000"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    lines = p.stdout.splitlines()
    assert [re.match(r"^dependent load over (\d+) MiB: ([0-9]+\.[0-9]) ns$", line).group(1)
            for line in lines] == ["2", "1", "8"], p.stdout
    assert all(float(line.split()[-2]) > 0 for line in lines), p.stdout
    with open(os.path.join(ROOT, "ns3")) as f:
        bench = f.read()
    assert "--sizes=8 --loads=2000000" in bench
    assert "s/^dependent load over 8 MiB: \\([0-9.]*\\) ns$/\\1/p" in bench


def test_a_new_scratch_program_runs_at_once():
    # The program also prints the glibc tunables it was started with: `./ns3 run` puts the
    # heap on transparent huge pages (glibc.malloc.hugetlb=1) unless MRC_HUGEPAGES=0 or the
    # caller's GLIBC_TUNABLES already chooses, and keeps the caller's other tunables.
    src = os.path.join(ROOT, "scratch", "pytest-new-program.cc")
    with open(src, "w") as f:
        f.write('#include "ns3/core-module.h"\n#include <cstdlib>\n'
                "int main() { const char* t = std::getenv(\"GLIBC_TUNABLES\");\n"
                "  std::cout << \"scratch ok [\" << (t ? t : \"\") << \"]\" << std::endl;"
                " return 0; }\n")
    try:
        env = {k: v for k, v in ENV.items() if k not in ("GLIBC_TUNABLES", "MRC_HUGEPAGES")}
        p = ns3("run", "pytest-new-program", env=env)
        assert p.returncode == 0, p.stderr
        assert "scratch ok [glibc.malloc.hugetlb=1]" in p.stdout
        for extra, shown in ((dict(MRC_HUGEPAGES="0"), "[]"),
                             (dict(GLIBC_TUNABLES="glibc.malloc.hugetlb=0"),
                              "[glibc.malloc.hugetlb=0]"),
                             (dict(GLIBC_TUNABLES="glibc.malloc.arena_max=2"),
                              "[glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1]")):
            p = ns3("run", "pytest-new-program", env=dict(env, **extra))
            assert p.returncode == 0 and "scratch ok " + shown in p.stdout, (extra, p.stdout)
    finally:
        os.remove(src)
        subprocess.run(["cmake", BUILD], capture_output=True, cwd=ROOT)  # forget the target


def test_a_verb_waits_for_a_build_in_progress():
    # While another ./ns3 holds the build directory's lock, `./ns3 run` waits for it (its
    # `flock 9` is blocked) instead of building beside it, then builds and runs as usual.
    import fcntl
    import time
    os.makedirs(BUILD, exist_ok=True)
    with open(os.path.join(BUILD, ".mrc-build.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = subprocess.Popen([os.path.join(ROOT, "ns3"), "run", "mrc-hello --help"], cwd=ROOT,
                             env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            waiting, deadline = False, time.time() + 120
            while not waiting and time.time() < deadline and p.poll() is None:
                for pid in os.listdir("/proc"):
                    try:
                        with open("/proc/%s/stat" % pid) as f:
                            ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                        with open("/proc/%s/cmdline" % pid) as f:
                            cmd = f.read().split("\0")
                    except (OSError, ValueError, IndexError):
                        continue
                    if ppid == p.pid and cmd[:2] == ["flock", "9"]:
                        waiting = True
                time.sleep(0.05)
            assert waiting and p.poll() is None, "./ns3 run did not wait for the lock"
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
        out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    assert out.startswith("mrc-hello [Program Options]"), out


def median_range(*values):
    """./ns3's median_range (the bench's summary figures) on the values given."""
    script = subprocess.run(["sed", "-n", "/^median_range() {/,/^}/p", os.path.join(ROOT, "ns3")],
                            capture_output=True, text=True, check=True).stdout
    assert script, "median_range not found in ./ns3"
    p = subprocess.run(["bash", "-c", script + '\nmedian_range "$@"', "bash"] + list(values),
                       capture_output=True, text=True, check=True)
    return p.stdout.strip()


def test_the_bench_summary_keeps_the_decimals_of_a_range_that_starts_on_a_whole_number():
    # Seven wall times of which the smallest is 3.00 s: not "3 (3-3, 7 runs)".
    assert median_range("3.04", "3.13", "3.13", "3.26", "3.21", "3.00", "3.10") == \
        "3.13 (3.00-3.26, 7 runs)"
    assert median_range("2.20", "2.16") == "2.18 (2.16-2.20, 2 runs)"
    assert median_range("579073", "580882", "563725") == "579073 (563725-580882, 3 runs)"
    assert median_range("0.13") == "0.13"
