#!/usr/bin/env bash
# Run the samples and the test programs of an existing build under valgrind's
# memcheck: any invalid access, use of uninitialised memory or leak (definite
# or possible) fails the run.
#   scripts/memory/valgrind.sh [BUILD_DIR]      default: build (made by scripts/test.sh)
# Environment: JOBS (programs at once, default: the number of CPUs);
# WARMUP=no skips the first pass (below) when PoCL's cache is already warm;
# ONLY=REGEX runs only the tests whose names match (bash's =~), as ctest -R.
# Each program's valgrind report is written to BUILD_DIR/valgrind/; those
# with errors are printed.
#
# The list of programs comes from CTest (ctest -N -V), so that each runs
# with the arguments and environment of its test: a test that runs one of
# our programs directly runs it under valgrind; a test that runs a program
# through a CMake script (-DPROGRAM=..., the samples' output comparison)
# runs the same script with PROGRAM wrapped in valgrind. Tests of AMP_CHECK
# are left out: their kernels run on Oclgrind, a simulator that executes
# one work-item at a time, and under valgrind as well that takes hours.
#
# Kernels are compiled by PoCL's LLVM inside the process, about 50 times
# slower under memcheck. Under valgrind PoCL also sees another CPU (valgrind
# presents its own CPUID), so the kernel cache of a normal run does not
# apply. A first pass under valgrind's "none" tool, which checks nothing and
# runs at near native speed, fills PoCL's kernel cache for that CPU; the
# memcheck pass then finds its kernels there. docs/reliability.md gives the
# times.
#
# Suppressions (scripts/memory/valgrind.supp) cover only PoCL's, LLVM's, Oclgrind's
# and the ICD loader's internals; each says why.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
build=$(cd "${1:-build}" && pwd)
jobs=${JOBS:-$(nproc)}
logs="$build/valgrind"
rm -rf "$logs"
mkdir -p "$logs"

if ! command -v valgrind >/dev/null; then
  echo "valgrind is not installed (apt-get install valgrind)" >&2
  exit 1
fi

memcheck=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full
          --show-leak-kinds=definite,possible --errors-for-leak-kinds=definite,possible
          --num-callers=40 --suppressions="$root/scripts/memory/valgrind.supp" --gen-suppressions=all)
warmup=(valgrind --tool=none)

# Tests never run under valgrind, and why.
skip_reason() {
  case "$1" in
    test_check|test_oclcheck|checked_*)
      echo "AMP_CHECK: Oclgrind simulates every work-item; hours under valgrind" ;;
    sample_cuda_matmul_seed_size)
      echo "the seed's full size, minutes under memcheck; sample_cuda_matmul runs the same code at 150x110x130" ;;
    test_ordering_property_devices)
      echo "two PoCL sub-devices lose memcheck's tracking of what their kernels wrote: right values read as uninitialised (the test checks every value; ASan runs it, and its poisoned run shows no value comes from memory nobody wrote)" ;;
    test_ordering_property_devices_poisoned)
      echo "preloads its own posix_memalign, which valgrind replaces; it stands in for memcheck on the devices run" ;;
    doc_blocks*|api_index*|readme_build)
      echo "checks of the docs: shell scripts that compile and run code blocks, not a program of ours" ;;
    *) if [[ " ${2:-} " == *" AMP_CHECK=1 "* ]]; then
         echo "AMP_CHECK: Oclgrind simulates every work-item; hours under valgrind"
       fi ;;
  esac
}

