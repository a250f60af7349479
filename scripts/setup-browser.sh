#!/usr/bin/env bash
# Headless Chromium for the browser tests (tests/render/test_browser.py, marker `browser`):
# Debian's packages chromium and chromium-driver. Idempotent: does nothing when chromium is there.
# The tests drive Chromium over its DevTools pipe with Python's standard library, so nothing else
# is needed. When the browser cannot be installed (no root, no apt, no mirror) it says why and
# exits 0: the browser tests then skip with that reason (FACTGRAIN_REQUIRE_BROWSER=1 makes them fail).
set -uo pipefail
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
# fonts-dejavu-core: the check marks and crosses of the page in the screenshots.
if $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null; then
  echo "setup-browser: $(chromium --version 2>/dev/null)"
else
  echo "setup-browser: apt-get could not install chromium; the browser tests will be skipped" >&2
fi
exit 0
