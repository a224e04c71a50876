#!/usr/bin/env python3
"""amp-draw's pictures, read back by their attributes: tilings alone
(--tiles), the page of a hand-written timeline with a padded launch,
transfers and a race, and its refusals of bad input."""

import copy
import json
import os
import re
import unittest
import xml.etree.ElementTree as ET

from drawn import FIXTURES, ROOT, elements, run, section, with_class, work_dir

import check_timeline  # noqa: E402 (drawn puts the tool's folder on the path)


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def tiles(*args):
    """Draw a tiling to stdout and return its elements."""
    status, out, err = run("--tiles", *args)
    if status != 0:
        raise AssertionError("amp-draw --tiles %s: status %d: %s" % (" ".join(args), status, err))
    return out, elements(out)


def globals_of(items):
    return {tuple(int(v) for v in a["data-global"].split(",")) for a in items}


class Tiles(unittest.TestCase):
    def test_a_divided_extent_has_one_rectangle_per_tile(self):
        out, items = tiles("8x9", "--tile", "2x3")
        self.assertEqual(len(with_class(items, "tile")), 12)
        self.assertEqual(len(with_class(items, "cell")), 72)
        self.assertEqual(with_class(items, "pad") + with_class(items, "trunc"), [])

    def test_each_element_knows_its_tile_and_local_index(self):
        out, items = tiles("8x9", "--tile", "2x3")
        cell = with_class(items, "cell", data_global="3,4")
        self.assertEqual(len(cell), 1)
        self.assertEqual((cell[0]["data-tile"], cell[0]["data-local"]), ("1,1", "1,1"))
        self.assertIn("tile 1,1", out)  # small extents are labelled

    def test_padding_is_drawn_past_the_extent(self):
        out, items = tiles("5x7", "--tile", "2x4", "--pad")
        self.assertEqual(len(with_class(items, "tile")), 6)
        pads = with_class(items, "pad")
        self.assertEqual(globals_of(pads), {(r, c) for r in range(6) for c in range(8)
                                            if r == 5 or c == 7})
        self.assertEqual(len(with_class(items, "cell")), 35)
        # Threads of the padding have a tile and a local index like any other.
        self.assertEqual(with_class(items, "pad", data_global="5,7")[0]["data-tile"], "2,1")
        self.assertIn("13 hatched threads", out)

    def test_truncation_crosses_out_the_elements_without_a_thread(self):
        out, items = tiles("10", "--tile", "4", "--truncate")
        self.assertEqual(len(with_class(items, "tile")), 2)
        trunc = with_class(items, "trunc")
        self.assertEqual(globals_of(trunc), {(8,), (9,)})
        self.assertTrue(all("data-tile" not in a for a in trunc))
        self.assertEqual(len(with_class(items, "cell")), 8)

    def test_a_3d_extent_is_drawn_slice_by_slice(self):
        out, items = tiles("4x4x6", "--tile", "2x2x3")
        self.assertEqual(len(with_class(items, "tile")), 8)
        self.assertEqual(len(with_class(items, "cell")), 96)
        cell = with_class(items, "cell", data_global="2,1,4")[0]
        self.assertEqual((cell["data-tile"], cell["data-local"]), ("1,0,1", "0,1,1"))

    def test_a_large_extent_leaves_the_middle_tiles_out(self):
        out, items = tiles("1024x1024", "--tile", "16x16")
        self.assertEqual(len(with_class(items, "tile")), 13 * 13)
        self.assertEqual(with_class(items, "cell"), [])
        self.assertIn("64 x 64 = 4096 tiles", out)
        self.assertTrue(with_class(items, "gap"))
        # The last tile of each dimension is drawn, past the gap.
        self.assertTrue(with_class(items, "tile", data_tile="63,63"))

    def test_a_large_padded_extent_draws_its_padding_as_areas(self):
        out, items = tiles("37x53", "--tile", "16x16", "--pad")
        self.assertEqual(len(with_class(items, "tile")), 12)
        self.assertEqual({a["data-region"] for a in with_class(items, "pad")},
                         {"0-48,53-64", "37-48,0-53"})
        self.assertIn("1111 hatched threads", out)

    def test_an_svg_file_is_a_standalone_svg_document(self):
        path = os.path.join(work_dir(), "tiles.svg")
        status, out, err = run("--tiles", "8x8", "--tile", "2x2", "-o", path)
        self.assertEqual((status, out, err), (0, "", ""))
        root = ET.parse(path).getroot()
        self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
        # The patterns it uses travel with it.
        self.assertIsNotNone(root.find(".//{http://www.w3.org/2000/svg}pattern[@id='hatch']"))

    def test_any_other_name_gets_an_html_page(self):
        path = os.path.join(work_dir(), "tiles.html")
        status, out, err = run("--tiles", "8x8", "--tile", "2x2", "-o", path)
        self.assertEqual(status, 0, err)
        with open(path) as f:
            page = f.read()
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        self.assertEqual(len(with_class(elements(page), "tile")), 16)


