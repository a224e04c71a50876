#!/usr/bin/env python3
"""The pictures of docs/tutorial.md and README.md, drawn by amp-draw from
real runs of the samples.

    scripts/docs/pictures.py BUILD            draw them into docs/pictures/
    scripts/docs/pictures.py BUILD --check    draw them aside, and fail when a
                                              checked-in one differs (test
                                              docs_pictures)

Each sample runs with AMP_TIMELINE set (tile_race under AMP_CHECK too), and
its timeline is drawn as amp-draw draws the page, one part to a file: a
launch's tiles, where each view's data is step by step, a race on its
array. Those parts do not depend on how long anything took (their tooltips
leave times out), and what could change from machine to machine is made the
same first (files become their base names, the device a number), so that
the pictures are the same wherever the samples run, and a change to the
library or to amp-draw that changes them shows in the test. Python 3's standard library
only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "amp-draw"))
sys.dont_write_bytecode = True

import amp_draw  # noqa: E402
import check_timeline  # noqa: E402

# The pictures drawn here do not depend on how long anything took; only
# their tooltips say it, and that changes from run to run: they leave it
# out.
amp_draw.fmt_time = lambda us: "…"

PICTURES = os.path.join(ROOT, "docs", "pictures")
SKIP = 77  # what CTest counts as skipped

# (sample, its arguments, environment): the runs the pictures come from.
RUNS = {
    "matrix_multiply": ("matrix_multiply", [], {}),
    "tile_average": ("tile_average", [], {}),
    "transfer_ledger": ("transfer_ledger", [], {}),
    "race": ("tile_race", ["--race"], {"AMP_CHECK": "1"}),
    "wrong_fence": ("tile_race", ["--wrong-fence"], {"AMP_CHECK": "1"}),
}
PATH = re.compile(r"^/.*/([^/]+:[0-9]+(:[0-9]+)?)$")
KERNEL = re.compile(r"^amp_([a-z_]+)_([0-9]+)(_v[0-9]+)?$")


def run(build, work, name):
    """The timeline of one run, as check_timeline.load parses it."""
    sample, args, env = RUNS[name]
    path = os.path.join(work, name + ".json")
    e = dict(os.environ)
    for key in ("AMP_TRACE", "AMP_PROFILE", "AMP_CHECK", "AMP_DEVICE", "AMP_TIMELINE_MAX_EVENTS"):
        e.pop(key, None)
    e.update({"AMP_TIMELINE": path, "AMP_CACHE": "0"})
    e.update(env)
    r = subprocess.run([os.path.join(build, "samples", sample)] + args, env=e,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    if "apt-get install oclgrind" in r.stderr:
        print("pictures.py: the races need Oclgrind (scripts/setup.sh installs it)",
              file=sys.stderr)
        sys.exit(SKIP)
    if not os.path.exists(path):
        raise SystemExit("pictures.py: %s %s wrote no timeline (status %d): %s"
                         % (sample, " ".join(args), r.returncode, r.stderr[-2000:]))
    return check_timeline.load(path)


def same_everywhere(data):
    """What depends on the machine, made the same: every file its base name,
    the device a number, the process 0."""
    for e in data["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name" and e["pid"] >= 2:
            e["args"]["name"] = "accelerator %d" % (e["pid"] - 2)
        elif e["ph"] != "M":
            e["args"] = base_names(e.get("args", {}))
    data["otherData"]["pid"] = 0
    return data


def base_names(value, key=None):
    if isinstance(value, dict):
        return {k: base_names(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [base_names(v) for v in value]
    if isinstance(value, str):
        m = PATH.match(value)
        if m:
            return first_line_of_call(m.group(1)) if key == "site" else m.group(1)
        # A kernel's name says its call's file and line (amp_tile_race_86).
        m = KERNEL.match(value)
        if m:
            first = first_line_of_call("%s.c:%s" % (m.group(1), m.group(2)))
            return "amp_%s_%s%s" % (m.group(1), first.split(":")[1], m.group(3) or "")
    return value


def first_line_of_call(site):
    """A sample's call site ("tile_race.c:99") named by the call's first
    line, as gcc names it; clang names a call of many lines by its last.
    The call is the nearest line at or above that names the library and
    opens a parenthesis that closes on or after the site's line."""
    name, line = site.split(":")[:2]
    found = [os.path.join(d, name) for d, _, files in os.walk(os.path.join(ROOT, "samples"))
             if name in files]
    if len(found) != 1:
        return site
    with open(found[0], encoding="utf-8") as f:
        lines = f.read().split("\n")
    line = int(line)
    for first in range(min(line, len(lines)), max(line - 200, 0), -1):
        text = lines[first - 1]
        if "amp_" not in text and "AMP_" not in text or "(" not in text:
            continue
        depth, last = 0, first
        for last in range(first, len(lines) + 1):
            for c in lines[last - 1][text.index("(") if last == first else 0:]:
                depth += {"(": 1, ")": -1}.get(c, 0)
                if depth == 0:
                    break
            if depth == 0:
                break
        if last >= line:
            return site.replace(":%d" % line, ":%d" % first, 1)
    return site


