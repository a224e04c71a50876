#!/usr/bin/env python3
"""Check a timeline (AMP_TIMELINE's file) against the trace-event format's
rules and against the contract of docs/timeline.md.

    check_timeline.py FILE.json               every rule; silent and status 0 when kept
    check_timeline.py --format-only FILE      the trace-event format's rules only
    check_timeline.py --totals FILE.json      also print the transfers by direction and
                                              reason, as JSON, to compare with the ledger

Each broken rule is printed as "FILE: event N (...): what is wrong", and the
status is 1. The rules are numbered as docs/timeline.md numbers them. Python 3
and its standard library only: amp-draw imports this module to read its input.
"""

import argparse
import json
import math
import re
import sys

FORMAT_NAME = "amp-timeline"
# The version this library writes, and those a reader still takes: version
# 1 placed a device-timed kernel's launch flow at its call's begin.
FORMAT_VERSIONS = (1, 2)
FORMAT_VERSION = FORMAT_VERSIONS[-1]

# The trace-event format's phases.
PHASES = set("B E X i I C b n e s t f M P O N D ( )".split())
METADATA_NAMES = {
    "process_name": ("name", str),
    "process_labels": ("labels", str),
    "process_sort_index": ("sort_index", int),
    "thread_name": ("name", str),
    "thread_sort_index": ("sort_index", int),
}

# This contract's kinds of events: cat -> (phase, names, or None for any).
CATEGORIES = {
    "amp.call": ("X", None),
    "amp.kernel": ("X", None),
    "amp.transfer": ("X", {"upload", "download", "copy"}),
    "amp.flow": ("sf", {"launch", "transfer"}),
    "amp.view": ("i", {"view created", "view released"}),
    "amp.where": ("C", None),
    "amp.check": ("i", {"data race", "barrier divergence", "out of bounds", "api error", "other"}),
    "amp.timeline": ("i", {"events dropped", "timeline started", "timeline stopped"}),
}
DIRECTIONS = {"host_to_device": "upload", "device_to_host": "download", "device_to_device": "copy"}
# amp_transfer_reason_name's words (runtime/data/ledger.c).
REASONS = ("kernel", "host access", "synchronize", "release", "copy")
MODES = ("simple", "tiled", "padded", "truncated")
LAUNCHES = ("amp_parallel_for_each", "amp_parallel_for_each_tiled")
OTHER_DATA = {
    "format": str,
    "version": int,
    "library": str,
    "clock": str,
    "pid": int,
    "max_events": int,
    "events": int,
    "dropped": int,
    "check": bool,
}
SITE = re.compile(r"^.+:[0-9]+$")
PLACE = re.compile(r"^.+:[0-9]+:[0-9]+$")
# Timestamps carry at most nanoseconds; sums of them are compared with this slack.
EPS = 1e-6


class TimelineError(Exception):
    """The file cannot be read as JSON at all."""


def load(path):
    """The parsed file, or TimelineError with a message a person can act on."""

    def no_constant(name):
        raise ValueError("%s is not a JSON number" % name)

    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise TimelineError("cannot read it: %s" % (e.strerror or e))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TimelineError("not UTF-8 text (byte %d): not a timeline" % e.start)
    try:
        return json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as e:
        raise TimelineError("not JSON: %s at line %d, column %d" % (e.msg, e.lineno, e.colno))
    except (ValueError, RecursionError) as e:
        raise TimelineError("not JSON: %s" % e)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool)
            and math.isfinite(v))


def describe(i, ev):
    """How a message names event i."""
    if not isinstance(ev, dict):
        return "event %d" % i
    parts = [str(ev.get("ph", "?"))]
    if isinstance(ev.get("cat"), str):
        parts.append(ev["cat"])
    if isinstance(ev.get("name"), str):
        parts.append(repr(ev["name"]))
    return "event %d (%s)" % (i, " ".join(parts))


class Report:
    """The problems found, each tied to an event or to the file."""

    def __init__(self):
        self.problems = []

    def add(self, where, text):
        self.problems.append("%s: %s" % (where, text) if where else text)


def events_of(data, report, allow_array):
    """The list of events, or None when there is none to check (rule 1)."""
    if isinstance(data, list):
        if allow_array:
            return data
        report.add("", "rule 1: the top level is an array; the contract asks for the object"
                       " form {\"traceEvents\": [...], ...}")
        return None
    if not isinstance(data, dict):
        report.add("", "rule 1: the top level is a %s, not a trace-event object"
                       % type(data).__name__)
        return None
    events = data.get("traceEvents")
    if not isinstance(events, list):
        report.add("", "rule 1: no \"traceEvents\" array: not a trace-event file")
        return None
    unit = data.get("displayTimeUnit")
    if unit is not None and unit not in ("ms", "ns"):
        report.add("", "rule 1: displayTimeUnit is %r, not \"ms\" or \"ns\"" % (unit,))
    return events


