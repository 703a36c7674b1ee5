"""The Python environment judged programs use: numpy, scipy and sortedcontainers programs are accepted with
an environment that has them, and a program importing a module the judge's Python lacks says which and how."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from cpbot.judge.languages import get_language
from cpbot.judge.languages.python import ENVIRONMENT_PACKAGES, default_warm_python, judged_python, use_python
from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import Sandbox
from tests.conftest import CACHE

ENV = CACHE / "python-env"  # built once (PyPI), kept between runs like the compile cache
LIMITS = Limits(time_ms=10000, memory_mb=512)

PROGRAMS = {
    "numpy": "import numpy as np\nprint(int(np.array(list(map(int, input().split()))).sum()))\n",
    "scipy": "from scipy.special import comb\nprint(int(comb(sum(map(int, input().split())), 2, exact=True)))\n",
    "sortedcontainers": "from sortedcontainers import SortedList\ns = SortedList(map(int, input().split()))\n"
    "print(s[0] + s[-1] + 1)\n",
}
OUTPUTS = {"numpy": "6\n", "scipy": "15\n", "sortedcontainers": "5\n"}  # on "1 2 3"


def local_pip_sources() -> list[str] | None:
    """pip options that install from this machine only: the find-links dirs and file:// indexes pip is
    configured with (its config and PIP_* variables), with the rest ignored. None when it has none."""
    listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    indexes, links = [], []
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        values = value.strip().strip("'\"").split()
        if key.endswith("index-url"):
            indexes += [v for v in values if v.startswith("file:")]
        elif key.endswith("find-links"):
            links += [v for v in values if not v.startswith(("http:", "https:"))]
    if not indexes and not links:
        return None
    options = ["--isolated", *(["--index-url", indexes[0]] if indexes else ["--no-index"])]
    options += [option for url in indexes[1:] for option in ("--extra-index-url", url)]
    return options + [option for path in dict.fromkeys(links) for option in ("--find-links", path)]


@pytest.fixture(scope="session")
def environment():
    """An environment with the managed environment's packages, made as `cpbot setup-python` makes it but
    offline: from the wheels pip finds on this machine (kept between runs); skipped without them."""
    python = ENV / "bin" / "python"
    check = [str(python), "-c", "import numpy, scipy, sortedcontainers"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    sources = local_pip_sources()
    if sources is None:
        pytest.skip("pip has no local wheels (find-links or a file:// index) and the test stays offline")
    tmp = ENV.with_name(f"python-env.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    made = subprocess.run(["/usr/bin/python3", "-m", "venv", str(tmp)], capture_output=True, text=True)
    pip = [str(tmp / "bin" / "python"), "-m", "pip", "install", "-q", *sources, *ENVIRONMENT_PACKAGES]
    if made.returncode != 0 or (installed := subprocess.run(pip, capture_output=True, text=True)).returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        why = made.stderr if made.returncode else installed.stderr
        pytest.skip(
            f"no offline environment with {', '.join(ENVIRONMENT_PACKAGES)} from pip's local wheels "
            f"({' '.join(sources)}): {why[-300:]}"
        )
    shutil.rmtree(ENV, ignore_errors=True)
    os.rename(tmp, ENV)
    ENV.chmod(0o755)
    return python


@pytest.fixture
def python_is(monkeypatch):
    """Judge CPython with the given interpreter (as --python does) for this test only."""
    lang = get_language("python3")

    def choose(path) -> None:
        for name in ("CPBOT_PYTHON3", "CPBOT_SANDBOX_READ_ONLY"):
            # set, then removed: monkeypatch records the value to put back only for a name that exists, and
            # use_python below sets both in os.environ directly
            monkeypatch.setenv(name, "")
            monkeypatch.delenv(name)
        monkeypatch.delitem(lang.__dict__, "interpreter", raising=False)  # found again from the choice
        if path is not None:
            use_python(path)
            monkeypatch.setenv("CPBOT_PYTHON3", os.environ["CPBOT_PYTHON3"])
            if "CPBOT_SANDBOX_READ_ONLY" in os.environ:
                monkeypatch.setenv("CPBOT_SANDBOX_READ_ONLY", os.environ["CPBOT_SANDBOX_READ_ONLY"])

    yield choose
    lang.__dict__.pop("interpreter", None)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_program_using_the_environments_library_is_accepted(name, environment, python_is):
    python_is(environment)
    assert str(environment) in judged_python()
    with Sandbox(2, warm_python=default_warm_python()) as sandbox:
        report = judge_solution(
            Solution(language="python3", source=PROGRAMS[name]),
            [TestCase(input="1 2 3\n", output=OUTPUTS[name])],
            limits=LIMITS,
            sandbox=sandbox,
        )
    assert report.verdict == Verdict.AC, report.reason or report.results


def test_a_missing_module_is_named_with_the_fix(python_is):
    python_is("/usr/bin/python3")
    with Sandbox(2, warm_python=default_warm_python()) as sandbox:
        report = judge_solution(
            Solution(language="python3", source="import sortedcontainers\nprint(1)\n"),
            [TestCase(input="", output="1\n")],
            limits=LIMITS,
            sandbox=sandbox,
        )
    assert report.verdict == Verdict.RE
    message = report.results[0].checker_message
    assert "imports sortedcontainers" in message and "cpbot setup-python" in message


# Run twice in one slot: what the first run leaves in numpy must not be seen by the second.
NUMPY_TRACES = """
import os, sys
ahead = 'numpy' in sys.modules
import numpy as np
seen = (getattr(np, 'left_by_a_run', None), np.get_printoptions()['precision'], 'numpy.random' in sys.modules)
np.left_by_a_run = 1
np.set_printoptions(precision=2)
product = np.dot(np.ones((300, 300)), np.ones((300, 300)))[0, 0]  # BLAS, after the fork
threads = len(os.listdir('/proc/self/task'))  # one BLAS thread, not one per CPU the server could use
print(ahead, seen, int(product), threads, np.random.randint(1 << 62))
"""


def test_numpy_is_imported_ahead_for_programs_that_import_it_and_every_run_still_starts_afresh(
    environment, python_is, tmp_path
):
    python_is(environment)
    warm = default_warm_python()
    assert warm is not None and "numpy" in warm.heavy_modules
    others = "import sys\nprint('numpy' in sys.modules)\n"
    with Sandbox(2, warm_python=warm) as sandbox:
        script = tmp_path / "main.py"
        script.write_text(NUMPY_TRACES)
        for _ in range(sandbox.size):
            with sandbox.slot() as slot:  # its warm servers started from a thread free to use every CPU
                slot._server_for([*warm.prefix, str(script)])
        judged = [
            judge_solution(
                Solution(language="python3", source=source),
                [TestCase(input="", output=None) for _ in range(3)],
                limits=LIMITS,
                sandbox=sandbox,
                jobs=1,
            )
            for source in (NUMPY_TRACES, others)
        ]
    for report in judged:
        assert report.verdict == Verdict.RAN, report.reason or report.results
    lines = [r.stdout.split() for r in judged[0].results]
    assert {tuple(line[:-1]) for line in lines} == {("True", "(None,", "8,", "False)", "300", "1")}, lines
    assert len({line[-1] for line in lines}) == 3, "each run draws its own random numbers"
    # a program that does not import numpy is not forked from the interpreter that did
    assert [r.stdout for r in judged[1].results] == ["False\n"] * 3
