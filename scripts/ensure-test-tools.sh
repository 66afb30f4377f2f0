#!/usr/bin/env bash
# Tools the test suite drives besides Node: headless Chromium (the report rendering test) and tmux
# (the interactive status line end-to-end test). Installed from Debian's packages when missing and we can.
set -euo pipefail
missing=()
if ! { [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; } && ! command -v chromium >/dev/null 2>&1; then missing+=(chromium); fi
if ! command -v tmux >/dev/null 2>&1; then missing+=(tmux); fi
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else SUDO="none"; fi
  if [ "$SUDO" != "none" ]; then
    echo "context-ceiling tests: installing ${missing[*]} from Debian's packages" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
    exit 0
  fi
fi
echo "context-ceiling tests: please install ${missing[*]} (Debian packages; or set CHROMIUM_PATH)" >&2
exit 1
