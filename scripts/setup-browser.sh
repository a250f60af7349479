#!/usr/bin/env bash
# Headless Chromium for the browser tests (tests/render/test_browser.py, marker `browser`).
# Debian's packages; idempotent: does nothing when chromium is already installed.
# The test drives Chromium over its DevTools pipe from Python's standard library, so nothing else
# is needed. Without root (or apt-get) it says so and leaves the browser tests to skip.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "setup-browser: $(chromium --version 2>/dev/null || echo chromium) already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "setup-browser: not root and no sudo; install the Debian packages chromium and chromium-driver to run the browser tests" >&2
    exit 0
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-browser: no apt-get; install Chromium yourself to run the browser tests" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# fonts-dejavu-core: readable glyphs (check marks, crosses) in the screenshots.
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null
echo "setup-browser: $(chromium --version)"
