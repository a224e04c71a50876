#!/usr/bin/env bash
# Check the reference: every public function of amp/*.h has a comment right
# above its declaration (a comment may cover a group of declarations with no
# blank line between them), and every public function and function-like
# macro has its line in docs/api.md, written as `name(` there. Names that
# start with amp__ or AMP__ are internal and left out. The other way round,
# every `amp_name(` that docs/api.md lists must be declared in amp/.
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

# One line per public name: "header<TAB>line<TAB>name<TAB>kind<TAB>commented"
# (kind: function or macro; commented: 1 or 0; macros are not checked for a
# comment, since several are defined in the lines after the function they
# wrap).
declarations() {
  awk '
    function start(name, kind) {
      printf "%s\t%d\t%s\t%s\t%d\n", FILENAME, FNR, name, kind, commented
    }
    FNR == 1 { commented = 0; in_comment = 0; in_decl = 0; depth = 0 }
    # A blank line ends the group a comment covers.
    /^[ \t]*$/ { commented = 0; next }
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
      if ($0 ~ /\*\/[ \t]*$/) commented = 1
      else in_comment = 1
      next
    }
    /^#[ \t]*define[ \t]+AMP_[A-Z0-9_]*\(/ || /^#[ \t]*define[ \t]+amp_[a-z0-9_]*\(/ {
      name = $0
      sub(/^#[ \t]*define[ \t]+/, "", name); sub(/\(.*/, "", name)
      if (name !~ /^(AMP__|amp__)/) start(name, "macro")
      commented = 0
      next
    }
    /^(static inline |extern )?[A-Za-z_][A-Za-z0-9_ \t*]*[ \t*]amp_[a-z0-9_]+[ \t]*\(/ && !/^typedef/ {
      name = $0
      sub(/[ \t]*\(.*/, "", name); sub(/.*[ \t*]/, "", name)
      if (name !~ /^amp__/) start(name, "function")
      if ($0 ~ /\{/) depth = gsub(/\{/, "{") - gsub(/\}/, "}")
      else if ($0 !~ /;[ \t]*$/) in_decl = 1
      next
    }
    { commented = 0 }
  ' "${headers[@]}"
}

problems=0
declared=" "
while IFS=$'\t' read -r header line name kind commented; do
  declared+="$name "
  if [ "$kind" = function ] && [ "$commented" = 0 ]; then
    echo "$header:$line: $name has no comment right above its declaration (what it does, who owns what, which statuses it returns)"
    problems=$((problems + 1))
  fi
  if ! grep -qF "\`$name(" "$index"; then
    echo "$header:$line: $name is missing from $index (add a line: - \`$name(...)\` — what it does)"
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
