#!/usr/bin/env python3
"""Timelines of real runs: the samples run with AMP_TIMELINE set, and each
file checked against the trace-event format's rules and docs/timeline.md
(check_timeline.py), and against the ledger of the same run: one transfer
event per transfer AMP_TRACE=transfers prints (the ledger's own trace), the
same bytes, direction and reason. The samples' output is compared with
their expected_output.txt byte for byte: the timeline changes no result,
beside AMP_TRACE and AMP_PROFILE too. tile_race runs under AMP_CHECK, and
its finding is checked down to the racy element. A run past
AMP_TIMELINE_MAX_EVENTS keeps the bound and says what it dropped. A loop of
tiny launches has its kernels sampled for device times, as docs/timeline.md
says, and all of them with AMP_TIMELINE_KERNELS=all. Kernels timed on the
device are drawn before the waits that waited for them end, even when the
first measurement of the queue's clock is slow.

Needs the samples built (SAMPLES, set by CTest, is their folder) and a
device.
"""

import json
import os
import re
import subprocess
import sys
import unittest

from drawn import ROOT, work_dir

sys.path.insert(0, os.path.join(ROOT, "tools", "amp-draw"))
import check_timeline  # noqa: E402

SAMPLES = os.environ.get("SAMPLES") or os.path.join(ROOT, "build", "samples")
TRACE = re.compile(r"^\[amp\] (upload|download|copy) +([0-9]+) bytes .*\((kernel|host access|"
                   r"synchronize|release|copy)[,)]")
DIRECTION = {"upload": "host_to_device", "download": "device_to_host",
             "copy": "device_to_device"}


def run_sample(name, *args, env=None, timeline=None, expect_status=0):
    """The sample's (stdout, stderr, timeline as parsed), run with
    AMP_TIMELINE and AMP_TRACE=transfers (and env)."""
    timeline = timeline or os.path.join(work_dir(), name + ".json")
    if os.path.exists(timeline):
        os.remove(timeline)
    e = dict(os.environ)
    e.update({"AMP_TIMELINE": timeline, "AMP_TRACE": "transfers", "AMP_CACHE": "0"})
    e.update(env or {})
    r = subprocess.run([os.path.join(SAMPLES, name)] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=e, timeout=600)
    if expect_status is not None and r.returncode != expect_status:
        raise AssertionError("%s %s exited with %d: %s" % (name, " ".join(args), r.returncode,
                                                           r.stderr[-3000:]))
    return r.stdout, r.stderr, check_timeline.load(timeline)


def ledger_totals(stderr):
    """The transfers AMP_TRACE=transfers printed, counted as --totals counts."""
    count = {d: {r: 0 for r in check_timeline.REASONS} for d in DIRECTION.values()}
    size = {d: {r: 0 for r in check_timeline.REASONS} for d in DIRECTION.values()}
    for line in stderr.splitlines():
        m = TRACE.match(line)
        if m:
            d = DIRECTION[m.group(1)]
            count[d][m.group(3)] += 1
            size[d][m.group(3)] += int(m.group(2))
    return count, size


def expected_output(name, file="expected_output.txt"):
    with open(os.path.join(ROOT, "samples", name, file), encoding="utf-8") as f:
        return f.read()


def events(data, cat=None, name=None):
    return [e for e in data["traceEvents"]
            if (cat is None or e.get("cat") == cat) and (name is None or e.get("name") == name)]


def tiled_calls(data):
    """The call_id of each tiled kernel's launch."""
    return [k["args"]["call_id"] for k in events(data, "amp.kernel")
            if k["args"]["mode"] != "simple"]


