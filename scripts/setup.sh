#!/usr/bin/env bash
# Set up cpbot on a fresh Debian machine: system packages (g++, PyPy, valgrind, Chromium) and a .venv.
# Safe to run again; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v g++ >/dev/null || need+=(g++)
command -v gcc >/dev/null || need+=(gcc)
command -v pypy3 >/dev/null || need+=(pypy3)
command -v valgrind >/dev/null || need+=(valgrind)  # the profiler counts instructions with it
command -v chromium >/dev/null || need+=(chromium)  # the HTML export's browser test, the browser transport
command -v Xvfb >/dev/null || need+=(xvfb)  # the browser transport's visible-window tests
[ -x /usr/bin/python3 ] || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    if command -v apt-get >/dev/null && { [ -z "$sudo" ] || command -v sudo >/dev/null; }; then
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
    else
        echo "setup: please install: ${need[*]}" >&2
    fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
