#!/usr/bin/env bash
# Check the reference: every public function of amp/*.h has a comment right
# above its declaration (a comment may cover a group of declarations with no
# blank line between them), and every public function and function-like
# macro has its line in docs/api.md, written as `name(` there. Names that
# start with amp__ or AMP__ are internal and left out. The other way round,
# every `amp_name(` that docs/api.md lists must be declared in amp/.
# Deprecated spellings: a declaration whose comment starts with "Deprecated:"
# is listed under "## Deprecated spellings" in the index, and only there; a
# function so marked carries AMP__DEPRECATED (amp/status.h), so that the
# compiler says so too, and one that carries it is so marked.
# Prints each problem as FILE:LINE: what is wrong, and fails if there is one.
#   scripts/check/api-index.sh                   (from anywhere; checks its own tree)
#   scripts/check/api-index.sh INDEX HEADER...   (paths from the project's root;
#                                           tests/lint/CMakeLists.txt checks the check)
set -euo pipefail
cd "$(dirname "$0")/../.."
index=${1:-docs/api.md}
if [ $# -gt 1 ]; then
  headers=("${@:2}")
else
  headers=(amp/*.h)
fi

# One line per public name: "header<TAB>line<TAB>name<TAB>kind<TAB>commented
# <TAB>deprecated<TAB>attributed" (kind: function or macro; commented: 1 or
# 0; macros are not checked for a comment, since several are defined in the
# lines after the function they wrap; deprecated: its comment starts with
# "Deprecated:"; attributed: it carries AMP__DEPRECATED).
declarations() {
  awk '
    function start(name, kind) {
      printf "%s\t%d\t%s\t%s\t%d\t%d\t%d\n", FILENAME, FNR, name, kind, commented,
             deprecated, attributed
      attributed = 0
    }
    FNR == 1 { commented = 0; deprecated = 0; attributed = 0; in_comment = 0; in_decl = 0; depth = 0 }
    # A blank line ends the group a comment covers.
    /^[ \t]*$/ { commented = 0; deprecated = 0; next }
    # Inside the body of a static inline function.
    depth > 0 {
      depth += gsub(/\{/, "{") - gsub(/\}/, "}")
      next
    }
    # The further lines of a declaration: up to its ";" or its body.
    in_decl {
      if ($0 ~ /^\{/) { in_decl = 0; depth = 1 + gsub(/\{/, "{") - 1 - gsub(/\}/, "}") }
      else if ($0 ~ /;[ \t]*$/) in_decl = 0
      next
    }
    in_comment {
      if ($0 ~ /\*\//) { in_comment = 0; commented = 1 }
      next
    }
    /^[ \t]*\/\*/ {
      deprecated = $0 ~ /^[ \t]*\/\*[ \t]*Deprecated:/
      if ($0 ~ /\*\/[ \t]*$/) commented = 1
      else in_comment = 1
      next
    }
    # The attribute of a deprecated function, on a line of its own or before
    # the declaration on its line.
    /^AMP__DEPRECATED\(.*\)[ \t]*$/ { attributed = 1; next }
    /^AMP__DEPRECATED\(/ {
      attributed = 1
      sub(/^AMP__DEPRECATED\("[^"]*"\)[ \t]*/, "")
    }
    /^#[ \t]*define[ \t]+AMP_[A-Z0-9_]*\(/ || /^#[ \t]*define[ \t]+amp_[a-z0-9_]*\(/ {
      name = $0
      sub(/^#[ \t]*define[ \t]+/, "", name); sub(/\(.*/, "", name)
      if (name !~ /^(AMP__|amp__)/) start(name, "macro")
      commented = 0; deprecated = 0
      next
    }
    /^(static inline |extern )?[A-Za-z_][A-Za-z0-9_ \t*]*[ \t*]amp_[a-z0-9_]+[ \t]*\(/ && !/^typedef/ {
      name = $0
      sub(/[ \t]*\(.*/, "", name); sub(/.*[ \t*]/, "", name)
      if (name !~ /^amp__/) start(name, "function")
      attributed = 0
      if ($0 ~ /\{/) depth = gsub(/\{/, "{") - gsub(/\}/, "}")
      else if ($0 !~ /;[ \t]*$/) in_decl = 1
      next
    }
    { commented = 0; deprecated = 0; attributed = 0 }
  ' "${headers[@]}"
}

# The index in two parts: its section "## Deprecated spellings" (up to the
# next "## " heading), and the rest.
section=$(mktemp)
current=$(mktemp)
trap 'rm -f "$section" "$current"' EXIT
awk -v section="$section" -v current="$current" '
  /^## / { in_section = $0 ~ /^## Deprecated spellings/ }
  { print > (in_section ? section : current) }
' "$index"
touch "$section" "$current"

problems=0
declared=" "
while IFS=$'\t' read -r header line name kind commented deprecated attributed; do
  declared+="$name "
  if [ "$kind" = function ] && [ "$commented" = 0 ]; then
    echo "$header:$line: $name has no comment right above its declaration (what it does, who owns what, which statuses it returns)"
    problems=$((problems + 1))
  fi
  if [ "$kind" = function ] && [ "$deprecated" != "$attributed" ]; then
    if [ "$deprecated" = 1 ]; then
      echo "$header:$line: $name is deprecated but lacks AMP__DEPRECATED(\"the spelling to use\"), so the compiler does not say so"
    else
      echo "$header:$line: $name carries AMP__DEPRECATED, but its comment does not start with \"Deprecated:\" and the spelling to use"
    fi
    problems=$((problems + 1))
  fi
  if ! grep -qF "\`$name(" "$index"; then
    echo "$header:$line: $name is missing from $index (add a line: - \`$name(...)\` — what it does)"
    problems=$((problems + 1))
  elif [ "$deprecated" = 1 ] && ! grep -qF "\`$name(" "$section"; then
    echo "$header:$line: $name is deprecated: list it under \"## Deprecated spellings\" in $index, with the spelling to use, and only there"
    problems=$((problems + 1))
  elif [ "$deprecated" = 1 ] && grep -qF "\`$name(" "$current"; then
    echo "$header:$line: $name is deprecated: list it only under \"## Deprecated spellings\" in $index"
    problems=$((problems + 1))
  elif [ "$deprecated" = 0 ] && ! grep -qF "\`$name(" "$current"; then
    echo "$header:$line: $name is listed only under \"## Deprecated spellings\" in $index, but its comment does not say it is deprecated"
    problems=$((problems + 1))
  fi
done < <(declarations)

# Every function the index lists exists.
while IFS=: read -r line name; do
  name=${name#\`}
  name=${name%(}
  if [[ $declared != *" $name "* ]]; then
    echo "$index:$line: $name is not declared in ${headers[*]}"
    problems=$((problems + 1))
  fi
done < <(grep -noE '`amp_[a-z0-9_]+\(' "$index")

if [ $problems -gt 0 ]; then
  echo "api index: $problems problems"
  exit 1
fi
echo "api index: every public function and macro of amp/*.h is commented and in $index"
