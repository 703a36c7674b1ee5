"""ALE-Bench's problem layout (Sakana AI's benchmark of AtCoder Heuristic Contest problems) read as a bench problem.

One ALE-Bench problem, as its `{problem_id}.zip` unpacks (the layout its `ale_bench.data.load_problem` reads):
`data.json` (`metadata`: problem_id, title, contest_url, problem_type batch|reactive, score_type
minimize|maximize, and for relative-scored contests relative_score_type and relative_max_score;
`constraints`: time_limit in seconds, memory_limit in bytes; `seeds`: public and private lists),
`statement_en.md`, `example_input.txt`, `tools/` (the contest's Rust package), and the recorded results:
`standings_scores.csv`, `performance.csv`, `relative_results.csv` (read by `standings.py`). The agents see the
statement and the example input; the returned program is scored on the private seeds (the system test) and
ranked against the standings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cpbot.bot.bench.standings import RecordedStandings, read_standings
from cpbot.core import bounds
from cpbot.core.bounds import TEST_FILE
from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.safe_paths import component, read_file
from cpbot.judge.model import HeuristicSpec, Limits, Problem, TestCase
from cpbot.judge.tool_paths import tools_in
from cpbot.scrapers.atcoder.ahc_tools import tools_spec

DATA = "data.json"
_HINT = "an ALE-Bench problem folder is one unpacked {problem_id}.zip of its Hugging Face dataset"
_MB = 1 << 20


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Metadata(_Part):
    problem_id: str
    title: str = ""
    contest_url: str = ""
    problem_type: Literal["batch", "reactive"] = "batch"
    score_type: Literal["minimize", "maximize"]
    relative_score_type: str | None = None  # present only for relative-scored contests
    relative_max_score: float = Field(1e9, gt=0, allow_inf_nan=False)


class Constraints(_Part):
    time_limit: float = Field(gt=0, le=3600, allow_inf_nan=False)  # seconds
    memory_limit: int = Field(gt=0)  # bytes


class Seeds(_Part):
    public: list[int] = []
    private: list[int] = Field(min_length=1)


class AleData(_Part):
    """What cpbot reads of ALE-Bench's data.json."""

    metadata: Metadata
    constraints: Constraints
    seeds: Seeds


def is_ale_problem(directory: Path) -> bool:
    """Whether `directory` holds one ALE-Bench problem."""
    return (directory / DATA).is_file() and (directory / "statement_en.md").is_file()


def ale_problem(directory: Path) -> tuple[Problem, list[int], RecordedStandings | None]:
    """An ALE-Bench folder as the problem the agents see (statement, example input, tools), the private
    seeds its program is scored on, and the standings it is ranked against."""
    where = directory / DATA
    try:
        data = AleData.model_validate(bounds.loads(read_file(where, TEST_FILE), str(where)))
        meta = data.metadata
        problem_id = component(meta.problem_id, "problem")
        spec = HeuristicSpec(
            objective=meta.score_type,
            scoring="relative" if meta.relative_score_type else "absolute",
            generator_style="ahc",
            failure_score=0.0 if meta.score_type == "maximize" else 1e9,
            interactive=meta.problem_type == "reactive",
            system_inputs=len(data.seeds.private),
            relative_unit=meta.relative_max_score,
        )
        example = directory / "example_input.txt"
        samples = [TestCase(input=_text(example), origin="sample", name="example")] if example.is_file() else []
        problem = Problem(
            id=f"atcoder:{problem_id}",
            site="atcoder",
            url=meta.contest_url or None,
            title=meta.title or problem_id,
            statement=_text(directory / "statement_en.md"),
            limits=Limits(
                time_ms=round(data.constraints.time_limit * 1000),
                memory_mb=max(1, data.constraints.memory_limit // _MB),
            ),
            samples=samples,
            kind="heuristic",
            heuristic=tools_spec(spec, directory),
            contest=problem_id,
        )
    except ValidationError as e:
        raise ConfigError(f"{where}: not ALE-Bench's data.json ({first_problem(e)})", hint=_HINT) from None
    standings = read_standings(directory, objective=meta.score_type, unit=meta.relative_max_score)
    return tools_in(problem, directory), data.seeds.private, standings


def _text(path: Path) -> str:
    return read_file(path, TEST_FILE).decode("utf-8", errors="replace")
