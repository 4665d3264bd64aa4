#!/usr/bin/env bash
# Builds the two Debian packages from a build tree and checks them: lintian (no errors), the desktop
# file and AppStream metainfo, jobdeckd without Qt, and the files each package must hold.
# Usage: packaging/check-packages.sh BUILD_DIR   (the jobdeck and jobdeckd targets built)
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
out=$build/packages
failures=0
fail() { echo "check-packages: FAIL: $*" >&2; failures=$((failures + 1)); }

for tool in cpack lintian desktop-file-validate appstreamcli dpkg-deb objdump; do
  command -v "$tool" >/dev/null || { echo "check-packages: $tool is missing (bash packaging/install-deps.sh test)" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log" >&2; exit 1; }
console=$(ls "$out"/jobdeck_*.deb)
service=$(ls "$out"/jobdeckd_*.deb)
echo "check-packages: built $(basename "$console") and $(basename "$service")"

for deb in "$console" "$service"; do
  dpkg-deb -c "$deb" >"$deb.contents"
  # Errors fail; warnings are shown for whoever reads the log.
  lintian --tag-display-limit 0 --display-info "$deb" >"$deb.lintian" 2>&1 || true
  cat "$deb.lintian"
  grep -q '^E: ' "$deb.lintian" && fail "lintian reports errors on $(basename "$deb")"
done

# What each package must hold.
expect() { # deb path...
  local deb=$1
  shift
  for path in "$@"; do
    grep -qE " \./${path#/}( |$)" "$deb.contents" || fail "$(basename "$deb") lacks $path"
  done
}
expect "$console" /usr/bin/jobdeck /usr/share/applications/jobdeck.desktop \
  /usr/share/metainfo/org.jobdeck.Jobdeck.metainfo.xml /usr/share/icons/hicolor/scalable/apps/jobdeck.svg \
  /usr/share/icons/hicolor/16x16/apps/jobdeck.png /usr/share/icons/hicolor/48x48/apps/jobdeck.png \
  /usr/share/icons/hicolor/256x256/apps/jobdeck.png \
  /usr/share/man/man1/jobdeck.1.gz /usr/share/doc/jobdeck/copyright /usr/share/doc/jobdeck/changelog.gz \
  /usr/share/doc/jobdeck/README.md /usr/share/doc/jobdeck/docs/console.md
expect "$service" /usr/bin/jobdeckd /usr/libexec/jobdeck/jobdeck-run-monitor /lib/systemd/system/jobdeckd.service /usr/lib/sysusers.d/jobdeckd.conf \
  /usr/lib/tmpfiles.d/jobdeckd.conf /etc/jobdeck/jobdeckd.conf /usr/share/man/man8/jobdeckd.8.gz \
  /usr/share/doc/jobdeckd/copyright /usr/share/doc/jobdeckd/changelog.gz /usr/share/doc/jobdeckd/service.md
grep -q ' \./usr/bin/jobdeckd$' "$console.contents" && fail "the console package must not carry jobdeckd itself"

# The service package: no Qt, the conffile, the recommends, the unit starting the packaged binary.
extract=$out/jobdeckd-root
dpkg-deb -x "$service" "$extract"
dpkg-deb -e "$service" "$extract/DEBIAN"
if objdump -p "$extract/usr/bin/jobdeckd" | grep -E 'NEEDED +libQt'; then
  fail "jobdeckd links Qt"
fi
grep -qi 'qt' <(dpkg-deb -f "$service" Depends) && fail "jobdeckd depends on Qt: $(dpkg-deb -f "$service" Depends)"
grep -qx '/etc/jobdeck/jobdeckd.conf' "$extract/DEBIAN/conffiles" || fail "jobdeckd.conf is not a conffile"
recommends=$(dpkg-deb -f "$service" Recommends)
[[ $recommends == *python3* && $recommends == *jre* ]] || fail "jobdeckd should recommend python3 and a JRE: $recommends"
unit=$extract/lib/systemd/system/jobdeckd.service
exec_start=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
[ -x "$extract$exec_start" ] || fail "the unit's ExecStart $exec_start is not in the package"
for line in Type=notify ProtectSystem=strict ReadWritePaths=/var/lib/jobdeckd ProtectHome=yes PrivateTmp=yes \
  PrivateDevices=yes NoNewPrivileges=yes ProtectKernelTunables=yes ProtectControlGroups=yes \
  'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6' UMask=0077 User=jobdeckd 'ExecReload=/bin/kill -HUP $MAINPID'; do
  grep -qx "$line" "$unit" || fail "the unit lacks $line"
done
grep -q '^StartLimitBurst=' "$unit" || fail "the unit has no start limit"
# The packaged configuration passes the packaged binary's check, and it starts with it (address and data
# directory overridden).
run=$out/run
mkdir -p "$run"
"$extract/usr/bin/jobdeckd" serve --check --config "$extract/etc/jobdeck/jobdeckd.conf" --data-dir "$run/data" \
  >"$run/check" 2>&1 || fail "jobdeckd serve --check refuses the packaged configuration: $(cat "$run/check")"
"$extract/usr/bin/jobdeckd" serve --config "$extract/etc/jobdeck/jobdeckd.conf" --listen 127.0.0.1:0 \
  --data-dir "$run/data" >"$run/out" 2>"$run/err" &
pid=$!
for _ in $(seq 150); do
  grep -q '^listening on ' "$run/out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
grep -q '^listening on ' "$run/out" || fail "the packaged jobdeckd did not start with the packaged configuration: $(cat "$run/err")"
kill "$pid" 2>/dev/null || true
wait "$pid" || true
if command -v systemd-analyze >/dev/null; then
  # Only the unit's own syntax: the binary and the man page are not installed on this machine.
  systemd-analyze verify "$unit" 2>&1 | grep -v -e 'is not executable' -e "man jobdeckd" -e 'not found' |
    grep . && fail "systemd-analyze verify complains about the unit"
fi

# The console's desktop integration.
console_root=$out/jobdeck-root
dpkg-deb -x "$console" "$console_root"
desktop-file-validate "$console_root/usr/share/applications/jobdeck.desktop" ||
  fail "desktop-file-validate"
appstreamcli validate --no-net --strict "$console_root/usr/share/metainfo/org.jobdeck.Jobdeck.metainfo.xml" ||
  fail "appstreamcli validate"

if [ "$failures" -ne 0 ]; then
  echo "check-packages: $failures failed" >&2
  exit 1
fi
echo "check-packages: both packages pass"
