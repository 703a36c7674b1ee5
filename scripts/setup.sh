#!/usr/bin/env bash
# Set up cpbot on a fresh Debian machine, in the repository's .venv. Safe to run again: it only installs
# what is missing.
#
#   bash scripts/setup.sh          what cpbot itself needs: g++/gcc (the judge and its sandbox launcher),
#                                  PyPy (the pypy3 language), valgrind (the profiler's instruction
#                                  counts), python3-venv, and cpbot in .venv
#   bash scripts/setup.sh --test   the same, plus what only the tests need: Chromium (the HTML export's
#                                  browser test) and the `test` extra (pytest, hypothesis, pytest-httpx,
#                                  ruff, ray)
#
# Debian packages are installed with --no-install-recommends. Each step prints one line.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0
case "${1:-}" in
    "") ;;
    --test) tests=1 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown option $1 (use --test, or nothing)" >&2; exit 2 ;;
esac

step() { echo "setup: $*"; }

need=()
command -v g++ >/dev/null || need+=(g++)
command -v gcc >/dev/null || need+=(gcc)
command -v pypy3 >/dev/null || need+=(pypy3)
command -v valgrind >/dev/null || need+=(valgrind)
[ -x /usr/bin/python3 ] || need+=(python3)
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
if [ "$tests" = 1 ]; then
    command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need+=(chromium)
    command -v Xvfb >/dev/null || need+=(xvfb)  # the browser transport's visible-window tests
fi

if [ ${#need[@]} -eq 0 ]; then
    step "system packages: all present"
else
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    if command -v apt-get >/dev/null && { [ -z "$sudo" ] || command -v sudo >/dev/null; }; then
        step "system packages: apt-get update"
        $sudo apt-get update -qq
        step "system packages: installing ${need[*]} (--no-install-recommends)"
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "setup: please install these Debian/Ubuntu packages (or your system's equivalents): ${need[*]}" >&2
    fi
fi

if [ -x .venv/bin/python ]; then
    step "virtualenv: .venv exists"
else
    step "virtualenv: creating .venv"
    /usr/bin/python3 -m venv .venv 2>/dev/null || python3 -m venv .venv
fi

pip=(.venv/bin/python -m pip install -q --disable-pip-version-check)
if [ "$tests" = 1 ]; then
    step "python packages: cpbot with the test tools, editable (pip install -e '.[test]'; about a minute the first time)"
    "${pip[@]}" -e '.[test]'
else
    step "python packages: cpbot, editable (pip install -e .; about half a minute the first time)"
    "${pip[@]}" -e .
fi

# an editable install leaves cpbot's own modules uncompiled, and where PYTHONDONTWRITEBYTECODE is set (as on
# many CI images) every start compiled them again (about 0.2 s)
step "python bytecode: compiling cpbot's modules"
.venv/bin/python -m compileall -q cpbot agents bot judge scrapers >/dev/null

step "done: $(.venv/bin/cpbot --version) in .venv (run it as .venv/bin/cpbot, or 'source .venv/bin/activate')"