def run_program(test, variable, timeline, args=(), env=None):
    """A test program of tests/draw (its path in the environment variable
    `variable`, which CTest sets), run with AMP_TIMELINE=timeline and env (None
    unsets a variable); skipped where it is not built. It must print "ok",
    and its timeline keep the checker's rules. Returns (timeline as parsed,
    stderr)."""
    program = os.environ.get(variable)
    if not program or not os.path.exists(program):
        test.skipTest("%s is not built" % os.path.basename(program or variable))
    e = dict(os.environ)
    e.update({"AMP_TIMELINE": timeline, "AMP_CACHE": "0"})
    for key, value in (env or {}).items():
        if value is None:
            e.pop(key, None)
        else:
            e[key] = value
    r = subprocess.run([program] + list(args), env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    test.assertEqual((r.returncode, r.stdout), (0, "ok\n"), r.stderr)
    data = check_timeline.load(timeline)
    test.assertEqual(check_timeline.check(data), [])
    return data, r.stderr


class Samples(unittest.TestCase):
    def check_run(self, name, *args, env=None, expected="expected_output.txt"):
        out, err, data = run_sample(name, *args, env=env)
        self.assertEqual(out, expected_output(name, expected))
        self.assertEqual(check_timeline.check(data), [])
        totals = check_timeline.transfer_totals(data)
        count, size = ledger_totals(err)
        self.assertEqual(totals["count"], count)
        self.assertEqual(totals["bytes"], size)
        self.assertGreater(sum(sum(c.values()) for c in count.values()), 0)
        return data, err

    def test_matrix_multiply(self):
        data, _ = self.check_run("matrix_multiply")
        kernels = events(data, "amp.kernel")
        self.assertEqual(len(kernels), 2)
        k = kernels[0]["args"]
        self.assertEqual(k["mode"], "simple")
        self.assertIsNone(k["tile"])
        self.assertEqual(sorted(r["name"] for r in k["reads"]), ["a", "b"])
        self.assertEqual([r["name"] for r in k["writes"]], ["product"])
        self.assertRegex(k["site"], r"matrix_multiply\.c:[0-9]+$")

    def test_matrix_multiply_beside_amp_profile(self):
        _, err = self.check_run("matrix_multiply", env={"AMP_PROFILE": "1"})
        self.assertIn("AMP_PROFILE: 2 kernels", err)

    def test_tile_average(self):
        data, _ = self.check_run("tile_average")
        tiled = [e["args"] for e in events(data, "amp.kernel") if e["args"]["mode"] != "simple"]
        self.assertEqual(len(tiled), 3)
        self.assertEqual(sorted(tuple(k["tile"]) for k in tiled), [(2, 2), (2, 2), (4, 4)])
        for k in tiled:
            self.assertEqual(k["extent"], [8, 8])
            self.assertEqual(k["timed"], "device")
        # A launch's work (its uploads, its kernel) thin at the run's scale has
        # a close-up on the page (docs/timeline.md, "amp-draw"). With the
        # launch's flow at the call's begin, the close-up took in the kernel's
        # compile too, and none was drawn.
        times = [e["ts"] for e in data["traceEvents"] if e["ph"] != "M"]
        run_length = max(times) - min(times)
        work = {}
        for e in events(data, "amp.kernel") + events(data, "amp.transfer"):
            call = e["args"].get("call_id")
            a, b = work.get(call, (float("inf"), 0))
            work[call] = (min(a, e["ts"]), max(b, e["ts"] + e["dur"]))
        thin = [c for c in tiled_calls(data) if (work[c][1] - work[c][0]) * 25 < run_length]
        timeline = os.path.join(work_dir(), "tile_average.json")
        page = os.path.join(work_dir(), "tile_average.html")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "amp-draw", "amp_draw.py"),
                            timeline, "-o", page], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        if thin:
            self.assertIn("<h3>Close-up 1: from ", text)

    def test_transfer_ledger(self):
        data, _ = self.check_run("transfer_ledger")
        reasons = {e["args"]["reason"] for e in events(data, "amp.transfer")}
        self.assertTrue({"kernel", "synchronize"} <= reasons, reasons)
        # Where the data is: a counter per data source, values from 0 to 1.
        self.assertTrue(events(data, "amp.where"))

    def test_a_timeline_that_cannot_be_written_is_said_once(self):
        e = dict(os.environ)
        e.update({"AMP_TIMELINE": os.path.join(work_dir(), "no-such-folder", "run.json"),
                  "AMP_CACHE": "0"})
        r = subprocess.run([os.path.join(SAMPLES, "matrix_multiply")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=e, timeout=600)
        self.assertEqual((r.returncode, r.stdout), (0, expected_output("matrix_multiply")))
        said = [line for line in r.stderr.splitlines() if "Cannot write the timeline" in line]
        self.assertEqual(len(said), 1, r.stderr)
        self.assertIn("no-such-folder", said[0])

    def test_tile_race_without_the_checker(self):
        data, _ = self.check_run("tile_race")
        self.assertEqual(events(data, "amp.check"), [])


class Checked(unittest.TestCase):
    """tile_race's races under AMP_CHECK (skipped without Oclgrind)."""

    def checked(self, *args):
        out, err, data = run_sample("tile_race", *args, env={"AMP_CHECK": "1"},
                                    expect_status=None)
        if "apt-get install oclgrind" in err:
            self.skipTest("Oclgrind is not installed")
        self.assertEqual(check_timeline.check(data), [])
        self.assertIs(data["otherData"]["check"], True)
        findings = events(data, "amp.check")
        self.assertEqual(len(findings), 1, findings)
        return findings[0]["args"]

    def test_the_race_on_a_tile_static_array_names_its_element(self):
        f = self.checked("--wrong-fence")
        self.assertEqual(f["problem"], "data race")
        self.assertEqual(f["memory"], "tile_static")
        self.assertEqual(f["array"], "tileValues")
        self.assertEqual(f["array_extent"], [2, 2])
        self.assertEqual(f["element"], [0, 1])
        self.assertRegex(f["at"], r"tile_race\.c:89:56$")
        self.assertRegex(f["other_at"], r"tile_race\.c:96:34$")
        # In every tile the thread of local index (0, 1) writes the element
        # and thread (0, 0) reads it; the simulator meets the tiles in an
        # order that changes from run to run, and the race is told by its
        # least record (checkrun.c): tile (0, 0)'s, every time.
        first, second = f["accesses"]
        self.assertEqual((first["access"], first["local"]), ("write", [0, 1]))
        self.assertEqual((second["access"], second["local"]), ("read", [0, 0]))
        self.assertEqual(first["tile"], [0, 0])
        self.assertEqual(second["tile"], [0, 0])
        for a in (first, second):
            self.assertEqual(a["global"], [2 * t + l for t, l in zip(a["tile"], a["local"])])
        self.assertEqual(first["code"],
                         "tileValues[t_idx.local[0]][t_idx.local[1]] = matrix[t_idx];")
        self.assertEqual(second["code"], "total += tileValues[trow][tcol];")
        self.assertRegex(f["barrier"]["after"], r"tile_race\.c:89$")
        self.assertRegex(f["barrier"]["before"], r"tile_race\.c:96$")
        # The barrier there is named, with the fence that leaves tile_static
        # memory out.
        self.assertIs(f["barrier"]["global_fence"], True)
        self.assertNotIn("next_turn", f["barrier"])
        self.assertRegex(f["barrier"]["existing"]["at"], r"tile_race\.c:90$")
        self.assertEqual(f["barrier"]["existing"]["code"],
                         "t_idx.barrier.wait_with_global_memory_fence();")
        self.assertIn("make it t_idx.barrier.wait()", f["hint"])

    def test_a_race_inside_one_statement_has_no_barrier_to_add(self):
        f = self.checked("--race")
        self.assertEqual(f["array"], "total")
        self.assertEqual(f["array_extent"], [])
        self.assertEqual(f["element"], [])
        self.assertNotIn("barrier", f)
        self.assertRegex(f["at"], r"tile_race\.c:77:19$")


class TransferQueue(unittest.TestCase):
    """Uploads on the device's transfer queue (the staged path forced, as
    on a GPU: tests/draw/timeline_staged.c)."""

    def test_the_transfer_queue_has_its_track_and_its_uploads_name_the_view(self):
        timeline = os.path.join(work_dir(), "staged.json")
        data, _ = run_program(self, "STAGED", timeline)
        names = {(e["pid"], e["tid"]): e["args"] for e in data["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "thread_name"}
        transfer = [k for k, a in names.items() if a.get("queue") == "transfer"]
        self.assertEqual(len(transfer), 1)
        self.assertEqual(names[transfer[0]]["name"], "transfer queue")
        moves = [e for e in events(data, "amp.transfer") if (e["pid"], e["tid"]) == transfer[0]]
        self.assertEqual(len(moves), 3)
        view = next(k for k, a in names.items() if a.get("queue") == "view")
        for m in moves:
            self.assertEqual(m["args"]["path"], "staged")
            self.assertEqual(m["args"]["timed"], "device")
            # The array's view, not the transfer queue, is the one whose data moved.
            self.assertEqual(m["args"]["accelerator_view"], view[1])
        report = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "timeline-overlap.py"),
                                 timeline], stdout=subprocess.PIPE, text=True)
        self.assertEqual(report.returncode, 0)
        self.assertIn("transfers on a transfer queue ran beside a kernel", report.stdout)


