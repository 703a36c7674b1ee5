"""An OpenAI-compatible stand-in model for score-based problems: programs of known scores from a pool,
and edits of the program it is asked to improve. For tests and for measuring the `ale` strategy.

A `ScorePool` holds programs with their qualities (the score a program is known to reach, in the
problem's own unit). A request for a first program gets the pool's first; a request for a new method
gets the next of the pool, in order, round and round; a request to improve a program gets an edit of
it: `edit(source, n)` makes the n-th edit of that program (the pool decides whether edits help or
hurt). The kind of request is read from the prompt (`request_kind`). Every program served is kept with
its quality (`served`), so a test can tell what the strategy ended with. Standard library only, serving
through `scripted_server.ScriptedServer`.

`dial_pool()` is the pool of the Dial fixture (`tests/fixtures/heuristic/dial/`: a program sets a dial V
and scores W * V on an input of weight W), where a program's quality is its dial.

    python -m cpbot.testing.score_pool_server [--port 8765] [-- COMMAND...]
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cpbot.testing.scripted_server import COMMAND_HELP, Reply, ScriptedServer, run_with_server, split_command

RequestKind = Literal["first", "new", "improve"]
_FENCE = re.compile(r"```[a-zA-Z0-9+]*\n(.*?)```", re.S)


@dataclass(frozen=True)
class PoolProgram:
    """A program and the quality it is known to reach."""

    source: str
    quality: float
    idea: str = ""


def request_kind(text: str) -> RequestKind:
    """What the `ale` strategy asks for, from its prompt's words (`templates/prompts/heuristic_*.txt`)."""
    if "The program to improve" in text:
        return "improve"
    if "different method" in text:
        return "new"
    return "first"


@dataclass
class ScorePool:
    """The programs a stand-in model serves: `programs[0]` first, the others as new methods, and edits."""

    programs: Sequence[PoolProgram]
    edit: Callable[[PoolProgram, int], PoolProgram]
    language: str = "python"
    served: dict[str, PoolProgram] = field(default_factory=dict)
    _next_new: int = 1
    _edits: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if not self.programs:
            raise ValueError("a pool needs at least one program")
        for program in self.programs:
            self.served.setdefault(program.source.strip(), program)

    def answer(self, body: dict[str, Any]) -> Reply:
        """The reply to one chat request."""
        text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
        kind = request_kind(text)
        with self._lock:
            if kind == "first":
                program = self.programs[0]
            elif kind == "new":
                program = self.programs[self._next_new % len(self.programs)]
                self._next_new += 1
            else:
                parent = self._parent_in(text)
                n = self._edits.get(parent.source.strip(), 0)
                self._edits[parent.source.strip()] = n + 1
                program = self.edit(parent, n)
            self.served.setdefault(program.source.strip(), program)
        return Reply(
            f"Idea: {program.idea or 'a program of the pool'}\n```{self.language}\n{program.source.rstrip()}\n```\n"
        )

    def quality_of(self, source: str) -> float | None:
        """The quality of a program this pool served (None for one it never did)."""
        program = self.served.get(source.strip())
        return program.quality if program is not None else None

    def _parent_in(self, text: str) -> PoolProgram:
        """The program the request asks to improve: the one it quotes that this pool served."""
        for block in _FENCE.findall(text):
            known = self.served.get(block.strip())
            if known is not None:
                return known
        return self.programs[0]


def dial_program(dial: int, idea: str = "") -> PoolProgram:
    """A Dial program setting `dial` (its quality)."""
    return PoolProgram(f"input()\nprint({dial})\n", float(dial), idea or f"set the dial to {dial}")


# what the n-th edit of a program does to its dial: most help a little, some hurt, one in a while a lot
DIAL_STEPS = (25, -40, 10, 60, -15, 5, 35, -5)


def dial_pool(dials: Sequence[int] = (100, 160, 90, 240, 130)) -> ScorePool:
    """The Dial pool: the first program sets `dials[0]`, new methods the others in turn; the n-th edit of
    a program moves its dial by `DIAL_STEPS[n % len]`, within 0..1000 (the scorer's valid range)."""

    def edit(parent: PoolProgram, n: int) -> PoolProgram:
        step = DIAL_STEPS[n % len(DIAL_STEPS)]
        dial = max(0, min(1000, int(parent.quality) + step))
        return dial_program(dial, f"move the dial by {step:+d} to {dial}")

    return ScorePool([dial_program(d) for d in dials], edit)


def file_pool(paths: Sequence[Path]) -> ScorePool:
    """A pool of the programs in `paths`, in order (the first is the first program, the others the new methods;
    a program's quality is its place in the list), where an edit gives the program back unchanged: for a real
    problem's programs (e.g. tests/fixtures/heuristic/ahc001/solutions/), whose scores only its scorer knows."""
    programs = [PoolProgram(path.read_text(encoding="utf-8"), float(i), path.stem) for i, path in enumerate(paths)]
    return ScorePool(programs, lambda parent, n: parent)


def main(argv: list[str] | None = None) -> int:
    """Serve the Dial pool until interrupted, or while one command runs against it."""
    own, command = split_command(list(sys.argv[1:] if argv is None else argv))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=COMMAND_HELP)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--model", default="score-pool")
    args = parser.parse_args(own)
    pool = dial_pool()
    with ScriptedServer(default=pool.answer, model=args.model, port=args.port) as server:
        print(f"serving the Dial pool at {server.base_url}", file=sys.stderr)
        return run_with_server(server, command)


if __name__ == "__main__":
    raise SystemExit(main())
