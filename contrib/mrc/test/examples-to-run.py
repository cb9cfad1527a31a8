#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only

# A list of C++ examples to run in order to ensure that they remain
# buildable and runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run, do_valgrind_run).
#
# See test.py for more information.  Small fabrics and transfers, so that each
# run takes well under a few seconds in a debug build.
cpp_examples = [
    ("mrc-fabric-demo --planes=2 --hostsPerT0=2 --t0=2 --t1=2 --packets=20", "True", "True"),
    ("mrc-fabric-sizing", "True", "True"),
    ("mrc-fabric-sizing --radix=64 --portSpeed=100 --nicSpeed=400 --tiers=1", "True", "True"),
    ("mrc-permutation --hosts=8 --hostsPerT0=4 --t1=2 --size=20000", "True", "True"),
    (
        "mrc-permutation --hosts=16 --planes=2 --hostsPerT0=4 --t1=2 --size=50000 --pathSelector=oblivious --cc=fixed",
        "True",
        "True",
    ),
    ("mrc-permutation --hosts=8 --hostsPerT0=4 --t1=2 --size=20000 --roce=1", "True", "True"),
    (
        "mrc-link-flap --size=4000000 --firstFlap=100 --flapPeriod=200 --flapDown=50 --detection=20 --reconvergence=100",
        "True",
        "False",
    ),
    ("mrc-bench-forwarding --hostsPerT0=2 --t0=2 --t1=2 --packets=200", "True", "False"),
    ("mrc-bench-memory --sizes=1 --loads=100000", "True", "False"),
]

# A list of Python examples to run in order to ensure that they remain
# runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run).
#
# See test.py for more information.
python_examples = []
