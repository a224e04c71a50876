#!/bin/sh
# tests/reliability/run_poisoned.sh PRELOAD PROGRAM [ARG...] - PROGRAM run
# with PRELOAD (poison_alloc.c) preloaded, for CTest: its exit status kept;
# a failure where the preload did not say that it filled any block (it was
# not loaded); 77, CTest's skip, where the program's tests were skipped.
preload=$1
shift
out=$(LD_PRELOAD="$preload" "$@" 2>&1)
status=$?
printf '%s\n' "$out"
case "$out" in
*"[poison] "[1-9]*" blocks filled"*) ;;
*)
  echo "run_poisoned.sh: $preload was not loaded, or filled nothing"
  exit 1
  ;;
esac
case "$out" in
*"[  SKIPPED ]"*) [ "$status" -eq 0 ] && exit 77 ;;
esac
exit "$status"
