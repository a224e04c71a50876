"""What the draw tests share: running amp-draw, and reading what it drew."""

import html.parser
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "tools", "amp-draw")
FIXTURES = os.path.join(HERE, "fixtures")
sys.path.insert(0, TOOL)


def amp_draw_command():
    """The build tree's launcher (AMP_DRAW, set by CTest), else the source."""
    launcher = os.environ.get("AMP_DRAW")
    if launcher:
        return [launcher]
    return [sys.executable, os.path.join(TOOL, "amp_draw.py")]


def run(*args):
    """amp-draw with args: (status, stdout, stderr)."""
    r = subprocess.run(amp_draw_command() + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


def work_dir():
    """Where tests write (CTest's DRAW_WORK, else a folder beside them in /tmp)."""
    path = os.environ.get("DRAW_WORK") or os.path.join("/tmp", "amp-draw-tests-%d" % os.getuid())
    os.makedirs(path, exist_ok=True)
    return path


class Elements(html.parser.HTMLParser):
    """Every element's tag and attributes, in document order; works on the
    page (HTML) and on a drawing (SVG) alike."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items = []

    def handle_starttag(self, tag, attrs):
        self.items.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def elements(markup):
    p = Elements()
    p.feed(markup)
    p.close()
    return p.items


def with_class(items, cls, **data):
    """The attributes of the elements of a class (one of their classes),
    with the given data-* values (data_tile="1,2" for data-tile)."""
    out = []
    for tag, a in items:
        if cls not in (a.get("class") or "").split():
            continue
        if all(a.get(k.replace("_", "-")) == v for k, v in data.items()):
            out.append(a)
    return out


def section(page, start, end=None):
    """The part of the page from the first match of a pattern to the next
    match of end (or the end)."""
    m = re.search(start, page)
    if not m:
        raise AssertionError("the page has no %r" % start)
    rest = page[m.start():]
    if end:
        e = re.search(end, rest[1:])
        if e:
            rest = rest[:e.start() + 1]
    return rest
