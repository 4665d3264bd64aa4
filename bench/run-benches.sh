#!/usr/bin/env bash
# Builds every benchmark in an optimised build of its own and runs them one after another; each prints
# its figures next to a reference measured in the same run (docs/performance.md says what each one
# measures, its budget and the latest figures).
#   bench/run-benches.sh                    configure build-bench/ (RelWithDebInfo), build, run them all
#   bench/run-benches.sh --only bench_coreops,bench_statementparser
#   bench/run-benches.sh --list             what would run, and how
# Options:
#   --build-dir DIR     where to build (default: build-bench in the source tree); configured if needed
#   --build-type TYPE   CMAKE_BUILD_TYPE of a new build dir (default RelWithDebInfo, as the figures in
#                       docs/performance.md; Release works too; a Debug build's figures mean nothing)
#   --only A,B          run only these (names from --list)
#   --jobs N            compile jobs (default 2)
#   --no-build          run what is already built
# Needs what the benches need (packaging/install-deps.sh test): nginx-light for bench_service_reads,
# PostgreSQL 15 for bench_replicas and bench_runs:postgresql. Everything listens on loopback only and
# each bench starts and stops its own jobdeckd (and PostgreSQL cluster) on a temporary data directory.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$source_dir/build-bench
build_type=RelWithDebInfo
only=
jobs=2
build=1
list=0

usage() { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=${2:?--build-dir needs a directory}; shift 2 ;;
    --build-type) build_type=${2:?--build-type needs a type}; shift 2 ;;
    --only) only=${2:?--only needs bench names}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --no-build) build=0; shift ;;
    --list) list=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "run-benches.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case "$build_dir" in /*) ;; *) build_dir=$PWD/$build_dir ;; esac

# name | target | command (run in the build dir; a bench that needs jobdeckd finds it by its built path)
runs=(
  "bench_coreops|bench_coreops|bench/bench_coreops"
  "bench_statementparser|bench_statementparser|bench/bench_statementparser"
  "bench_parametervalidator|bench_parametervalidator|bench/bench_parametervalidator"
  "bench_hudicatalogue|bench_hudicatalogue|bench/bench_hudicatalogue"
  "bench_auth_timing|bench_auth_timing|bench/bench_auth_timing"
  "bench_storage_writes|bench_storage_writes|bench/bench_storage_writes"
  "bench_runsmodel|bench_runsmodel|bench/bench_runsmodel"
  "bench_parametereditor|bench_parametereditor|bench/bench_parametereditor"
  "bench_admission|bench_admission|bench/bench_admission"
  "bench_jobslist_e2e|bench_jobslist_e2e|bench/bench_jobslist_e2e"
  "bench_service_reads|bench_service_reads|$source_dir/bench/run-service-bench.sh ."
  "bench_launches|bench_launches|bench/bench_launches"
  "bench_runs|bench_runs|bench/bench_runs"
  "bench_runs:postgresql|bench_runs|bench/bench_runs --backend postgresql"
  "bench_replicas|bench_replicas|bench/bench_replicas"
)
# The ones that start the service binary (TestService, ServiceBench.h or their own fork).
needs_jobdeckd=" bench_admission bench_jobslist_e2e bench_service_reads bench_launches bench_runs bench_replicas "

# Every bench_*.cpp must have a row above, so a new bench is not silently left out.
for src in "$source_dir"/bench/bench_*.cpp; do
  name=$(basename "$src" .cpp)
  printf '%s\n' "${runs[@]}" | cut -d'|' -f2 | grep -qx "$name" ||
    { echo "run-benches.sh: $name has no row in this script's list; add it" >&2; exit 2; }
done

selected=()
for row in "${runs[@]}"; do
  name=${row%%|*}
  if [ -z "$only" ] || [[ ",$only," == *",$name,"* ]]; then selected+=("$row"); fi
done
if [ -n "$only" ]; then
  for name in ${only//,/ }; do
    printf '%s\n' "${runs[@]}" | cut -d'|' -f1 | grep -qx "$name" ||
      { echo "run-benches.sh: no bench named '$name' (see --list)" >&2; exit 2; }
  done
fi

if [ "$list" = 1 ]; then
  for row in "${selected[@]}"; do
    IFS='|' read -r name target command <<<"$row"
    printf '%-24s %s\n' "$name" "$command"
  done
  exit 0
fi

if [ "$build" = 1 ]; then
  targets=()
  for row in "${selected[@]}"; do
    IFS='|' read -r name target command <<<"$row"
    [[ " ${targets[*]} " == *" $target "* ]] || targets+=("$target")
    [[ "$needs_jobdeckd" != *" $target "* || " ${targets[*]} " == *" jobdeckd "* ]] || targets+=(jobdeckd)
  done
  if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type"
  fi
  cmake --build "$build_dir" -j"$jobs" --target "${targets[@]}"
fi

configured_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
[ "$configured_type" != Debug ] ||
  echo "run-benches.sh: $build_dir is a Debug build: its figures mean nothing (docs/performance.md)" >&2

export QT_QPA_PLATFORM=offscreen # the console's benches run without a display
failed=()
summary=()
cd "$build_dir"
echo "run-benches.sh: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $configured_type build in $build_dir"
for row in "${selected[@]}"; do
  IFS='|' read -r name target command <<<"$row"
  echo
  echo "=== $name: $command"
  start=$(date +%s)
  status=0
  # shellcheck disable=SC2086 # the command's words are split on purpose
  $command || status=$?
  seconds=$(($(date +%s) - start))
  if [ "$status" = 0 ]; then
    summary+=("$(printf '%-24s ok      %4d s' "$name" "$seconds")")
  else
    summary+=("$(printf '%-24s FAILED  %4d s (exit %d)' "$name" "$seconds" "$status")")
    failed+=("$name")
  fi
done

echo
echo "=== run-benches.sh: load average now $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-benches.sh: failed: ${failed[*]}" >&2
  exit 1
fi