def track(ev):
    return (ev.get("pid"), ev.get("tid"))


def check_format(events, report):
    """The trace-event format's rules (2 to 9). Returns the indices of the
    events well-formed enough for the later rules."""
    good = []
    for i, ev in enumerate(events):
        where = describe(i, ev)
        if not isinstance(ev, dict):
            report.add(where, "rule 2: an event is a JSON object, not a %s" % type(ev).__name__)
            continue
        ph = ev.get("ph")
        if not isinstance(ph, str) or ph not in PHASES:
            report.add(where, "rule 2: \"ph\" is %r, not a trace-event phase" % (ph,))
            continue
        ok = True
        for key in ("pid", "tid"):
            if not is_int(ev.get(key)):
                report.add(where, "rule 2: \"%s\" is missing or not an integer" % key)
                ok = False
        if "name" in ev or ph != "E":
            if not isinstance(ev.get("name"), str):
                report.add(where, "rule 2: \"name\" is missing or not a string")
                ok = False
        if ph != "M" and not is_num(ev.get("ts")):
            report.add(where, "rule 2: \"ts\" is missing or not a number")
            ok = False
        if "args" in ev and not isinstance(ev["args"], dict):
            report.add(where, "rule 2: \"args\" is not an object")
            ok = False
        if "cat" in ev and not isinstance(ev["cat"], str):
            report.add(where, "rule 2: \"cat\" is not a string")
            ok = False
        if ph == "X" and not (is_num(ev.get("dur")) and ev["dur"] >= 0):
            report.add(where, "rule 3: a complete event (\"X\") needs a number \"dur\" >= 0")
            ok = False
        if ph in "iI" and "s" in ev and ev["s"] not in ("g", "p", "t"):
            report.add(where, "rule 6: scope \"s\" is %r, not \"g\", \"p\" or \"t\"" % (ev["s"],))
        if ph == "C":
            args = ev.get("args")
            if not isinstance(args, dict) or not args or not all(is_num(v) for v in args.values()):
                report.add(where, "rule 7: a counter's args are its series: numbers only")
        if ph in "stf":
            if not (is_int(ev.get("id")) or isinstance(ev.get("id"), str)):
                report.add(where, "rule 8: a flow event needs an \"id\" (a number or a string)")
                ok = False
            if not isinstance(ev.get("cat"), str):
                report.add(where, "rule 8: a flow event needs a \"cat\"")
                ok = False
            if "bp" in ev and ev["bp"] != "e":
                report.add(where, "rule 8: \"bp\" is %r; the only binding point is \"e\""
                           % (ev["bp"],))
        if ph == "M":
            name = ev.get("name")
            spec = METADATA_NAMES.get(name) if isinstance(name, str) else None
            if spec is None:
                report.add(where, "rule 9: %r is not a metadata event's name" % (ev.get("name"),))
                ok = False
            else:
                key, kind = spec
                args = ev.get("args")
                value = args.get(key) if isinstance(args, dict) else None
                if not (is_int(value) if kind is int else isinstance(value, kind)):
                    report.add(where, "rule 9: %s needs args.%s (%s)"
                               % (ev["name"], key, "an integer" if kind is int else "a string"))
                    ok = False
        if ok:
            good.append(i)
    check_tracks(events, good, report)
    check_flows(events, good, report)
    return good


def check_tracks(events, good, report):
    """Rules 3 to 5: begin/end balance, order and nesting on each track."""
    stacks = {}
    last_ts = {}
    slices = {}
    for i in good:
        ev = events[i]
        ph = ev["ph"]
        key = track(ev)
        where = describe(i, ev)
        timed = ph in "BEX" or (ph in "iI" and ev.get("s", "t") == "t")
        if timed:
            if key in last_ts and ev["ts"] < last_ts[key][0] - EPS:
                report.add(where, "rule 5: ts %s is before ts %s of event %d on the same track"
                           " (pid %s, tid %s)" % (ev["ts"], last_ts[key][0], last_ts[key][1],
                                                  key[0], key[1]))
            last_ts[key] = (max(ev["ts"], last_ts.get(key, (ev["ts"], i))[0]), i)
        if ph == "B":
            stacks.setdefault(key, []).append(i)
        elif ph == "E":
            stack = stacks.get(key)
            if not stack:
                report.add(where, "rule 4: an \"E\" with no open \"B\" on its track")
                continue
            b = events[stack.pop()]
            if "name" in ev and ev["name"] != b["name"]:
                report.add(where, "rule 4: this \"E\" is named %r but closes %r"
                           % (ev["name"], b["name"]))
            if ev["ts"] < b["ts"] - EPS:
                report.add(where, "rule 4: an \"E\" before its \"B\"")
        elif ph == "X":
            slices.setdefault(key, []).append(i)
    for key, stack in stacks.items():
        for i in stack:
            report.add(describe(i, events[i]), "rule 4: a \"B\" never closed by an \"E\"")
    for key, idx in slices.items():
        idx.sort(key=lambda i: (events[i]["ts"], -events[i]["dur"]))
        open_ends = []
        for i in idx:
            ev = events[i]
            start, end = ev["ts"], ev["ts"] + ev["dur"]
            while open_ends and open_ends[-1][0] <= start + EPS:
                open_ends.pop()
            if open_ends and end > open_ends[-1][0] + EPS:
                report.add(describe(i, ev), "rule 3: overlaps event %d on its track without"
                           " nesting in it" % open_ends[-1][1])
            open_ends.append((end, i))


