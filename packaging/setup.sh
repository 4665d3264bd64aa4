#!/usr/bin/env bash
# The two entry points of the README, as a normal user (apt-get goes through sudo when needed):
#   packaging/setup.sh run    install what is missing, build the console and the service
#                             (RelWithDebInfo, build-run/), start the console on the Local profile
#   packaging/setup.sh test   install what is missing with the test tools, build everything (Debug,
#                             build/), run the whole test suite headless; then say where the time went
#   packaging/setup.sh build  build everything (Debug, build/) without running anything
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
case "$mode" in run | test | build) ;; *) echo "usage: $0 run|test|build" >&2; exit 2 ;; esac

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON

# Each phase's wall time, printed at the end of `test`.
phases=()
phase_started=$SECONDS
end_phase() {
  phases+=("$(printf '%-10s %5d s' "$1" $((SECONDS - phase_started)))")
  phase_started=$SECONDS
}

if [ "$mode" = run ]; then
  bash "$here/packaging/install-deps.sh" run
  build=${JOBDECK_BUILD_DIR:-$here/build-run}
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJOBDECK_WERROR=$werror >/dev/null
  cmake --build "$build" -j "$(nproc)" --target jobdeck jobdeckd
else
  bash "$here/packaging/install-deps.sh" "$([ "$mode" = test ] && echo test || echo run)"
  end_phase install
  build=${JOBDECK_BUILD_DIR:-$here/build}
  # A new build directory compiles with clang++ when it is there (the test set installs it): it builds
  # this Debug tree in less than half of g++'s time (docs/performance.md, "The test build").
  # CXX=g++ chooses g++; an existing build directory keeps its compiler.
  compiler=()
  if [ ! -f "$build/CMakeCache.txt" ] && [ -z "${CXX:-}" ] && command -v clang++ >/dev/null; then
    compiler=(-DCMAKE_CXX_COMPILER=clang++)
  fi
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DJOBDECK_WERROR=$werror "${compiler[@]}" >/dev/null
  end_phase configure
  cmake --build "$build" -j "$(nproc)"
  end_phase build
fi

case "$mode" in
  build) ;;
  test)
    cd "$build"
    export QT_QPA_PLATFORM=offscreen
    status=0
    # Twice as many suites as cores: most of a suite's time is spent waiting on the processes and
    # timers it starts (jobdeckd, PostgreSQL, drivers), and every suite passes under that load.
    ctest --output-on-failure -j "$((2 * $(nproc)))" --timeout 900 2>&1 | tee "$build/ctest-output.txt" ||
      status=$?
    end_phase tests
    echo
    echo "setup: where the time went (wall time):"
    printf '  %s\n' "${phases[@]}"
    echo "setup: build steps by part of the tree (summed over $(nproc) parallel jobs):"
    python3 "$here/packaging/build-times.py" "$build" 20 || true
    # ctest's own summary stays the last lines, as CI reads them.
    echo
    grep -E '^[0-9]+% tests passed|^Total Test time' "$build/ctest-output.txt" || true
    exit $status
    ;;
  run)
    if [ -x "$build/app/jobdeck" ]; then
      # The console starts the jobdeckd built beside it (Local profile) with demo data.
      [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || echo "setup: no display found; set DISPLAY or WAYLAND_DISPLAY" >&2
      exec "$build/app/jobdeck" --profile Local
    fi
    # No console was built: serve on the default address and data directory; keys come from
    # `jobdeckd keys create --project NAME --role admin`.
    echo "setup: the console was not built; starting jobdeckd alone on 127.0.0.1:8420" >&2
    exec "$build/service/jobdeckd" serve --listen 127.0.0.1:8420
    ;;
esac
