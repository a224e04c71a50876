# Split one Markdown file into the programs of its ```c blocks, for
# scripts/docs/doc-blocks.sh (which describes the convention).
#   awk -v md=FILE.md -v out=PREFIX -f scripts/docs/doc-blocks.awk FILE.md
# writes PREFIX_<n>.c for each program, and PREFIX.manifest with one line
# per block: "run<TAB>n<TAB>kind<TAB>line" (kind: program or fragment) or
# "skip<TAB>line<TAB>reason". Malformed doc-test comments are printed as
# "FILE.md:line: error: ..." and make awk exit with status 1.
function fail(line, msg) {
  printf "%s:%d: error: %s\n", md, line, msg
  bad = 1
}
function lineno(n) { return "#line " n " \"" md "\"\n" }
# Write the program gathered so far.
function flush(   file) {
  if (!open) return
  file = out "_" nprog ".c"
  printf "/* %s, the block at line %d (scripts/docs/doc-blocks.sh) */\n", md, p_line > file
  if (p_kind == "program") {
    printf "%s", p_body > file
  } else {
    printf "#include \"doc_harness.h\"\n%s\nint main(void)\n{\n%s", p_head, p_body > file
    printf "    return doc_end(%d);\n}\n", p_expect > file
  }
  close(file)
  printf "run\t%d\t%s\t%d\n", nprog, p_kind, p_line > (out ".manifest")
  open = 0
}
function has_pending() {
  return pend_skip != "" || pend_continue || pend_expect || pend_setup_line
}
function clear_pending() {
  pend_skip = ""; pend_continue = 0; pend_expect = 0; pend_setup = ""; pend_setup_line = 0
  pend_at = 0
}
# A ```c block ended: decide what it is.
function block(   n, lines, i, code, head, is_program) {
  if (pend_skip != "") {
    printf "skip\t%d\t%s\n", b_line, pend_skip > (out ".manifest")
    clear_pending(); can_check = 0
    return
  }
  is_program = (b_code ~ /(^|\n)[ \t]*int[ \t]+main[ \t]*\(/)
  # #include lines go to file scope; an empty line keeps the numbering.
  head = ""; code = ""
  n = split(b_code, lines, "\n")
  for (i = 1; i < n; i++) {
    if (!is_program && lines[i] ~ /^[ \t]*#[ \t]*include/) {
      head = head lineno(b_line + i - 1) lines[i] "\n"
      code = code "\n"
    } else {
      code = code lines[i] "\n"
    }
  }
  if (pend_continue) {
    if (!open || p_kind != "fragment" || is_program)
      fail(b_line, "doc-test: continue needs a fragment before it, and a fragment to continue with")
  } else {
    flush()
    open = 1; nprog++; p_line = b_line; p_head = ""; p_body = ""; p_expect = 0
    p_kind = is_program ? "program" : "fragment"
  }
  if (is_program && (pend_expect || pend_setup_line))
    fail(b_line, "a whole program (it defines main) takes no setup or expect-error")
  if (pend_setup_line)
    p_body = p_body lineno(pend_setup_line) pend_setup
  p_head = p_head head
  p_body = p_body lineno(b_line) code
  if (pend_expect) p_expect = 1
  clear_pending()
  can_check = !is_program
}
BEGIN { state = "text"; nprog = 0; open = 0; bad = 0; clear_pending()
        printf "" > (out ".manifest") }
state == "c" {
  if ($0 ~ /^[ \t]*```[ \t]*$/) { block(); state = "text"; next }
  line = $0
  # Strip the fence's indentation (a block inside a list item).
  for (i = 0; i < b_indent && substr(line, 1, 1) ~ /[ \t]/; i++) line = substr(line, 2)
  b_code = b_code line "\n"
  next
}
state == "other" {
  if ($0 ~ /^[ \t]*```[ \t]*$/) state = "text"
  next
}
state == "setup" || state == "check" {
  if ($0 ~ /^[ \t]*-->[ \t]*$/) {
    if (state == "setup") pend_setup = d_code
    else p_body = p_body lineno(d_line) d_code
    state = "text"
    next
  }
  if ($0 ~ /-->/) fail(NR, "end a doc-test comment with --> on a line of its own")
  d_code = d_code $0 "\n"
  next
}
/^[ \t]*```[cC][ \t]*$/ {
  state = "c"; b_line = NR + 1; b_code = ""
  match($0, /^[ \t]*/); b_indent = RLENGTH
  next
}
/^[ \t]*```/ {
  if (has_pending()) fail(pend_at, "this doc-test comment is followed by a block that is not ```c")
  clear_pending(); can_check = 0
  state = "other"
  next
}
/^[ \t]*<!--[ \t]*doc-test:/ {
  d = $0
  sub(/^[ \t]*<!--[ \t]*doc-test:[ \t]*/, "", d)
  if (d ~ /^(setup|check)[ \t]*$/) {
    kind = d; sub(/[ \t]*$/, "", kind)
    if (kind == "check" && !can_check) {
      fail(NR, "doc-test: check must follow a fragment block directly")
    }
    if (kind == "setup") { pend_setup_line = NR + 1; pend_at = NR }
    state = kind; d_code = ""; d_line = NR + 1
    next
  }
  if (d !~ /-->[ \t]*$/) { fail(NR, "unknown doc-test comment (setup and check take lines; others end with --> on their line)"); next }
  sub(/[ \t]*-->[ \t]*$/, "", d)
  if (!pend_at) pend_at = NR
  if (d == "continue") pend_continue = 1
  else if (d == "expect-error") pend_expect = 1
  else if (d ~ /^skip[ \t]/ && d !~ /^skip[ \t]*$/) { pend_skip = d; sub(/^skip[ \t]+/, "", pend_skip) }
  else if (d ~ /^skip/) fail(NR, "doc-test: skip needs a reason")
  else fail(NR, "unknown doc-test comment: " d)
  next
}
/^[ \t]*$/ { next }
{
  if (has_pending()) { fail(pend_at, "this doc-test comment is not followed by a ```c block"); clear_pending() }
  can_check = 0
}
END {
  if (state == "c") fail(b_line, "this ```c block is never closed")
  if (state == "setup" || state == "check") fail(d_line, "this doc-test comment is never closed")
  if (has_pending()) fail(pend_at, "this doc-test comment is not followed by a ```c block")
  flush()
  exit bad
}
