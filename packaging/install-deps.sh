#!/usr/bin/env bash
# Installs every Debian 12 package Jobdeck needs to build, run and test. Idempotent.
# Works as root or through sudo. Set JOBDECK_DEPS=runtime to skip test-only tools.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git clang-format ccache
  qt6-base-dev qt6-base-dev-tools qt6-l10n-tools libgl-dev
  qtkeychain-qt6-dev
  nlohmann-json3-dev libboost-dev libsqlite3-dev libpq-dev libcli11-dev libspdlog-dev libfmt-dev
  libssl-dev
  # tests and benches: headless Qt, a JDK for the test jar, python for the test app,
  # postgresql for the replica storage tests, nginx + wrk for the read benchmark,
  # openssl for the TLS tests' certificates, prometheus for promtool (checks GET /metrics)
  default-jdk-headless python3 postgresql nginx-light wrk xvfb xauth procps openssl prometheus
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
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
