#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a Chakra execution trace (ET) of a small data-parallel training step.

One file per rank, PREFIX.<rank>.et, in Chakra's format: length-delimited protobuf messages, a
GlobalMetadata then the Nodes, encoded here by hand with the field numbers of Chakra's published
schema (schema/protobuf/et_def.proto), so no protobuf package is needed. Every rank runs:

  forward of layers 1..L          COMP_NODE, --fwd-us each, in a chain
  backward of layers L..1         COMP_NODE, --bwd-us each, in a chain after the forward
  gradient all-reduce per layer   COMM_COLL_NODE ALL_REDUCE of --bytes, after its backward
                                  (data dependency), issued in order (control dependency on
                                  the previous all-reduce), overlapping the next backward
  optimizer step                  COMP_NODE, --opt-us, after every all-reduce

With --workload FILE it also writes a JSON workload running the trace for --steps steps, for
`quickstart --workload=FILE`.

Traces of real jobs come from Chakra's own tools (docs/workloads.md shows how); this script
makes a known one for tests and examples.
"""

import argparse
import json
import os
import sys

PROG = "make_dp_trace.py"

COMP_NODE = 4
COMM_COLL_NODE = 7
ALL_REDUCE = 0


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field_varint(field, v):
    return varint(field << 3) + varint(v)


def field_bytes(field, b):
    return varint((field << 3) | 2) + varint(len(b)) + b


def attr_int(name, v):
    """An AttributeProto with an int64_val."""
    return field_bytes(1, name.encode()) + field_varint(9, v)


def node(nid, name, ntype, data_deps=(), ctrl_deps=(), duration_us=0, attrs=()):
    m = field_varint(1, nid) + field_bytes(2, name.encode()) + field_varint(3, ntype)
    if ctrl_deps:
        m += field_bytes(4, b"".join(varint(d) for d in ctrl_deps))
    if data_deps:
        m += field_bytes(5, b"".join(varint(d) for d in data_deps))
    m += field_varint(7, duration_us)
    for a in attrs:
        m += field_bytes(10, a)
    return m


def rank_file(layers, nbytes, fwd_us, bwd_us, opt_us):
    msgs = [field_bytes(1, b"0.0.4")]  # GlobalMetadata.version
    nid = 0
    prev = None
    for layer in range(1, layers + 1):
        nid += 1
        msgs.append(node(nid, f"fwd{layer}", COMP_NODE, [prev] if prev else [], duration_us=fwd_us))
        prev = nid
    last_ar = None
    ars = []
    for layer in range(layers, 0, -1):
        nid += 1
        msgs.append(node(nid, f"bwd{layer}", COMP_NODE, [prev], duration_us=bwd_us))
        prev = nid
        nid += 1
        msgs.append(node(nid, f"allreduce{layer}", COMM_COLL_NODE, [prev],
                         [last_ar] if last_ar else [],
                         attrs=[attr_int("comm_type", ALL_REDUCE), attr_int("comm_size", nbytes)]))
        last_ar = nid
        ars.append(nid)
    nid += 1
    msgs.append(node(nid, "optimizer", COMP_NODE, ars, duration_us=opt_us))
    return b"".join(varint(len(m)) + m for m in msgs)


def main(argv=None):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", type=int, default=8, help="ranks (files) [8]")
    ap.add_argument("--layers", type=int, default=4, help="layers [4]")
    ap.add_argument("--bytes", type=int, default=4000000, help="gradient bytes per layer [4000000]")
    ap.add_argument("--fwd-us", type=int, default=20, help="forward compute per layer, us [20]")
    ap.add_argument("--bwd-us", type=int, default=40, help="backward compute per layer, us [40]")
    ap.add_argument("--opt-us", type=int, default=10, help="optimizer step, us [10]")
    ap.add_argument("--out", required=True, help="trace prefix: writes PREFIX.<rank>.et")
    ap.add_argument("--workload", help="also write a JSON workload running the trace")
    ap.add_argument("--steps", type=int, default=5, help="steps in the workload [5]")
    a = ap.parse_args(argv)
    for name, lo in (("ranks", 1), ("layers", 1), ("bytes", 1), ("fwd_us", 0), ("bwd_us", 0),
                     ("opt_us", 0), ("steps", 1)):
        if getattr(a, name) < lo:
            print(f"error: --{name.replace('_', '-')}: must be >= {lo}, got {getattr(a, name)}",
                  file=sys.stderr)
            return 2
    d = os.path.dirname(a.out)
    if d:
        os.makedirs(d, exist_ok=True)
    data = rank_file(a.layers, a.bytes, a.fwd_us, a.bwd_us, a.opt_us)
    for r in range(a.ranks):
        path = f"{a.out}.{r}.et"
        with open(path, "wb") as f:
            f.write(data)
    print(f"wrote {a.out}.0.et .. {a.out}.{a.ranks - 1}.et")
    if a.workload:
        rel = os.path.relpath(a.out, os.path.dirname(os.path.abspath(a.workload)))
        spec = {"description": f"data-parallel Chakra trace: {a.ranks} ranks, {a.layers} layers",
                "jobs": [{"name": "chakra-dp", "steps": a.steps, "chakra": rel}]}
        with open(a.workload, "w") as f:
            json.dump(spec, f, indent=2)
            f.write("\n")
        print(f"wrote {a.workload}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
