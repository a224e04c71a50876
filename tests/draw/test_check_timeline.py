#!/usr/bin/env python3
"""The timeline checker (tools/amp-draw/check_timeline.py) on hand-written
fixtures: the good ones pass, and each bad one is refused by the rule it
breaks (docs/timeline.md numbers them). Most bad files are the good fixture
with one thing broken, made here so that each test shows what it breaks."""

import copy
import json
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "tools", "amp-draw")
FIXTURES = os.path.join(HERE, "fixtures")
sys.path.insert(0, TOOL)

import check_timeline  # noqa: E402


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def run_cli(*args):
    return subprocess.run([sys.executable, os.path.join(TOOL, "check_timeline.py")] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def doc_example():
    """The complete example file of docs/timeline.md."""
    with open(os.path.join(ROOT, "docs", "timeline.md")) as f:
        text = f.read()
    m = re.search(r"<!-- timeline-example -->\s*```json\n(.*?)```", text, re.S)
    if not m:
        raise AssertionError("docs/timeline.md has no <!-- timeline-example --> json block")
    return json.loads(m.group(1))


class DocExample(unittest.TestCase):
    def test_the_documented_example_keeps_every_rule(self):
        self.assertEqual(check_timeline.check(doc_example()), [])


class Good(unittest.TestCase):
    def test_a_run_with_padding_transfers_and_a_race_keeps_every_rule(self):
        self.assertEqual(check_timeline.check(fixture("run_race.json")), [])

    def test_another_tools_trace_keeps_the_format_rules(self):
        self.assertEqual(check_timeline.check(fixture("other_tool.json"), format_only=True), [])

    def test_the_cli_is_silent_and_succeeds_on_a_good_file(self):
        r = run_cli(os.path.join(FIXTURES, "run_race.json"))
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))

    def test_totals_add_up_the_transfers_by_direction_and_reason(self):
        r = run_cli("--totals", os.path.join(FIXTURES, "run_race.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        t = json.loads(r.stdout)
        self.assertEqual((t["uploads"], t["upload_bytes"]), (3, 140 + 256 + 64))
        self.assertEqual((t["downloads"], t["download_bytes"]), (2, 140 + 64))
        self.assertEqual((t["device_copies"], t["device_copy_bytes"]), (1, 64))
        self.assertEqual(t["count"]["device_to_host"]["synchronize"], 1)
        self.assertEqual(t["bytes"]["device_to_host"]["release"], 64)
        self.assertEqual(t["count"]["host_to_device"]["kernel"], 3)

    def test_a_file_cut_at_the_bound_may_name_dropped_events(self):
        data = fixture("run_race.json")
        events = data["traceEvents"]
        # Keep everything up to the first kernel's flow finish, then say the
        # rest was dropped; the second launch's kernel is gone with its flow.
        cut = next(i for i, e in enumerate(events) if e.get("ph") == "X"
                   and e.get("args", {}).get("id") == 4)
        kept = events[:cut + 1]
        last = kept[-1]["ts"]
        dropped = len(events) - len(kept)
        kept.append({"ph": "i", "s": "g", "cat": "amp.timeline", "name": "events dropped",
                     "pid": 1, "tid": 0, "ts": last,
                     "args": {"dropped": dropped, "max_events": len(kept) - 12}})
        data["traceEvents"] = kept
        data["otherData"].update(events=len(kept) - 12, dropped=dropped, max_events=len(kept) - 13)
        self.assertEqual(check_timeline.check(data), [])


class BadInput(unittest.TestCase):
    """Whole files that are not timelines: a message, status 1, no traceback."""

    def refused(self, name, text, *options):
        r = run_cli(*(list(options) + [os.path.join(FIXTURES, name)]))
        self.assertEqual(r.returncode, 1)
        self.assertIn(text, r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    def test_a_file_that_is_not_json_is_refused(self):
        self.refused("bad_not_json.json", "not JSON: Expecting ',' delimiter at line 3")

    def test_json_without_trace_events_is_refused(self):
        self.refused("bad_not_trace.json", "no \"traceEvents\" array")

    def test_another_tools_trace_is_not_taken_for_a_timeline(self):
        self.refused("other_tool.json", "not a timeline of this library")

    def test_a_missing_file_is_refused(self):
        self.refused("no_such_file.json", "cannot read it")

    def test_an_unbalanced_begin_and_end_is_refused(self):
        self.refused("bad_unbalanced.json", "rule 4: a \"B\" never closed", "--format-only")
        self.refused("bad_unbalanced.json", "rule 4: an \"E\" with no open \"B\"", "--format-only")


def events_by_id(data):
    return {e["args"]["id"]: e for e in data["traceEvents"]
            if e.get("ph") == "X" and "id" in e.get("args", {})}


def first(data, **match):
    for e in data["traceEvents"]:
        if all(e.get(k) == v for k, v in match.items()):
            return e
    raise AssertionError("no event with %s" % match)


class Broken(unittest.TestCase):
    """The good fixture with one thing broken."""

    def setUp(self):
        self.data = copy.deepcopy(fixture("run_race.json"))
        self.byid = events_by_id(self.data)

    def assertBreaks(self, rule, text, format_only=False):
        problems = check_timeline.check(self.data, format_only=format_only)
        wanted = "rule %d: " % rule
        hits = [p for p in problems if wanted in p and text in p]
        self.assertTrue(hits, "no '%s...%s' among:\n  %s"
                        % (wanted, text, "\n  ".join(problems) or "(no problems)"))

    def add(self, ev):
        self.data["traceEvents"].append(ev)
        self.data["otherData"]["events"] += 1

    # -- the trace-event format's rules
    def test_an_event_without_pid_is_refused(self):
        del self.byid[3]["pid"]
        self.assertBreaks(2, "\"pid\" is missing", format_only=True)

    def test_a_metadata_event_named_by_a_list_is_refused(self):
        self.data["traceEvents"][0]["name"] = ["process_name"]
        self.assertBreaks(2, "\"name\" is missing or not a string", format_only=True)

    def test_an_unknown_phase_is_refused(self):
        self.byid[3]["ph"] = "Q"
        self.assertBreaks(2, "not a trace-event phase", format_only=True)

    def test_a_complete_event_without_dur_is_refused(self):
        del self.byid[3]["dur"]
        self.assertBreaks(3, "needs a number \"dur\"", format_only=True)

    def test_partly_overlapping_slices_on_one_track_are_refused(self):
        self.byid[2]["dur"] = 10  # the upload runs into the kernel at 3000
        self.assertBreaks(3, "without nesting", format_only=True)

    def test_begin_and_end_out_of_order_are_refused(self):
        self.add({"ph": "B", "name": "b", "pid": 9, "tid": 1, "ts": 10})
        self.add({"ph": "E", "name": "b", "pid": 9, "tid": 1, "ts": 5})
        self.assertBreaks(4, "an \"E\" before its \"B\"", format_only=True)

    def test_an_end_that_names_another_begin_is_refused(self):
        self.add({"ph": "B", "name": "b", "pid": 9, "tid": 1, "ts": 10})
        self.add({"ph": "E", "name": "c", "pid": 9, "tid": 1, "ts": 15})
        self.assertBreaks(4, "closes 'b'", format_only=True)

    def test_timestamps_going_back_on_a_track_are_refused(self):
        self.byid[9]["ts"] = 3880  # the download, before the finding at 3892 on its queue
        self.assertBreaks(5, "on the same track", format_only=True)

    def test_an_instant_with_a_bad_scope_is_refused(self):
        first(self.data, cat="amp.check")["s"] = "x"
        self.assertBreaks(6, "scope", format_only=True)

    def test_a_counter_with_a_text_value_is_refused(self):
        first(self.data, cat="amp.where")["args"]["host"] = "yes"
        self.assertBreaks(7, "numbers only", format_only=True)

    def test_a_flow_that_never_finishes_is_refused(self):
        self.data["traceEvents"].remove(first(self.data, ph="f", id=3))
        self.assertBreaks(8, "never finishes", format_only=True)

    def test_a_flow_id_started_twice_is_refused(self):
        first(self.data, ph="s", id=5)["id"] = 2
        self.assertBreaks(8, "starts twice", format_only=True)

    def test_a_flow_that_finishes_before_it_starts_is_refused(self):
        first(self.data, ph="s", id=3)["ts"] = 3001
        self.assertBreaks(8, "finishes before it starts", format_only=True)

    def test_an_unknown_metadata_event_is_refused(self):
        self.data["traceEvents"][0]["name"] = "process_colour"
        self.assertBreaks(9, "not a metadata event's name", format_only=True)

    # -- this contract's rules
    def test_a_wrong_event_count_is_refused(self):
        self.data["otherData"]["events"] = 3
        self.assertBreaks(10, "otherData.events is 3")

    def test_dropped_events_without_the_final_event_are_refused(self):
        self.data["otherData"]["dropped"] = 5
        self.assertBreaks(10, "no \"events dropped\" event ends the file")

    def test_a_missing_other_data_field_is_refused(self):
        del self.data["otherData"]["max_events"]
        self.assertBreaks(10, "otherData.max_events is missing")

    def test_a_begin_end_pair_is_not_written_by_this_contract(self):
        self.add({"ph": "B", "cat": "amp.call", "name": "amp_x", "pid": 1, "tid": 1,
                  "ts": 5000, "args": {}})
        self.add({"ph": "E", "pid": 1, "tid": 1, "ts": 5001})
        self.assertBreaks(11, "phase 'B' is not one this contract writes")

    def test_an_unknown_category_is_refused(self):
        self.byid[3]["cat"] = "amp.gpu"
        self.assertBreaks(11, "cat 'amp.gpu'")

    def test_a_track_without_a_thread_name_is_refused(self):
        self.data["traceEvents"] = [e for e in self.data["traceEvents"]
                                    if not (e["ph"] == "M" and e["name"] == "thread_name"
                                            and e["pid"] == 2 and e["tid"] == 2)]
        self.assertBreaks(12, "pid 2 tid 2 has events but no thread_name")

    def test_a_kernel_on_a_host_thread_is_refused(self):
        self.byid[3]["pid"] = 1
        self.assertBreaks(12, "goes on a queue")

    def test_events_out_of_time_order_are_refused(self):
        events = self.data["traceEvents"]
        call = events.index(self.byid[8])
        events[call], events[call + 1] = events[call + 1], events[call]
        self.assertBreaks(13, "events go in ts order")

    def test_two_events_with_one_id_are_refused(self):
        self.byid[9]["args"]["id"] = 8
        self.assertBreaks(14, "id 8 is also event")

    def test_a_view_with_two_data_ids_is_refused(self):
        self.byid[14]["args"]["data_id"] = 2
        self.assertBreaks(14, "view_id 3 goes with data_id 2 here")

    def test_a_call_id_naming_no_call_is_refused(self):
        self.byid[9]["args"]["call_id"] = 99
        self.assertBreaks(14, "call_id 99 names no call")

    def test_a_kernel_without_its_extent_is_refused(self):
        del self.byid[3]["args"]["extent"]
        self.assertBreaks(15, "args.extent is missing")

    def test_a_transfer_with_a_reason_the_ledger_does_not_record_is_refused(self):
        self.byid[2]["args"]["reason"] = "prefetch"
        self.assertBreaks(15, "args.reason is \"prefetch\"")

    def test_a_site_without_a_line_is_refused(self):
        self.byid[3]["args"]["site"] = "race_demo.c"
        self.assertBreaks(15, "\"file:line\"")

    def test_a_padded_extent_that_is_not_the_rounded_original_is_refused(self):
        self.byid[3]["args"]["extent"] = [8, 8]
        self.assertBreaks(16, "padding [5, 7] to tiles [2, 4] gives [6, 8]")

    def test_a_tiled_extent_the_tile_does_not_divide_is_refused(self):
        self.byid[7]["args"]["extent"] = [8, 9]
        self.assertBreaks(16, "dimension 1 of the extent, 9, is not a multiple")

    def test_a_simple_launch_with_a_tile_is_refused(self):
        self.byid[7]["args"]["mode"] = "simple"
        self.assertBreaks(16, "tile is null exactly when mode is \"simple\"")

    def test_a_kernel_on_another_views_queue_is_refused(self):
        self.byid[7]["args"]["accelerator_view"] = 2
        self.assertBreaks(16, "accelerator_view 2 is not the tid 1")

    def test_a_kernel_launched_by_a_call_that_launches_nothing_is_refused(self):
        self.byid[7]["args"]["call_id"] = 8
        self.assertBreaks(16, "call_id 8 is a amp_array_view_synchronize call")

    def test_a_transfer_named_against_its_direction_is_refused(self):
        self.byid[9]["name"] = "upload"
        self.assertBreaks(17, "is named 'download', not 'upload'")

    def test_a_kernel_without_its_launch_flow_is_refused(self):
        self.data["traceEvents"] = [e for e in self.data["traceEvents"]
                                    if not (e["ph"] in "sf" and e.get("id") == 7)]
        self.assertBreaks(18, "no \"launch\" flow with id 7")

    def test_a_flow_start_outside_its_call_is_refused(self):
        first(self.data, ph="s", id=9)["ts"] = 4090  # after synchronize returned
        self.assertBreaks(18, "lies within its call")

    def test_a_launch_flow_from_before_its_kernels_uploads_is_refused(self):
        first(self.data, ph="s", id=7)["ts"] = 3850  # the call's first upload began at 3850
        self.assertBreaks(18, "starts before a transfer its call made for the kernel")

    def test_a_version_1_file_may_start_a_launch_flow_at_its_call(self):
        self.data["otherData"]["version"] = 1
        first(self.data, ph="s", id=7)["ts"] = 3100  # the call's begin, as version 1 wrote it
        self.data["traceEvents"].sort(key=lambda e: e["ts"])
        self.assertEqual(check_timeline.check(self.data), [])
        self.data["otherData"]["version"] = 2
        self.assertBreaks(18, "starts before a transfer its call made for the kernel")

    def test_a_version_this_checker_does_not_know_is_refused(self):
        self.data["otherData"]["version"] = 3
        self.assertBreaks(10, "this checker knows versions 1, 2")

    def test_a_flow_end_away_from_its_work_is_refused(self):
        first(self.data, ph="f", id=9)["ts"] = 4006
        self.assertBreaks(18, "at the work's ts")

    def test_a_where_counter_above_one_is_refused(self):
        first(self.data, cat="amp.where")["args"]["device"] = 2
        self.assertBreaks(15, "args.device is 2, not a number from 0 to 1")

    def test_a_where_counter_for_unknown_data_is_refused(self):
        first(self.data, cat="amp.where")["name"] = "data 17"
        self.assertBreaks(19, "data 17 is no data_id")

    def test_a_finding_outside_its_array_is_refused(self):
        first(self.data, cat="amp.check")["args"]["element"] = [0, 2]
        self.assertBreaks(20, "element [0, 2] lies outside array_extent [2, 2]")

    def test_a_finding_naming_no_kernel_is_refused(self):
        first(self.data, cat="amp.check")["args"]["kernel_id"] = 3
        self.assertBreaks(20, "within or at the end")

    def test_an_access_that_neither_reads_nor_writes_is_refused(self):
        first(self.data, cat="amp.check")["args"]["accesses"][0]["access"] = "touch"
        self.assertBreaks(15, "accesses[0]: rule 15: args.access is \"touch\"")


if __name__ == "__main__":
    unittest.main()
