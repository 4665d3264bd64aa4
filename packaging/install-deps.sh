#!/usr/bin/env bash
# Installs the Debian 12 packages Jobdeck needs. Idempotent; runs apt-get through sudo when not root.
#   bash packaging/install-deps.sh        what building and running the console and the service need
#   bash packaging/install-deps.sh test   that, plus the test-only servers and tools
# JOBDECK_DEPS=test (or run) chooses the same way when no argument is given.
set -euo pipefail

set_name=${1:-${JOBDECK_DEPS:-run}}
case "$set_name" in
  run | runtime | build) set_name=run ;;
  test) ;;
  *) echo "install-deps: unknown set '$set_name': expected run or test" >&2; exit 2 ;;
esac

# Building and running: the toolchain, Qt for the console, the service's libraries, python3 and a
# JDK for the local runner (PYTHON and JAR jobs; the JDK also builds the demo's JAR).
packages=(
  build-essential cmake ninja-build pkg-config git ccache lld
  qt6-base-dev qt6-base-dev-tools libgl-dev
  qtkeychain-qt6-dev
  nlohmann-json3-dev libboost-dev libsqlite3-dev libpq-dev libcli11-dev libspdlog-dev libfmt-dev
  libssl-dev
  default-jdk-headless python3
)
if [ "$set_name" = test ]; then
  packages+=(
    # formatting checks
    clang-format
    # the PostgreSQL server whose private clusters the tests start (initdb in a temporary directory,
    # tests/support/PostgresCluster)
    postgresql-15
    # tst_fencing runs one replica with its clock 30 s ahead (libfaketime)
    faketime
    # the read benchmark's reference server and load generator (bench/run-service-bench.sh)
    nginx-light wrk
    # the TLS tests' certificates; promtool (prometheus) checks GET /metrics
    openssl prometheus
    # fuzz/run-fuzzers.sh (libFuzzer)
    clang
    # tests/packaging: packages built with cpack (dpkg-shlibdeps) and checked
    dpkg-dev lintian desktop-file-utils appstream
    # the statement syntax definition checked by KDE's highlighter; a private D-Bus for notifications
    libkf5syntaxhighlighting-tools dbus-daemon
    # tst_asciitext builds Turkish locales with localedef from its sources
    locales
  )
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages of the '$set_name' set present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