class Refusals(unittest.TestCase):
    """A bad command line: status 2 and a message a person can act on."""

    def refused(self, text, *args):
        status, out, err = run(*args)
        self.assertEqual(status, 2, err)
        self.assertIn(text, err)
        self.assertNotIn("Traceback", err)

    def test_an_extent_the_tile_does_not_divide_is_refused_as_cpp_amp_does(self):
        self.refused("the extent 8 x 9 is not divisible by the tile 2 x 2: dimension 1 has 9"
                     " elements", "--tiles", "8x9", "--tile", "2x2")
        self.refused("add --pad", "--tiles", "8x9", "--tile", "2x2")

    def test_a_rank_above_3_is_refused(self):
        self.refused("tiled extents have rank 1 to 3", "--tiles", "2x2x2x2", "--tile", "1x1x1x1")

    def test_a_size_of_zero_is_refused(self):
        self.refused("every size must be at least 1", "--tiles", "8x0", "--tile", "2x2")

    def test_a_negative_size_is_refused_with_its_reason(self):
        self.refused("every size must be at least 1", "--tiles", "-3x2", "--tile", "1x1")

    def test_a_size_past_an_int_is_refused(self):
        self.refused("has a size above 2147483647", "--tiles", "3000000000x2", "--tile", "1x1")
        self.refused("more than an extent holds", "--tiles", "2147483647", "--tile", "2",
                     "--pad")

    def test_a_tile_of_more_than_1024_threads_is_refused(self):
        self.refused("the tile 100 x 100 has 10000 threads: C++ AMP allows at most 1024",
                     "--tiles", "1000x1000", "--tile", "100x100")

    def test_a_shape_that_is_not_numbers_is_refused(self):
        self.refused("is not a shape", "--tiles", "8xa", "--tile", "2x2")

    def test_a_tile_of_another_rank_is_refused(self):
        self.refused("has rank 1 but the extent 8 x 8 has rank 2", "--tiles", "8x8", "--tile",
                     "2")

    def test_pad_and_truncate_together_are_refused(self):
        self.refused("not allowed with", "--tiles", "8x9", "--tile", "2x2", "--pad",
                     "--truncate")

    def test_truncating_a_dimension_to_nothing_is_refused(self):
        self.refused("leaves dimension 0 with no element", "--tiles", "3", "--tile", "4",
                     "--truncate")

    def test_tiles_without_a_tile_is_refused(self):
        self.refused("--tiles and --tile go together", "--tiles", "8x8")

    def test_no_timeline_and_no_tiles_is_refused(self):
        self.refused("give a timeline to draw", "-o", os.path.join(work_dir(), "x.html"))


def draw_page(data=None, name="run_race"):
    """amp-draw's page of the fixture (or of data): its text."""
    src = os.path.join(FIXTURES, name + ".json")
    if data is not None:
        src = os.path.join(work_dir(), name + ".json")
        with open(src, "w") as f:
            json.dump(data, f)
    out = os.path.join(work_dir(), name + ".html")
    status, stdout, err = run(src, "-o", out)
    if status != 0:
        raise AssertionError("amp-draw %s: status %d: %s" % (src, status, err))
    with open(out, encoding="utf-8") as f:
        return f.read()