class TestPrograms(unittest.TestCase):
    """The device tests' own runs on the timeline: textures, arrays, copies,
    asynchronous operations, views of many kinds, two accelerators, every
    kind of AMP_CHECK finding (an access out of bounds, a race of a padded
    domain's threads, a barrier not every thread reached). Each file keeps
    the contract, and the tests pass as they do without it."""

    def timeline_of(self, name):
        program = os.path.join(os.environ.get("TESTS") or os.path.join(ROOT, "build", "tests"),
                               name)
        if not os.path.exists(program):
            self.skipTest("%s is not built" % name)
        timeline = os.path.join(work_dir(), name + ".json")
        e = dict(os.environ)
        e.update({"AMP_TIMELINE": timeline, "AMP_CACHE": "0"})
        r = subprocess.run([program], env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=900)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
        self.output = r.stdout
        data = check_timeline.load(timeline)
        self.assertEqual(check_timeline.check(data), [])
        return data

    def test_checked_kernels(self):
        data = self.timeline_of("test_check")
        if "[  SKIPPED ]" in self.output and not events(data, "amp.check"):
            self.skipTest("test_check skipped its checks: AMP_CHECK's checker (Oclgrind) is not "
                          "installed")
        if data["otherData"]["check"] or events(data, "amp.check"):
            problems = {e["name"] for e in events(data, "amp.check")}
            self.assertTrue({"data race", "out of bounds"} <= problems, problems)

    def test_textures(self):
        data = self.timeline_of("test_textures")
        self.assertTrue(any("texture_id" in e["args"] for e in events(data, "amp.transfer")))

    def test_arrays_copies_and_asynchronous_operations(self):
        data = self.timeline_of("test_data_model")
        calls = {e["name"] for e in events(data, "amp.call")}
        self.assertTrue({"amp_copy", "amp_array_view_synchronize", "amp_shutdown"} <= calls,
                        calls)

    def test_queues_and_markers(self):
        self.timeline_of("test_queues")

    def test_padded_and_truncated_tiles_keep_their_original_extent(self):
        # test_kernel_features truncates a 10 to tiles of 4 (8 run) and pads
        # others: each launch says which, and the extent it came from.
        data = self.timeline_of("test_kernel_features")
        kernels = [e["args"] for e in events(data, "amp.kernel")]
        truncated = [(k["extent"], k["tile"], k.get("original")) for k in kernels
                     if k["mode"] == "truncated"]
        self.assertIn(([8], [4], [10]), truncated)
        self.assertTrue(any(k["mode"] == "padded" and "original" in k for k in kernels))


