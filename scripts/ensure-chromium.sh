#!/usr/bin/env bash
# The report test renders HTML in headless Chromium. Use $CHROMIUM_PATH or Debian's chromium; install it when we can.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else SUDO="none"; fi
  if [ "$SUDO" != "none" ]; then
    echo "context-ceiling tests: installing Debian's chromium for the report rendering test" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
    exit 0
  fi
fi
echo "context-ceiling tests: the report test needs Chromium: install Debian's 'chromium' package or set CHROMIUM_PATH" >&2
exit 1