class Page(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.page = draw_page()
        cls.items = elements(cls.page)
        cls.timeline = elements(section(cls.page, r'<svg [^>]*class="timeline"', r"<svg "))

    def test_each_host_thread_and_queue_has_a_lane(self):
        lanes = {(a["data-pid"], a["data-tid"]) for a in with_class(self.timeline, "lane")}
        self.assertEqual(lanes, {("1", "1"), ("1", "2"), ("2", "1"), ("2", "2")})

    def test_every_call_kernel_and_transfer_is_a_bar(self):
        bars = with_class(self.timeline, "ev")
        self.assertEqual(sorted(int(a["data-id"]) for a in bars), list(range(1, 16)))
        self.assertEqual(len(with_class(self.timeline, "kernel")), 2)
        self.assertEqual(len(with_class(self.timeline, "upload")), 3)
        self.assertEqual(len(with_class(self.timeline, "download")), 2)
        self.assertEqual(len(with_class(self.timeline, "copy")), 1)

    def test_a_bar_tells_its_details_on_hover(self):
        bar = section(self.page, r'<g class="ev kernel" data-id="3"', r"</g>")
        self.assertRegex(bar, r"<title>kernel amp_race_demo_30\nparallel_for_each at"
                              r" race_demo.c:30\nextent 6 x 8, tiles of 2 x 4, padded from"
                              r" 5 x 7\nwrites grid \(view 1\)")

    def test_each_launch_has_an_arrow_to_its_kernel(self):
        launches = {a["data-id"] for a in with_class(self.timeline, "flow", data_kind="launch")}
        transfers = {a["data-id"] for a in with_class(self.timeline, "flow",
                                                      data_kind="transfer")}
        self.assertEqual(launches, {"3", "7"})
        self.assertEqual(transfers, {"2", "5", "6", "9", "12", "14"})

    def test_the_finding_is_marked_on_its_kernels_queue(self):
        marks = with_class(self.timeline, "finding-mark")
        self.assertEqual([a["data-kernel"] for a in marks], ["7"])

    def test_the_padded_launch_draws_its_tiles_and_its_padding(self):
        fig = elements(section(self.page, r'<figure class="launch"[^>]*data-site="race_demo.c:30"',
                               r"</figure>"))
        self.assertEqual(len(with_class(fig, "tile")), 6)
        self.assertEqual(len(with_class(fig, "pad")), 13)
        self.assertEqual(len(with_class(fig, "cell")), 35)

    def test_the_tiled_launch_draws_sixteen_tiles_and_no_padding(self):
        fig = elements(section(self.page, r'<figure class="launch"[^>]*data-site="race_demo.c:86"',
                               r"</figure>"))
        self.assertEqual(len(with_class(fig, "tile")), 16)
        self.assertEqual(with_class(fig, "pad"), [])

    def where(self, data, step, place):
        cells = with_class(self.items, "where", data_data=str(data), data_step=str(step),
                           data_place=place)
        self.assertEqual(len(cells), 1, (data, step, place))
        return cells[0]["data-state"]

    def test_where_each_data_is_after_each_step(self):
        # averages (data 3): created on the host; the second launch uploads
        # it and writes it on the device; releasing its view brings it back.
        self.assertEqual((self.where(3, 1, "host"), self.where(3, 1, "device")),
                         ("current", "none"))
        self.assertEqual((self.where(3, 3, "host"), self.where(3, 3, "device")),
                         ("stale", "current"))
        self.assertEqual(self.where(3, 7, "host"), "current")
        # matrix (data 2) is only read: its host copy stays current.
        self.assertEqual({self.where(2, s, "host") for s in range(1, 8)}, {"current"})

    def test_each_transfer_is_an_arrow_with_its_bytes(self):
        arrows = with_class(self.items, "xfer")
        moved = {}
        for a in arrows:
            moved[a["data-direction"]] = moved.get(a["data-direction"], 0) + int(a["data-bytes"])
        self.assertEqual(moved, {"host_to_device": 460, "device_to_host": 204,
                                 "device_to_device": 64})
        sync = with_class(self.items, "xfer", data_id="9")[0]
        self.assertEqual((sync["data-step"], sync["data-reason"]), ("4", "synchronize"))

    def test_the_kernels_reads_and_writes_are_marked(self):
        self.assertEqual(sorted(a["data-use"] for a in with_class(self.items, "use")),
                         ["read", "write", "write"])

    def test_the_ledger_totals_the_run(self):
        total = section(self.page, r'<tr class="total">', r"</tr>")
        self.assertIn("<b>460 B</b><br><small>3 transfers</small>", total)

    def test_the_race_is_drawn_on_its_element(self):
        races = with_class(self.items, "race")
        self.assertEqual([a["data-element"] for a in races], ["0,1"])
        accesses = with_class(self.items, "access")
        self.assertEqual([(a["data-order"], a["data-access"], a["data-global"]) for a in accesses],
                         [("1", "write", "0,1"), ("2", "read", "0,0")])

    def test_the_barrier_is_drawn_between_the_write_and_the_read(self):
        hint = with_class(self.items, "barrier-hint")
        self.assertEqual([(a["data-after"], a["data-before"]) for a in hint], [("89", "96")])

    def test_the_page_fetches_nothing(self):
        self.assertNotRegex(self.page,
                            r"(?i)<(link|img|iframe)\b|\bsrc=|@import|url\(\s*['\"]?http")

    def test_the_page_says_how_long_the_run_was(self):
        self.assertIn("4.33 ms from the first event to the last", self.page)


class OtherRuns(unittest.TestCase):
    def test_the_documented_example_draws(self):
        with open(os.path.join(ROOT, "docs", "timeline.md")) as f:
            text = f.read()
        block = re.search(r"<!-- timeline-example -->\s*```json\n(.*?)```", text, re.S).group(1)
        page = draw_page(json.loads(block), "doc_example")
        self.assertEqual(len(with_class(elements(page), "tile")), 16)

    def test_each_launch_of_a_gpu_run_has_a_close_up(self):
        # tile_average on an H100: three launches whose work lasts some 200
        # us in a run of half a second.
        page = draw_page(None, "run_tile_average_h100")
        self.assertEqual(len(re.findall(r"<h3>Close-up [0-9]+: from ", page)), 3)

    def test_work_queued_long_before_it_ran_still_has_its_close_up(self):
        # On a busy host a launch's first upload can run milliseconds after
        # the call queued it. Its close-up is the work's, and the upload's
        # arrow comes in from the close-up's edge.
        data = fixture("run_tile_average_h100.json")
        events = data["traceEvents"]
        first = min((e for e in events if e.get("cat") == "amp.transfer"), key=lambda e: e["ts"])
        (start,) = [e for e in events if e.get("cat") == "amp.flow" and e["ph"] == "s"
                    and e["id"] == first["args"]["id"]]
        start["ts"] = first["ts"] - 30000
        self.assertEqual(check_timeline.check(data), [])
        page = draw_page(data, "queued_early")
        self.assertEqual(len(re.findall(r"<h3>Close-up [0-9]+: from ", page)), 3)
        close_up = section(page, r"<h3>Close-up 1: from ", r"<h3>Close-up 2")
        self.assertTrue(with_class(elements(close_up), "flow", data_id=str(first["args"]["id"])))

    def test_a_run_cut_at_the_bound_says_what_was_dropped(self):
        data = fixture("run_race.json")
        events = data["traceEvents"]
        cut = next(i for i, e in enumerate(events) if e.get("args", {}).get("id") == 4)
        kept = events[:cut + 1]
        dropped = len(events) - len(kept)
        kept.append({"ph": "i", "s": "g", "cat": "amp.timeline", "name": "events dropped",
                     "pid": 1, "tid": 0, "ts": kept[-1]["ts"],
                     "args": {"dropped": dropped, "max_events": len(kept) - 13}})
        data["traceEvents"] = kept
        data["otherData"].update(events=len(kept) - 12, dropped=dropped,
                                 max_events=len(kept) - 13)
        self.assertEqual(check_timeline.check(data), [])
        page = draw_page(data, "dropped")
        self.assertIn("%d later events were dropped" % dropped, page)
        self.assertTrue(with_class(elements(page), "dropped"))

    def test_a_stretch_while_the_timeline_was_stopped_is_drawn_as_unknown(self):
        data = fixture("run_race.json")
        events = data["traceEvents"]
        at = next(i for i, e in enumerate(events) if e["ts"] == 4090)  # a view created
        events[at:at] = [{"ph": "i", "s": "g", "cat": "amp.timeline", "name": name, "pid": 1,
                          "tid": 0, "ts": ts, "args": {}}
                         for name, ts in (("timeline stopped", 4060), ("timeline started", 4080))]
        data["otherData"]["events"] += 2
        self.assertEqual(check_timeline.check(data), [])
        page = draw_page(data, "stopped")
        items = elements(page)
        (stretch,) = with_class(items, "unrecorded")
        self.assertEqual((stretch["data-from"], stretch["data-to"]), ("4060", "4080"))
        # A step of its own in the data's life, after the wait, its copies unknown.
        self.assertRegex(page, r"step [0-9]+: the timeline was stopped")
        self.assertTrue(with_class(items, "unrecorded-cell"))

    def test_a_stop_at_the_end_is_no_stretch(self):
        # Stopped once the work was queued, as a program that times a window does:
        # the kernels that run after the stop are recorded, and nothing follows.
        data = fixture("run_race.json")
        data["traceEvents"].insert(
            next(i for i, e in enumerate(data["traceEvents"]) if e["ts"] == 3100),
            {"ph": "i", "s": "g", "cat": "amp.timeline", "name": "timeline stopped", "pid": 1,
             "tid": 0, "ts": 3100, "args": {}})
        data["otherData"]["events"] += 1
        self.assertEqual(check_timeline.check(data), [])
        page = draw_page(data, "stopped_at_end")
        self.assertEqual(with_class(elements(page), "unrecorded"), [])
        self.assertNotRegex(page, r"step [0-9]+: the timeline was stopped")

    def test_a_race_the_report_does_not_place_is_drawn_on_one_statement(self):
        data = fixture("run_race.json")
        for e in data["traceEvents"]:
            if e.get("cat") == "amp.check":
                a = e["args"]
                for key in ("memory", "array", "array_extent", "element", "accesses", "barrier"):
                    del a[key]
                a["at"] = a["other_at"] = "race_demo.c:77:19"
        items = elements(draw_page(data, "bare_race"))
        self.assertEqual([a["data-element"] for a in with_class(items, "race")], [""])
        self.assertEqual(with_class(items, "barrier-hint"), [])
        self.assertEqual([a["data-line"] for a in with_class(items, "no-barrier")], ["77"])

    def test_a_race_between_a_loops_turns_asks_for_a_barrier_at_the_turns_end(self):
        # A barrier stands between the write (89) and the read (96): the
        # race is between turns, and the barrier belongs after the read.
        data = fixture("run_race.json")
        for e in data["traceEvents"]:
            if e.get("cat") == "amp.check":
                e["args"]["barrier"] = {
                    "after": "race_demo.c:96", "before": "race_demo.c:89", "next_turn": True,
                    "existing": {"at": "race_demo.c:90", "code": "t_idx.barrier.wait();"}}
        self.assertEqual(check_timeline.check(data), [])
        page = draw_page(data, "turn_race")
        items = elements(page)
        hint = with_class(items, "barrier-hint")
        self.assertEqual([(a["data-after"], a["data-before"]) for a in hint], [("96", "89")])
        self.assertIn("at the end of the turn (after line 96, before the next turn&#x27;s line 89)",
                      page.replace("&#39;", "&#x27;").replace("'", "&#x27;"))
        self.assertEqual([a["data-line"] for a in with_class(items, "existing-barrier")], ["90"])
        self.assertIn("t_idx.barrier.wait();", page)

    def test_a_race_across_a_global_fence_draws_that_barrier_and_no_other(self):
        data = fixture("run_race.json")
        for e in data["traceEvents"]:
            if e.get("cat") == "amp.check":
                e["args"]["barrier"].update({
                    "global_fence": True,
                    "existing": {"at": "race_demo.c:90",
                                 "code": "t_idx.barrier.wait_with_global_memory_fence();"}})
        self.assertEqual(check_timeline.check(data), [])
        page = draw_page(data, "fence_race")
        items = elements(page)
        self.assertEqual(with_class(items, "barrier-hint"), [])
        self.assertEqual([a["data-line"] for a in with_class(items, "existing-barrier")], ["90"])
        self.assertIn("its fence leaves tile_static memory out", page)

    def test_amp_shutdown_is_a_step_that_leaves_no_device_copy(self):
        # The device copies amp_shutdown frees are gone, not stale.
        data = fixture("run_race.json")
        events = data["traceEvents"]
        end = max(e["ts"] + e.get("dur", 0) for e in events)
        ids = sorted({e["name"] for e in events if e.get("cat") == "amp.where"})
        events.append({"ph": "X", "cat": "amp.call", "name": "amp_shutdown", "pid": 1, "tid": 1,
                       "ts": end + 10, "dur": 50, "args": {"id": 999, "status": "AMP_OK"}})
        for k, name in enumerate(ids):
            events.append({"ph": "C", "cat": "amp.where", "name": name, "pid": 1, "tid": 0,
                           "ts": end + 20 + k, "args": {"host": 1, "device": 0}})
        data["otherData"]["events"] += 1 + len(ids)
        self.assertEqual(check_timeline.check(data), [])
        items = elements(draw_page(data, "shutdown_run"))
        steps = [a for a in with_class(items, "where") if a.get("data-place") == "device"]
        last = max(int(a["data-step"]) for a in steps)
        at_end = [a["data-state"] for a in steps if int(a["data-step"]) == last]
        self.assertTrue(at_end)
        self.assertEqual(set(at_end), {"none"})

    def test_a_next_turn_without_its_barrier_is_refused_by_the_checker(self):
        data = fixture("run_race.json")
        for e in data["traceEvents"]:
            if e.get("cat") == "amp.check":
                e["args"]["barrier"]["next_turn"] = True
        self.assertTrue(any("comes with the existing barrier" in p
                            for p in check_timeline.check(data)))


def long_run(launches):
    """A timeline of many launches of one kernel over a large tiled extent."""
    meta = [{"ph": "M", "name": n, "pid": pid, "tid": tid, "ts": 0, "args": a}
            for n, pid, tid, a in (
                ("process_name", 1, 0, {"name": "host"}),
                ("process_sort_index", 1, 0, {"sort_index": 0}),
                ("thread_name", 1, 1, {"name": "main thread"}),
                ("thread_sort_index", 1, 1, {"sort_index": 1}),
                ("process_name", 2, 0, {"name": "accelerator 0: cpu"}),
                ("process_sort_index", 2, 0, {"sort_index": 1}),
                ("thread_name", 2, 1, {"name": "view 1", "queue": "view", "accelerator_view": 1}),
                ("thread_sort_index", 2, 1, {"sort_index": 1}))]
    events = [{"ph": "i", "s": "t", "cat": "amp.view", "name": "view created", "pid": 1, "tid": 1,
               "ts": 0, "args": {"view_id": 1, "data_id": 1, "extent": [1 << 20, 4096]}},
              {"ph": "C", "cat": "amp.where", "name": "data 1", "pid": 1, "tid": 0, "ts": 0,
               "args": {"host": 1, "device": 0}}]
    ref = {"name": "a", "view_id": 1, "data_id": 1}
    for i in range(launches):
        t, call, kernel = 10 + 10 * i, 2 * i + 1, 2 * i + 2
        events += [
            {"ph": "X", "cat": "amp.call", "name": "amp_parallel_for_each_tiled", "pid": 1,
             "tid": 1, "ts": t, "dur": 4, "args": {"id": call, "status": "AMP_OK",
                                                   "site": "long.c:7", "kernel": "amp_long_7"}},
            {"ph": "s", "cat": "amp.flow", "name": "launch", "id": kernel, "pid": 1, "tid": 1,
             "ts": t + 2, "args": {}},
            {"ph": "C", "cat": "amp.where", "name": "data 1", "pid": 1, "tid": 0, "ts": t + 2,
             "args": {"host": 0, "device": 1}},
            {"ph": "X", "cat": "amp.kernel", "name": "amp_long_7", "pid": 2, "tid": 1,
             "ts": t + 3, "dur": 5,
             "args": {"id": kernel, "call_id": call, "kernel": "amp_long_7", "site": "long.c:7",
                      "accelerator_view": 1, "extent": [1 << 20, 4096], "tile": [16, 16],
                      "mode": "tiled", "reads": [], "writes": [ref], "timed": "device"}},
            {"ph": "f", "cat": "amp.flow", "name": "launch", "id": kernel, "bp": "e", "pid": 2,
             "tid": 1, "ts": t + 3, "args": {}}]
    return {"displayTimeUnit": "ns", "traceEvents": meta + events,
            "otherData": {"format": "amp-timeline", "version": 2, "library": "amp 0.1.0",
                          "clock": "host monotonic", "pid": 1, "max_events": 1000000,
                          "events": len(events), "dropped": 0, "check": False}}


class LongRun(unittest.TestCase):
    def test_a_long_run_draws_a_bounded_page(self):
        page = draw_page(long_run(15000), "long_run")
        timeline = elements(section(page, r'<svg [^>]*class="timeline"', r"<svg "))
        self.assertEqual(len(with_class(timeline, "ev")), 20000)
        self.assertIn("the first 20000 bars are drawn; 10000 later ones are left out", page)
        # One picture for the one call site and shape, its middle tiles left out.
        self.assertIn("launched 15000 times", page)
        self.assertEqual(len(with_class(elements(page), "tile")), 13 * 13)
        self.assertIn("Drawn: the first 120 steps", page)
        self.assertLess(len(page), 25 << 20)


class BadInput(unittest.TestCase):
    """A file amp-draw cannot draw: status 1, the reasons, never a traceback."""

    def refused(self, path, text, *options):
        status, out, err = run(path, "-o", os.path.join(work_dir(), "refused.html"), *options)
        self.assertEqual(status, 1, err)
        self.assertIn(text, err)
        self.assertNotIn("Traceback", err)

    def test_a_file_that_is_not_json_is_refused(self):
        self.refused(os.path.join(FIXTURES, "bad_not_json.json"), "not JSON")

    def test_another_tools_trace_is_refused(self):
        self.refused(os.path.join(FIXTURES, "other_tool.json"), "not a timeline of this library")

    def test_a_timeline_that_breaks_the_contract_is_refused_with_its_reasons(self):
        data = fixture("run_race.json")
        bad = copy.deepcopy(data)
        for e in bad["traceEvents"]:
            if e.get("cat") == "amp.kernel":
                del e["args"]["extent"]
        path = os.path.join(work_dir(), "no_extent.json")
        with open(path, "w") as f:
            json.dump(bad, f)
        self.refused(path, "rule 15: args.extent is missing")

    def test_a_missing_file_is_refused(self):
        self.refused(os.path.join(work_dir(), "no-such-run.json"), "cannot read it")

    def test_an_output_that_cannot_be_written_is_refused(self):
        status, out, err = run(os.path.join(FIXTURES, "run_race.json"), "-o",
                               os.path.join(work_dir(), "no-such-folder", "run.html"))
        self.assertEqual(status, 1)
        self.assertIn("cannot write", err)
        self.assertNotIn("Traceback", err)

    def test_check_alone_passes_a_good_file_and_refuses_a_bad_one(self):
        self.assertEqual(run("--check", os.path.join(FIXTURES, "run_race.json"))[0], 0)
        status, out, err = run("--check", os.path.join(FIXTURES, "other_tool.json"))
        self.assertEqual(status, 1)
        self.assertIn("not a timeline of this library", err)


if __name__ == "__main__":
    unittest.main()
