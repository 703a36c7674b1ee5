"""Ctrl-C under a terminal: `cpbot judge` (and stress, profile) stop at once, say what finished, leave no
process or sandbox dir behind, exit 130, and a second Ctrl-C shows no traceback.

The command runs on a pseudo-terminal in a session of its own; Ctrl-C is SIGINT to its process group,
as the terminal sends it. No sleeps: the test waits for a marker in the output, then signals."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cpbot.judge.sandbox.pool import ROOT_PREFIX

# slow enough that only Ctrl-C ends the stuck tests: far below its CPU limit for as long as the test lasts
SPIN = "import sys\nif sys.stdin.read().strip() == 'spin':\n    while True: pass\nprint(1)\n"
HANG_GUARD_S = 120  # a hung command fails the test instead of hanging the suite; not a timing assertion


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a live process, None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0]


def _descendants(root: int) -> set[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) is not None:
            parents[int(entry)] = st[0]
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


class Terminal:
    """A command on a pseudo-terminal: its output read as it comes."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        master, slave = pty.openpty()
        self.master = master
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, start_new_session=True, close_fds=True
        )
        os.close(slave)
        self.output = ""

    def read_until(self, pattern: str) -> re.Match[str]:
        while (m := re.search(pattern, self.output)) is None:
            if not self._read_some():
                raise AssertionError(f"the output ended without {pattern!r}:\n{self.output}")
        return m

    def _read_some(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], HANG_GUARD_S)
        if not ready:
            raise AssertionError(f"no output for {HANG_GUARD_S} s:\n{self.output}")
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: every writer of the terminal is gone
            return False
        self.output += data.decode(errors="replace")
        return bool(data)

    def kill(self) -> None:
        """End the command and everything below it (a failed test leaves nothing running)."""
        below = _descendants(self.proc.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        for pid in below:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait()

    def ctrl_c(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGINT)

    def finish(self) -> int:
        while self._read_some():
            pass
        os.close(self.master)
        return self.proc.wait(timeout=HANG_GUARD_S)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    """Starts `cpbot ARGS...` on a terminal in tmp_path; whatever still runs at the end is killed."""
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        started.append(Terminal(_cpbot(*args), tmp_path))
        return started[-1]

    yield start
    for term in started:
        if term.proc.poll() is None:
            term.kill()


def _spin_tests(tmp_path: Path, fast: int, slow: int) -> Path:
    tests = tmp_path / "tests"
    tests.mkdir()
    for i in range(1, fast + slow + 1):
        (tests / f"t{i}.in").write_text("go\n" if i <= fast else "spin\n")
        (tests / f"t{i}.out").write_text("1\n")
    return tests


def _cpbot(*args: str) -> list[str]:
    return [sys.executable, "-m", "cpbot.bot.cli.main", *args]


def _sandbox_dirs(pid: int) -> list[Path]:
    return list(Path(os.environ.get("TMPDIR", "/tmp")).glob(f"{ROOT_PREFIX}{pid}-*"))


def test_ctrl_c_stops_judge_shows_finished_tests_and_leaves_nothing(tmp_path, terminal):
    (tmp_path / "sol.py").write_text(SPIN)
    _spin_tests(tmp_path, fast=2, slow=6)
    term = terminal("judge", "sol.py", "--tl", "600", "-j", "1")
    term.read_until(r"2 t2\s+\S*AC")
    running = _descendants(term.proc.pid)
    assert running, "the sandbox's processes should be running"
    term.ctrl_c()
    term.read_until("interrupted")
    term.ctrl_c()  # a second press while it winds down
    code = term.finish()
    out = term.output
    assert code == 130
    assert re.search(r"interrupted: 2 of 8 tests finished \(2 \S*AC", out)
    assert "Traceback" not in out and "KeyboardInterrupt" not in out
    assert not re.search(r"\d t[3-8]\s", out), "a test killed by Ctrl-C is no result"
    left = [pid for pid in running if (st := _stat(pid)) is not None and st[1] != "Z"]
    assert left == []
    assert _sandbox_dirs(term.proc.pid) == []


def _wait_until_solution_runs(term: Terminal) -> None:
    """Until a program below the command has spun for half a second of CPU: the marker of a command that
    prints nothing while it works. The spinning solution is the only program that uses that much (the
    generator and the brute force print one line; a warm Python server's imports take far less), and it
    is found whether it runs as `python3 solution.py` or inside a warm interpreter, whose command line
    names no solution. CPU used, not time waited: a loaded machine only makes the wait longer."""
    while not any(_cpu_s(p) >= 0.5 for p in _descendants(term.proc.pid)):
        assert term.proc.poll() is None, term.output
        select.select([term.master], [], [], 0.05)  # output may come meanwhile: read it at the end


def _cpu_s(pid: int) -> float:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_stops_stress(tmp_path, terminal):
    (tmp_path / "spin_sol.py").write_text("while True: pass\n")
    (tmp_path / "brute.py").write_text("print(1)\n")
    (tmp_path / "gen.py").write_text("import sys\nprint(sys.argv[1])\n")
    args = ("stress", "spin_sol.py", "--brute", "brute.py", "--gen", "gen.py", "--tl", "600")
    term = terminal(*args)
    _wait_until_solution_runs(term)
    term.ctrl_c()
    term.ctrl_c()
    assert term.finish() == 130, term.output
    assert "interrupted: no difference in the no input compared so far" in term.output or re.search(
        r"interrupted: no difference in the \d+ inputs", term.output
    )
    assert "Traceback" not in term.output


def test_ctrl_c_stops_profile_and_shows_the_sizes_measured(tmp_path, terminal):
    (tmp_path / "stuck_sol.py").write_text("n = int(input())\nwhile n > 100: pass\nprint(n)\n")
    (tmp_path / "gen.py").write_text("import sys\nprint(sys.argv[1])\n")
    args = ("profile", "stuck_sol.py", "--gen", "gen.py", "--tl", "600", "--no-count")
    term = terminal(*args)
    _wait_until_solution_runs(term)
    term.ctrl_c()
    term.ctrl_c()
    assert term.finish() == 130, term.output
    assert re.search(r"interrupted: \d+ sizes measured, no fit made", term.output)
    assert "Traceback" not in term.output


def test_ctrl_c_stops_solve_and_the_transcript_says_interrupted(tmp_path, terminal):
    from cpbot.bot.store.transcripts import TranscriptStore
    from cpbot.testing.scripted_server import Delay, Reply, ScriptedServer

    problem = {"title": "Sum", "samples": [{"input": "1 2\n", "output": "3\n"}]}
    (tmp_path / "problem.json").write_text(json.dumps(problem))
    # the model takes its time: Ctrl-C comes while the solve waits for it
    with ScriptedServer(default=Delay(600, Reply("```python\nprint(3)\n```")), model="m") as server:
        args = ("solve", "problem.json", "--strategy", "direct", "--lang", "python3")
        term = terminal(*args, "--base-url", server.base_url, "--model", "m", "--api-key", "k")
        term.read_until("solving local:")
        while not server.requests:  # the marker: the solve waits for the model
            assert term.proc.poll() is None, term.output
            select.select([term.master], [], [], 0.05)
        term.ctrl_c()
        term.ctrl_c()
        code = term.finish()
    assert code == 130, term.output
    assert "interrupted" in term.output and "transcript: " in term.output and "Traceback" not in term.output
    with TranscriptStore() as store:
        (run,) = store.list_runs()
    assert run.status == "interrupted"


def test_ctrl_c_stops_grade_at_once_and_the_run_can_be_resumed(tmp_path, terminal):
    from cpbot.bot.store.transcripts import TranscriptStore
    from tests.paths import DATASETS

    gens = tmp_path / "gens.jsonl"
    spin = [
        {"question_id": "abc900_a", "language": "python3", "source": f"# {i}\nwhile True: pass\n"} for i in range(4)
    ]
    gens.write_text("".join(json.dumps(line) + "\n" for line in spin), encoding="utf-8")
    sample = str(DATASETS / "livecodebench" / "sample.jsonl")
    # a limit no test reaches while the test lasts: only Ctrl-C ends the programs
    term = terminal("grade", sample, str(gens), "--time-limit", "600000", "-o", str(tmp_path / "eval.json"))
    _wait_until_solution_runs(term)
    running = _descendants(term.proc.pid)
    term.ctrl_c()
    term.ctrl_c()
    assert term.finish() == 130, term.output
    found = re.search(r"interrupted: cpbot grade --resume (\S+) continues it", term.output)
    assert found, term.output
    assert "Traceback" not in term.output
    left = [pid for pid in running if (st := _stat(pid)) is not None and st[1] != "Z"]
    assert left == []
    with TranscriptStore() as store:
        assert store.run(found[1]).status == "interrupted"
        assert [e for e in store.events(found[1]) if e.kind == "grade_result"] == []  # killed runs are no result
