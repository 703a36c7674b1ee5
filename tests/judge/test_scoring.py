"""Score-based problems: a program scored on seeds with the problem's generator and scorer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cpbot.core.errors import ConfigError
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import HeuristicSpec, Problem, Solution, Verdict
from cpbot.judge.scorer import ScoringTools
from cpbot.judge.scoring import compare_reports, contest_score, relative_scores, score_solution
from tests.paths import HEURISTIC


def load(name: str) -> Problem:
    return Problem.model_validate(json.loads((HEURISTIC / name / "problem.json").read_text()))


def solution(name: str, file: str) -> Solution:
    return Solution(language="python3", source=(HEURISTIC / name / "solutions" / file).read_text())


@pytest.fixture(scope="module")
def route_tools(sandbox):  # type: ignore[no-untyped-def]
    return ScoringTools.load(load("route"), HEURISTIC / "route", sandbox)


def test_the_fixtures_are_heuristic_problems_with_tools_and_a_statement() -> None:
    for name in ("route", "crates", "teams"):
        problem = load(name)
        assert problem_kind(problem.kind).scored and problem.heuristic is not None
        assert "Scoring" in problem.statement
        for tool in (problem.heuristic.generator, problem.heuristic.scorer):
            assert tool is not None and (HEURISTIC / name / tool).is_file()


def test_a_seed_always_gives_the_same_input(route_tools: ScoringTools) -> None:
    first = route_tools.input_for(7)
    assert route_tools.input_for(7) == first
    assert route_tools.input_for(8) != first
    n = int(first.split()[0])
    assert 50 <= n <= 200 and len(first.split()) == 1 + 2 * n


def test_each_seed_is_scored_and_a_better_route_scores_less(route_tools: ScoringTools) -> None:
    problem = load("route")
    seeds = [0, 1, 2, 3]
    nearest = score_solution(solution("route", "nearest.py"), problem.id, route_tools, seeds, limits=problem.limits)
    naive = score_solution(solution("route", "in_order.py"), problem.id, route_tools, seeds, limits=problem.limits)
    assert nearest.verdict == naive.verdict == Verdict.AC
    assert [s.seed for s in nearest.seeds] == seeds
    assert all(a.score < b.score for a, b in zip(nearest.seeds, naive.seeds, strict=True))
    assert nearest.total == sum(s.score for s in nearest.seeds) and nearest.stdev > 0
    comparison = compare_reports(nearest, naive)
    assert comparison.better == "a" and comparison.ci_low > 0


def test_an_invalid_output_is_wa_and_scores_the_failure_score(route_tools: ScoringTools) -> None:
    problem = load("route")
    report = score_solution(solution("route", "bad.py"), problem.id, route_tools, [0, 1], limits=problem.limits)
    assert report.verdict == Verdict.WA
    assert [s.score for s in report.seeds] == [1_000_000, 1_000_000]
    assert "expected" in report.seeds[0].message and "Score" not in report.seeds[0].message


def test_a_crash_is_re_and_a_program_that_does_not_build_is_ce(route_tools: ScoringTools) -> None:
    problem = load("route")
    crashed = score_solution(solution("route", "crash.py"), problem.id, route_tools, [0], limits=problem.limits)
    assert crashed.verdict == Verdict.RE and crashed.seeds[0].score == 1_000_000
    broken = Solution(language="python3", source="def (:\n")
    assert score_solution(broken, problem.id, route_tools, [0], limits=problem.limits).verdict == Verdict.CE


def test_a_program_past_the_time_limit_is_tle(route_tools: ScoringTools) -> None:
    problem = load("route")
    spin = Solution(language="python3", source="while True:\n    pass\n")
    limits = problem.limits.model_copy(update={"time_ms": 200})
    report = score_solution(spin, problem.id, route_tools, [0], limits=limits)
    assert report.verdict == Verdict.TLE and report.seeds[0].score == 1_000_000


def test_repeated_runs_keep_every_run_and_average_them(route_tools: ScoringTools) -> None:
    problem = load("route")
    report = score_solution(
        solution("route", "nearest.py"), problem.id, route_tools, [0, 1], limits=problem.limits, repeats=3
    )
    assert report.repeats == 3
    for seed in report.seeds:
        assert len(seed.runs) == 3 and seed.score == sum(seed.runs) / 3


def test_a_cpp_scorer_is_built_and_judges_overlaps(sandbox) -> None:  # type: ignore[no-untyped-def]
    problem = load("crates")
    tools = ScoringTools.load(problem, HEURISTIC / "crates", sandbox)
    shelves = score_solution(solution("crates", "shelves.py"), problem.id, tools, [1, 2], limits=problem.limits)
    single = score_solution(solution("crates", "first_only.py"), problem.id, tools, [1, 2], limits=problem.limits)
    assert shelves.verdict == Verdict.AC and all(s.score > 1000 for s in shelves.seeds)
    assert all(0 < s.score < 2000 for s in single.seeds)
    overlap = Solution(language="python3", source="input()\ninput()\ninput()\nprint(0, 0, 0, 0)\nprint(1, 0, 0, 0)\n")
    report = score_solution(overlap, problem.id, tools, [1], limits=problem.limits)
    assert report.verdict == Verdict.WA and report.seeds[0].score == 0 and "overlaps" in report.seeds[0].message


def test_relative_scoring_gives_the_best_a_full_unit_per_seed(sandbox) -> None:  # type: ignore[no-untyped-def]
    problem = load("teams")
    assert problem.heuristic is not None
    tools = ScoringTools.load(problem, HEURISTIC / "teams", sandbox)
    seeds = [1, 2]
    greedy = score_solution(solution("teams", "greedy.py"), problem.id, tools, seeds, limits=problem.limits)
    robin = score_solution(solution("teams", "round_robin.py"), problem.id, tools, seeds, limits=problem.limits)
    best = {s.seed: min(greedy.score_of(s.seed) or 0, robin.score_of(s.seed) or 0) for s in greedy.seeds}
    assert relative_scores(greedy, best, problem.heuristic) == {1: 10**9, 2: 10**9}
    ratios = relative_scores(robin, best, problem.heuristic)
    assert ratios[1] == round(10**9 * best[1] / robin.seeds[0].score) and ratios[1] < 10**9
    assert contest_score(greedy, problem.heuristic, best) == 2 * 10**9


def test_relative_scoring_counts_a_failed_seed_as_zero() -> None:
    from cpbot.judge.scoring import ScoreReport, SeedScore

    spec = HeuristicSpec(objective="maximize", scoring="relative", generator="g", scorer="s")
    report = ScoreReport(
        verdict=Verdict.WA,
        seeds=[SeedScore(seed=0, score=50, verdict=Verdict.AC), SeedScore(seed=1, score=0, verdict=Verdict.WA)],
    )
    assert relative_scores(report, {0: 100, 1: 100}, spec) == {0: 5 * 10**8, 1: 0}
    # a score better than the best known is the new best
    assert relative_scores(report, {0: 25}, spec)[0] == 10**9


def test_a_problem_where_smaller_is_better_must_say_what_a_failure_scores() -> None:
    with pytest.raises(ValueError, match="failure_score"):
        HeuristicSpec(objective="minimize", generator="g", scorer="s")


def test_a_tool_path_may_not_leave_the_problem_folder(sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    problem = load("route")
    assert problem.heuristic is not None
    escaping = problem.model_copy(update={"heuristic": problem.heuristic.model_copy(update={"scorer": "../x.py"})})
    with pytest.raises(ConfigError, match="leaves the problem's folder"):
        ScoringTools.load(escaping, tmp_path, sandbox)


def test_a_generator_that_fails_makes_the_report_ie(sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "gen.py").write_text("import sys\nsys.exit('no inputs today')\n")
    (tmp_path / "score.py").write_text("print('Score = 1')\n")
    problem = Problem(id="local:x", kind="heuristic", heuristic=HeuristicSpec(generator="gen.py", scorer="score.py"))
    tools = ScoringTools.load(problem, tmp_path, sandbox)
    report = score_solution(
        Solution(language="python3", source="print(1)\n"), problem.id, tools, [5], limits=problem.limits
    )
    assert report.verdict == Verdict.IE and "seed 5" in report.reason and "no inputs today" in report.reason


GEN_RS = """use std::io::Write;
fn main() {
    let seeds = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    std::fs::create_dir_all("in").unwrap();
    for (i, line) in seeds.lines().enumerate() {
        let seed: u64 = line.trim().parse().unwrap();
        let mut f = std::fs::File::create(format!("in/{:04}.txt", i)).unwrap();
        writeln!(f, "{}", seed * 7 + 1).unwrap();
    }
}
"""
VIS_RS = """fn main() {
    let args: Vec<String> = std::env::args().collect();
    let x: i64 = std::fs::read_to_string(&args[1]).unwrap().trim().parse().unwrap();
    let out = std::fs::read_to_string(&args[2]).unwrap();
    match out.trim().parse::<i64>() {
        Ok(y) if y <= x => println!("Score = {}", y),
        _ => { println!("Score = 0"); eprintln!("the answer must be an integer at most the input"); }
    }
}
"""


@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo (Rust) is not installed")
def test_ahc_rust_tools_are_built_with_cargo_and_their_gen_writes_in_0000(sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tools = tmp_path / "tools"
    (tools / "src" / "bin").mkdir(parents=True)
    (tools / "Cargo.toml").write_text('[package]\nname = "tools"\nversion = "0.1.0"\nedition = "2021"\n')
    (tools / "src" / "bin" / "gen.rs").write_text(GEN_RS)
    (tools / "src" / "bin" / "vis.rs").write_text(VIS_RS)
    spec = HeuristicSpec(tools="tools", generator_style="ahc")
    problem = Problem(id="local:ahc", kind="heuristic", heuristic=spec)
    scoring = ScoringTools.load(problem, tmp_path, sandbox)
    assert scoring.input_for(3) == b"22\n"
    echo = Solution(language="python3", source="print(int(input()))\n")
    report = score_solution(echo, problem.id, scoring, [0, 3], limits=problem.limits)
    assert [(s.seed, s.score, s.verdict) for s in report.seeds] == [(0, 1.0, Verdict.AC), (3, 22.0, Verdict.AC)]
    over = Solution(language="python3", source="print(int(input()) + 1)\n")
    rejected = score_solution(over, problem.id, scoring, [3], limits=problem.limits)
    assert rejected.verdict == Verdict.WA and "at most the input" in rejected.seeds[0].message


def test_load_problem_makes_the_tools_paths_absolute_and_refuses_one_leaving_the_folder(tmp_path: Path) -> None:
    from cpbot.bot.app.problem_folder import load_problem

    problem = load_problem(HEURISTIC / "route" / "problem.json")
    assert problem.heuristic is not None and problem.heuristic.scorer == str(HEURISTIC / "route" / "score.py")
    data = json.loads((HEURISTIC / "route" / "problem.json").read_text())
    data["heuristic"]["generator"] = "../../gen.py"
    (tmp_path / "problem.json").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="leaves the problem's folder"):
        load_problem(tmp_path / "problem.json")


def test_an_interactive_problem_is_scored_by_its_tester(sandbox) -> None:  # type: ignore[no-untyped-def]
    problem = load("guess")
    tools = ScoringTools.load(problem, HEURISTIC / "guess", sandbox)
    assert tools.scorer is None and tools.tester is not None
    seeds = [1, 2, 3]
    bisect = score_solution(solution("guess", "bisect.py"), problem.id, tools, seeds, limits=problem.limits)
    thirds = score_solution(solution("guess", "thirds.py"), problem.id, tools, seeds, limits=problem.limits)
    assert bisect.verdict == thirds.verdict == Verdict.AC
    assert [s.score for s in bisect.seeds] == [830, 800, 820]  # 1000 - 10 x the queries a bisection makes
    assert [s.score for s in thirds.seeds] == [830, 770, 860]
    silent = score_solution(solution("guess", "silent.py"), problem.id, tools, [1], limits=problem.limits)
    assert silent.verdict == Verdict.WA and silent.seeds[0].score == 0
    assert "stopped before finding" in silent.seeds[0].message
