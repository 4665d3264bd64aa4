#!/usr/bin/env bash
# The two entry points of the README:
#   packaging/setup.sh run    install what is missing, build, start the console on the Local profile
#   packaging/setup.sh test   install what is missing, build, run the whole test suite headless
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${JOBDECK_BUILD_DIR:-$here/build}
mode=${1:-}
case "$mode" in run|test|build) ;; *) echo "usage: $0 run|test|build" >&2; exit 2 ;; esac

bash "$here/packaging/install-deps.sh"

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DJOBDECK_WERROR=$werror >/dev/null
cmake --build "$build" -j "$(nproc)"

case "$mode" in
  build) ;;
  test)
    cd "$build"
    export QT_QPA_PLATFORM=offscreen
    ctest --output-on-failure -j "$(nproc)" --timeout 900
    ;;
  run)
    if [ -x "$build/app/jobdeck" ]; then
      # The console starts the bundled jobdeckd itself (Local profile) with demo data.
      [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || echo "setup: no display found; set DISPLAY or use xvfb-run" >&2
      exec "$build/app/jobdeck" --profile Local
    fi
    data=${JOBDECK_DATA_DIR:-$HOME/.local/share/jobdeck/local}
    exec "$build/service/jobdeckd" serve --data-dir "$data" --demo
    ;;
esac
