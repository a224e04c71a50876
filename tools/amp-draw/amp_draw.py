#!/usr/bin/env python3
"""amp-draw: pictures of a run, for people who learn tiling and barriers.

    amp-draw RUN.json -o RUN.html     one self-contained page from AMP_TIMELINE's file:
                                      the timeline, each tiled launch's domain, where
                                      each view's data is step by step, AMP_CHECK's races
    amp-draw --tiles 8x8 --tile 2x2 [--pad | --truncate] -o TILES.svg
                                      a tiling alone, without running anything
    amp-draw --check RUN.json         only check the file (docs/timeline.md)

Python 3 and its standard library only; nothing is fetched, and the page
needs no network. docs/timeline.md describes the file and the pictures.
"""

import argparse
import bisect
import html
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

import check_timeline  # noqa: E402

# Colours: two for alternate tiles, as the C++ AMP tiling page shows tiles in
# two colours; the rest by kind of work.
TILE_FILLS = ("#cfe2f8", "#fde1c2")
TILE_EDGE = "#23395b"
COLOURS = {
    "call": "#9fb4d3",
    "call-failed": "#e57373",
    "kernel": "#f0a830",
    "upload": "#43a047",
    "download": "#8e5cc8",
    "copy": "#1e9e8f",
    "host": "#4a90d9",
    "device": "#f0a830",
    "race": "#d32f2f",
    "read": "#1565c0",
    "write": "#c62828",
}
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
MONO = "'DejaVu Sans Mono', Menlo, Consolas, monospace"

# How much is drawn before the rest is summarised.
MAX_DRAWN_EVENTS = 20000
MAX_STEPS = 120
MAX_CELLS_PER_AXIS = 32
MAX_LABELLED_PER_AXIS = 12
KEEP_TILES = 12
MAX_SLICES = 8
MAX_DATA_ROWS = 60
MAX_PICTURES = 24
MAX_LEDGER_ROWS = 200

# What --tiles takes, as C++ AMP and amp_extent do: sizes that fit an int,
# and at most 1024 threads a tile.
MAX_SIZE = 2**31 - 1
MAX_TILE_THREADS = 1024


class UsageError(Exception):
    """A bad command line (status 2)."""


class InputError(Exception):
    """A file that cannot be drawn (status 1)."""


# ---- text and SVG helpers ----

def esc(text):
    return html.escape(str(text), quote=True)


def num(v):
    """A coordinate, short."""
    if isinstance(v, int):
        return str(v)
    s = "%.2f" % v
    return s.rstrip("0").rstrip(".") if "." in s else s


def tag(name, attrs=None, body=None, title=None):
    """An element; attrs in order, None values left out; body already escaped."""
    parts = [name]
    for k, v in (attrs or {}).items():
        if v is None:
            continue
        if isinstance(v, float):
            v = num(v)
        parts.append('%s="%s"' % (k.replace("_", "-") if k.startswith("data_") else k, esc(v)))
    inner = ""
    if title:
        inner += "<title>%s</title>" % esc(title)
    if body:
        inner += body
    if not inner:
        return "<%s/>" % " ".join(parts)
    return "<%s>%s</%s>" % (" ".join(parts), inner, name)


def text(x, y, s, size=12, anchor="start", weight=None, fill="#222", cls=None, family=None,
         style=None):
    return tag("text", {"x": float(x), "y": float(y), "font-size": size, "text-anchor": anchor,
                        "font-weight": weight, "fill": fill, "class": cls,
                        "font-family": family, "style": style}, esc(s))


def rect(x, y, w, h, fill, cls=None, title=None, stroke=None, sw=None, extra=None, rx=None,
         dash=None):
    attrs = {"class": cls, "x": float(x), "y": float(y), "width": float(max(w, 0)),
             "height": float(max(h, 0)), "fill": fill, "stroke": stroke, "stroke-width": sw,
             "rx": rx, "stroke-dasharray": dash}
    attrs.update(extra or {})
    return tag("rect", attrs, title=title)


def svg(width, height, body, cls=None, label=None):
    return ('<svg xmlns="http://www.w3.org/2000/svg" class="%s" width="%s" height="%s"'
            ' viewBox="0 0 %s %s" role="img"%s font-family="%s">%s</svg>'
            % (esc(cls or "drawing"), num(width), num(height), num(width), num(height),
               ' aria-label="%s"' % esc(label) if label else "", esc(FONT), body))


def standalone(picture):
    """An SVG drawing as a file of its own: with the patterns and markers
    that a page holds once for all its drawings."""
    head = picture.index(">") + 1
    return picture[:head] + defs() + picture[head:]


def defs():
    """Patterns and markers every drawing may use (ids: hatch, partial,
    arrow, arrow-grey, arrow-red, arrow-blue)."""
    return (
        '<defs>'
        '<pattern id="hatch" patternUnits="userSpaceOnUse" width="7" height="7"'
        ' patternTransform="rotate(45)"><rect width="7" height="7" fill="#ffffff"'
        ' fill-opacity="0.35"/><line x1="0" y1="0" x2="0" y2="7" stroke="#6b6b6b"'
        ' stroke-opacity="0.55" stroke-width="2.6"/></pattern>'
        '<pattern id="partial" patternUnits="userSpaceOnUse" width="6" height="6">'
        '<rect width="6" height="6" fill="#fff"/><rect width="3" height="6" fill="#bbb"/>'
        '</pattern>'
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7"'
        ' markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"'
        ' fill="context-stroke"/></marker>'
        '<marker id="arrow-grey" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6"'
        ' markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker>'
        '<marker id="arrow-red" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7"'
        ' markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>'
        '<marker id="arrow-blue" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7"'
        ' markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>'
        '</defs>' % (COLOURS["write"], COLOURS["read"]))


def text_width(s, size):
    """About how wide a text is drawn (for fitting labels)."""
    return len(s) * size * 0.58


def idx(values):
    return ",".join(str(v) for v in values)


def paren(values):
    return "(" + ", ".join(str(v) for v in values) + ")"


def times(values):
    return " x ".join(str(v) for v in values)


def fmt_time(us):
    if us == 0:
        return "0"
    a = abs(us)
    if a < 1:
        return "%s ns" % num(round(us * 1000, 1))
    if a < 1000:
        return "%s µs" % num(round(us, 2))
    if a < 1e6:
        return "%s ms" % num(round(us / 1000, 3))
    return "%s s" % num(round(us / 1e6, 3))


def fmt_bytes(n):
    if n < 1024:
        return "%d B" % n
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024.0
        if n < 1024 or unit == "TiB":
            return "%s %s" % (num(round(n, 1)), unit)
    return "%d B" % n


def basename(site):
    """A site or place without its folders: "tile_race.c:89"."""
    return site.replace("\\", "/").rsplit("/", 1)[-1] if site else ""


def place_line(place):
    """The line of "file:line" or "file:line:column"."""
    parts = place.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return parts[0], int(parts[1])
    return place.rsplit(":", 1)[0], int(place.rsplit(":", 1)[1])


# ---- tilings ----

