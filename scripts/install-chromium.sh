#!/usr/bin/env bash
# Installs Debian's chromium when /usr/bin/chromium is missing: tests/browser-cors.test.ts drives it
# through playwright-core (executablePath /usr/bin/chromium) and fails, rather than skips, without it.
# Called from .ci/run before `npm test`; needs root (CI runs as root) or passwordless sudo.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium > /dev/null
/usr/bin/chromium --version