class Sampling(unittest.TestCase):
    """A loop of 3000 tiny launches (tests/draw/timeline_launches.c): the
    first 16 kernels timed on the device, then at most one per 4 ms of the
    run, and a burst of 4 after a pause; the others where they were
    queued, "sampled": false."""

    def run_launches(self, kernels=None, pause=False):
        timeline = os.path.join(work_dir(), "launches-%s%s.json" %
                                (kernels or "default", "-pause" if pause else ""))
        data, stderr = run_program(
            self, "LAUNCHES", timeline, ["3000", "pause"] if pause else [],
            {"AMP_TIMELINE_KERNELS": kernels, "AMP_PROFILE": None})
        kernels = events(data, "amp.kernel")
        self.assertEqual(len(kernels), 3000)
        return data, kernels, stderr

    def test_the_first_kernels_are_timed_on_the_device_then_a_few(self):
        data, kernels, _ = self.run_launches()
        device = [k for k in kernels if k["args"]["timed"] == "device"]
        passed = [k for k in kernels if k["args"].get("sampled") is False]
        self.assertEqual(len(device) + len(passed), len(kernels))
        self.assertGreaterEqual(len(device), 16)
        for k in passed:
            self.assertEqual((k["args"]["timed"], k["dur"]), ("host", 0))
        # The first 16 in order of their ids, then no more than the launches'
        # time allows: one per 4 ms (ts in microseconds, on the host's clock
        # for the calls), and one for a part of 4 ms.
        by_id = sorted(kernels, key=lambda k: k["args"]["id"])
        self.assertTrue(all(k["args"]["timed"] == "device" for k in by_id[:16]))
        calls = [c for c in events(data, "amp.call") if c["name"] == "amp_parallel_for_each"]
        self.assertEqual(len(calls), 3000)
        # From the second call: the first compiles its kernel, a time the
        # allowance, above its burst still, does not refill.
        calls.sort(key=lambda c: c["ts"])
        span = max(c["ts"] + c["dur"] for c in calls) - calls[1]["ts"]
        self.assertLessEqual(len(device), 16 + span / 4000.0 + 1)

    def test_a_pause_refills_a_burst_of_four(self):
        data, kernels, _ = self.run_launches(pause=True)
        calls = sorted((c for c in events(data, "amp.call") if c["name"] == "amp_parallel_for_each"),
                       key=lambda c: c["ts"])
        self.assertEqual(len(calls), 3000)
        # The pause: the widest gap between two launches, 30 ms at least.
        gaps = [(b["ts"] - (a["ts"] + a["dur"]), i + 1) for i, (a, b) in
                enumerate(zip(calls, calls[1:]))]
        gap, first = max(gaps)
        self.assertGreaterEqual(gap, 30000)
        self.assertEqual(first, 1500)
        after = {c["args"]["id"] for c in calls[first:]}
        later = sorted((k for k in kernels if k["args"]["call_id"] in after),
                       key=lambda k: k["args"]["id"])
        self.assertEqual(len(later), 1500)
        timed = [k for k in later if k["args"]["timed"] == "device"]
        # The first 4 after the pause, then what the launches' time allows.
        self.assertTrue(all(k["args"]["timed"] == "device" for k in later[:4]))
        span = max(c["ts"] + c["dur"] for c in calls[first:]) - calls[first]["ts"]
        self.assertLessEqual(len(timed), 4 + span / 4000.0 + 1)

    def test_all_times_every_kernel_on_the_device(self):
        _, kernels, _ = self.run_launches("all")
        self.assertTrue(all(k["args"]["timed"] == "device" and "sampled" not in k["args"]
                            for k in kernels))

    def test_another_value_is_said_and_kernels_are_sampled(self):
        _, kernels, err = self.run_launches("every")
        self.assertIn("AMP_TIMELINE_KERNELS=\"every\"", err)
        device = sum(k["args"]["timed"] == "device" for k in kernels)
        self.assertGreaterEqual(device, 16)
        self.assertLess(device, len(kernels))