class Tiling:
    """An extent in tiles: `domain` is what the threads run over, `original`
    the data's extent (bigger when truncated, smaller when padded)."""

    def __init__(self, domain, tile, mode, original=None):
        self.rank = len(domain)
        self.domain = list(domain)
        self.tile = list(tile)
        self.mode = mode
        self.original = list(original) if original else list(domain)
        self.total = [max(a, b) for a, b in zip(self.domain, self.original)]
        self.tiles = [d // t for d, t in zip(self.domain, self.tile)]

    @classmethod
    def from_request(cls, extent, tile, how):
        """As parallel_for_each takes a tiled extent: refuse a tile that does
        not divide the extent, unless it is padded or truncated."""
        if len(tile) != len(extent):
            raise UsageError("the tile %s has rank %d but the extent %s has rank %d: a tile has"
                             " one size per dimension of the extent"
                             % (times(tile), len(tile), times(extent), len(extent)))
        if math.prod(tile) > MAX_TILE_THREADS:
            raise UsageError("the tile %s has %d threads: C++ AMP allows at most %d in a tile"
                             " (this library, what the device allows: amp_accelerator_info's"
                             " max_tile_size). Use a smaller tile"
                             % (times(tile), math.prod(tile), MAX_TILE_THREADS))
        if how == "pad":
            domain = [-(-e // t) * t for e, t in zip(extent, tile)]
            if max(domain) > MAX_SIZE:
                raise UsageError("padding the extent %s to whole tiles of %s makes a size above"
                                 " %d, more than an extent holds" % (times(extent), times(tile),
                                                                     MAX_SIZE))
            return cls(domain, tile, "padded" if domain != extent else "tiled", extent)
        if how == "truncate":
            domain = [e // t * t for e, t in zip(extent, tile)]
            for d, n in enumerate(domain):
                if n == 0:
                    raise UsageError(
                        "truncating the extent %s to whole tiles of %s leaves dimension %d with"
                        " no element (%d < %d): C++ AMP refuses such a compute domain. Use a"
                        " smaller tile, or --pad" % (times(extent), times(tile), d, extent[d],
                                                     tile[d]))
            return cls(domain, tile, "truncated" if domain != extent else "tiled", extent)
        for d, (e, t) in enumerate(zip(extent, tile)):
            if e % t:
                raise UsageError(
                    "the extent %s is not divisible by the tile %s: dimension %d has %d elements,"
                    " which is not a multiple of %d. As C++ AMP, amp-draw refuses it: add --pad"
                    " to round the extent up to whole tiles (tiled_extent::pad), --truncate to"
                    " round it down (tiled_extent::truncate), or choose a tile that divides it"
                    % (times(extent), times(tile), d, e, t))
        return cls(extent, tile, "tiled")

    def kind(self, index):
        inside_domain = all(i < d for i, d in zip(index, self.domain))
        inside_data = all(i < o for i, o in zip(index, self.original))
        if inside_domain:
            return "cell" if inside_data else "pad"
        return "trunc" if inside_data else None

    def count(self, kind):
        dom = math.prod(self.domain)
        data = math.prod(self.original)
        both = math.prod(min(a, b) for a, b in zip(self.domain, self.original))
        return {"cell": both, "pad": dom - both, "trunc": data - both}[kind]

    def describe(self):
        """One sentence: what the picture shows."""
        n = math.prod(self.tiles)
        grid = "%s = %d tile%s" % (times(self.tiles), n, "" if n == 1 else "s") \
            if self.rank > 1 else "%d tile%s" % (n, "" if n == 1 else "s")
        per = math.prod(self.tile)
        s = ""
        if self.mode == "padded":
            s = ("The extent %s, padded to %s for tiles of %s: %s of %s. The %d hatched"
                 " threads lie past the extent: they take part in barriers and tile_static"
                 " memory, and must not write their own element (test t_idx.global first)."
                 % (times(self.original), times(self.domain), times(self.tile), grid,
                    plural(per, "thread"), self.count("pad")))
        elif self.mode == "truncated":
            s = ("The extent %s, truncated to %s for tiles of %s: %s of %s. The %d"
                 " crossed-out elements get no thread."
                 % (times(self.original), times(self.domain), times(self.tile), grid,
                    plural(per, "thread"), self.count("trunc")))
        else:
            s = "The extent %s in tiles of %s: %s of %s each." % (
                times(self.domain), times(self.tile), grid, plural(per, "thread"))
        return s


class Axis:
    """One dimension of a drawing: element index to pixels, with the middle
    tiles left out (and a gap drawn) when there are too many to show."""

    GAP = 22

    def __init__(self, total, tile, cell):
        self.total, self.tile, self.cell = total, tile, cell
        ntiles = -(-total // tile)
        if ntiles > KEEP_TILES + 2:
            self.ranges = [(0, KEEP_TILES * tile), ((ntiles - 1) * tile, total)]
        else:
            self.ranges = [(0, total)]
        self.shown = sum(b - a for a, b in self.ranges)

    def set_cell(self, cell):
        self.cell = cell

    def pos(self, i):
        off = 0.0
        for k, (a, b) in enumerate(self.ranges):
            if a <= i <= b:
                return off + (i - a) * self.cell
            off += (b - a) * self.cell + self.GAP
        return off - self.GAP

    def size(self):
        return self.shown * self.cell + self.GAP * (len(self.ranges) - 1)

    def spans(self, lo, hi):
        """The drawn parts of elements [lo, hi), as pixel intervals."""
        out = []
        for a, b in self.ranges:
            s, e = max(lo, a), min(hi, b)
            if s < e:
                out.append((self.pos(s), self.pos(s) + (e - s) * self.cell))
        return out

    def indices(self):
        for a, b in self.ranges:
            yield from range(a, b)

    def tile_indices(self, ntiles):
        """The tiles (of the first ntiles) that begin in the drawn part."""
        out = []
        for a, b in self.ranges:
            out.extend(range(a // self.tile, min(-(-b // self.tile), ntiles)))
        return out

    def gaps(self):
        """Where the left-out middle is: the pixel at its start."""
        return [self.pos(b) for a, b in self.ranges[:-1]]

    def hidden(self):
        return self.total - self.shown


def draw_tiling(t, title=None, max_width=900):
    """The picture of a tiling, as SVG: tiles in alternate colours with their
    edges, the elements (labelled with their global, tile and local index
    when few), padding hatched and truncated elements crossed out. title:
    a heading above it (None: none)."""
    rank = t.rank
    # Dimensions drawn as panels (rank 3: one panel per index of dimension
    # 0), rows and columns.
    if rank == 1:
        pdim, rdim, cdim = None, None, 0
    elif rank == 2:
        pdim, rdim, cdim = None, 0, 1
    else:
        pdim, rdim, cdim = 0, 1, 2
    cols = Axis(t.total[cdim], t.tile[cdim], 1)
    rows = Axis(t.total[rdim], t.tile[rdim], 1) if rdim is not None else None
    # Slices: all of them, or the first and the last few.
    panel_idx = [None]
    hidden_panels = 0
    if pdim is not None:
        n = t.total[pdim]
        panel_idx = list(range(n)) if n <= MAX_SLICES else (
            list(range(MAX_SLICES - 2)) + [n - 2, n - 1])
        hidden_panels = n - len(panel_idx)
    npanels = len(panel_idx)
    per_cell = cols.shown <= MAX_CELLS_PER_AXIS and (rows is None or rows.shown
                                                     <= MAX_CELLS_PER_AXIS) and npanels <= 16
    labelled = per_cell and cols.shown <= MAX_LABELLED_PER_AXIS and (
        rows is None or rows.shown <= MAX_LABELLED_PER_AXIS) and npanels <= 8
    if labelled:
        cw, ch = (68.0, 50.0) if rank < 3 else (74.0, 50.0)
    else:
        across = 1 if npanels == 1 else min(npanels, 4)
        room = (max_width - 60) / across - (30 if across > 1 else 0)
        cw = max(2.0, min(30.0, (room - Axis.GAP * (len(cols.ranges) - 1)) / cols.shown))
        ch = cw
        if rows is not None and rows.shown * cw > 640:
            ch = max(2.0, (640 - Axis.GAP * (len(rows.ranges) - 1)) / rows.shown)
        if rows is None:
            ch = max(ch, 22.0)
    cols.set_cell(cw)
    if rows:
        rows.set_cell(ch)
    grid_w = cols.size()
    grid_h = rows.size() if rows else ch
    left = 44.0
    slice_head = 22.0 if pdim is not None else 0.0
    top = (30.0 if title else 0.0) + (22.0 if per_cell else 8.0) + slice_head
    if hidden_panels:
        top += 18
    gap_x, gap_y = 36.0, 40.0
    # Slices side by side, in rows of as many as fit.
    across = max(1, min(len(panel_idx), int((max_width - left + gap_x) // (grid_w + gap_x))))
    down = -(-len(panel_idx) // across)
    out = []
    drawn_tiles = set()  # a tile of rank 3 spans slices: the first carries its class
    if title:
        out.append(text(left, 20, title, 15, weight="700", fill="#23395b"))
    if hidden_panels:
        out.append(text(left, top - 30, "Dimension 0 is drawn as slices; %d slices in the middle"
                        " are left out." % hidden_panels, 11, fill="#555"))
    for n, p in enumerate(panel_idx):
        ox = left + (n % across) * (grid_w + gap_x)
        oy = top + (n // across) * (grid_h + gap_y + (22.0 if pdim is not None else 0.0))
        if p is not None:
            out.append(text(ox, oy - (22 if per_cell else 8), "slice %d: index (%d, ·, ·)"
                            % (p, p), 11, weight="700", fill="#333"))
        out.append(draw_panel(t, p, rows, cols, ox, oy, cw, ch, per_cell, labelled, rank,
                              drawn_tiles))
    bottom = top + down * grid_h + (down - 1) * (gap_y + slice_head)
    width = left + across * grid_w + (across - 1) * gap_x + 24
    # The sentence and the legend under the grid.
    sentence = t.describe()
    hidden = [a.hidden() for a in (cols, rows) if a is not None]
    if any(hidden):
        sentence += " The tiles in the middle are left out (…)."
    lines = wrap(sentence, int(max(width - left - 10, 520) / 6.6))
    y = bottom + 26
    for k, line in enumerate(lines):
        out.append(text(left, y + 16 * k, line, 12, fill="#222"))
    y += 16 * len(lines) + 8
    leg, leg_w = legend(left, y, t, labelled)
    out.append(leg)
    width = max(width, left + leg_w + 20, left + 530)
    return svg(width, y + 30, "".join(out), cls="tiling",
               label="tiling of %s in tiles of %s" % (times(t.original), times(t.tile)))


def wrap(s, n):
    words, lines, cur = s.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > n:
            lines.append(cur)
            cur = w
        else:
            cur = cur + " " + w if cur else w
    if cur:
        lines.append(cur)
    return lines


def legend(x, y, t, labelled):
    """The tiling's legend, and its width."""
    items = [(TILE_FILLS[0], None, "a tile"), (TILE_FILLS[1], None, "the next tile")]
    if t.mode == "padded":
        items.append(("url(#hatch)", None, "padding: threads past the extent"))
    if t.mode == "truncated":
        items.append(("#e6e6e6", "cross", "truncated: no thread"))
    out = []
    x0 = x
    for fill, mark, label in items:
        out.append(rect(x, y, 16, 16, TILE_FILLS[0] if fill == "url(#hatch)" else fill,
                        stroke=TILE_EDGE, sw=1))
        if fill == "url(#hatch)":
            out.append(rect(x, y, 16, 16, fill))
        if mark == "cross":
            out.append('<path d="M%s,%s l16,16 M%s,%s l-16,16" stroke="#999"/>'
                       % (num(x), num(y), num(x + 16), num(y)))
        out.append(text(x + 22, y + 12.5, label, 12))
        x += 34 + text_width(label, 12)
    if labelled:
        note = "in each element: its global index (bold), its tile, its local index"
        out.append(text(x + 4, y + 12.5, note, 12, fill="#444"))
        x += 4 + text_width(note, 12)
    return "".join(out), x - x0


def draw_panel(t, p, rows, cols, ox, oy, cw, ch, per_cell, labelled, rank, drawn_tiles):
    """One 2-D grid: all of a rank 1 or 2 tiling, or one slice of a rank 3 one."""
    out = []
    rdim = 0 if rank == 2 else (1 if rank == 3 else None)
    cdim = rank - 1

    def index(r, c):
        if rank == 1:
            return (c,)
        if rank == 2:
            return (r, c)
        return (p, r, c)

    def xs(lo, hi):
        return [(ox + a, ox + b) for a, b in cols.spans(lo, hi)]

    def ys(lo, hi):
        if rows is None:
            return [(oy, oy + ch)]
        return [(oy + a, oy + b) for a, b in rows.spans(lo, hi)]

    # Column and row numbers.
    if per_cell:
        for c in cols.indices():
            out.append(text(ox + cols.pos(c) + cw / 2, oy - 6, str(c), 10, anchor="middle",
                            fill="#777"))
        if rows is not None:
            for r in rows.indices():
                out.append(text(ox - 6, oy + rows.pos(r) + ch / 2 + 4, str(r), 10, anchor="end",
                                fill="#777"))
    # The panel's tiles: along the panel's dimension, the slice is in one tile.
    ptile = p // t.tile[0] if rank == 3 else None
    in_domain_slice = rank != 3 or p < t.domain[0]
    rtiles = rows.tile_indices(t.tiles[rdim]) if rdim is not None else [0]
    tile_rects = []
    for tr in rtiles:
        for tc in cols.tile_indices(t.tiles[cdim]):
            if not in_domain_slice:
                continue
            r0, c0 = (tr * t.tile[rdim] if rdim is not None else 0), tc * t.tile[cdim]
            r1 = r0 + t.tile[rdim] if rdim is not None else 1
            c1 = c0 + t.tile[cdim]
            coords = [ptile, tr, tc] if rank == 3 else ([tr, tc] if rank == 2 else [tc])
            fill = TILE_FILLS[sum(coords) % 2]
            for x0, x1 in xs(c0, c1):
                for y0, y1 in ys(r0, r1) if rdim is not None else [(oy, oy + ch)]:
                    tile_rects.append((coords, x0, y0, x1, y1, fill))
    for coords, x0, y0, x1, y1, fill in tile_rects:
        key = idx(coords)
        # A tile split over slices is one tile: the first part carries the
        # class, the others are only paint.
        cls = "tile" if key not in drawn_tiles else "tile-part"
        drawn_tiles.add(key)
        out.append(rect(x0, y0, x1 - x0, y1 - y0, fill, cls=cls,
                        extra={"data-tile": key},
                        title="tile %s: %s thread%s" % (paren(coords), times(t.tile),
                                                        "" if math.prod(t.tile) == 1 else "s")))
    # The elements.
    if per_cell:
        row_list = list(rows.indices()) if rows is not None else [0]
        for r in row_list:
            for c in cols.indices():
                g = index(r, c)
                kind = t.kind(g)
                if kind is None:
                    continue
                x = ox + cols.pos(c)
                y = oy + (rows.pos(r) if rows is not None else 0)
                out.append(draw_cell(t, g, kind, x, y, cw, ch, labelled))
    else:
        out.append(draw_regions(t, p, rows, cols, ox, oy, ch, rank))
    # Tile edges over everything.
    for coords, x0, y0, x1, y1, fill in tile_rects:
        out.append(rect(x0, y0, x1 - x0, y1 - y0, "none", cls="tile-edge", stroke=TILE_EDGE,
                        sw=2.2))
    # The data's edge, where it is not the tiles' edge.
    if t.mode != "tiled" and t.mode != "simple":
        ow = t.original[cdim]
        oh = t.original[rdim] if rdim is not None else 1
        if rank != 3 or p < t.original[0]:
            right = ox + cols.pos(ow)
            bottom = oy + (rows.pos(oh) if rows is not None else ch)
            out.append('<path class="data-edge" d="M%s,%s H%s V%s H%s" fill="none" stroke="%s"'
                       ' stroke-width="2.5" stroke-dasharray="7 4"/>'
                       % (num(ox), num(bottom), num(right), num(oy), num(right),
                          COLOURS["race"] if t.mode == "padded" else "#555"))
    # The left-out middle.
    for g in cols.gaps():
        out.append(text(ox + g + Axis.GAP / 2, oy + (rows.size() if rows else ch) / 2 + 5, "…",
                        16, anchor="middle", cls="gap"))
    if rows is not None:
        for g in rows.gaps():
            out.append(text(ox + cols.size() / 2, oy + g + Axis.GAP / 2 + 5, "⋮", 16,
                            anchor="middle", cls="gap"))
    return "".join(out)


def draw_cell(t, g, kind, x, y, cw, ch, labelled):
    """One element: its global index, and for a thread its tile and local index."""
    attrs = {"data-global": idx(g)}
    if kind in ("cell", "pad"):
        tile = [i // s for i, s in zip(g, t.tile)]
        local = [i % s for i, s in zip(g, t.tile)]
        attrs["data-tile"] = idx(tile)
        attrs["data-local"] = idx(local)
        title = "global %s, tile %s, local %s" % (paren(g), paren(tile), paren(local))
        if kind == "pad":
            title += ": a thread past the extent %s (padding)" % times(t.original)
    else:
        tile = local = None
        title = "element %s: no thread (truncated to %s)" % (paren(g), times(t.domain))
    fill = {"cell": "none", "pad": "url(#hatch)", "trunc": "#e6e6e6"}[kind]
    out = [rect(x, y, cw, ch, fill, cls=kind, stroke="#ffffff" if kind == "cell" else "#bbb",
                sw=1, extra=attrs, title=title)]
    if kind == "trunc":
        out.append('<path d="M%s,%s L%s,%s M%s,%s L%s,%s" stroke="#aaa" stroke-width="1"/>'
                   % (num(x + 3), num(y + 3), num(x + cw - 3), num(y + ch - 3),
                      num(x + cw - 3), num(y + 3), num(x + 3), num(y + ch - 3)))
    if labelled:
        dim = "#777" if kind != "cell" else "#333"
        out.append(text(x + cw / 2, y + 15, idx(g), 12, anchor="middle", weight="700",
                        fill="#111" if kind == "cell" else "#555", cls="label"))
        if tile is not None:
            out.append(text(x + cw / 2, y + 30, "tile " + idx(tile), 10, anchor="middle",
                            fill=dim, cls="label"))
            out.append(text(x + cw / 2, y + 43, "local " + idx(local), 10, anchor="middle",
                            fill=dim, cls="label"))
        else:
            out.append(text(x + cw / 2, y + 34, "no thread", 10, anchor="middle", fill="#777",
                            cls="label"))
    return "".join(out)


def draw_regions(t, p, rows, cols, ox, oy, ch, rank):
    """Padding and truncation as areas, where elements are too many to draw."""
    out = []
    rdim = 0 if rank == 2 else (1 if rank == 3 else None)
    cdim = rank - 1
    dom_c, org_c = t.domain[cdim], t.original[cdim]
    dom_r = t.domain[rdim] if rdim is not None else 1
    org_r = t.original[rdim] if rdim is not None else 1
    slice_pad = rank == 3 and p is not None and p >= t.original[0]
    slice_trunc = rank == 3 and p is not None and p >= t.domain[0]

    def area(kind, r0, r1, c0, c1, what):
        for x0, x1 in cols.spans(c0, c1):
            yspans = [(0, ch)] if rows is None else rows.spans(r0, r1)
            for y0, y1 in yspans:
                out.append(rect(ox + x0, oy + y0, x1 - x0, y1 - y0,
                                "url(#hatch)" if kind == "pad" else "#e6e6e6", cls=kind,
                                title=what,
                                extra={"data-region": "%d-%d,%d-%d" % (r0, r1, c0, c1)}))

    if t.mode == "padded":
        if slice_pad:
            area("pad", 0, dom_r, 0, dom_c, "padding: threads past the extent")
        else:
            if dom_c > org_c:
                area("pad", 0, dom_r, org_c, dom_c, "padding: threads past the extent")
            if dom_r > org_r:
                area("pad", org_r, dom_r, 0, org_c, "padding: threads past the extent")
    elif t.mode == "truncated":
        if slice_trunc:
            area("trunc", 0, org_r, 0, org_c, "truncated: elements with no thread")
        else:
            if org_c > dom_c:
                area("trunc", 0, org_r, dom_c, org_c, "truncated: elements with no thread")
            if org_r > dom_r:
                area("trunc", dom_r, org_r, 0, dom_c, "truncated: elements with no thread")
    return "".join(out)


# ---- the run, as the file describes it ----

class Run:
    """What the pictures need from a checked timeline."""

    def __init__(self, data):
        self.data = data
        self.other = data["otherData"]
        self.events = [e for e in data["traceEvents"] if e.get("ph") != "M"]
        meta = [e for e in data["traceEvents"] if e.get("ph") == "M"]
        self.process_names = {e["pid"]: e["args"]["name"] for e in meta
                              if e["name"] == "process_name"}
        self.thread_names = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta
                             if e["name"] == "thread_name"}
        self.thread_order = {(e["pid"], e["tid"]): e["args"]["sort_index"] for e in meta
                             if e["name"] == "thread_sort_index"}
        self.process_order = {e["pid"]: e["args"]["sort_index"] for e in meta
                              if e["name"] == "process_sort_index"}
        self.calls, self.kernels, self.transfers = {}, {}, {}
        self.flows = {}
        self.where = []
        self.views = []
        self.checks = []
        self.dropped_event = None
        self.switches = []  # the "timeline stopped" and "timeline started" marks, in order
        for e in self.events:
            cat = e.get("cat")
            if cat == "amp.call":
                self.calls[e["args"]["id"]] = e
            elif cat == "amp.kernel":
                self.kernels[e["args"]["id"]] = e
            elif cat == "amp.transfer":
                self.transfers[e["args"]["id"]] = e
            elif cat == "amp.flow":
                self.flows.setdefault(e["id"], {})[e["ph"]] = e
            elif cat == "amp.where":
                self.where.append(e)
            elif cat == "amp.view":
                self.views.append(e)
            elif cat == "amp.check":
                self.checks.append(e)
            elif cat == "amp.timeline" and e["name"] == "events dropped":
                self.dropped_event = e
            elif cat == "amp.timeline" and e["name"] in ("timeline stopped", "timeline started"):
                self.switches.append(e)
        self.names = self.data_names()
        self.first_view = {}
        for v in self.views:
            a = v["args"]
            self.first_view[a["data_id"]] = min(self.first_view.get(a["data_id"], a["view_id"]),
                                                a["view_id"])
        self.caused = {}
        for t in self.transfers.values():
            if "call_id" in t["args"]:
                self.caused.setdefault(t["args"]["call_id"], []).append(t)
        self.launched = {}
        for k in self.kernels.values():
            self.launched.setdefault(k["args"]["call_id"], []).append(k)
        self.bytes = {}
        for v in self.views:
            a = v["args"]
            if v["name"] == "view created" and "element_bytes" in a:
                size = math.prod(a["extent"]) * a["element_bytes"]
                self.bytes[a["data_id"]] = max(self.bytes.get(a["data_id"], 0), size)

    def data_names(self):
        """Each data's names, as its views were captured or traced, first first."""
        names = {}

        def add(data_id, name):
            if data_id is None or not name:
                return
            lst = names.setdefault(data_id, [])
            if name not in lst:
                lst.append(name)

        for e in self.events:
            a = e.get("args", {})
            if e.get("cat") == "amp.kernel":
                for r in a["reads"] + a["writes"]:
                    add(r["data_id"], r["name"])
            elif e.get("cat") == "amp.transfer" and not a["view"].startswith("view "):
                add(a.get("data_id"), a["view"])
        return names

    def data_label(self, data_id):
        """The data's names as captured; else its first view's number."""
        names = self.names.get(data_id)
        if names:
            return " / ".join(names)
        view = self.first_view.get(data_id)
        return "view %d" % view if view else "data %d" % data_id

    def unrecorded(self):
        """The stretches (from, to) while the timeline was stopped: from each
        "timeline stopped" to the next "timeline started"."""
        out, stopped = [], None
        for e in sorted(self.switches, key=lambda e: e["ts"]):
            if e["name"] == "timeline stopped" and stopped is None:
                stopped = e["ts"]
            elif e["name"] == "timeline started" and stopped is not None:
                out.append((stopped, e["ts"]))
                stopped = None
        # A stop with no start after it ends the record: nothing after it is
        # on the page to be told apart.
        return out

    def span(self):
        timed = [e for e in self.events if e["ph"] == "X"]
        if not timed:
            ts = [e["ts"] for e in self.events] or [0]
            return min(ts), max(ts) + 1
        lo = min(e["ts"] for e in timed)
        hi = max(e["ts"] + e["dur"] for e in timed)
        for e in self.events:
            lo, hi = min(lo, e["ts"]), max(hi, e["ts"])
        return lo, (hi if hi > lo else lo + 1)

    def lanes(self):
        """Host threads, then each accelerator's queues, in their sort order."""
        keys = set()
        for e in self.events:
            if e["tid"] >= 1:
                keys.add((e["pid"], e["tid"]))
        return sorted(keys, key=lambda k: (self.process_order.get(k[0], k[0]),
                                           self.thread_order.get(k, k[1])))


# ---- the timeline ----

def fmt_tick(t, step):
    """A tick's time, with as many decimals as the step needs."""
    for unit, size in (("s", 1e6), ("ms", 1e3), ("µs", 1.0), ("ns", 1e-3)):
        if step >= size or unit == "ns":
            decimals = max(0, -int(math.floor(math.log10(step / size) + 1e-9)))
            return "%.*f %s" % (decimals, t / size, unit) if t else "0"
    return str(t)


def nice_step(span, target):
    raw = span / max(target, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def event_detail(run, e):
    """The hover text of a call, kernel or transfer."""
    a = e["args"]
    cat = e["cat"]
    lines = []
    if cat == "amp.call":
        lines.append("%s  (%s)" % (e["name"], a["status"]))
        if "site" in a:
            lines.append("at %s" % a["site"])
        if "kernel" in a:
            lines.append("kernel %s" % a["kernel"])
        if "data_id" in a:
            lines.append("view %s: %s" % (a.get("view_id"), run.data_label(a["data_id"])))
        caused = run.caused.get(a["id"], [])
        if caused:
            lines.append("moved %s in %d transfer%s" % (
                fmt_bytes(sum(t["args"]["bytes"] for t in caused)), len(caused),
                "" if len(caused) == 1 else "s"))
    elif cat == "amp.kernel":
        lines.append("kernel %s" % e["name"])
        lines.append("parallel_for_each at %s" % a["site"])
        shape = "extent %s" % times(a["extent"])
        if a["tile"]:
            shape += ", tiles of %s" % times(a["tile"])
        if a["mode"] == "padded":
            shape += ", padded from %s" % times(a["original"])
        elif a["mode"] == "truncated" and "original" in a:
            shape += ", truncated from %s" % times(a["original"])
        lines.append(shape)
        if a["reads"]:
            lines.append("reads " + ", ".join("%s (view %d)" % (r["name"], r["view_id"])
                                              for r in a["reads"]))
        if a["writes"]:
            lines.append("writes " + ", ".join("%s (view %d)" % (r["name"], r["view_id"])
                                               for r in a["writes"]))
        for writes in (False, True):
            textures = [t for t in a.get("textures", []) if t["writes"] == writes]
            if textures:
                lines.append(("writes " if writes else "reads ") + ", ".join(
                    "texture %s (texture %d)" % (t["name"], t["texture_id"]) for t in textures))
        lines.append("on accelerator view %d" % a["accelerator_view"])
    elif cat == "amp.transfer":
        lines.append("%s of %s: %s" % (e["name"], a["view"], fmt_bytes(a["bytes"])))
        lines.append("%s, reason: %s" % (a["direction"].replace("_", " "), a["reason"]))
        if "call_id" in a and a["call_id"] in run.calls:
            c = run.calls[a["call_id"]]
            lines.append("caused by %s%s" % (c["name"], " at " + c["args"]["site"]
                                             if "site" in c["args"] else ""))
        if "path" in a:
            lines.append("path: %s" % a["path"])
    if a.get("sampled") is False:
        lines.append("queued at %s; not timed on the device (the timeline samples kernels:"
                     " AMP_TIMELINE_KERNELS=all times them all)" % fmt_time(e["ts"]))
    else:
        lines.append("start %s, took %s (timed on the %s)" % (
            fmt_time(e["ts"]), fmt_time(e["dur"]), a.get("timed", "host")))
    return "\n".join(lines)


def close_ups(run, most=4):
    """Windows of time around the work of each launch (its uploads, its
    kernel), where the whole run's scale makes them too thin to see:
    (start, end) pairs, and how many more were left out. A window takes in
    where the work's flows start (where the call queued it) while it stays
    thin with them; a flow that starts further back (on a busy host, a
    first upload may run milliseconds after it was queued) is drawn from the
    window's edge."""
    lo, hi = run.span()
    launches = {k["args"]["call_id"] for k in run.kernels.values()}
    spans, queued = {}, {}
    for table in (run.kernels, run.transfers):
        for e in table.values():
            cid = e["args"].get("call_id")
            if cid is None or cid not in launches:
                continue
            a, b = spans.get(cid, (e["ts"], e["ts"] + e["dur"]))
            spans[cid] = (min(a, e["ts"]), max(b, e["ts"] + e["dur"]))
            flow = run.flows.get(e["args"]["id"], {}).get("s")
            if flow:
                queued[cid] = min(queued.get(cid, flow["ts"]), flow["ts"])
    windows = []
    for cid, (a, b) in sorted(spans.items(), key=lambda kv: kv[1]):
        if cid in queued and (b - min(a, queued[cid])) * 1.3 * 25 < hi - lo:
            a = min(a, queued[cid])
        margin = max((b - a) * 0.15, 0.5)
        a, b = max(lo, a - margin), min(hi, b + margin)
        if windows and a <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], b))
        else:
            windows.append((a, b))
    # Worth it only where the whole run shows the window in a few pixels.
    windows = [w for w in windows if (w[1] - w[0]) * 25 < hi - lo]
    return windows[:most], max(len(windows) - most, 0)


def draw_timeline(run, width=1100, window=None):
    """The lanes to scale: the whole run, or a close-up of window (start,
    end)."""
    lo, hi = window or run.span()
    lanes = run.lanes()
    if window:
        busy = {(e["pid"], e["tid"]) for e in run.events if e["ph"] == "X"
                and e["ts"] <= hi and e["ts"] + e["dur"] >= lo}
        lanes = [k for k in lanes if k in busy]
    label_w, right = 210.0, 30.0
    plot_w = width - label_w - right
    lane_h, top = (34.0, 44.0) if not window else (30.0, 34.0)
    scale = plot_w / (hi - lo)

    def x(ts):
        return label_w + (min(max(ts, lo), hi) - lo) * scale

    def visible(e):
        return e["ts"] <= hi and e["ts"] + e.get("dur", 0) >= lo

    ys = {}
    out = []
    y = top
    last_pid = None
    for key in lanes:
        if key[0] != last_pid:
            y += 20
            out.append(text(10, y - 6, run.process_names.get(key[0], "pid %d" % key[0]), 12,
                            weight="700", fill="#23395b"))
            last_pid = key[0]
        ys[key] = y
        out.append(tag("g", {"class": "lane", "data-pid": key[0], "data-tid": key[1]},
                       rect(label_w, y, plot_w, lane_h - 6, "#f6f7f9") +
                       text(18, y + lane_h / 2 + 1, run.thread_names.get(key, "tid %d" % key[1]),
                            12, fill="#333")))
        y += lane_h
    height = y + 40
    # Time axis.
    step = nice_step(hi - lo, 8)
    t = math.ceil(lo / step) * step
    while t <= hi + 1e-9:
        px = x(t)
        out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                   % (num(px), num(top - 4), num(px), num(y)))
        out.append(text(px, top - 10, fmt_tick(t, step), 10, anchor="middle", fill="#666"))
        t += step
    # Stretches not recorded, behind the bars: work queued before a stop
    # may run during it, and is drawn over it.
    for a, b in run.unrecorded():
        if b < lo or a > hi:
            continue
        ux, uw = x(a), max(x(b) - x(a), 2.0)
        out.append(tag("g", {"class": "unrecorded", "data-from": num(a), "data-to": num(b)},
                       '<rect x="%s" y="%s" width="%s" height="%s" fill="#8a8f98"'
                       ' fill-opacity="0.18" stroke="#8a8f98" stroke-dasharray="3 3"/>'
                       % (num(ux), num(top), num(uw), num(y - top)) +
                       (text(ux + uw / 2, top + 14, "not recorded", 11, anchor="middle",
                             fill="#555") if uw > text_width("not recorded", 11) + 8 else ""),
                       title="amp_timeline_stop() to amp_timeline_start(): what the program did"
                             " here is not on the timeline"))
    # Events.
    drawn = left_out = 0
    for e in run.events:
        if e["ph"] != "X" or (e["pid"], e["tid"]) not in ys or not visible(e):
            continue
        if drawn >= MAX_DRAWN_EVENTS:
            left_out += 1
            continue
        drawn += 1
        a = e["args"]
        ly = ys[(e["pid"], e["tid"])]
        w = max(x(e["ts"] + e["dur"]) - x(e["ts"]), 2.0)
        if e["cat"] == "amp.call":
            kind = "call"
            fill = COLOURS["call" if a["status"] == "AMP_OK" else "call-failed"]
            label = e["name"].replace("amp_array_view_", "").replace("amp_", "")
        elif e["cat"] == "amp.kernel":
            kind, fill = "kernel", COLOURS["kernel"]
            label = "%s %s" % (basename(a["site"]), times(a["extent"]))
        else:
            kind, fill = e["name"], COLOURS[e["name"]]
            label = "%s %s" % (a["view"], fmt_bytes(a["bytes"]))
        body = rect(x(e["ts"]), ly + 3, w, lane_h - 12, fill, rx=2,
                    stroke="#00000033", sw=0.5)
        if w > text_width(label, 10) + 6:
            body += text(x(e["ts"]) + 4, ly + lane_h / 2 + 1, label, 10, fill="#111")
        out.append(tag("g", {"class": "ev " + kind, "data-id": a["id"], "data-cat": e["cat"]},
                       body, title=event_detail(run, e)))
    # Flows: from the call to the work it caused.
    flows = 0
    for fid, pair in sorted(run.flows.items(), key=lambda kv: str(kv[0])):
        if "s" not in pair or "f" not in pair or flows >= MAX_DRAWN_EVENTS:
            continue
        s, f = pair["s"], pair["f"]
        if (s["pid"], s["tid"]) not in ys or (f["pid"], f["tid"]) not in ys:
            continue
        if not (lo <= f["ts"] <= hi and s["ts"] <= hi):
            continue
        x0, y0 = x(s["ts"]), ys[(s["pid"], s["tid"])] + lane_h - 9
        x1, y1 = x(f["ts"]), ys[(f["pid"], f["tid"])] + 3
        mid = (y0 + y1) / 2
        flows += 1
        colour = "#555" if s["name"] == "launch" else "#2e7d32"
        out.append(tag("path", {"class": "flow", "data-id": fid, "data-kind": s["name"],
                                "d": "M%s,%s C%s,%s %s,%s %s,%s" % (
                                    num(x0), num(y0), num(x0), num(mid), num(x1), num(mid),
                                    num(x1), num(y1)),
                                "fill": "none", "stroke": colour, "stroke-width": 1.2,
                                "stroke-dasharray": "4 3" if s["name"] == "transfer" else None,
                                "marker-end": "url(#arrow-grey)"},
                       title="%s: from the call to the %s it caused" % (
                           s["name"], "kernel" if s["name"] == "launch" else "transfer")))
    # AMP_CHECK findings.
    for c in run.checks:
        key = (c["pid"], c["tid"])
        if key not in ys or not visible(c):
            continue
        cx, cy = x(c["ts"]), ys[key] + lane_h / 2 - 3
        out.append(tag("path", {"class": "finding-mark", "data-kernel": c["args"]["kernel_id"],
                                "d": "M%s,%s l7,12 h-14 z" % (num(cx), num(cy - 8)),
                                "fill": COLOURS["race"], "stroke": "#fff"},
                       title="AMP_CHECK: %s" % c["args"]["message"]))
    if left_out:
        out.append(text(label_w + plot_w, y + 14, "the first %d bars are drawn; %d later ones are"
                        " left out" % (drawn, left_out), 11, anchor="end", cls="left-out",
                        fill=COLOURS["race"]))
    if run.dropped_event and visible(run.dropped_event):
        dx = x(run.dropped_event["ts"])
        out.append('<line class="dropped" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"'
                   ' stroke-dasharray="6 4" stroke-width="2"/>'
                   % (num(dx), num(top), num(dx), num(y), COLOURS["race"]))
        out.append(text(dx - 4, y + 14, "events dropped from here", 11, anchor="end",
                        fill=COLOURS["race"]))
    if window:
        return svg(width, y + 16, "".join(out), cls="timeline closeup",
                   label="close-up from %s to %s" % (fmt_time(lo), fmt_time(hi)))
    out.append(timeline_legend(label_w, y + 18))
    return svg(width, height, "".join(out), cls="timeline", label="timeline")


def timeline_legend(x, y):
    out = []
    for kind, label in (("call", "call on a host thread"), ("kernel", "kernel"),
                        ("upload", "upload"), ("download", "download"),
                        ("copy", "copy on the device")):
        out.append(rect(x, y, 14, 12, COLOURS[kind], rx=2))
        out.append(text(x + 19, y + 10.5, label, 11, fill="#333"))
        x += 34 + text_width(label, 11)
    out.append('<path d="M%s,%s h24" stroke="#555" marker-end="url(#arrow-grey)"/>'
               % (num(x), num(y + 6)))
    out.append(text(x + 30, y + 10.5, "call → work it caused", 11, fill="#333"))
    return "".join(out)


# ---- where each view's data is ----

class Step:
    def __init__(self, ts, kind, label, sub, call=None):
        self.ts, self.kind, self.label, self.sub, self.call = ts, kind, label, sub, call
        self.transfers, self.kernels, self.created, self.released = [], [], [], []
        self.views = []


def steps_of(run):
    """The steps a learner follows: each view's creation, and each call that
    launched, moved data, or is about a view, in time order; and each
    stretch while the timeline was stopped, where what happened is unknown."""
    steps = [Step(a, "gap", "not recorded", "timeline stopped") for a, _ in run.unrecorded()]
    caused, launched = run.caused, run.launched
    for v in run.views:
        if v["name"] == "view created":
            s = Step(v["ts"], "created", "create",
                     "view %d" % v["args"]["view_id"])
            s.created.append(v["args"]["data_id"])
            steps.append(s)
    for cid, c in run.calls.items():
        a = c["args"]
        if (cid in caused or cid in launched or "data_id" in a
                or c["name"] in check_timeline.LAUNCHES or c["name"] == "amp_shutdown"):
            short = c["name"].replace("amp_array_view_", "").replace("amp_", "")
            if short.startswith("parallel_for_each"):
                short = "parallel_for_each"
            sub = basename(a["site"]) if "site" in a else (
                run.data_label(a["data_id"]) if "data_id" in a else "")
            s = Step(c["ts"], "call", short, sub, call=c)
            s.transfers = sorted(caused.get(cid, []), key=lambda e: e["ts"])
            s.kernels = launched.get(cid, [])
            steps.append(s)
    steps.sort(key=lambda s: s.ts)
    # Views created one after another are one step.
    merged = []
    for s in steps:
        if s.kind == "created" and merged and merged[-1].kind == "created":
            merged[-1].created += s.created
            merged[-1].sub = "views " + s.sub.split()[-1] if merged[-1].sub.startswith(
                "view ") else merged[-1].sub
            merged[-1].views.append(s.sub.split()[-1])
            continue
        if s.kind == "created":
            s.views = [s.sub.split()[-1]]
        merged.append(s)
    for s in merged:
        if s.kind == "created" and len(s.views) > 1:
            s.sub = "views " + ", ".join(s.views)
    steps = merged
    # Transfers with no call (the last views released as the program ends):
    # a step of their own.
    loose = [t for t in run.transfers.values() if "call_id" not in t["args"]]
    if loose:
        s = Step(min(t["ts"] for t in loose), "exit", "at exit", "")
        s.transfers = sorted(loose, key=lambda e: e["ts"])
        steps.append(s)
        steps.sort(key=lambda s: s.ts)
    starts = [s.ts for s in steps]
    for v in run.views:
        if v["name"] == "view released" and v["args"]["last"]:
            n = bisect.bisect_right(starts, v["ts"])
            if n:
                steps[n - 1].released.append(v["args"]["data_id"])
    return steps


def where_after(run, steps):
    """Each data's (host, device) after each step: the last counter at or
    before the next step's start."""
    counters = sorted(run.where, key=lambda e: e["ts"])
    state, out, k = {}, [], 0
    for n, s in enumerate(steps):
        until = steps[n + 1].ts if n + 1 < len(steps) else float("inf")
        while k < len(counters) and counters[k]["ts"] < until:
            c = counters[k]
            state[int(c["name"].split()[1])] = (c["args"]["host"], c["args"]["device"])
            k += 1
        out.append(dict(state))
    return out


def draw_life(run):
    steps = steps_of(run)
    if not steps:
        return None, (0, 0)
    shown = steps[:MAX_STEPS]
    after = where_after(run, shown)
    all_data = sorted({int(c["name"].split()[1]) for c in run.where} |
                      set(run.names) | {t["args"]["data_id"] for t in run.transfers.values()
                                        if "data_id" in t["args"]})
    data_ids = all_data[:MAX_DATA_ROWS]
    label_w, col_w, head_h = 180.0, 108.0, 70.0
    sub_h, gap_h, row_gap = 20.0, 30.0, 18.0
    row_h = sub_h * 2 + gap_h
    width = label_w + col_w * len(shown) + 20
    height = head_h + len(data_ids) * (row_h + row_gap) + 60
    out = []
    for n, s in enumerate(shown):
        cx = label_w + col_w * n
        fill = {"call": "#eef3fa", "gap": "#e2e3e6"}.get(s.kind, "#f7f7f7")
        out.append(rect(cx + 2, 6, col_w - 4, head_h - 14, fill, rx=4,
                        cls="step", extra={"data-step": n + 1},
                        title=step_title(run, s, n + 1)))
        out.append(text(cx + col_w / 2, 22, "%d" % (n + 1), 11, anchor="middle", weight="700",
                        fill="#23395b"))
        out.append(text(cx + col_w / 2, 38, clip(s.label, col_w - 4, 10), 10,
                        anchor="middle"))
        out.append(text(cx + col_w / 2, 52, clip(s.sub, col_w - 8, 10), 10, anchor="middle",
                        fill="#555"))
    y = head_h
    held = set()  # (data, place) that held a current copy once: 0 is then "stale"
    for d in data_ids:
        label = run.data_label(d)
        size = run.bytes.get(d)
        out.append(text(10, y + 14, clip(label, label_w - 20, 13), 13, weight="700"))
        out.append(text(10, y + 30, "data %d%s" % (d, ", " + fmt_bytes(size) if size else ""),
                        11, fill="#555"))
        out.append(text(label_w - 8, y + 14, "host", 11, anchor="end", fill="#444"))
        out.append(text(label_w - 8, y + sub_h + gap_h + 14, "device", 11, anchor="end",
                        fill="#444"))
        alive = False
        for n, s in enumerate(shown):
            cx = label_w + col_w * n
            state = after[n].get(d)
            if s.kind == "gap":
                if alive:
                    out.append(text(cx + col_w / 2, y + sub_h + gap_h / 2 + 4, "?", 14,
                                    anchor="middle", fill="#777", cls="unrecorded-cell"))
                continue
            if d in s.created:
                alive = True
            if state is None or not alive and d not in after[n]:
                continue
            alive = True
            if s.kind == "call" and s.call["name"] == "amp_shutdown":
                # It frees the device copies: none is left, stale or not.
                held.discard((d, "device"))
            for place, value, py in (("host", state[0], y), ("device", state[1],
                                                            y + sub_h + gap_h)):
                out.append(where_cell(cx, py, col_w, sub_h, d, n + 1, place, value,
                                      (d, place) in held))
                if value > 0:
                    held.add((d, place))
            out.append(uses(s, d, cx, y + sub_h + gap_h, col_w, sub_h))
            out.append(arrows(run, s, d, cx, y + sub_h, col_w, gap_h, n + 1))
            if d in s.released:
                out.append(text(cx + col_w - 6, y - 3, "released", 9, anchor="end",
                                fill="#777"))
                alive = False
                break
        y += row_h + row_gap
    legend_body, legend_w = life_legend(10, y + 10)
    out.append(legend_body)
    note = (len(steps) - len(shown), len(all_data) - len(data_ids))
    return svg(max(width, legend_w + 30), height, "".join(out), cls="life",
               label="where each view's data is"), note


def clip(s, width, size):
    if text_width(s, size) <= width:
        return s
    n = max(int(width / (size * 0.58)) - 1, 1)
    return s[:n] + "…"


def step_title(run, s, n):
    if s.kind == "created":
        return "step %d: a view was created (%s)" % (n, s.sub)
    if s.kind == "gap":
        return ("step %d: the timeline was stopped (amp_timeline_stop) until the next"
                " amp_timeline_start: what the program did then is not recorded" % n)
    if s.kind == "exit":
        return "step %d: transfers no call made (the last views released as the program ended)" % n
    return "step %d: %s" % (n, event_detail(run, s.call))


def where_cell(x, y, w, h, data_id, step, place, value, held_before):
    colour = COLOURS[place]
    if value >= 1:
        state, fill, label = "current", colour, "current"
    elif value <= 0 and held_before:
        state, fill, label = "stale", "#ffffff", "stale"
    elif value <= 0:
        state, fill, label = "none", "#ffffff", "no copy"
    else:
        state, fill, label = "partial", "url(#partial)", "%d%% current" % round(value * 100)
    title = "after step %d, the %s copy is %s" % (step, place, label)
    out = rect(x + 4, y, w - 8, h, fill, cls="where", stroke=colour, sw=1.2, rx=3,
               dash="3 2" if state == "none" else None,
               extra={"data-data": data_id, "data-step": step, "data-place": place,
                      "data-state": state}, title=title)
    if 0 < value < 1:
        out += rect(x + 4, y, (w - 8) * value, h, colour, rx=3)
    out += text(x + w / 2, y + 14, label, 10, anchor="middle",
                fill="#fff" if value >= 1 else "#777")
    return out


def uses(s, d, x, y, w, h):
    """R and W marks on the device copy for the step's kernels."""
    marks = []
    for k in s.kernels:
        a = k["args"]
        if any(r["data_id"] == d for r in a["reads"]):
            marks.append(("read", "R", "the kernel reads it"))
        if any(r["data_id"] == d for r in a["writes"]):
            marks.append(("write", "W", "the kernel may write it: the host copy goes stale"))
    out = []
    for n, (use, letter, title) in enumerate(marks[:2]):
        cx = x + w + 1 - 4 * (n == 0) - 16 * n
        out.append(tag("g", {"class": "use", "data-use": use},
                       tag("circle", {"cx": cx, "cy": y, "r": 7.5, "fill": COLOURS[use],
                                      "stroke": "#fff", "stroke-width": 1.5}) +
                       text(cx, y + 3.5, letter, 9, anchor="middle", weight="700",
                            fill="#fff"), title=title))
    return "".join(out)


def arrows(run, s, d, x, y, w, h, step):
    """The step's transfers of data d, as arrows between its host and device
    copies, with bytes and reason."""
    mine = [t for t in s.transfers if t["args"].get("data_id") == d]
    out = []
    for n, t in enumerate(mine[:3]):
        a = t["args"]
        ax = x + 16 + n * 22
        colour = COLOURS[t["name"]]
        if t["name"] == "upload":
            path = "M%s,%s V%s" % (num(ax), num(y + 2), num(y + h - 2))
        elif t["name"] == "download":
            path = "M%s,%s V%s" % (num(ax), num(y + h - 2), num(y + 2))
        else:
            path = "M%s,%s c10,-14 20,-14 24,0" % (num(ax - 6), num(y + h))
        out.append(tag("g", {"class": "xfer", "data-id": a["id"], "data-data": d,
                             "data-step": step, "data-direction": a["direction"],
                             "data-bytes": a["bytes"], "data-reason": a["reason"]},
                       tag("path", {"d": path, "stroke": colour, "stroke-width": 2.5,
                                    "fill": "none", "marker-end": "url(#arrow)"}),
                       title="%s of %s: %s, reason: %s" % (t["name"], a["view"],
                                                           fmt_bytes(a["bytes"]), a["reason"])))
    if mine:
        total = sum(t["args"]["bytes"] for t in mine)
        reasons = sorted({t["args"]["reason"] for t in mine})
        lx = x + 22 + min(len(mine), 3) * 22 - 16 + (14 if mine[0]["name"] == "copy" else 0)
        out.append(text(lx, y + h / 2 - 1, fmt_bytes(total), 10, weight="700",
                        fill=COLOURS[mine[0]["name"]]))
        out.append(text(lx, y + h / 2 + 10, clip(", ".join(reasons), w - (lx - x) - 2, 9), 9,
                        fill="#555"))
    return "".join(out)


def life_legend(x, y):
    """The legend of where the data is, and its width."""
    out = []
    x0 = x
    for fill, stroke, label, dash in (
            (COLOURS["host"], COLOURS["host"], "host copy current", None),
            (COLOURS["device"], COLOURS["device"], "device copy current", None),
            ("#ffffff", "#999", "stale: older than the data", None),
            ("#ffffff", "#999", "no copy there yet", "3 2"),
            ("url(#partial)", "#999", "partly current", None)):
        out.append(rect(x, y, 18, 12, fill, stroke=stroke, sw=1, rx=2, dash=dash))
        out.append(text(x + 23, y + 10.5, label, 11, fill="#333"))
        x += 36 + text_width(label, 11)
    for kind in ("upload", "download"):
        out.append('<path d="M%s,%s h22" stroke="%s" stroke-width="2.5" marker-end="url(#arrow)"/>'
                   % (num(x), num(y + 6), COLOURS[kind]))
        out.append(text(x + 28, y + 10.5, kind, 11, fill="#333"))
        x += 40 + text_width(kind, 11)
    return "".join(out), x - x0


def texture_label(run, texture_id):
    """A texture's names as kernels captured it, and its number."""
    names = []
    for k in run.kernels.values():
        for t in k["args"].get("textures", []):
            if t["texture_id"] == texture_id and t["name"] not in names:
                names.append(t["name"])
    number = "texture %s" % texture_id
    return "%s (%s)" % (" / ".join(names), number) if names else number


def ledger_table(run):
    """The ledger's counts, per data and for the run, by direction and reason."""
    rows = {}
    for t in run.transfers.values():
        a = t["args"]
        key = a.get("data_id") or ("texture", a.get("texture_id"))
        r = rows.setdefault(key, {})
        cell = r.setdefault((t["name"], a["reason"]), [0, 0])
        cell[0] += 1
        cell[1] += a["bytes"]
    cols = [(name, reason) for name in ("upload", "download", "copy")
            for reason in check_timeline.REASONS
            if any((name, reason) in r for r in rows.values())]
    if not cols:
        return "<p>No transfer: nothing moved between host and device.</p>"
    head = "".join("<th>%s<br><small>%s</small></th>" % (esc(n), esc(r)) for n, r in cols)
    body = []
    total = {}
    keys = sorted(rows, key=lambda k: (isinstance(k, tuple), str(k)))
    for key in keys:
        r = rows[key]
        name = run.data_label(key) if not isinstance(key, tuple) else texture_label(run, key[1])
        cells = []
        for c in cols:
            n, b = r.get(c, (0, 0))
            t = total.setdefault(c, [0, 0])
            t[0] += n
            t[1] += b
            cells.append(ledger_cell(n, b))
        if len(body) < MAX_LEDGER_ROWS:
            body.append("<tr><th>%s</th>%s</tr>" % (esc(name), "".join(cells)))
    if len(keys) > MAX_LEDGER_ROWS:
        body.append("<tr><th>%d more data</th>%s</tr>" % (len(keys) - MAX_LEDGER_ROWS,
                                                           "<td></td>" * len(cols)))
    body.append("<tr class=\"total\"><th>the whole run</th>%s</tr>" % "".join(
        ledger_cell(*total[c]) for c in cols))
    return ("<table class=\"ledger\"><thead><tr><th>data</th>%s</tr></thead><tbody>%s</tbody>"
            "</table>" % (head, "".join(body)))


def ledger_cell(n, b):
    if not n:
        return "<td></td>"
    return "<td><b>%s</b><br><small>%d transfer%s</small></td>" % (
        esc(fmt_bytes(b)), n, "" if n == 1 else "s")


# ---- AMP_CHECK findings ----

def draw_finding(run, f, number):
    """A race or barrier problem drawn on its array: the element, the threads
    that touched it and in which order, and where a barrier belongs."""
    a = f["args"]
    out = []
    shape = a.get("array_extent")
    element = a.get("element")
    memory = a.get("memory") or ("tile_static" if "local memory" in a["message"] else
                                 "global" if "global memory" in a["message"] else None)
    name = a.get("array") or {"tile_static": "a tile_static variable",
                              "global": "a view"}.get(memory, "memory")
    accesses = a.get("accesses") or []
    x0, y0 = 30.0, 68.0
    what = {"tile_static": "tile_static memory: one copy per tile, shared by its threads",
            "global": "a view, in global memory", "private": "private memory"}.get(memory, "")
    if f["name"] == "barrier divergence":
        at = " at line %d" % place_line(a["at"])[1] if "at" in a else ""
        out.append(text(x0, 22, "the barrier%s" % at, 14, weight="700"))
        out.append(text(x0, 40, "every thread of a tile must reach each of its barriers", 11,
                        fill="#555"))
    else:
        out.append(text(x0, 22, "%s%s" % (name, " (%s)" % times(shape) if shape else ""), 14,
                        weight="700", family=MONO))
        if what:
            out.append(text(x0, 40, what, 11, fill="#555"))
    # The array, the element at fault red.
    cell = 46.0
    if f["name"] == "barrier divergence":
        grid_w, grid_h, body = draw_divergence(run, f, x0, y0)
        out.append(body)
    else:
        grid_w, grid_h, body = draw_array(shape, element, f["name"], x0, y0, cell, name)
        out.append(body)
    ex, ey = element_centre(shape, element, x0, y0, cell)
    # The threads, in the order the checker saw them.
    tx = x0 + grid_w + 90
    ty = y0
    for n, acc in enumerate(accesses):
        colour = COLOURS[acc["access"]]
        who = "thread global %s" % paren(acc["global"])
        if "tile" in acc:
            who += ", tile %s" % paren(acc["tile"])
        if "local" in acc:
            who += ", local %s" % paren(acc["local"])
        verb = "writes" if acc["access"] == "write" else "reads"
        where = " at line %d" % place_line(acc["at"])[1] if "at" in acc else ""
        by = ty + n * 58
        g = [tag("circle", {"cx": tx, "cy": by + 14, "r": 13, "fill": colour}),
             text(tx, by + 19, str(n + 1), 13, anchor="middle", weight="700", fill="#fff"),
             text(tx + 22, by + 12, who, 12, weight="600"),
             text(tx + 22, by + 28, "%s the element%s%s" % (
                 verb, " " + paren(element) if element is not None and len(element) else "",
                 where), 12, fill=colour)]
        if ex is not None:
            g.append(tag("path", {"d": "M%s,%s C%s,%s %s,%s %s,%s" % (
                num(tx - 15), num(by + 14), num(tx - 50), num(by + 14), num(ex + 40), num(ey),
                num(ex + cell / 2 - 2), num(ey)),
                "fill": "none", "stroke": colour, "stroke-width": 2,
                "stroke-dasharray": "5 3" if acc["access"] == "read" else None,
                "marker-end": "url(#arrow-%s)" % ("red" if acc["access"] == "write"
                                                  else "blue")}))
        out.append(tag("g", {"class": "access", "data-order": n + 1,
                             "data-access": acc["access"], "data-global": idx(acc["global"]),
                             "data-local": idx(acc["local"]) if "local" in acc else None,
                             "data-tile": idx(acc["tile"]) if "tile" in acc else None},
                       "".join(g), title="%d. %s %s%s" % (n + 1, who, verb, where)))
    if accesses:
        ny = ty + len(accesses) * 58
        if len(accesses) > 1:
            out.append(text(tx - 13, ny + 4, "Numbered in the order the checker saw them."
                            " Nothing orders them on a device:", 11, fill="#555"))
            out.append(text(tx - 13, ny + 18, "run again, and the other may come first.", 11,
                            fill="#555"))
        right = tx + 22 + max(text_width("thread global %s, tile %s, local %s" % (
            paren(acc["global"]), paren(acc.get("tile", [])), paren(acc.get("local", []))), 12)
            for acc in accesses)
        right = max(right, tx + 480)
        bottom = max(y0 + grid_h, ny + 24)
    else:
        right = max(x0 + grid_w + 40, 520)
        bottom = y0 + grid_h
    # The code, and where a barrier belongs.
    code, code_h = draw_code(run, f, x0, bottom + 28, max(right - x0, 620))
    out.append(code)
    width = max(right + 20, x0 + 680)
    return svg(width, bottom + 28 + code_h + 10, "".join(out), cls="finding-drawing",
               label="AMP_CHECK finding %d" % number)


def element_centre(shape, element, x0, y0, cell):
    """Where draw_array drew the element (its right edge's middle is where
    the arrows point)."""
    if shape is None or element is None:
        return x0 + cell / 2, y0 + cell / 2
    if len(shape) == 0:
        return x0 + cell, y0 + cell / 2
    er = element[-2] if len(shape) >= 2 else 0
    ec = element[-1]
    rows = shape[-2] if len(shape) >= 2 else 1
    r = window(max(rows, er + 1), er).index(er)
    c = window(max(shape[-1], ec + 1), ec).index(ec)
    return x0 + c * cell + cell / 2, y0 + r * cell + cell / 2


def draw_array(shape, element, problem, x0, y0, cell, name):
    """The array as a grid (its last two dimensions), the element at fault
    marked with class "race"."""
    out = []
    cls = "race" if problem != "out of bounds" else "race outside"
    if shape is None:
        # The report names no array: one box for the memory, the element unknown.
        label = "an element of " + name
        w = max(cell * 3, text_width(label, 11) + 24)
        out.append(rect(x0, y0, w, cell, "#fdecea", cls=cls, stroke=COLOURS["race"], sw=2.5,
                        extra={"data-element": idx(element) if element else ""},
                        title="the element the threads raced on (the report does not say"
                              " which one)"))
        out.append(text(x0 + w / 2, y0 + cell / 2 + 4, label, 11, anchor="middle",
                        fill=COLOURS["race"]))
        return w, cell, "".join(out)
    if len(shape) == 0:
        out.append(rect(x0, y0, cell * 2, cell, "#fdecea", cls=cls, stroke=COLOURS["race"],
                        sw=2.5, extra={"data-element": ""},
                        title="%s: the one element every thread of the tile touched" % name))
        out.append(text(x0 + cell, y0 + cell / 2 + 4, name, 12, anchor="middle",
                        family=MONO, fill=COLOURS["race"], weight="700"))
        return cell * 2, cell, "".join(out)
    rows = shape[-2] if len(shape) >= 2 else 1
    cols = shape[-1]
    outer = list(element[:-2]) if element is not None and len(shape) > 2 else []
    er = element[-2] if element is not None and len(shape) >= 2 else 0
    ec = element[-1] if element is not None else 0
    row_ids = window(max(rows, er + 1), er)
    col_ids = window(max(cols, ec + 1), ec)
    # Row and column numbers, and "…" where the array goes on.
    for n, c in enumerate(col_ids):
        out.append(text(x0 + n * cell + cell / 2, y0 - 5, str(c), 10, anchor="middle",
                        fill="#777"))
    if len(shape) >= 2:
        for n, r in enumerate(row_ids):
            out.append(text(x0 - 6, y0 + n * cell + cell / 2 + 4, str(r), 10, anchor="end",
                            fill="#777"))
    if col_ids[0] > 0:
        out.append(text(x0 - 14, y0 - 5, "…", 12, anchor="middle", fill="#777"))
    if col_ids[-1] < cols - 1:
        out.append(text(x0 + len(col_ids) * cell + 10, y0 + cell / 2 + 4, "…", 14, fill="#777"))
    if row_ids[-1] < rows - 1:
        out.append(text(x0 + cell / 2, y0 + len(row_ids) * cell + 14, "⋮", 14, anchor="middle",
                        fill="#777"))
    for n, r in enumerate(row_ids):
        for m, c in enumerate(col_ids):
            g = outer + ([r, c] if len(shape) >= 2 else [c])
            inside = r < rows and c < cols
            hit = element is not None and list(element) == g
            if not inside and not hit:
                continue
            attrs = {"data-element": idx(g)}
            cx, cy = x0 + m * cell, y0 + n * cell
            if hit:
                out.append(rect(cx, cy, cell, cell, "#fdecea" if inside else "#fff", cls=cls,
                                stroke=COLOURS["race"], sw=3, extra=attrs,
                                dash=None if inside else "5 3",
                                title="element %s: %s" % (paren(g), "the race is here"
                                                          if inside else "outside the extent")))
            else:
                out.append(rect(cx, cy, cell, cell, "#f4f6f9", cls="element", stroke="#9aa5b5",
                                sw=1, extra=attrs))
            out.append(text(cx + cell / 2, cy + cell / 2 + 4, idx(g[-2:]), 11 if cell > 40
                            else 9, anchor="middle", fill=COLOURS["race"] if hit else "#667"))
    if outer:
        out.append(text(x0, y0 + len(row_ids) * cell + 16, "(index %s of the outer dimensions)"
                        % paren(outer), 10, fill="#666"))
    draw_rows, draw_cols = len(row_ids), len(col_ids)
    return draw_cols * cell, draw_rows * cell + (20 if outer else 0), "".join(out)


def window(n, at, most=10):
    """The indices of a dimension of n that a drawing shows: all of them,
    or `most` around index at."""
    if n <= most + 2:
        return list(range(n))
    start = min(max(at - most // 2, 0), n - most)
    return list(range(start, start + most))


def draw_divergence(run, f, x0, y0):
    a = f["args"]
    out = []
    reached, total = a.get("reached"), a.get("tile_threads")
    w = 300.0
    if reached is not None and total:
        out.append(rect(x0, y0, w, 26, "#fdecea", stroke=COLOURS["race"], sw=1.5, rx=4,
                        cls="divergence", extra={"data-reached": reached,
                                                 "data-threads": total}))
        out.append(rect(x0, y0, w * reached / total, 26, "#5b8def", rx=4))
        out.append(text(x0 + 8, y0 + 17, "reached: %d" % reached, 11, fill="#fff",
                        weight="700"))
        out.append(text(x0 + w - 8, y0 + 17, "did not: %d" % (total - reached), 11,
                        anchor="end", fill=COLOURS["race"], weight="700"))
        out.append(text(x0, y0 + 46, "%d of the tile's %d threads reached the barrier%s;"
                        " the rest did not: undefined, a GPU may hang" % (
                            reached, total, " (tile %s)" % paren(a["tile"]) if "tile" in a
                            else ""), 12))
        w = max(w, text_width("%d of the tile's %d threads reached the barrier (tile (0, 0));"
                              " the rest did not: undefined, a GPU may hang" % (reached,
                                                                                 total), 12))
    else:
        out.append(rect(x0, y0, w, 26, "#fdecea", stroke=COLOURS["race"], sw=1.5, rx=4,
                        cls="divergence"))
        out.append(text(x0 + 8, y0 + 46, "some of the tile's threads did not reach the"
                        " barrier", 12))
    return w, 56, "".join(out)


def barrier_place(f):
    """Where a barrier belongs: (file, after line, before line, derived), or
    None when both accesses are one statement. After a later line than
    before: at the end of a loop's turn, before the next turn's."""
    a = f["args"]
    if "barrier" in a:
        fa, la = place_line(a["barrier"]["after"])
        fb, lb = place_line(a["barrier"]["before"])
        return fa, la, lb, False
    places = [place_line(p) for p in (a.get("at"), a.get("other_at")) if p]
    places += [place_line(acc["at"]) for acc in a.get("accesses") or [] if "at" in acc]
    if len(places) < 2 or f["name"] != "data race":
        return None
    files = {p[0] for p in places}
    lines = sorted({p[1] for p in places})
    if len(files) != 1 or len(lines) < 2:
        return None
    return files.pop(), lines[0], lines[-1], True


def draw_code(run, f, x, y, width):
    """The lines of the accesses, with the barrier's place between them."""
    a = f["args"]
    lines = {}
    for acc in a.get("accesses") or []:
        if "at" in acc:
            ln = place_line(acc["at"])[1]
            lines.setdefault(ln, []).append((acc.get("code"), acc["access"]))
    for key in ("at", "other_at"):
        if key in a:
            ln = place_line(a[key])[1]
            lines.setdefault(ln, [])
    at_code = {place_line(a["at"])[1]: a["code"]} if "at" in a and a.get("code") else {}
    # The barrier written between the two lines, when there is one: a race
    # across it is between a loop's turns, or its fence leaves tile_static
    # memory out.
    existing = (a.get("barrier") or {}).get("existing")
    existing_line = place_line(existing["at"])[1] if existing else None
    if existing_line is not None:
        lines.setdefault(existing_line, [])
    out = []
    h = 0.0
    site_file = basename(place_line(a["at"])[0]) if "at" in a else basename(a["site"])
    out.append(text(x, y, "In %s:" % site_file, 12, weight="600"))
    h += 10
    place = barrier_place(f)
    next_turn = bool((a.get("barrier") or {}).get("next_turn"))
    global_fence = bool((a.get("barrier") or {}).get("global_fence"))
    row = 24.0
    cy = y + h
    ordered = sorted(lines)
    for n, ln in enumerate(ordered):
        code = next((c for c, _ in lines[ln] if c), None) or at_code.get(ln)
        kinds = sorted({k for _, k in lines[ln]})
        if ln == existing_line and not kinds:
            code = existing.get("code") or code
            label = ("its fence leaves tile_static memory out" if global_fence
                     else "the barrier there, which orders one turn")
            line = [rect(x, cy + 4, width, row - 2, "#fff4e5", rx=3),
                    text(x + 8, cy + 20, "%5d |" % ln, 12, family=MONO, fill="#888",
                         style="white-space: pre"),
                    text(x + 62, cy + 20, code or "(line %d)" % ln, 12, family=MONO,
                         fill="#222"),
                    text(x + width - 8, cy + 20, label, 11, anchor="end", fill="#8a5a00",
                         weight="600")]
            out.append(tag("g", {"class": "code-line existing-barrier", "data-line": ln},
                           "".join(line)))
            cy += row
            continue
        line = [rect(x, cy + 4, width, row - 2, "#f6f8fa", rx=3),
                text(x + 8, cy + 20, "%5d |" % ln, 12, family=MONO, fill="#888",
                     style="white-space: pre"),
                text(x + 62, cy + 20, code or "(line %d)" % ln, 12, family=MONO, fill="#222")]
        if kinds:
            line.append(text(x + width - 8, cy + 20, " and ".join(kinds), 11, anchor="end",
                             fill=COLOURS[kinds[0]], weight="600"))
        out.append(tag("g", {"class": "code-line", "data-line": ln}, "".join(line)))
        cy += row
        last = n + 1 == len(ordered)
        if place and ln == place[1] and (next_turn or not last) and \
                not (global_fence and ordered[n + 1] == existing_line):
            by = cy + 10
            derived = " (between the two accesses)" if place[3] else ""
            if next_turn:
                hint = "a barrier belongs here, at the end of the turn (after line %d, before" \
                       " the next turn's line %d): t_idx.barrier.wait();" % (place[1], place[2])
            else:
                hint = "a barrier belongs here, after line %d and before line %d%s:" \
                       " t_idx.barrier.wait();" % (place[1], place[2], derived)
            out.append(tag("g", {"class": "barrier-hint", "data-after": place[1],
                                 "data-before": place[2], "data-line": place[1] + 1},
                           '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2.5"'
                           ' stroke-dasharray="8 5"/>' % (num(x), num(by), num(x + width), num(by),
                                                          COLOURS["race"]) +
                           text(x + 62, by + 16, hint, 12, weight="700", fill=COLOURS["race"]),
                           title=hint))
            cy += 28
    if f["name"] == "data race" and place is None and len(ordered) == 1:
        # The finding cannot tell a neighbour's element (p[i] = p[i - 1] +
        # p[i]) from one element every thread updates (total += x): both
        # are a read and a write of two threads. Each has its own cure.
        note = ("Both accesses are one statement, so no barrier can come between them as it"
                " is written. Where a thread reads what another writes (a neighbour's"
                " element), split it: read into a variable, t_idx.barrier.wait(), then"
                " write; in a loop, also a t_idx.barrier.wait() at the end of its body, before"
                " the next turn reads. Where every thread adds to one element, use an atomic"
                " (atomic_fetch_add), or let one thread do the work.")
        body = ""
        for k, line in enumerate(wrap(note, int(width / 7.2))):
            body += text(x, cy + 20 + 16 * k, line, 12, weight="600", fill=COLOURS["race"])
        out.append(tag("g", {"class": "no-barrier", "data-line": ordered[0]}, body))
        cy += 12 + 16 * len(wrap(note, int(width / 7.2)))
    if "hint" in a:
        for line in wrap(a["hint"], int(width / 6.6)):
            out.append(text(x, cy + 20, line, 12, fill="#444"))
            cy += 16
        cy += 6
    return "".join(out), cy - y + 10


# ---- the page ----

CSS = """
body { font-family: %s; color: #222; margin: 0; background: #fff; }
header { background: #23395b; color: #fff; padding: 18px 28px 14px; }
header h1 { margin: 0 0 4px; font-size: 22px; font-weight: 600; }
header p { margin: 2px 0; color: #d8e1ee; font-size: 13px; }
nav { padding: 8px 28px; background: #eef3fa; font-size: 13px; }
nav a { margin-right: 18px; color: #23395b; }
section { padding: 10px 28px 18px; }
h2 { font-size: 18px; margin: 18px 0 6px; color: #23395b; }
h3 { font-size: 15px; margin: 16px 0 4px; }
p.explain { max-width: 60em; font-size: 13.5px; line-height: 1.45; color: #333;
  margin: 4px 0 10px; }
.scroll { overflow-x: auto; border: 1px solid #e3e7ee; border-radius: 6px; padding: 6px; }
figure { margin: 10px 0 20px; }
figcaption { font-size: 13px; color: #333; margin: 0 0 6px; }
code { font-family: %s; font-size: 12.5px; background: #f2f4f7; padding: 0 3px; }
.warn { color: #b71c1c; font-weight: 600; }
table.ledger { border-collapse: collapse; font-size: 12.5px; margin-top: 10px; }
table.ledger th, table.ledger td { border: 1px solid #d5dbe3; padding: 4px 8px; text-align: right; }
table.ledger thead th { background: #eef3fa; }
table.ledger tbody th { text-align: left; font-weight: 600; }
table.ledger tr.total { background: #f7f7f7; font-weight: 600; }
.finding { border-left: 4px solid #d32f2f; padding: 2px 0 2px 14px; margin: 14px 0 22px; }
.finding .msg { font-family: %s; font-size: 12.5px; color: #b71c1c; }
#detail { position: fixed; right: 14px; bottom: 14px; max-width: 420px; background: #fffde7;
  border: 1px solid #c9b458; border-radius: 6px; padding: 8px 10px; font-size: 12.5px;
  white-space: pre-wrap; display: none; box-shadow: 0 2px 8px #0003; }
svg .ev:hover rect, svg .where:hover, svg .xfer:hover path { filter: brightness(0.88); }
""" % (FONT, MONO, MONO)

# Shows the hovered element's <title> in a box; the page reads the same without it.
JS = """
(function () {
  var box = document.getElementById('detail');
  document.addEventListener('mouseover', function (e) {
    var el = e.target;
    while (el && el.nodeType === 1) {
      var t = el.querySelector && el.querySelector(':scope > title');
      if (t) { box.textContent = t.textContent; box.style.display = 'block'; return; }
      el = el.parentNode;
    }
    box.style.display = 'none';
  });
})();
"""


def page(run, source_name):
    o = run.other
    lo, hi = run.span()
    title = o.get("program") or os.path.basename(source_name)
    n_bytes = sum(t["args"]["bytes"] for t in run.transfers.values())
    parts = []
    parts.append("<header><h1>%s: what ran, and where the data went</h1>" % esc(title))
    parts.append("<p>%s · %s from the first event to the last · %s, %s, %s moving %s%s</p>" % (
                     esc(o["library"]), esc(fmt_time(hi - lo)), plural(len(run.calls), "call"),
                     plural(len(run.kernels), "kernel"), plural(len(run.transfers), "transfer"),
                     esc(fmt_bytes(n_bytes)),
                     " · under AMP_CHECK: %d finding%s" % (
                         len(run.checks), "" if len(run.checks) == 1 else "s")
                     if o["check"] else ""))
    if o["dropped"]:
        parts.append("<p class=\"warn\">The timeline reached its bound of %d events: %d later"
                     " events were dropped, and are not drawn.</p>"
                     % (o["max_events"], o["dropped"]))
    parts.append("</header>")
    parts.append("<nav><a href=\"#timeline\">Timeline</a><a href=\"#tiles\">Tiled launches</a>"
                 "<a href=\"#data\">Where the data is</a>%s</nav>"
                 % ("<a href=\"#checks\">AMP_CHECK findings</a>" if run.checks else ""))
    # Timeline.
    parts.append("<section id=\"timeline\"><h2>Timeline</h2><p class=\"explain\">Each lane is a"
                 " host thread or a queue of an accelerator, to scale. Bars are calls, kernels"
                 " and transfers; arrows go from a call to the work it caused (dashed: a"
                 " transfer). A launch's first call also compiles its kernel, which is why it"
                 " is long. Hover a bar for its details; the file also opens in Perfetto UI or"
                 " chrome://tracing.</p><div class=\"scroll\">%s</div>" % draw_timeline(run))
    windows, more = close_ups(run)
    if windows:
        parts.append("<p class=\"explain\">Close-ups of each launch, each to its own scale: the"
                     " call, the uploads it needed, then its kernel.</p>")
    for n, w in enumerate(windows):
        step = nice_step(w[1] - w[0], 8)
        parts.append("<h3>Close-up %d: from %s to %s</h3><div class=\"scroll\">%s</div>" % (
            n + 1, esc(fmt_tick(w[0], step / 10)), esc(fmt_tick(w[1], step / 10)),
            draw_timeline(run, window=w)))
    if more:
        parts.append("<p class=\"explain\">%d more close-ups are left out.</p>" % more)
    parts.append("</section>")
    # Tiled launches.
    parts.append("<section id=\"tiles\"><h2>Tiled launches</h2>")
    shapes = {}
    simple = {}
    for k in sorted(run.kernels.values(), key=lambda e: e["ts"]):
        a = k["args"]
        if a["tile"] is None:
            key = (a["site"], tuple(a["extent"]))
            simple.setdefault(key, [k, 0])[1] += 1
            continue
        key = (a["site"], tuple(a["extent"]), tuple(a["tile"]), a["mode"],
               tuple(a.get("original") or ()))
        shapes.setdefault(key, [k, 0])[1] += 1
    if not shapes:
        parts.append("<p class=\"explain\">No launch of this run was tiled.</p>")
    else:
        parts.append("<p class=\"explain\">Each tiled launch's domain, as the C++ AMP tiling page"
                     " draws it: the extent cut into tiles, one colour per tile in turn. Every"
                     " element is one thread; <code>t_idx.global</code> is its index in the"
                     " extent, <code>t_idx.tile</code> its tile's, <code>t_idx.local</code> its"
                     " index inside the tile. The threads of one tile share"
                     " <code>tile_static</code> memory and meet at its barriers.</p>")
    for (site, extent, tile, mode, original), (k, count) in list(shapes.items())[:MAX_PICTURES]:
        t = Tiling(list(extent), list(tile), mode, list(original) or None)
        parts.append("<figure class=\"launch\" data-kernel=\"%s\" data-site=\"%s\"><figcaption>"
                     "<b>%s</b> at <code>%s</code>, %s%s</figcaption>%s</figure>" % (
                         esc(k["name"]), esc(site), esc(k["name"]), esc(basename(site)),
                         "launched once" if count == 1 else "launched %d times" % count,
                         " (drawn as tiled: the file does not say which extent it was truncated"
                         " from)" if mode == "truncated" and not original else "",
                         draw_tiling(t)))
    if len(shapes) > MAX_PICTURES:
        parts.append("<p class=\"explain\">%d more tiled launches (other call sites or shapes)"
                     " are left out.</p>" % (len(shapes) - MAX_PICTURES))
    if simple:
        parts.append("<p class=\"explain\">Launches without tiles: %s.</p>" % ", ".join(
            "<code>%s</code> over %s%s" % (esc(basename(site)), esc(times(extent)),
                                          " (%d times)" % n if n > 1 else "")
            for (site, extent), (k, n) in simple.items()))
    parts.append("</section>")
    # Where the data is.
    life, more = draw_life(run)
    parts.append("<section id=\"data\"><h2>Where each view's data is, step by step</h2>")
    if life:
        parts.append("<p class=\"explain\">One row per data (the memory views look into: two"
                     " sections of one matrix share it), one column per step. After each step, a"
                     " filled box is a current copy: on the host, on the device, or both. An"
                     " arrow is a transfer, with its bytes and the ledger's reason; R and W"
                     " mark what the step's kernel reads and may write (a write leaves the host"
                     " copy stale until something brings it back). Hover for details.</p>")
        parts.append("<div class=\"scroll\">%s</div>" % life)
        if more[0] or more[1]:
            parts.append("<p class=\"explain\">Drawn: the first %d steps and %d data; %d more"
                         " steps and %d more data are counted in the ledger below.</p>"
                         % (MAX_STEPS, MAX_DATA_ROWS, more[0], more[1]))
    else:
        parts.append("<p class=\"explain\">No view was created or used while the timeline"
                     " ran.</p>")
    parts.append("<h3>The transfer ledger</h3><p class=\"explain\">Transfers and bytes by"
                 " direction and reason, as <code>amp_array_view_get_transfers</code> counts"
                 " them for each data and <code>amp_transfer_get_stats</code> for the run.</p>")
    parts.append(ledger_table(run))
    parts.append("</section>")
    # Findings.
    if run.checks or o["check"]:
        parts.append("<section id=\"checks\"><h2>AMP_CHECK findings</h2>")
        if not run.checks:
            parts.append("<p class=\"explain\">The run was checked, and nothing was found.</p>")
        for n, f in enumerate(run.checks[:MAX_PICTURES]):
            a = f["args"]
            parts.append("<div class=\"finding\" data-problem=\"%s\"><h3>%d. %s in %s"
                         " (parallel_for_each at <code>%s</code>)</h3><p class=\"msg\">%s%s</p>"
                         "<div class=\"scroll\">%s</div></div>" % (
                             esc(f["name"]), n + 1, esc(f["name"]).capitalize(),
                             esc(a["kernel"]), esc(basename(a["site"])), esc(a["message"]),
                             esc(" — at " + basename(a["at"])) if "at" in a else "",
                             draw_finding(run, f, n + 1)))
        if len(run.checks) > MAX_PICTURES:
            parts.append("<p class=\"explain\">%d more findings are left out.</p>"
                         % (len(run.checks) - MAX_PICTURES))
        parts.append("</section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>%s: amp timeline</title><style>%s</style></head><body>%s%s"
            "<div id=\"detail\"></div><script>%s</script></body></html>\n"
            % (esc(title), CSS, defs_svg(), "".join(parts), JS))


def plural(n, what):
    return "%d %s%s" % (n, what, "" if n == 1 else "s")


def tiling_page(t, svg_text):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head><body>%s<section>%s</section>"
            "<div id=\"detail\"></div><script>%s</script></body></html>\n"
            % (esc("tiles of " + times(t.tile)), CSS, defs_svg(), svg_text, JS))


def defs_svg():
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" class="defs"'
            ' style="position:absolute" aria-hidden="true">%s</svg>' % defs())


# ---- the command line ----

def parse_shape(s, what):
    parts = s.lower().replace("×", "x").split("x")
    try:
        dims = [int(p) for p in parts]
    except ValueError:
        raise UsageError("%s %r is not a shape: write its sizes with x between them, as 8, 8x8"
                         " or 4x4x4" % (what, s))
    if not 1 <= len(dims) <= 3:
        raise UsageError("%s %r has rank %d: tiled extents have rank 1 to 3, as in C++ AMP"
                         % (what, s, len(dims)))
    if any(d <= 0 for d in dims):
        raise UsageError("%s %r has a size <= 0: every size must be at least 1" % (what, s))
    if any(d > MAX_SIZE for d in dims):
        raise UsageError("%s %r has a size above %d: an extent's sizes are ints (amp_extent)"
                         % (what, s, MAX_SIZE))
    return dims


def write_output(path, content):
    if path == "-":
        sys.stdout.write(content)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)
    except OSError as e:
        raise InputError("cannot write %s: %s" % (path, e.strerror or e))


def load_run(path):
    try:
        data = check_timeline.load(path)
    except check_timeline.TimelineError as e:
        raise InputError("%s: %s" % (path, e))
    problems = check_timeline.check(data)
    if problems:
        shown = problems[:20]
        more = len(problems) - len(shown)
        raise InputError("%s is not a timeline amp-draw can draw (docs/timeline.md):\n  %s%s"
                         % (path, "\n  ".join(shown),
                            "\n  ... and %d more" % more if more else ""))
    return Run(data)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="amp-draw",
        description="Draw a run from its timeline (AMP_TIMELINE=FILE.json) as one self-contained"
                    " HTML page, or draw a tiling alone.",
        epilog="examples: amp-draw run.json -o run.html;  amp-draw --tiles 8x9 --tile 2x3 -o"
               " tiles.svg;  amp-draw --tiles 37x53 --tile 16x16 --pad -o padded.svg")
    parser.add_argument("timeline", nargs="?", help="the timeline file (AMP_TIMELINE's JSON)")
    parser.add_argument("-o", "--output", help="the page or picture to write (default: the"
                        " timeline's name with .html; for --tiles, standard output); '-' is"
                        " standard output")
    parser.add_argument("--tiles", metavar="EXTENT", help="draw this extent in tiles, as 8x8")
    parser.add_argument("--tile", metavar="TILE", help="the tile, as 2x2 (with --tiles)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--pad", action="store_true", help="round the extent up to whole tiles")
    how.add_argument("--truncate", action="store_true",
                     help="round the extent down to whole tiles")
    parser.add_argument("--check", action="store_true",
                        help="only check the timeline against docs/timeline.md")
    # A negative size after --tiles or --tile is a size to refuse with its
    # reason, not an option argparse does not know.
    argv = list(sys.argv[1:] if argv is None else argv)
    for i in range(len(argv) - 2, -1, -1):
        if argv[i] in ("--tiles", "--tile") and re.match(r"-[0-9]", argv[i + 1]):
            argv[i:i + 2] = [argv[i] + "=" + argv[i + 1]]
    args = parser.parse_args(argv)
    try:
        if args.tiles or args.tile:
            if not (args.tiles and args.tile):
                raise UsageError("--tiles and --tile go together: the extent and its tile")
            if args.timeline or args.check:
                raise UsageError("--tiles draws a tiling alone: give no timeline with it")
            extent = parse_shape(args.tiles, "the extent")
            tile = parse_shape(args.tile, "the tile")
            t = Tiling.from_request(extent, tile, "pad" if args.pad else
                                    "truncate" if args.truncate else None)
            picture = draw_tiling(t, title="extent %s in tiles of %s%s" % (
                times(extent), times(tile), ", padded" if t.mode == "padded" else
                ", truncated" if t.mode == "truncated" else ""))
            out = args.output or "-"
            write_output(out, standalone(picture) + "\n" if out == "-" or out.endswith(".svg")
                         else tiling_page(t, picture))
            return 0
        if args.pad or args.truncate:
            raise UsageError("--pad and --truncate go with --tiles")
        if not args.timeline:
            raise UsageError("give a timeline to draw (amp-draw RUN.json -o RUN.html), or"
                             " --tiles and --tile")
        run = load_run(args.timeline)
        if args.check:
            return 0
        out = args.output or os.path.splitext(args.timeline)[0] + ".html"
        write_output(out, page(run, args.timeline))
        return 0
    except UsageError as e:
        print("amp-draw: %s" % e, file=sys.stderr)
        return 2
    except InputError as e:
        print("amp-draw: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:  # a bug here: say so in one line (AMP_DRAW_DEBUG=1 shows where)
        if os.environ.get("AMP_DRAW_DEBUG"):
            raise
        print("amp-draw: internal error (%s: %s): the input passed its checks, so this is a bug"
              " in amp-draw; AMP_DRAW_DEBUG=1 shows where" % (type(e).__name__, e),
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
