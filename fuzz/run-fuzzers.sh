#!/usr/bin/env bash
# Builds the libFuzzer targets in build-fuzz (clang, ASan + UBSan) and runs each for a bounded time
# over a scratch copy of its saved corpus. Usage: fuzz/run-fuzzers.sh [seconds-per-target, default 60]
# Exits non-zero when a target crashes or fails a check; the reproducer is left in the scratch dir.
set -euo pipefail
seconds="${1:-60}"
src="$(cd "$(dirname "$0")/.." && pwd)"
build="$src/build-fuzz"
targets=(fuzz_statementparser fuzz_parameterclassifier fuzz_httprequest)

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DJOBDECK_FUZZ=ON -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,address,undefined >/dev/null
cmake --build "$build" --target "${targets[@]}" -j2

scratch="$(mktemp -d)"
status=0
for t in "${targets[@]}"; do
  work="$scratch/$t"
  mkdir -p "$work/corpus" "$work/artifacts"
  if [ -d "$src/tests/fuzz-corpus/$t" ]; then cp -r "$src/tests/fuzz-corpus/$t/." "$work/corpus/"; fi
  echo "== $t: ${seconds}s over $(ls "$work/corpus" | wc -l) corpus files"
  if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$build/fuzz/$t" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/" "$work/corpus" \
      >"$work/log.txt" 2>&1; then
    echo "   ok: $(grep -E '^Done|stat::number_of_executed_units' "$work/log.txt" | tail -1)"
  else
    status=1
    echo "   FAILED; last lines of $work/log.txt:"
    tail -n 30 "$work/log.txt" | sed 's/^/   | /'
    echo "   reproducers: $(ls "$work/artifacts")"
  fi
  echo "   corpus now $(ls "$work/corpus" | wc -l) files in $work/corpus"
done
[ "$status" -eq 0 ] && echo "No crashes." || echo "Crashes found (inputs kept under $scratch)."
exit "$status"