class StartedLate(unittest.TestCase):
    """Data made while the timeline was stopped (tests/draw/timeline_launches.c
    late): the first recorded launch that writes it has its "where" record,
    as every later one does."""

    def test_the_first_launch_after_a_start_shows_where_its_data_went(self):
        timeline = os.path.join(work_dir(), "launches-late.json")
        data, _ = run_program(self, "LAUNCHES", timeline, ["3", "late"])
        kernels = events(data, "amp.kernel")
        self.assertEqual(len(kernels), 3)
        first = kernels[0]
        (written,) = first["args"]["writes"]
        where = events(data, "amp.where", "data %d" % written["data_id"])
        (call,) = [e for e in events(data, "amp.call")
                   if e["args"]["id"] == first["args"]["call_id"]]
        during = [e for e in where if call["ts"] <= e["ts"] <= call["ts"] + call["dur"]]
        self.assertTrue(during, "no where record during the first launch: %s" % where)
        self.assertEqual((during[-1]["args"]["host"], during[-1]["args"]["device"]), (0, 1))


class Clock(unittest.TestCase):
    """Launches each followed by a wait (tests/draw/timeline_clock.c), the
    first marker that measures the queue's clock made to take 20 ms: the
    queue's clock is measured by its narrowest marker, so each kernel,
    timed on the device, is drawn inside its launch's call and the wait
    after it, not 10 ms late."""

    def test_kernels_end_before_the_waits_that_waited_for_them(self):
        data, _ = run_program(self, "CLOCK", os.path.join(work_dir(), "clock.json"),
                              env={"AMP_TIMELINE_KERNELS": "all", "AMP_PROFILE": None})
        calls = {c["args"]["id"]: c for c in events(data, "amp.call")}
        waits = sorted((c for c in calls.values() if c["name"] == "amp_accelerator_view_wait"),
                       key=lambda c: c["ts"])
        kernels = events(data, "amp.kernel")
        self.assertEqual(len(kernels), 24)
        # The device's and the host's clocks agree to within half the
        # narrowest marker's window: some microseconds, never 10 ms.
        slack = 1000.0
        for k in kernels:
            self.assertEqual(k["args"]["timed"], "device")
            launch = calls[k["args"]["call_id"]]
            wait = next(w for w in waits if w["ts"] >= launch["ts"] + launch["dur"])
            self.assertGreaterEqual(k["ts"], launch["ts"])
            self.assertLessEqual(k["ts"] + k["dur"], wait["ts"] + wait["dur"] + slack,
                                 "kernel %s drawn %.1f us after its wait ended" %
                                 (k["args"]["id"], k["ts"] + k["dur"] - wait["ts"] - wait["dur"]))


