#!/usr/bin/env bash
# Runs bench_service_reads against jobdeckd and, next to it, nginx (Debian's nginx-light) serving a
# static file of the same size as a DESCRIBE JOB answer. Builds nothing.
#   bench/run-service-bench.sh <build-dir> [bench options, e.g. --seconds 5 --requests 100000]
set -euo pipefail

build=${1:?usage: run-service-bench.sh <build-dir> [bench options]}
shift
bench="$build/bench/bench_service_reads"
jobdeckd="$build/service/jobdeckd"
for f in "$bench" "$jobdeckd"; do
  [ -x "$f" ] || { echo "run-service-bench.sh: $f is missing; build it first" >&2; exit 1; }
done
nginx=$(command -v nginx || true)
[ -n "$nginx" ] || nginx=/usr/sbin/nginx
[ -x "$nginx" ] || { echo "run-service-bench.sh: nginx is not installed (apt-get install nginx-light)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/jobdeck-nginx-XXXXXX)
nginx_pid=
cleanup() {
  if [ -n "$nginx_pid" ]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# A free loopback port: bind to 0 and read what the kernel chose.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/www" "$tmp/logs"
chmod 755 "$tmp" "$tmp/www" # nginx workers run as an unprivileged user when started as root
cat >"$tmp/nginx.conf" <<EOF
worker_processes 2;
pid $tmp/nginx.pid;
error_log $tmp/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $tmp/body;
  proxy_temp_path $tmp/proxy;
  fastcgi_temp_path $tmp/fastcgi;
  uwsgi_temp_path $tmp/uwsgi;
  scgi_temp_path $tmp/scgi;
  keepalive_requests 10000000;
  server {
    listen 127.0.0.1:$port;
    root $tmp/www;
    default_type application/json;
  }
}
EOF
"$nginx" -p "$tmp" -c "$tmp/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

# The bench starts (and stops) its own jobdeckd on a fresh data directory.
"$bench" --jobdeckd "$jobdeckd" --nginx-port "$port" --nginx-root "$tmp/www" "$@"
