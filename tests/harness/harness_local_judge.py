"""A stand-in for `judge.runner.judge_solution` built on plain subprocesses (tests only).

It runs programs the way the judge will: Python as `python3 -I -S solution.py`, C++ compiled with
`g++ -O2 -std=c++17` against a precompiled `bits/stdc++.h`, stdin from a file, stdout to a file,
stack unlimited. Limits are approximate (wall-clock time only, no memory limit, no sandbox); it
exists so the harness can be tested before the real runner lands. `judge_tests` uses the real
runner as soon as `judge.runner` can be imported.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cpbot.judge.checkers.base import Checker, CheckInput
from cpbot.judge.model import JudgeReport, Limits, Solution, TestCase, TestResult, Verdict, worst

CACHE = Path(tempfile.gettempdir()) / "cpbot-harness-tests"
_STD = {"cpp17": "c++17", "cpp20": "c++20"}
_lock = threading.Lock()


def real_runner():
    """`judge.runner.judge_solution` when the runner exists, else None."""
    try:
        from cpbot.judge.runner import judge_solution
    except ImportError:
        return None
    return judge_solution


def judge_tests(
    program: Solution,
    tests: list[TestCase],
    checker: Checker,
    *,
    limits: Limits | None = None,
    jobs: int = 2,
    stop_on_failure: bool = False,
) -> JudgeReport:
    """Judge a generated program on tests with the real runner if present, else with subprocesses."""
    limits = limits or Limits()
    runner = real_runner()
    if runner is not None:
        return runner(program, tests, limits=limits, checker=checker, jobs=jobs, stop_on_failure=stop_on_failure)
    return LocalJudge().judge(program, tests, checker, limits=limits, jobs=jobs, stop_on_failure=stop_on_failure)


def _unlimited_stack() -> None:
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


class LocalJudge:
    """Compile once, run each test in its own process, check with the given checker."""

    def __init__(self, cache: Path = CACHE) -> None:
        self.cache = cache
        self.cache.mkdir(parents=True, exist_ok=True)

    def judge(
        self,
        program: Solution,
        tests: list[TestCase],
        checker: Checker,
        *,
        limits: Limits,
        jobs: int = 2,
        stop_on_failure: bool = False,
    ) -> JudgeReport:
        command, log = self.prepare(program)
        if command is None:
            return JudgeReport(verdict=Verdict.CE, compile_log=log, total=len(tests), language=program.language)
        with tempfile.TemporaryDirectory(prefix="cpbot-run-") as tmp:
            work = Path(tmp)
            if stop_on_failure:
                results = []
                for i, t in enumerate(tests):
                    results.append(self._run(command, i, t, checker, limits, work))
                    if results[-1].verdict != Verdict.AC:
                        break
            else:
                with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                    results = list(
                        pool.map(lambda it: self._run(command, it[0], it[1], checker, limits, work), enumerate(tests))
                    )
        return JudgeReport(
            verdict=worst([r.verdict for r in results]),
            results=results,
            passed=sum(r.verdict == Verdict.AC for r in results),
            total=len(tests),
            language=program.language,
            isolation={"network": "none", "filesystem": "none", "note": "tests/harness/harness_local_judge.py"},
        )

    def prepare(self, program: Solution) -> tuple[list[str] | None, str]:
        """The command that runs the program, or None and the compiler's log."""
        if program.language in ("python3", "pypy3"):
            path = self._store(program.source, ".py")
            exe = sys.executable if program.language == "python3" else shutil.which("pypy3") or "pypy3"
            return [exe, "-I", "-S", str(path)], ""
        std = _STD[program.language]
        binary = self.cache / f"bin-{_digest(program.source + std)}"
        if binary.exists():
            return [str(binary)], ""
        src = self._store(program.source, ".cpp")
        tmp_binary = binary.with_suffix(f".tmp{threading.get_ident()}")
        cmd = ["g++", "-O2", f"-std={std}", f"-I{self.pch_dir(std)}", "-o", str(tmp_binary), str(src)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return None, done.stderr
        os.replace(tmp_binary, binary)
        return [str(binary)], done.stderr

    def pch_dir(self, std: str) -> Path:
        """A directory holding `bits/stdc++.h.gch` built with the judge's flags (built once)."""
        root = self.cache / f"pch-{std}"
        gch = root / "bits" / "stdc++.h.gch"
        with _lock:
            if not gch.exists():
                gch.parent.mkdir(parents=True, exist_ok=True)
                tmp = gch.with_suffix(f".tmp{os.getpid()}")
                cmd = ["g++", "-O2", f"-std={std}", "-x", "c++-header", _stdcpp_header(std), "-o", str(tmp)]
                subprocess.run(cmd, capture_output=True, check=True)
                os.replace(tmp, gch)
        return root

    def _store(self, source: str, suffix: str) -> Path:
        path = self.cache / f"src-{_digest(source)}{suffix}"
        if not path.exists():
            tmp = path.with_suffix(f".tmp{threading.get_ident()}")
            tmp.write_text(source, encoding="utf-8")
            os.replace(tmp, path)
        return path

    def _run(
        self, command: list[str], index: int, test: TestCase, checker: Checker, limits: Limits, work: Path
    ) -> TestResult:
        base = work / f"t{index}"
        inp, out, ans, err = (base.with_suffix(x) for x in (".in", ".out", ".ans", ".err"))
        inp.write_text(test.input, encoding="utf-8")
        ans.write_text(test.output or "", encoding="utf-8")
        wall_limit = limits.time_ms * 3 / 1000
        start = time.perf_counter()
        with inp.open("rb") as fin, out.open("wb") as fout, err.open("wb") as ferr:
            proc = subprocess.Popen(command, stdin=fin, stdout=fout, stderr=ferr, preexec_fn=_unlimited_stack)
            timer = threading.Timer(wall_limit, proc.kill)
            timer.start()
            try:
                _, status, usage = os.wait4(proc.pid, 0)
            finally:
                timer.cancel()
            proc.returncode = os.waitstatus_to_exitcode(status)
        wall_ms = (time.perf_counter() - start) * 1000
        cpu_ms = (usage.ru_utime + usage.ru_stime) * 1000
        common = {"index": index, "name": test.name, "cpu_ms": cpu_ms, "wall_ms": wall_ms, "peak_kb": usage.ru_maxrss}
        stderr = err.read_text("utf-8", "replace")[-2000:]
        if cpu_ms > limits.time_ms or wall_ms > wall_limit * 1000:
            return TestResult(verdict=Verdict.TLE, **common)
        if proc.returncode != 0:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
            return TestResult(
                verdict=Verdict.RE, exit_code=proc.returncode, stderr=stderr, checker_message=last, **common
            )
        result = checker.check(CheckInput(inp, out, ans))
        return TestResult(
            verdict=result.verdict,
            exit_code=0,
            checker_message=result.message,
            diff=result.diff,
            stdout=out.read_text("utf-8", "replace")[:2000],
            stderr=stderr,
            **common,
        )


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _stdcpp_header(std: str) -> str:
    """Where the compiler finds `bits/stdc++.h`."""
    done = subprocess.run(
        ["g++", f"-std={std}", "-x", "c++", "-M", "-"],
        input="#include <bits/stdc++.h>\n",
        capture_output=True,
        text=True,
        check=True,
    )
    for word in done.stdout.replace("\\\n", " ").split():
        if word.endswith("bits/stdc++.h"):
            return word
    raise RuntimeError("g++ does not find bits/stdc++.h")
