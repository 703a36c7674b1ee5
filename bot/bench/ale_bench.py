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

from cpbot.bot.bench.standings import RecordedStandings, read_standings
from cpbot.core import bounds
from cpbot.core.bounds import TEST_FILE
from cpbot.core.errors import ConfigError
from cpbot.core.safe_paths import component, read_file
from cpbot.judge.model import HeuristicSpec, Limits, Problem, TestCase
from cpbot.judge.tool_paths import tools_in
from cpbot.scrapers.atcoder.ahc_tools import tools_spec

DATA = "data.json"
_HINT = "an ALE-Bench problem folder is one unpacked {problem_id}.zip of its Hugging Face dataset"
_MB = 1 << 20


def is_ale_problem(directory: Path) -> bool:
    """Whether `directory` holds one ALE-Bench problem."""
    return (directory / DATA).is_file() and (directory / "statement_en.md").is_file()


def ale_problem(directory: Path) -> tuple[Problem, list[int], RecordedStandings | None]:
    """An ALE-Bench folder as the problem the agents see (statement, example input, tools), the private
    seeds its program is scored on, and the standings it is ranked against."""
    data = bounds.loads(read_file(directory / DATA, TEST_FILE), f"{directory / DATA}")
    try:
        meta, limits, seeds = data["metadata"], data["constraints"], data["seeds"]
        problem_id = component(str(meta["problem_id"]), "problem")
        objective = "minimize" if meta["score_type"] == "minimize" else "maximize"
        relative = "relative_score_type" in meta
        private = [int(s) for s in seeds["private"]]
        time_ms = round(float(limits["time_limit"]) * 1000)
        memory_mb = max(1, int(limits["memory_limit"]) // _MB)
        interactive = meta.get("problem_type") == "reactive"
        unit = float(meta.get("relative_max_score", 1e9))
    except (KeyError, TypeError, ValueError) as e:
        raise ConfigError(
            f"{directory / DATA}: not ALE-Bench's data.json ({type(e).__name__}: {e})", hint=_HINT
        ) from None
    spec = HeuristicSpec(
        objective=objective,
        scoring="relative" if relative else "absolute",
        generator_style="ahc",
        failure_score=0.0 if objective == "maximize" else 1e9,
        interactive=interactive,
        system_inputs=len(private),
        relative_unit=unit,
    )
    example = directory / "example_input.txt"
    problem = Problem(
        id=f"atcoder:{problem_id}",
        site="atcoder",
        url=str(meta.get("contest_url") or "") or None,
        title=str(meta.get("title") or problem_id),
        statement=read_file(directory / "statement_en.md", TEST_FILE).decode("utf-8", errors="replace"),
        limits=Limits(time_ms=time_ms, memory_mb=memory_mb),
        samples=[TestCase(input=read_file(example, TEST_FILE).decode(), origin="sample", name="example")]
        if example.is_file()
        else [],
        kind="heuristic",
        heuristic=tools_spec(spec, directory),
        contest=problem_id,
    )
    return tools_in(problem, directory), private, read_standings(directory, objective=objective, unit=unit)
