#!/usr/bin/env python3
"""Which uploads ran beside kernels, as a timeline shows them.

    bench/timeline-overlap.py RUN.json [--expect-overlap]

RUN.json is AMP_TIMELINE's file of a run (docs/timeline.md), checked first
with tools/amp-draw/check_timeline.py. Large uploads go on a device's
transfer queue (docs/performance.md, "Transfers"), where they may run while
kernels of the device's other queues do: for each transfer on a transfer
queue, this prints the kernels of the same accelerator whose device times
overlap it, and how much of the shorter of the two they share. With
--expect-overlap the status is 1 when no transfer overlaps a kernel (a run
on a GPU, where the library overlaps them). Python 3's standard library.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools", "amp-draw"))
import check_timeline  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(prog="timeline-overlap.py",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("timeline")
    parser.add_argument("--expect-overlap", action="store_true",
                        help="fail when no transfer overlaps a kernel")
    args = parser.parse_args(argv)
    data = check_timeline.load(args.timeline)
    problems = check_timeline.check(data)
    if problems:
        print("%s breaks the timeline's contract:\n  %s" % (args.timeline,
                                                            "\n  ".join(problems[:20])))
        return 1
    events = data["traceEvents"]
    transfer_queues = {(e["pid"], e["tid"]) for e in events
                       if e["ph"] == "M" and e["name"] == "thread_name"
                       and e["args"].get("queue") == "transfer"}
    kernels = [e for e in events if e.get("cat") == "amp.kernel"]
    moves = [e for e in events if e.get("cat") == "amp.transfer"
             and (e["pid"], e["tid"]) in transfer_queues]
    print("| transfer | bytes | start, us | took, us | kernels beside it | shared, us |"
          " of the shorter |")
    print("|---|---:|---:|---:|---|---:|---:|")
    overlapping = 0
    for t in moves:
        t0, t1 = t["ts"], t["ts"] + t["dur"]
        beside, shared, shorter = [], 0.0, 0.0
        for k in kernels:
            if k["pid"] != t["pid"]:
                continue
            k0, k1 = k["ts"], k["ts"] + k["dur"]
            common = min(t1, k1) - max(t0, k0)
            if common > 0:
                beside.append(k["name"])
                shared += common
                shorter += min(t["dur"], k["dur"])
        overlapping += bool(beside)
        print("| %s %d (%s) | %d | %.1f | %.1f | %s | %.1f | %s |" % (
            t["name"], t["args"]["id"], t["args"]["view"], t["args"]["bytes"], t0, t["dur"],
            ", ".join(sorted(set(beside))) or "none", shared,
            "%.2f" % (shared / shorter) if shorter > 0 else "-"))
    print("\n%d of %d transfers on a transfer queue ran beside a kernel; %d kernels, %d transfers"
          " in all." % (overlapping, len(moves), len(kernels),
                        sum(1 for e in events if e.get("cat") == "amp.transfer")))
    if args.expect_overlap and overlapping == 0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