# Read the tests: name, command (one line, quoted as ctest prints it) and
# environment.
declare -a names=() commands=() envs=()
current=-1
while IFS= read -r line; do
  if [[ $line =~ ^[0-9]+:\ Test\ command:\ (.*)$ ]]; then
    current=${#names[@]}
    names+=("")
    commands+=("${BASH_REMATCH[1]}")
    envs+=("")
  elif [[ $current -ge 0 && $line =~ ^[0-9]+:\ \ ([A-Za-z_][A-Za-z0-9_]*=.*)$ ]]; then
    envs[current]+="${BASH_REMATCH[1]}"$'\n'
  elif [[ $current -ge 0 && $line =~ ^\ +Test\ +#[0-9]+:\ (.*)$ ]]; then
    names[current]=${BASH_REMATCH[1]}
  fi
done < <(ctest --test-dir "$build" -N -V)

# Longest first, so that a long test does not start last and run alone: by
# the times CTest kept from its last run of this build, when there is one.
declare -A cost=()
costs="$build/Testing/Temporary/CTestCostData.txt"
if [ -e "$costs" ]; then
  while read -r name _ seconds; do
    [ "$name" = --- ] && break
    cost[$name]=$seconds
  done < "$costs"
fi
mapfile -t order < <(for i in "${!names[@]}"; do
                       printf '%s %s\n' "${cost[${names[i]}]:-0}" "$i"
                     done | sort -k1,1gr -k2,2n | cut -d' ' -f2)

# Run test number $2 with the valgrind tool given in the array named $1;
# output goes to $3.
run_one() {
  local -n base=$1
  local i=$2 out=$3
  # The report goes to its own file (one per process, %p), away from the
  # output that the tests compare.
  local -a tool=("${base[@]}" "--log-file=${out%.log}.%p.valgrind")
  local -a cmd env_args=()
  # ctest quotes arguments with double quotes; xargs splits them the same way.
  mapfile -d '' -t cmd < <(printf '%s' "${commands[i]}" | xargs printf '%s\0')
  while IFS= read -r kv; do
    [ -n "$kv" ] && env_args+=("$kv")
  done <<< "${envs[i]}"
  # The property test's views run takes a new seed each run; with some
  # seeds memcheck loses track of what PoCL's kernels wrote, as with the
  # devices run (skip_reason), and reads right values as uninitialised
  # (seeds 1 and 284115939; the same seeds pass with PoCL's fresh buffers
  # filled with 0xAB). Under memcheck it runs one seed it follows, so that
  # the pass is the same every time; ctest runs new seeds.
  if [ "${names[i]}" = test_ordering_property_views ]; then
    env_args+=("AMP_PROPERTY_SEED=2")
  fi
  local -a run=()
  if [[ ${cmd[0]} == "$build"/* ]]; then
    run=("${tool[@]}" "${cmd[@]}")
  else
    # A CMake script that runs -DPROGRAM=...: wrap the program. A list in
    # PROGRAM becomes the command and its options in execute_process().
    local wrapped=0 a prefix
    prefix=$(printf '%s;' "${tool[@]}")
    for a in "${cmd[@]}"; do
      if [[ $a == -DPROGRAM=* ]]; then
        run+=("-DPROGRAM=$prefix${a#-DPROGRAM=}")
        wrapped=1
      else
        run+=("$a")
      fi
    done
    if [ $wrapped -eq 0 ]; then
      echo "not one of our programs: ${commands[i]}" > "$out"
      return 0
    fi
  fi
  (cd "$build/tests" && env "${env_args[@]}" timeout 3600 "${run[@]}") > "$out" 2>&1
}

# Run every test through run_one, $jobs at a time, with the tool named $1;
# with $2 = yes, say how each went, and show the valgrind report of those
# that failed.
pass() {
  local toolname=$1 report=$2 i
  for i in "${order[@]}"; do
    local name=${names[i]} reason
    [[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && continue
    reason=$(skip_reason "$name" "$(tr '\n' ' ' <<< "${envs[i]}")")
    if [ -n "$reason" ]; then
      [ "$report" = yes ] && printf '%-36s skipped: %s\n' "$name" "$reason"
      continue
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
      wait -n || true
    done
    (
      log="$logs/${name//\//_}.$toolname.log"  # test names may hold a '/'
      start=$(date +%s)
      rc=0
      run_one "$toolname" "$i" "$log" || rc=$?
      [ "$report" = yes ] || exit 0
      took=$(( $(date +%s) - start ))
      if [ $rc -eq 0 ]; then
        printf '%-36s ok %5ds\n' "$name" "$took"
      elif [ $rc -eq 77 ] && ! grep -qs 'ERROR SUMMARY: [1-9]' "${log%.log}".*.valgrind; then
        # 77 is the suite's skip code (CTest's SKIP_RETURN_CODE): the program
        # found nothing to run here, such as large_view without a GPU. Memcheck
        # exits 99 on an error, so 77 with clean reports is the program's own.
        why=$(tail -1 "$log")
        printf '%-36s skipped: %s\n' "$name" "${why#skipped: }"
      else
        touch "$logs/failed"
        { printf '%-36s FAILED %5ds (exit %d; output in %s)\n' "$name" "$took" "$rc" "$log"
          reported=0
          for v in "${log%.log}".*.valgrind; do
            [ -e "$v" ] || continue
            if grep -q 'ERROR SUMMARY: [1-9]' "$v"; then
              echo "---- $v"
              cat "$v"
              reported=1
            fi
          done
          [ $reported -eq 1 ] || tail -40 "$log"; } >&2
      fi
    ) &
  done
  wait
}

t0=$(date +%s)
if [ "${WARMUP:-yes}" != no ]; then
  echo "== valgrind --tool=none, to fill PoCL's kernel cache for valgrind's CPU ($jobs at a time)"
  pass warmup no
fi
t1=$(date +%s)
echo "   $(( t1 - t0 ))s"
echo "== valgrind --tool=memcheck ($jobs at a time)"
pass memcheck yes
t2=$(date +%s)
echo "   $(( t2 - t1 ))s; $(( t2 - t0 ))s in all"

if [ -e "$logs/failed" ]; then
  echo "valgrind found errors: see above, and the logs in $logs" >&2
  exit 1
fi
echo "valgrind: no errors"
