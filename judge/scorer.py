"""A score-based problem's local tools: the generator of each seed's input and the scoring program.

AtCoder Heuristic Contests ship them as a Rust package (`tools/`: `gen` and `vis`); problems of our own
bring a Python or C++ generator and scorer. Either way the protocols are AHC's: the scorer runs as
`SCORER INPUT OUTPUT` and prints `Score = N`; the generator prints a seed's input (`GENERATOR SEED`), or
is AHC's `gen seeds.txt` that writes `in/0000.txt`. Every run of a tool goes through the sandbox; only
`cargo build` of a contest's own tools runs outside it, as a compiler would (`build_cargo_tools`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cpbot.core.errors import ConfigError, CpbotError
from cpbot.judge.build import build_program_file
from cpbot.judge.execute import Execution, execute
from cpbot.judge.languages import Program
from cpbot.judge.memo import BytesLRU
from cpbot.judge.model import HeuristicSpec, Limits, Problem
from cpbot.judge.sandbox import RunLimits, Sandbox
from cpbot.judge.tool_paths import inside
from cpbot.judge.verdicts import STARVED_RETRIES, is_starved

TOOL_TIME_MS = 20_000
TOOL_LIMITS = Limits(time_ms=TOOL_TIME_MS, memory_mb=2048, output_mb=256)
CARGO_TIMEOUT_S = 600
# AHC's vis and tester print "Score = 1234"; a scorer of our own may print a float
_SCORE_LINE = re.compile(r"^\s*score\s*[=:]\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*$", re.I | re.M)
# a seed's input is a function of (generator, seed): made once per process for every program scored on it
INPUTS: BytesLRU[bytes] = BytesLRU(len)


class ToolError(CpbotError):
    """A generator or scorer failed on its own (not because of the program scored): names the seed."""


@dataclass(frozen=True)
class Scored:
    """What the scorer said of one output: its score (0 when it rejected the output) and any message."""

    score: float
    valid: bool
    message: str = ""


def build_cargo_tools(tools: Path) -> dict[str, Path]:
    """Build AHC's Rust tools (`cargo build --release --offline`) and return their binaries by name.

    Offline: a contest's tools need only the crates cargo already holds; without them the build fails
    with cargo's own message and a hint to build the tools by hand and name the binaries."""
    cargo = shutil.which("cargo")
    if cargo is None:
        raise ConfigError(
            f"{tools} holds Rust tools but cargo is not installed",
            hint="install Rust (rustup.rs), or build the tools and set `generator` and `scorer` to the binaries",
        )
    if not (tools / "Cargo.toml").is_file():
        raise ConfigError(f"{tools} has no Cargo.toml", hint="point `tools` at the contest's tools/ folder")
    try:
        done = subprocess.run(
            [cargo, "build", "--release", "--offline", "--quiet"],
            cwd=tools,
            capture_output=True,
            text=True,
            timeout=CARGO_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired as e:
        raise ConfigError(f"cargo build of {tools} did not finish in {CARGO_TIMEOUT_S} s") from e
    if done.returncode != 0:
        raise ConfigError(
            f"cargo build of {tools} failed:\n{done.stderr.strip()[-2000:]}",
            hint="build the tools by hand (cargo build --release) and set `generator` and `scorer` to the binaries",
        )
    release = tools / "target" / "release"
    return {p.name: p for p in release.iterdir() if p.is_file() and os.access(p, os.X_OK)}


def read_score(said: str, *, ok: bool, who: str) -> Scored:
    """A scorer's or tester's words as a `Scored`: the last `Score = N` line; no score, or a tool that did not
    exit 0, rejects the output. AHC's tools print `Score = 0` with the reason for an invalid output, so a 0
    with anything else said is a rejection too."""
    said = said.strip()
    found = _SCORE_LINE.findall(said)
    message = "\n".join(line for line in said.splitlines() if not _SCORE_LINE.match(line))[:500]
    if not found or not ok:
        return Scored(0.0, False, message or f"the {who} printed no score")
    score = float(found[-1])
    return Scored(score, not (score == 0 and message), message)


@dataclass(frozen=True)
class ScoringTools:
    """A problem's generator and its scorer (or, for an interactive problem, its tester), built and ready
    to run in the sandbox."""

    spec: HeuristicSpec
    generator: Program
    scorer: Program | None
    sandbox: Sandbox
    tester: Program | None = None

    @classmethod
    def load(cls, problem: Problem, folder: Path | None, sandbox: Sandbox) -> ScoringTools:
        """The tools of `problem`, whose relative paths are in `folder` (the problem's folder)."""
        spec = problem.heuristic
        if spec is None:
            raise ConfigError(
                f"{problem.id} is not a score-based problem",
                hint="a heuristic problem names its tools under `heuristic`",
            )
        judge_role = "tester" if spec.interactive else "scorer"
        names = {"generator": spec.generator, judge_role: spec.tester if spec.interactive else spec.scorer}
        if any(n is not None and not Path(n).is_absolute() for n in [*names.values(), spec.tools]) and folder is None:
            raise ConfigError(f"{problem.id}'s tools are relative paths but no problem folder was given")
        base = folder or Path("/")
        paths = {role: inside(base, name, role) for role, name in names.items() if name is not None}
        if len(paths) < 2 and spec.tools is not None:
            built = build_cargo_tools(inside(base, spec.tools, "tools folder"))
            for role, binary in (("generator", "gen"), ("scorer", "vis"), ("tester", "tester")):
                if role in names and role not in paths and binary in built:
                    paths[role] = built[binary]
        missing = [role for role in names if role not in paths]
        if missing:
            raise ConfigError(
                f"{problem.id} has no {' and no '.join(missing)}",
                hint=f"set `generator` and `{judge_role}` under `heuristic` in problem.json, or `tools` to AHC's "
                "Rust tools",
            )
        for role, path in paths.items():
            if not path.is_file():
                raise ConfigError(f"the {role} {path} does not exist")
        judge = build_program_file(paths[judge_role], sandbox, role=judge_role)
        return cls(
            spec,
            build_program_file(paths["generator"], sandbox, role="generator"),
            None if spec.interactive else judge,
            sandbox,
            tester=judge if spec.interactive else None,
        )

    def input_for(self, seed: int) -> bytes:
        """The input of `seed`; a generator that fails is a `ToolError`, never an input."""
        key = (tuple(self.generator.argv), self.generator.key, self.spec.generator_style, seed)
        made = INPUTS.get(key) if self.generator.key else None
        if made is not None:
            return made
        if self.spec.generator_style == "ahc":
            # AHC's gen writes in/0000.txt for the seeds file's first line; a shell prints it back
            argv = ["/bin/sh", "-c", '"$0" seeds.txt >&2 && cat in/0000.txt', *self.generator.argv]
            files: dict[str, bytes] = {"seeds.txt": f"{seed}\n".encode()}
            args: list[str] = []
        else:
            argv, files, args = list(self.generator.argv), {}, [str(seed)]
        ex = self._run(Program(self.generator.language, argv, self.generator.key), args, files)
        where = f"the generator failed for seed {seed}"
        if not ex.run.ok:
            tail = ex.stderr.strip().splitlines()[-1:] or [ex.message or ex.run.status]
            raise ToolError(f"{where}: {tail[0]}", hint="run it by hand to see why")
        if not ex.stdout.strip():
            raise ToolError(f"{where}: it printed nothing", hint="the generator must print one input")
        if self.generator.key:
            INPUTS.put(key, ex.stdout)
        return ex.stdout

    def score(self, input_data: bytes, output: bytes) -> Scored:
        """The scorer's judgement of `output` on `input_data`: AHC's `vis` prints `Score = 0` and a message
        for an invalid output; a scorer that exits non-zero or prints no score rejects it too."""
        if self.scorer is None:
            raise ToolError("an interactive problem is scored by its tester, not by a scorer")
        ex = self._run(self.scorer, ["input.txt", "output.txt"], {"input.txt": input_data, "output.txt": output})
        if ex.run.killed or ex.run.status == "error":
            raise ToolError(f"the scorer did not finish: {ex.message or ex.run.status}")
        return read_score(ex.stdout.decode(errors="replace") + "\n" + ex.stderr, ok=ex.run.ok, who="scorer")

    def _run(self, program: Program, args: list[str], files: dict[str, bytes]) -> Execution:
        limits = RunLimits(
            cpu_ms=TOOL_TIME_MS, wall_ms=3 * TOOL_TIME_MS, address_space_kb=4 << 20, output_bytes=256 << 20
        )
        for _ in range(1 + STARVED_RETRIES):  # a busy machine's starving is not the tool's fault
            ex = execute(
                program, b"", self.sandbox, limits=TOOL_LIMITS, args=args, run_limits_override=limits, files=files
            )
            if not is_starved(ex.run):
                return ex
        return ex
