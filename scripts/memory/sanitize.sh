#!/usr/bin/env bash
# Build the project with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-asan, and run the whole CTest suite there (on the default device:
# PoCL in CI). Any sanitizer report fails the run: ASan and LeakSanitizer
# exit nonzero on their first error, and UBSan is made to abort
# (-fno-sanitize-recover=undefined). The build keeps assert() on (no
# NDEBUG), so that every internal function that needs the runtime lock checks
# that its caller holds it (LOCK_ASSERT_HELD, runtime/core/lock.h): a failed
# assertion aborts the test. Extra arguments go to ctest.
#
# Leaks inside PoCL, LLVM, Oclgrind and the ICD loader, which the library
# cannot free, are suppressed in scripts/memory/lsan.supp; each entry says why.
# docs/reliability.md describes the run and how long it takes.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
# RelWithDebInfo's flags without its -DNDEBUG: optimized, with asserts.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON \
      "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g" \
      "-DCMAKE_EXE_LINKER_FLAGS=$flags" \
      "-DCMAKE_SHARED_LINKER_FLAGS=$flags" >/dev/null
cmake --build build-asan

# Stack traces with file and line: llvm-symbolizer when it is installed,
# else addr2line (binutils, always there with build-essential).
# intercept_tls_get_addr=0: GCC 12's LeakSanitizer misreads the dynamic TLS
# blocks of the libraries PoCL loads with dlopen under Debian 12's glibc
# (2.36) and crashes at exit ("Tracer caught signal 11", see
# google/sanitizers#1322); without the interception it still scans every
# thread's static TLS, where the library keeps its per-thread message.
# use_sigaltstack=0: when PoCL compiles a kernel on a thread, LLVM installs
# an alternate signal stack of its own there, from malloc, if the one there
# is smaller than it wants (64 KiB + SIGSTKSZ, which grows with the CPU's
# signal frame: seen on a 2-core AMD EPYC, not on a Xeon); at that thread's
# exit ASan unmaps whatever alternate stack is installed, as if it were the
# one ASan made, and aborts ("unable to unmap", test_threads, whose threads
# compile kernels). Without its own alternate stack ASan unmaps none; a
# stack overflow still crashes the test, only without ASan's report.
export ASAN_OPTIONS="detect_leaks=1:intercept_tls_get_addr=0:use_sigaltstack=0:allow_addr2line=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:allow_addr2line=1"
export LSAN_OPTIONS="suppressions=$root/scripts/memory/lsan.supp:print_suppressions=0"
ctest --test-dir build-asan --output-on-failure "$@"
