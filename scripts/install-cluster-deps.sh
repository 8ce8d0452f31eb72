#!/bin/sh
# Installs what the cluster tests (tests/cluster*.test.ts) start: Debian's redis-server and nginx.
# Does nothing when both are already on the PATH; needs root (or sudo) otherwise.
set -eu
missing=""
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing:$missing"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
# The packages start system services where an init system runs; the tests start their own.
for service in redis-server nginx; do
  $SUDO service "$service" stop >/dev/null 2>&1 || true
done
