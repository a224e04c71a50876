#!/usr/bin/env python3
"""Compare what the preprocessor's # makes of the arguments of the
stringifying macros (kernel bodies above all) in two versions of a C file:
the file as written and as clang-format would write it.

    scripts/check/stringified-args.py FORMATTED_DIR FILE...

compares each FILE with FORMATTED_DIR/FILE.

The macros are those .clang-format lists under WhitespaceSensitiveMacros.
clang-format 14 is asked to leave their arguments alone, but does not
always (a call nested in another that it must break): a change of spacing
there changes the string, and so the kernel, or the text a test expects.
Prints each invocation whose string would change, at its line, and the
files, one a line after "unsafe:"; exits 1 if there is one. Used by
scripts/check/format.sh.
"""
import os
import re
import sys


def macro_names():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".clang-format")
    names, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("WhitespaceSensitiveMacros:"):
                inside = True
            elif inside and line.startswith("  - "):
                names.append(line[4:].strip())
            elif inside and line.strip() and not line.startswith("#"):
                inside = False
    return names


def invocations(text, pattern):
    """(name, line, argument text) of each call, not of the #defines."""
    found = []
    for m in pattern.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith("#"):
            continue
        depth, j = 1, m.end()
        while j < len(text) and depth:
            c = text[j]
            if c in "\"'":
                j += 1
                while j < len(text) and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            j += 1
        found.append((m.group(1), text.count("\n", 0, m.start()) + 1, text[m.end():j - 1]))
    return found


def stringified(arg):
    # Lines joined by a backslash are one line; # turns each run of
    # whitespace between tokens into one space, and drops it at the ends.
    return re.sub(r"\s+", " ", arg.replace("\\\n", "")).strip()


def compare(original, formatted, pattern, names):
    """The number of calls whose string formatting would change."""
    with open(original, encoding="utf-8") as f:
        before = invocations(f.read(), pattern)
    with open(formatted, encoding="utf-8") as f:
        after = invocations(f.read(), pattern)
    if len(before) != len(after):
        print(f"{original}: {len(before)} calls of {', '.join(names)}, {len(after)} once formatted")
        return 1
    changed = 0
    for (name, line, a), (_, _, b) in zip(before, after):
        if stringified(a) != stringified(b):
            print(f"{original}:{line}: formatting would change the text # makes of {name}(...):\n"
                  f"    {stringified(a)[:150]}\n    {stringified(b)[:150]}")
            changed += 1
    return changed


def main():
    formatted_dir, files = sys.argv[1], sys.argv[2:]
    names = macro_names()
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\s*\(")
    unsafe = [f for f in files
              if compare(f, os.path.join(formatted_dir, f), pattern, names)]
    if unsafe:
        print("unsafe:")
        print("\n".join(unsafe))
    return 1 if unsafe else 0


if __name__ == "__main__":
    sys.exit(main())
