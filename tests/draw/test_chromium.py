#!/usr/bin/env python3
"""amp-draw's page in a browser: headless Chromium (Debian's `chromium`)
opens the page of the hand-written run (a padded launch, a tiled one,
transfers, a race), saves a screenshot beside the test's other files, and
the elements as the browser laid them out are checked: the tile grid has
the right number of tiles, the padding is drawn past the data's edge, the
race is drawn at the racy element, the barrier between the two lines.

The real pages too (RealPages): the samples tile_average, tile_race
(--wrong-fence, under AMP_CHECK) and life run with AMP_TIMELINE, amp-draw
draws their pages, and the same is checked of what they ran: 16 and 4
tiles for tile_average's 8 x 8 matrix, no padding where the tiles divide
the extent, life's padding of 50 x 70 in 16 x 16 tiles past the grid's
edge, and tile_race's race on element (0, 1) of tileValues. SAMPLES (set
by CTest) is the samples' folder; skipped where they are not built.

The page itself carries no measuring code: the test measures a copy of it
with a script of its own appended, and reads the result from the DOM that
`chromium --dump-dom` prints. Skips (status 77) where chromium is not
installed; scripts/setup.sh installs it.
"""

import html
import json
import tempfile
import os
import re
import shutil
import subprocess
import sys
import unittest
import zlib

from drawn import FIXTURES, ROOT, run, work_dir

SKIP = 77

# Appended to a copy of the page: the boxes of the elements the checks need,
# as the browser laid them out, into <pre id="measured">.
MEASURE = r"""
<script>
(function () {
  function box(el) {
    var r = el.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
            cls: el.getAttribute('class'), global: el.getAttribute('data-global'),
            tile: el.getAttribute('data-tile'), element: el.getAttribute('data-element'),
            line: el.getAttribute('data-line'), pid: el.getAttribute('data-pid')};
  }
  function all(root, sel) {
    return Array.prototype.map.call(root.querySelectorAll(sel), box);
  }
  var out = {height: document.documentElement.scrollHeight, launches: {}, findings: []};
  document.querySelectorAll('figure.launch').forEach(function (f) {
    out.launches[f.getAttribute('data-site')] = {
      tiles: all(f, '.tile'), pads: all(f, '.pad'), cells: all(f, '.cell')};
  });
  document.querySelectorAll('.finding').forEach(function (f) {
    out.findings.push({race: all(f, '.race'), elements: all(f, '.element'),
                       hint: all(f, '.barrier-hint'), lines: all(f, '.code-line')});
  });
  out.lanes = all(document, 'svg.timeline:not(.closeup) .lane');
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def browse(url, *args, timeout=180):
    """chromium headless on url: its standard output."""
    profile = os.path.join(work_dir(), "chromium-profile")
    cmd = [chromium(), "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
           "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile] + list(args)
    r = subprocess.run(cmd + [url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        raise AssertionError("chromium failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    return r.stdout


def png_facts(path):
    """The screenshot's width, height, and how many different byte values
    its pixels hold (a blank page holds very few)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError("%s is not a PNG file" % path)
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    idat, pos = b"", 8
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        if data[pos + 4:pos + 8] == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    pixels = zlib.decompress(idat)
    return width, height, len(set(pixels[::31]))