def kernel_with(run, tile):
    for k in sorted(run.kernels.values(), key=lambda e: e["ts"]):
        if k["args"]["tile"] == tile:
            return k["args"]
    raise SystemExit("pictures.py: no launch with tiles %s" % tile)


def tiling_of(args):
    return amp_draw.Tiling(args["extent"], args["tile"], args["mode"], args.get("original"))


def finding(run):
    if len(run.checks) != 1:
        raise SystemExit("pictures.py: %d findings where one was expected" % len(run.checks))
    return amp_draw.draw_finding(run, run.checks[0], 1)


def pictures(build, work):
    """Each picture's file name and SVG text."""
    runs = {name: amp_draw.Run(same_everywhere(run(build, work, name))) for name in RUNS}
    return {
        # Step 1: the walkthrough's tiled product, 4 x 4 in tiles of 2 x 2.
        "matrix_multiply_tiles.svg":
            amp_draw.draw_tiling(tiling_of(kernel_with(runs["matrix_multiply"], [2, 2]))),
        # Step 2: the tile averages' launch, 8 x 8 in tiles of 2 x 2.
        "tile_average_tiles.svg":
            amp_draw.draw_tiling(tiling_of(kernel_with(runs["tile_average"], [2, 2]))),
        # Step 2: where the tile averages' data was, step by step.
        "tile_average_data.svg": amp_draw.draw_life(runs["tile_average"])[0],
        # Step 3: the race on one tile_static total.
        "tile_race_total.svg": finding(runs["race"]),
        # Step 4: the race of a barrier that fences only global memory.
        "tile_race_fence.svg": finding(runs["wrong_fence"]),
        # Step 5: 37 x 53 padded to whole tiles of 16 x 16, as the SGEMM
        # progression pads it (no run needed: amp-draw --tiles draws it).
        "padded_tiles.svg":
            amp_draw.draw_tiling(amp_draw.Tiling([48, 64], [16, 16], "padded", [37, 53])),
        # Step 6: the transfer ledger's runs, naive and lazy.
        "transfer_ledger_data.svg": amp_draw.draw_life(runs["transfer_ledger"])[0],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(prog="pictures.py", description=__doc__.split("\n")[0])
    parser.add_argument("build", help="the build folder, with the samples built")
    parser.add_argument("--check", action="store_true",
                        help="fail when a checked-in picture differs from a fresh one")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="amp-pictures-") as work:
        drawn = {name: amp_draw.standalone(svg) + "\n" for name, svg in pictures(args.build, work).items()}
    if not args.check:
        os.makedirs(PICTURES, exist_ok=True)
        for name, text in drawn.items():
            with open(os.path.join(PICTURES, name), "w", encoding="utf-8") as f:
                f.write(text)
        print("pictures.py: %d pictures in %s" % (len(drawn), os.path.relpath(PICTURES, ROOT)))
        return 0
    stale = []
    for name, text in drawn.items():
        path = os.path.join(PICTURES, name)
        try:
            with open(path, encoding="utf-8") as f:
                if f.read() == text:
                    continue
        except OSError:
            pass
        stale.append(name)
    known = set(drawn)
    extra = [n for n in sorted(os.listdir(PICTURES)) if n.endswith(".svg") and n not in known] \
        if os.path.isdir(PICTURES) else []
    for name in stale:
        print("docs/pictures/%s is not what the samples draw now" % name, file=sys.stderr)
    for name in extra:
        print("docs/pictures/%s is drawn by nothing" % name, file=sys.stderr)
    if stale or extra:
        print("Run scripts/docs/pictures.py BUILD and commit docs/pictures/.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