class Textures(unittest.TestCase):
    """Textures made one after another (tests/draw/timeline_textures.c), each
    released before the next is made at the same address: each is a texture
    of its own on the timeline, with its own id and bytes."""

    def test_each_texture_has_its_own_id(self):
        data, _ = run_program(self, "TEXTURES", os.path.join(work_dir(), "textures.json"), ["3"])
        uploads = [e for e in events(data, "amp.transfer") if "texture_id" in e["args"]]
        ids = [e["args"]["texture_id"] for e in uploads]
        self.assertEqual(len(ids), 3, uploads)
        self.assertEqual(len(set(ids)), 3, ids)
        self.assertEqual({e["args"]["bytes"] for e in uploads}, {256})
        # Each kernel names the texture it reads, by the id of its upload.
        kernels = sorted(events(data, "amp.kernel"), key=lambda e: e["ts"])
        self.assertEqual([k["args"]["textures"] for k in kernels],
                         [[{"name": "t", "texture_id": i, "writes": False}] for i in ids])
        page = os.path.join(work_dir(), "textures.html")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "amp-draw", "amp_draw.py"),
                            os.path.join(work_dir(), "textures.json"), "-o", page],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for i in ids:
            self.assertIn("<th>t (texture %d)</th>" % i, text)
            self.assertIn("reads texture t (texture %d)" % i, text)


class Bound(unittest.TestCase):
    def test_a_run_past_the_bound_keeps_it_and_says_what_it_dropped(self):
        out, err, data = run_sample("tile_average", env={"AMP_TIMELINE_MAX_EVENTS": "12"})
        self.assertEqual(out, expected_output("tile_average"))
        self.assertEqual(check_timeline.check(data), [])
        other = data["otherData"]
        self.assertEqual(other["max_events"], 12)
        self.assertGreater(other["dropped"], 0)
        timed = [e for e in data["traceEvents"] if e["ph"] != "M"]
        self.assertLessEqual(len(timed), 13)
        self.assertEqual(timed[-1]["name"], "events dropped")
        self.assertEqual(timed[-1]["args"]["dropped"], other["dropped"])

    def test_a_bound_that_is_not_a_number_is_said_and_the_default_kept(self):
        _, err, data = run_sample("tile_average", env={"AMP_TIMELINE_MAX_EVENTS": "lots"})
        self.assertIn("AMP_TIMELINE_MAX_EVENTS=\"lots\"", err)
        self.assertEqual(data["otherData"]["max_events"], 1000000)


if __name__ == "__main__":
    unittest.main()