class InChromium(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        work = work_dir()
        cls.page = os.path.join(work, "run_race.html")
        status, out, err = run(os.path.join(FIXTURES, "run_race.json"), "-o", cls.page)
        if status != 0:
            raise AssertionError("amp-draw failed: %s" % err)
        with open(cls.page, encoding="utf-8") as f:
            text = f.read()
        measured_page = os.path.join(work, "run_race.measure.html")
        with open(measured_page, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", MEASURE + "</body>"))
        dom = browse("file://" + measured_page, "--dump-dom")
        m = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
        if not m:
            raise AssertionError("the page's DOM, as chromium printed it, has no measurements:"
                                 " %s" % dom[:500])
        cls.dom = dom
        cls.m = json.loads(html.unescape(m.group(1)))
        cls.screenshot = os.path.join(work, "run_race.png")
        if os.path.exists(cls.screenshot):
            os.remove(cls.screenshot)
        height = min(max(int(cls.m["height"]) + 20, 800), 12000)
        browse("file://" + cls.page, "--screenshot=" + cls.screenshot,
               "--window-size=1200,%d" % height)

    def test_the_screenshot_is_saved_and_shows_the_page(self):
        width, height, shades = png_facts(self.screenshot)
        self.assertEqual(width, 1200)
        self.assertGreater(height, 2000)
        self.assertGreater(shades, 40)

    def test_the_timeline_has_a_lane_per_thread_and_queue(self):
        lanes = [b for b in self.m["lanes"] if b["h"] > 0 and b["w"] > 0]
        self.assertEqual(len(lanes), 4)
        # Host threads above the accelerator's queues.
        self.assertEqual([b["pid"] for b in sorted(lanes, key=lambda b: b["y"])],
                         ["1", "1", "2", "2"])

    def shown(self, boxes):
        return [b for b in boxes if b["w"] > 1 and b["h"] > 1]

    def test_the_tile_grids_have_the_right_number_of_tiles(self):
        padded = self.m["launches"]["race_demo.c:30"]
        tiled = self.m["launches"]["race_demo.c:86"]
        self.assertEqual(len(self.shown(padded["tiles"])), 6)
        self.assertEqual(len(self.shown(tiled["tiles"])), 16)
        # Tiles of 2 x 2 elements: each tile's box holds four elements' boxes.
        cell = next(b for b in tiled["cells"] if b["global"] == "0,0")
        tile = next(b for b in tiled["tiles"] if b["tile"] == "0,0")
        self.assertAlmostEqual(tile["w"], 2 * cell["w"], delta=1)
        self.assertAlmostEqual(tile["h"], 2 * cell["h"], delta=1)

    def test_padding_is_drawn_where_it_is(self):
        launch = self.m["launches"]["race_demo.c:30"]
        pads = self.shown(launch["pads"])
        self.assertEqual(len(pads), 13)
        cells = {b["global"]: b for b in launch["cells"]}
        right_edge = cells["0,6"]["x"] + cells["0,6"]["w"]
        bottom_edge = cells["4,0"]["y"] + cells["4,0"]["h"]
        for p in pads:
            r, c = (int(v) for v in p["global"].split(","))
            if c == 7:
                self.assertGreaterEqual(p["x"], right_edge - 1, p)
            else:
                self.assertEqual(r, 5)
                self.assertGreaterEqual(p["y"], bottom_edge - 1, p)
        # No element of the data lies out there.
        for b in cells.values():
            self.assertLess(b["x"], right_edge - 1)
            self.assertLess(b["y"], bottom_edge - 1)

    def test_the_race_is_drawn_at_the_racy_element(self):
        finding = self.m["findings"][0]
        race = self.shown(finding["race"])
        self.assertEqual([b["element"] for b in race], ["0,1"])
        others = {b["element"]: b for b in finding["elements"]}
        r, left, below = race[0], others["0,0"], others["1,1"]
        self.assertAlmostEqual(r["y"], left["y"], delta=1)           # row 0
        self.assertAlmostEqual(r["x"], left["x"] + left["w"], delta=2)  # column 1
        self.assertAlmostEqual(r["x"], below["x"], delta=2)
        self.assertLess(r["y"], below["y"])

    def test_the_barrier_is_drawn_between_the_two_lines(self):
        finding = self.m["findings"][0]
        lines = {b["line"]: b for b in finding["lines"]}
        hint = finding["hint"][0]
        self.assertGreaterEqual(hint["y"], lines["89"]["y"] + lines["89"]["h"] - 1)
        self.assertLessEqual(hint["y"] + hint["h"], lines["96"]["y"] + 1)


# The same measures of a real page, launch by launch (a call site may
# launch several shapes), with the padding's regions.
REAL_MEASURE = r"""
<script>
(function () {
  function box(el) {
    var r = el.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
            global: el.getAttribute('data-global'), tile: el.getAttribute('data-tile'),
            region: el.getAttribute('data-region'), element: el.getAttribute('data-element')};
  }
  function all(root, sel) {
    return Array.prototype.map.call(root.querySelectorAll(sel), box);
  }
  var out = {launches: [], findings: []};
  document.querySelectorAll('figure.launch').forEach(function (f) {
    out.launches.push({kernel: f.getAttribute('data-kernel'), site: f.getAttribute('data-site'),
                       tiles: all(f, '.tile'), pads: all(f, '.pad'), cells: all(f, '.cell')});
  });
  document.querySelectorAll('.finding').forEach(function (f) {
    out.findings.push({race: all(f, '.race'), elements: all(f, '.element')});
  });
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def real_page(name, sample, args, env):
    """Run the sample with AMP_TIMELINE, draw its page, and measure it in
    the browser (a screenshot is saved beside it)."""
    work = work_dir()
    timeline = os.path.join(work, name + ".json")
    page = os.path.join(work, name + ".html")
    for path in (timeline, page):
        if os.path.exists(path):
            os.remove(path)
    e = dict(os.environ)
    e.update({"AMP_TIMELINE": timeline, "AMP_CACHE": "0"})
    e.update(env)
    r = subprocess.run([os.path.join(SAMPLES, sample)] + args, env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    if "apt-get install oclgrind" in r.stderr:
        raise unittest.SkipTest("Oclgrind is not installed")
    status, out, err = run(timeline, "-o", page)
    if status != 0:
        raise AssertionError("amp-draw failed on %s's timeline: %s" % (sample, err))
    with open(page, encoding="utf-8") as f:
        text = f.read()
    measured_page = os.path.join(work, name + ".measure.html")
    with open(measured_page, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", REAL_MEASURE + "</body>"))
    dom = browse("file://" + measured_page, "--dump-dom")
    m = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
    if not m:
        raise AssertionError("no measurements in %s's page: %s" % (sample, dom[:500]))
    browse("file://" + page, "--screenshot=" + os.path.join(work, name + ".png"),
           "--window-size=1200,3000")
    return json.loads(html.unescape(m.group(1)))


SAMPLES = os.environ.get("SAMPLES") or os.path.join(ROOT, "build", "samples")


def shown(boxes):
    return [b for b in boxes if b["w"] > 1 and b["h"] > 1]


def call_lines(site):
    """The lines of the call that starts at site ("life.c:39"): gcc names a
    call of many lines by its first line, clang by its last."""
    name, first = site.rsplit(":", 1)
    first = int(first)
    path = os.path.join(ROOT, "samples", name[:-2], name)
    with open(path) as source:
        lines = source.read().split("\n")
    depth, started = 0, False
    for number in range(first, len(lines) + 1):
        for c in lines[number - 1]:
            depth += {"(": 1, ")": -1}.get(c, 0)
            started = started or c == "("
        if started and depth <= 0:
            return range(first, number + 1)
    raise AssertionError("the call at %s does not end" % site)


def first_launch_site(sample):
    """The call site of the sample's first launch: its file and line."""
    path = os.path.join(ROOT, "samples", sample, sample + ".c")
    with open(path) as source:
        for number, line in enumerate(source, 1):
            if "AMP_PARALLEL_FOR_EACH" in line and "#define" not in line:
                return "%s.c:%d" % (sample, number)
    raise AssertionError("no launch in " + path)


@unittest.skipUnless(os.path.exists(os.path.join(SAMPLES, "tile_race")),
                     "the samples are not built")
class RealPages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.average = real_page("real_tile_average", "tile_average", [], {})
        cls.life = real_page("real_life", "life", [], {})
        try:
            cls.race = real_page("real_tile_race", "tile_race", ["--wrong-fence"],
                                 {"AMP_CHECK": "1"})
        except unittest.SkipTest:
            cls.race = None

    def launches(self, measured, site):
        """The launches of the call at site, whichever compiler built it."""
        name, lines = site.rsplit(":", 1)[0], call_lines(site)
        return [launch for launch in measured["launches"]
                if launch["site"].rsplit(":", 1)[0].endswith(name)
                and int(launch["site"].rsplit(":", 1)[1]) in lines]

    def test_tile_average_has_16_tiles_of_2_x_2_and_4_of_4_x_4(self):
        counts = sorted(len(shown(launch["tiles"]))
                        for launch in self.launches(self.average, first_launch_site("tile_average")))
        self.assertEqual(counts, [4, 16])
        for launch in self.launches(self.average, first_launch_site("tile_average")):
            tiles = {b["tile"]: b for b in launch["tiles"]}
            cells = {b["global"]: b for b in launch["cells"]}
            # Tile (0, 1) starts where the tile's width ends: 2 or 4 cells.
            width = round(tiles["0,1"]["x"] - tiles["0,0"]["x"])
            per_tile = round(width / cells["0,0"]["w"])
            self.assertIn(per_tile, (2, 4))
            self.assertEqual(len(shown(launch["tiles"])), (8 // per_tile) ** 2)

    def test_no_padding_is_drawn_where_the_tiles_divide_the_extent(self):
        for launch in self.average["launches"]:
            self.assertEqual(shown(launch["pads"]), [])
            self.assertEqual(len(launch["cells"]), 64)

    def test_life_is_padded_past_its_grid_only(self):
        (launch,) = self.launches(self.life, "life.c:39")
        self.assertEqual(len(shown(launch["tiles"])), 20)  # 64 x 80 in 16 x 16 tiles
        pads = shown(launch["pads"])
        self.assertTrue(pads)
        # Too many elements to draw one by one: the grid's edge is where 50
        # rows and 70 columns of 16 x 16 tiles end, and the padding is the
        # areas from there to the tiles' edge.
        tiles = {b["tile"]: b for b in launch["tiles"]}
        first, last = tiles["0,0"], tiles["3,4"]
        cw, ch = first["w"] / 16, first["h"] / 16
        right, bottom = first["x"] + 70 * cw, first["y"] + 50 * ch
        regions = {b["region"]: b for b in pads}
        self.assertEqual(sorted(regions), ["0-64,70-80", "50-64,0-70"])
        beside, below = regions["0-64,70-80"], regions["50-64,0-70"]
        self.assertAlmostEqual(beside["x"], right, delta=1.5)
        self.assertAlmostEqual(beside["x"] + beside["w"], last["x"] + last["w"], delta=1.5)
        self.assertAlmostEqual(below["y"], bottom, delta=1.5)
        self.assertAlmostEqual(below["y"] + below["h"], last["y"] + last["h"], delta=1.5)

    def test_tile_race_draws_the_race_at_element_0_1(self):
        if self.race is None:
            self.skipTest("Oclgrind is not installed")
        (launch,) = self.launches(self.race, "tile_race.c:86")
        self.assertEqual(len(shown(launch["tiles"])), 16)
        (finding,) = self.race["findings"]
        race = shown(finding["race"])
        self.assertEqual([b["element"] for b in race], ["0,1"])
        others = {b["element"]: b for b in finding["elements"]}
        r, left, below = race[0], others["0,0"], others["1,1"]
        self.assertAlmostEqual(r["y"], left["y"], delta=1)            # row 0
        self.assertAlmostEqual(r["x"], left["x"] + left["w"], delta=2)  # column 1
        self.assertAlmostEqual(r["x"], below["x"], delta=2)
        self.assertLess(r["y"], below["y"])


if __name__ == "__main__":
    if not chromium():
        print("SKIP: chromium is not installed (apt-get install chromium; scripts/setup.sh"
              " installs it), so the page is not opened in a browser")
        sys.exit(SKIP)
    unittest.main()