def check_flows(events, good, report):
    """Rule 8: each flow id starts once and finishes once, in that order."""
    starts, ends = {}, {}
    for i in good:
        ev = events[i]
        if ev["ph"] not in "sf":
            continue
        key = (ev["cat"], ev["id"])
        table = starts if ev["ph"] == "s" else ends
        if key in table:
            report.add(describe(i, ev), "rule 8: flow id %r (cat %r) %s twice (event %d too)"
                       % (ev["id"], ev["cat"], "starts" if ev["ph"] == "s" else "finishes",
                          table[key]))
        else:
            table[key] = i
    for key, i in starts.items():
        if key not in ends:
            report.add(describe(i, events[i]), "rule 8: flow id %r never finishes" % (key[1],))
        elif events[ends[key]]["ts"] < events[i]["ts"] - EPS:
            report.add(describe(ends[key], events[ends[key]]),
                       "rule 8: flow id %r finishes before it starts" % (key[1],))
    for key, i in ends.items():
        if key not in starts:
            report.add(describe(i, events[i]), "rule 8: flow id %r finishes but never starts"
                       % (key[1],))


# ---- the contract ----

class Args:
    """Checks one event's args against its table (rule 15)."""

    def __init__(self, report, where, args):
        self.report, self.where, self.args = report, where, args

    def bad(self, key, what):
        self.report.add(self.where, "rule 15: args.%s %s" % (key, what))

    def get(self, key, test, what, optional=False):
        if key not in self.args:
            if not optional:
                self.bad(key, "is missing (%s)" % what)
            return None
        value = self.args[key]
        if not test(value):
            self.bad(key, "is %s, not %s" % (json.dumps(value)[:60], what))
            return None
        return value

    def int(self, key, optional=False, minimum=None):
        return self.get(key, lambda v: is_int(v) and (minimum is None or v >= minimum),
                        "an integer" + ("" if minimum is None else " >= %d" % minimum), optional)

    def str(self, key, optional=False, choices=None, pattern=None, what=None):
        def ok(v):
            return (isinstance(v, str) and v != "" and (choices is None or v in choices)
                    and (pattern is None or pattern.match(v)))
        if what is None:
            what = ("one of " + ", ".join('"%s"' % c for c in choices)) if choices else "a string"
        return self.get(key, ok, what, optional)

    def bool(self, key, optional=False):
        return self.get(key, lambda v: isinstance(v, bool), "true or false", optional)

    def num(self, key, lo, hi):
        return self.get(key, lambda v: is_num(v) and lo <= v <= hi,
                        "a number from %s to %s" % (lo, hi))

    def ints(self, key, lo_rank, hi_rank, optional=False, positive=True, allow_null=False):
        def ok(v):
            if v is None:
                return allow_null
            return (isinstance(v, list) and lo_rank <= len(v) <= hi_rank
                    and all(is_int(x) and (x > 0 if positive else x >= 0) for x in v))
        what = "an array of %d to %d %sintegers%s" % (
            lo_rank, hi_rank, "positive " if positive else "non-negative ",
            " or null" if allow_null else "")
        return self.get(key, ok, what, optional)


def texture_ref_ok(t):
    return (isinstance(t, dict) and isinstance(t.get("name"), str) and t["name"] != ""
            and is_int(t.get("texture_id")) and t["texture_id"] > 0
            and isinstance(t.get("writes"), bool))


def view_ref_ok(v):
    return (isinstance(v, dict) and isinstance(v.get("name"), str) and v["name"] != ""
            and is_int(v.get("view_id")) and v["view_id"] > 0
            and is_int(v.get("data_id")) and v["data_id"] > 0)


class Contract:
    """Rules 10 to 20, over events that passed the format's rules."""

    def __init__(self, data, events, good, report):
        self.data, self.events, self.good, self.report = data, events, good, report
        self.calls, self.kernels, self.transfers = {}, {}, {}
        self.view_data = {}
        self.data_ids = set()
        self.where_events = []
        self.checks = []
        self.flows = {}
        self.dropped = 0
        self.version = FORMAT_VERSION

    def add(self, i, text):
        self.report.add(describe(i, self.events[i]), text)

    def run(self):
        if not self.other_data():
            return
        self.metadata()
        for i in self.good:
            ev = self.events[i]
            if ev["ph"] != "M":
                self.event(i, ev)
        self.references()
        self.flow_links()
        self.where_names()
        self.check_links()
        self.counts()

    def other_data(self):
        """Rule 10's otherData. False when the file is another tool's trace, whose
        events this contract does not describe."""
        data = self.data
        other = data.get("otherData")
        if not isinstance(other, dict) or other.get("format") != FORMAT_NAME:
            self.report.add("", "rule 10: otherData.format is not \"%s\": a trace, but not a"
                                " timeline of this library (check_timeline.py --format-only"
                                " checks any trace's format)"
                            % FORMAT_NAME)
            return False
        if data.get("displayTimeUnit") != "ns":
            self.report.add("", "rule 10: displayTimeUnit is %r, not \"ns\""
                            % (data.get("displayTimeUnit"),))
        for key, kind in OTHER_DATA.items():
            v = other.get(key)
            if kind is int and not is_int(v) or kind is not int and not isinstance(v, kind):
                self.report.add("", "rule 10: otherData.%s is %s, not %s" % (
                    key, "missing" if v is None else json.dumps(v)[:60],
                    {int: "an integer", str: "a string", bool: "true or false"}[kind]))
        if is_int(other.get("version")) and other["version"] not in FORMAT_VERSIONS:
            self.report.add("", "rule 10: otherData.version is %d; this checker knows versions"
                            " %s" % (other["version"], ", ".join(map(str, FORMAT_VERSIONS))))
        self.version = other.get("version") if is_int(other.get("version")) else FORMAT_VERSION
        if "program" in other and not isinstance(other["program"], str):
            self.report.add("", "rule 10: otherData.program is not a string")
        for key, v in other.items():
            if isinstance(v, (dict, list)):
                self.report.add("", "rule 10: otherData.%s is not a string, number or boolean"
                                % key)
        if is_int(other.get("max_events")) and other["max_events"] < 1:
            self.report.add("", "rule 10: otherData.max_events is below 1")
        if is_int(other.get("dropped")):
            self.dropped = other["dropped"]
        return True

    def metadata(self):
        seen = {}
        last_m, first_other = -1, None
        for i in self.good:
            ev = self.events[i]
            if ev["ph"] != "M":
                if first_other is None:
                    first_other = i
                continue
            last_m = i
            if ev.get("ts", 0) != 0:
                self.add(i, "rule 12: metadata events have ts 0")
            name = ev["name"]
            if name not in ("process_name", "process_sort_index", "thread_name",
                            "thread_sort_index"):
                continue
            key = (name, ev["pid"]) if name.startswith("process") else (name, ev["pid"], ev["tid"])
            if key in seen:
                self.add(i, "rule 12: a second %s for this %s (event %d)"
                         % (name, "process" if name.startswith("process") else "track", seen[key]))
            seen[key] = i
            if name.startswith("thread") and ev["tid"] < 1:
                self.add(i, "rule 12: tid 0 is the process's own track; threads are 1 and up")
        if first_other is not None and last_m > first_other:
            self.add(last_m, "rule 12: metadata events come before every other event")
        self.named = seen
        used_pids, used_tracks = set(), set()
        for i in self.good:
            ev = self.events[i]
            if ev["ph"] == "M":
                continue
            used_pids.add(ev["pid"])
            if ev["tid"] >= 1:
                used_tracks.add((ev["pid"], ev["tid"]))
        for pid in sorted(used_pids):
            for name in ("process_name", "process_sort_index"):
                if (name, pid) not in seen:
                    self.report.add("", "rule 12: pid %d has events but no %s" % (pid, name))
        for pid, tid in sorted(used_tracks):
            for name in ("thread_name", "thread_sort_index"):
                if (name, pid, tid) not in seen:
                    self.report.add("", "rule 12: track pid %d tid %d has events but no %s"
                                    % (pid, tid, name))

    def event(self, i, ev):
        ph, cat = ev["ph"], ev.get("cat")
        if ph not in "MXiCsf":
            self.add(i, "rule 11: phase %r is not one this contract writes" % ph)
            return
        if not isinstance(cat, str) or cat not in CATEGORIES:
            self.add(i, "rule 11: cat %r is not one of %s" % (cat, ", ".join(sorted(CATEGORIES))))
            return
        phases, names = CATEGORIES[cat]
        if ph not in phases:
            self.add(i, "rule 11: a %s event has phase %r, not %r" % (cat, ph, phases))
            return
        if names is not None and ev["name"] not in names:
            self.add(i, "rule 11: %r is not a %s event's name (%s)"
                     % (ev["name"], cat, ", ".join(sorted(names))))
            return
        if not isinstance(ev.get("args"), dict):
            self.add(i, "rule 11: every event has an \"args\" object")
            return
        if ev["ts"] < 0:
            self.add(i, "rule 13: ts is negative")
        if self.prev_ts is not None and ev["ts"] < self.prev_ts[0] - EPS:
            self.add(i, "rule 13: ts %s is before ts %s of event %d: events go in ts order"
                     % (ev["ts"], self.prev_ts[0], self.prev_ts[1]))
        if self.prev_ts is None or ev["ts"] >= self.prev_ts[0]:
            self.prev_ts = (ev["ts"], i)
        host = ev["pid"] == 1
        if cat in ("amp.call", "amp.view") or ph == "s":
            if not (host and ev["tid"] >= 1):
                self.add(i, "rule 12: this event goes on a host thread (pid 1, tid >= 1)")
        elif cat in ("amp.kernel", "amp.transfer", "amp.check") or ph == "f":
            if not (ev["pid"] >= 2 and ev["tid"] >= 1):
                self.add(i, "rule 12: this event goes on a queue (pid >= 2, tid >= 1)")
        elif not (host and ev["tid"] == 0):
            self.add(i, "rule 12: this event goes on the host process's own track (pid 1, tid 0)")
        if self.dropped_event is not None:
            self.add(i, "rule 10: events after \"events dropped\", which comes last")
        getattr(self, "ev_" + cat.split(".")[1])(i, ev, Args(self.report, describe(i, ev),
                                                              ev["args"]))

    prev_ts = None
    dropped_event = None

    def event_id(self, i, a, table):
        eid = a.int("id", minimum=1)
        if eid is None:
            return
        for other in (self.calls, self.kernels, self.transfers):
            if eid in other:
                self.add(i, "rule 14: id %d is also event %d's" % (eid, other[eid]))
                return
        table[eid] = i

    def view(self, i, view_id, data_id):
        if not is_int(view_id) or not is_int(data_id):
            return
        self.data_ids.add(data_id)
        known = self.view_data.setdefault(view_id, (data_id, i))
        if known[0] != data_id:
            self.add(i, "rule 14: view_id %d goes with data_id %d here, with %d in event %d"
                     % (view_id, data_id, known[0], known[1]))

    def ev_call(self, i, ev, a):
        if not ev["name"].startswith("amp_"):
            self.add(i, "rule 11: a call's name starts with amp_")
        self.event_id(i, a, self.calls)
        a.str("status", pattern=re.compile(r"^AMP_[A-Z0-9_]+$"),
              what="a status as amp_status_name spells it")
        a.str("site", optional=True, pattern=SITE, what="\"file:line\"")
        if ev["name"] in LAUNCHES:
            a.str("site", pattern=SITE, what="\"file:line\"")
            a.str("kernel")
        else:
            a.str("kernel", optional=True)
        v, d = a.int("view_id", True, 1), a.int("data_id", True, 1)
        self.view(i, v, d)

    def ev_kernel(self, i, ev, a):
        self.event_id(i, a, self.kernels)
        a.int("call_id", minimum=1)
        name = a.str("kernel")
        if name is not None and name != ev["name"]:
            self.add(i, "rule 15: args.kernel %r is not the event's name %r" % (name, ev["name"]))
        a.str("site", pattern=SITE, what="\"file:line\"")
        av = a.int("accelerator_view", minimum=1)
        if av is not None and av != ev["tid"]:
            self.add(i, "rule 16: accelerator_view %d is not the tid %d of its queue"
                     % (av, ev["tid"]))
        timed = a.str("timed", choices=("device", "host"))
        sampled = a.bool("sampled", optional=True)
        if sampled is not None and (sampled or timed != "host"):
            self.add(i, "rule 16: \"sampled\" is only ever false, on a kernel timed on the host")
        a.bool("check", optional=True)
        for key in ("reads", "writes"):
            refs = a.get(key, lambda v: isinstance(v, list) and all(view_ref_ok(r) for r in v),
                         "an array of {\"name\", \"view_id\", \"data_id\"}")
            for r in refs or []:
                self.view(i, r["view_id"], r["data_id"])
        a.get("textures", lambda v: isinstance(v, list) and all(texture_ref_ok(t) for t in v),
              "an array of {\"name\", \"texture_id\", \"writes\"}", optional=True)
        extent = a.ints("extent", 1, 8)
        mode = a.str("mode", choices=MODES)
        tile = a.ints("tile", 1, 3, allow_null=True)
        original = a.ints("original", 1, 8, optional=mode != "padded")
        if extent is None or mode is None or "tile" not in ev["args"]:
            return
        self.shape(i, extent, tile, mode, original)

    def shape(self, i, extent, tile, mode, original):
        """Rule 16: the extent, tile and mode agree."""
        if (tile is None) != (mode == "simple"):
            self.add(i, "rule 16: tile is null exactly when mode is \"simple\"")
            return
        if tile is None:
            return
        if len(tile) != len(extent):
            self.add(i, "rule 16: the tile's rank %d is not the extent's %d"
                     % (len(tile), len(extent)))
            return
        for d, (e, t) in enumerate(zip(extent, tile)):
            if e % t:
                self.add(i, "rule 16: dimension %d of the extent, %d, is not a multiple of the"
                         " tile's %d" % (d, e, t))
        if original is None:
            return
        if len(original) != len(extent):
            self.add(i, "rule 16: original has rank %d, the extent %d"
                     % (len(original), len(extent)))
            return
        if mode == "padded":
            want = [-(-o // t) * t for o, t in zip(original, tile)]
            if want != extent:
                self.add(i, "rule 16: padding %s to tiles %s gives %s, not the extent %s"
                         % (original, tile, want, extent))
            elif want == original:
                self.add(i, "rule 16: mode \"padded\" with nothing padded (original == extent)")
        elif mode == "truncated":
            want = [o // t * t for o, t in zip(original, tile)]
            if want != extent:
                self.add(i, "rule 16: truncating %s to tiles %s gives %s, not the extent %s"
                         % (original, tile, want, extent))
        elif original != extent:
            self.add(i, "rule 16: mode %r has an original extent %s other than its extent %s"
                     % (mode, original, extent))

    def ev_transfer(self, i, ev, a):
        self.event_id(i, a, self.transfers)
        a.str("view")
        direction = a.str("direction", choices=tuple(DIRECTIONS))
        if direction is not None and DIRECTIONS[direction] != ev["name"]:
            self.add(i, "rule 17: a %s transfer is named %r, not %r"
                     % (direction, DIRECTIONS[direction], ev["name"]))
        a.str("reason", choices=REASONS)
        a.int("bytes", minimum=0)
        a.int("call_id", optional=True, minimum=1)
        a.int("accelerator_view", minimum=1)
        a.str("timed", choices=("device", "host"))
        a.str("path", optional=True, choices=("direct", "mapped", "staged"))
        texture = a.int("texture_id", optional=True, minimum=1)
        v, d = a.int("view_id", True, 1), a.int("data_id", True, 1)
        if texture is None and (v is None or d is None):
            self.add(i, "rule 17: a transfer has view_id and data_id, or texture_id")
        self.view(i, v, d)

    def ev_flow(self, i, ev, a):
        if ev["ph"] == "f" and ev.get("bp") != "e":
            self.add(i, "rule 18: a flow's \"f\" has \"bp\": \"e\"")
        self.flows.setdefault(ev["id"], {})[ev["ph"]] = i

    def ev_view(self, i, ev, a):
        v, d = a.int("view_id", minimum=1), a.int("data_id", minimum=1)
        self.view(i, v, d)
        if ev["name"] == "view created":
            a.ints("extent", 1, 8)
            a.int("element_bytes", optional=True, minimum=1)
            a.str("kind", optional=True, choices=("view", "const view", "array"))
        else:
            a.bool("last")

    def ev_where(self, i, ev, a):
        m = re.match(r"^data ([1-9][0-9]*)$", ev["name"])
        if not m:
            self.add(i, "rule 19: a where counter is named \"data N\", not %r" % ev["name"])
        else:
            self.where_events.append((i, int(m.group(1))))
        extra = set(ev["args"]) - {"host", "device"}
        if extra:
            self.add(i, "rule 19: a where counter has only host and device, not %s"
                     % ", ".join(sorted(extra)))
        a.num("host", 0, 1)
        a.num("device", 0, 1)

    def ev_check(self, i, ev, a):
        a.int("kernel_id", minimum=1)
        a.str("kernel")
        a.str("site", pattern=SITE, what="\"file:line\"")
        problem = a.str("problem", choices=CATEGORIES["amp.check"][1])
        if problem is not None and problem != ev["name"]:
            self.add(i, "rule 20: args.problem %r is not the event's name %r"
                     % (problem, ev["name"]))
        a.str("message")
        a.int("times", minimum=1)
        for key in ("at", "other_at"):
            a.str(key, optional=True, pattern=PLACE, what="\"file:line:column\"")
        a.get("code", lambda v: isinstance(v, str), "a string", optional=True)
        a.str("hint", optional=True)
        a.str("memory", optional=True, choices=("tile_static", "global", "private"))
        a.str("array", optional=True)
        shape = a.ints("array_extent", 0, 8, optional=True)
        element = a.ints("element", 0, 8, optional=True, positive=False)
        if shape is not None and element is not None:
            if len(shape) != len(element):
                self.add(i, "rule 20: element %s has not the rank of array_extent %s"
                         % (element, shape))
            elif problem == "out of bounds":
                if all(e < s for e, s in zip(element, shape)):
                    self.add(i, "rule 20: element %s of an access out of bounds lies inside"
                             " array_extent %s" % (element, shape))
            elif any(e >= s for e, s in zip(element, shape)):
                self.add(i, "rule 20: element %s lies outside array_extent %s" % (element, shape))
        accesses = a.get("accesses", lambda v: isinstance(v, list) and len(v) >= 1,
                         "an array of accesses", optional=True)
        for n, acc in enumerate(accesses or []):
            self.access(i, n, acc)
        barrier = a.get("barrier", lambda v: isinstance(v, dict), "an object", optional=True)
        if barrier is not None:
            b = Args(self.report, describe(i, ev), barrier)
            b.str("after", pattern=SITE, what="\"file:line\"")
            b.str("before", pattern=SITE, what="\"file:line\"")
            b.get("next_turn", lambda v: v is True, "true", optional=True)
            b.get("global_fence", lambda v: v is True, "true", optional=True)
            existing = b.get("existing", lambda v: isinstance(v, dict), "an object",
                             optional=True)
            if existing is not None:
                e = Args(self.report, describe(i, ev) + " barrier.existing", existing)
                e.str("at", pattern=SITE, what="\"file:line\"")
                e.get("code", lambda v: isinstance(v, str), "a string", optional=True)
            elif barrier.get("next_turn") or barrier.get("global_fence"):
                self.add(i, "rule 20: a barrier's next_turn or global_fence comes with the"
                         " existing barrier it is about")
        a.ints("tile", 1, 3, optional=True, positive=False)
        a.int("reached", optional=True, minimum=0)
        a.int("tile_threads", optional=True, minimum=1)
        self.checks.append(i)

    def access(self, i, n, acc):
        if not isinstance(acc, dict):
            self.add(i, "rule 20: accesses[%d] is not an object" % n)
            return
        b = Args(self.report, "%s accesses[%d]" % (describe(i, self.events[i]), n), acc)
        b.ints("global", 1, 8, positive=False)
        b.ints("local", 1, 3, optional=True, positive=False)
        b.ints("tile", 1, 3, optional=True, positive=False)
        b.str("access", choices=("read", "write"))
        b.str("at", optional=True, pattern=PLACE, what="\"file:line:column\"")
        b.get("code", lambda v: isinstance(v, str), "a string", optional=True)

    def ev_timeline(self, i, ev, a):
        if ev.get("s") != "g":
            self.add(i, "rule 11: the timeline's own events are global (\"s\": \"g\")")
        if ev["name"] == "events dropped":
            self.dropped_event = i
            n = a.int("dropped", minimum=1)
            a.int("max_events", minimum=1)
            if n is not None and n != self.dropped:
                self.add(i, "rule 10: args.dropped %d is not otherData.dropped %d"
                         % (n, self.dropped))

    def references(self):
        """Rule 14 and 16: call_id and the launch behind each kernel."""
        lenient = self.dropped > 0
        for table in (self.kernels, self.transfers):
            for eid, i in table.items():
                call = self.events[i]["args"].get("call_id")
                if not is_int(call):
                    continue
                if call not in self.calls:
                    if not lenient:
                        self.add(i, "rule 14: call_id %d names no call in the file" % call)
                elif table is self.kernels and \
                        self.events[self.calls[call]]["name"] not in LAUNCHES:
                    self.add(i, "rule 16: call_id %d is a %s call, not a launch"
                             % (call, self.events[self.calls[call]]["name"]))

    def flow_links(self):
        """Rule 18: each kernel, and each transfer with a call, has its one flow;
        a launch's flow starts after those of the uploads its kernel needed."""
        uploaded = {}  # call_id: the latest "s" of its transfers for a kernel
        launches = []  # (call_id, index of a launch flow's "s")
        for table, name in ((self.kernels, "launch"), (self.transfers, "transfer")):
            for eid, i in table.items():
                ev = self.events[i]
                call = ev["args"].get("call_id")
                if not is_int(call):
                    continue
                pair = self.flows.get(eid)
                if not pair or "s" not in pair or "f" not in pair:
                    if call in self.calls:
                        self.add(i, "rule 18: no \"%s\" flow with id %d from its call"
                                 % (name, eid))
                    continue
                s, f = self.events[pair["s"]], self.events[pair["f"]]
                if s["name"] != name or f["name"] != name:
                    self.add(pair["s"], "rule 18: the flow to a %s is named %r"
                             % (ev["cat"].split(".")[1], name))
                if track(f) != track(ev) or abs(f["ts"] - ev["ts"]) > EPS:
                    self.add(pair["f"], "rule 18: a flow's \"f\" is on its work's track at the"
                                        " work's ts (event %d)" % i)
                if name == "launch" and abs(s["ts"] - f["ts"]) > EPS:
                    launches.append((call, pair["s"]))
                elif ev["args"].get("reason") == "kernel":
                    uploaded[call] = max(uploaded.get(call, s["ts"]), s["ts"])
                if call in self.calls:
                    c = self.events[self.calls[call]]
                    if track(s) != track(c) or not (c["ts"] - EPS <= s["ts"]
                                                    <= c["ts"] + c["dur"] + EPS):
                        self.add(pair["s"], "rule 18: a flow's \"s\" lies within its call"
                                            " (event %d) on the call's track" % self.calls[call])
        for call, i in launches if self.version >= 2 else ():
            if call in uploaded and self.events[i]["ts"] < uploaded[call] - EPS:
                self.add(i, "rule 18: a launch's flow starts before a transfer its call made"
                            " for the kernel (ts %s)" % uploaded[call])
        targets = set(self.kernels) | set(self.transfers)
        for fid, pair in self.flows.items():
            if fid not in targets:
                i = pair.get("s", pair.get("f"))
                self.add(i, "rule 18: flow id %r points to no kernel or transfer" % (fid,))

    def where_names(self):
        for i, data_id in self.where_events:
            if data_id not in self.data_ids:
                self.add(i, "rule 19: data %d is no data_id of the file's views" % data_id)

    def check_links(self):
        for i in self.checks:
            ev = self.events[i]
            kid = ev["args"].get("kernel_id")
            if not is_int(kid):
                continue
            if kid not in self.kernels:
                if self.dropped == 0:
                    self.add(i, "rule 20: kernel_id %d names no kernel" % kid)
                continue
            k = self.events[self.kernels[kid]]
            if track(k) != track(ev) or not (k["ts"] - EPS <= ev["ts"]
                                             <= k["ts"] + k["dur"] + EPS):
                self.add(i, "rule 20: a finding sits on its kernel's track, within or at the end"
                            " of it (event %d)" % self.kernels[kid])

    def counts(self):
        other = self.data.get("otherData")
        if not isinstance(other, dict):
            return
        n = sum(1 for ev in self.events if not (isinstance(ev, dict) and ev.get("ph") == "M"))
        if is_int(other.get("events")) and other["events"] != n:
            self.report.add("", "rule 10: otherData.events is %d, but the file has %d events"
                                " besides metadata" % (other["events"], n))
        if self.dropped > 0 and self.dropped_event is None:
            self.report.add("", "rule 10: otherData.dropped is %d but no \"events dropped\""
                                " event ends the file" % self.dropped)
        if self.dropped == 0 and self.dropped_event is not None:
            self.add(self.dropped_event, "rule 10: \"events dropped\" but otherData.dropped is 0")
        if is_int(other.get("max_events")) and n > other["max_events"] + (self.dropped > 0):
            self.report.add("", "rule 10: %d events, over max_events %d"
                            % (n, other["max_events"]))


def check(data, format_only=False):
    """Every problem of a parsed file, as a list of messages (empty: it keeps
    the rules)."""
    report = Report()
    events = events_of(data, report, allow_array=format_only)
    if events is None:
        return report.problems
    good = check_format(events, report)
    if not format_only:
        Contract(data, events, good, report).run()
    return report.problems


def transfer_totals(data):
    """The transfers by direction and reason, counted as amp_transfer_stats
    counts them (amp/transfer.h), from a file that passed the checks."""
    count = {d: {r: 0 for r in REASONS} for d in DIRECTIONS}
    size = {d: {r: 0 for r in REASONS} for d in DIRECTIONS}
    for ev in data["traceEvents"]:
        if ev.get("ph") == "X" and ev.get("cat") == "amp.transfer":
            a = ev["args"]
            count[a["direction"]][a["reason"]] += 1
            size[a["direction"]][a["reason"]] += a["bytes"]
    totals = {"count": count, "bytes": size}
    for d, (n, b) in (("host_to_device", ("uploads", "upload_bytes")),
                      ("device_to_host", ("downloads", "download_bytes")),
                      ("device_to_device", ("device_copies", "device_copy_bytes"))):
        totals[n] = sum(count[d].values())
        totals[b] = sum(size[d].values())
    return totals


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="check_timeline.py",
        description="Check a timeline (AMP_TIMELINE's Chrome trace-event JSON) against the"
                    " trace-event format and docs/timeline.md.")
    parser.add_argument("file", help="the timeline, FILE.json")
    parser.add_argument("--format-only", action="store_true",
                        help="check only the trace-event format's rules (any trace)")
    parser.add_argument("--totals", action="store_true",
                        help="print the transfers' counts and bytes by direction and reason")
    parser.add_argument("--max-messages", type=int, default=50, metavar="N",
                        help="print at most N problems (default 50)")
    args = parser.parse_args(argv)
    try:
        data = load(args.file)
    except TimelineError as e:
        print("%s: %s" % (args.file, e), file=sys.stderr)
        return 1
    problems = check(data, args.format_only)
    for p in problems[:max(args.max_messages, 1)]:
        print("%s: %s" % (args.file, p), file=sys.stderr)
    if len(problems) > args.max_messages:
        print("%s: ... and %d more" % (args.file, len(problems) - args.max_messages),
              file=sys.stderr)
    if problems:
        return 1
    if args.totals and not args.format_only:
        print(json.dumps(transfer_totals(data), indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
