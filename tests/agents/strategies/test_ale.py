"""`ale` on a score-based problem against a stand-in model serving programs of known scores."""

from __future__ import annotations

import itertools
import json

import pytest

from cpbot.agents.budget import Budget
from cpbot.agents.solve import solve
from cpbot.agents.strategies.ale import KEPT_IDEA
from cpbot.agents.tracing import ScoreEvent, load_event
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem, Solution, Verdict
from cpbot.judge.scorer import ScoringTools
from cpbot.judge.scoring import compare_reports, default_seeds, score_solution
from cpbot.testing.score_pool_server import dial_pool, request_kind
from tests.agents.roles.helpers import sum_problem
from tests.paths import HEURISTIC

DIAL = HEURISTIC / "dial"


def dial_problem() -> Problem:
    return Problem.model_validate(json.loads((DIAL / "problem.json").read_text()))


def run_ale(scripted_server, make_client, tracer, sandbox, pool, calls: int, **options):  # type: ignore[no-untyped-def]
    server = scripted_server(default=pool.answer)
    options = {"folder": str(DIAL), "seeds": 8, "repeats": 2, **options}
    return solve(
        dial_problem(), strategy="ale", language="python3", model=make_client(server), tracer=tracer,
        sandbox=sandbox, budget=Budget(max_calls=calls), options=options,
    )  # fmt: skip


def test_the_search_beats_the_first_program_and_the_best_of_the_pool(
    scripted_server, make_client, tracer, sandbox
) -> None:
    pool = dial_pool()  # dials 100 (first), 160, 90, 240, 130; edits move a dial by +25, -40, +10, ...
    result = run_ale(scripted_server, make_client, tracer, sandbox, pool, calls=17)  # a first, then 4 rounds of 4
    assert result.solution is not None and "budget exhausted" in result.reason
    best = pool.quality_of(result.solution.source)
    assert best is not None and best > max(p.quality for p in pool.programs) > pool.programs[0].quality
    events = tracer.of_kind(ScoreEvent)
    candidates = [e for e in events if e.purpose == "candidate"]
    assert len(candidates) == 17
    seeds = [s.seed for s in candidates[0].report.seeds]
    assert seeds == default_seeds(dial_problem().heuristic, 8)  # type: ignore[arg-type]
    assert all([s.seed for s in e.report.seeds] == seeds for e in candidates)  # every program on the same seeds
    # the leader over time: every change of leader raises its quality, and the last is the one returned
    leaders = [pool.quality_of(next(iter(_sources(tracer, e.iteration)))) for e in events if e.best]
    assert leaders[0] == pool.programs[0].quality and leaders[-1] == best
    assert all(a < b for a, b in itertools.pairwise(leaders))  # type: ignore[operator]
    # a program about to take the lead was run again on every seed before it did
    repeats = [e for e in events if e.purpose == "repeat"]
    assert repeats and all(len(s.runs) == 2 for e in repeats for s in e.report.seeds)
    # the ideas of the tree are kept, with each version's parent
    assert any(e.parent is not None and e.idea.startswith("move the dial") for e in candidates)
    assert load_event(events[-1].model_dump(mode="json")) == events[-1]


def _sources(tracer, iteration):  # type: ignore[no-untyped-def]
    """The program of a code envelope."""
    return [e.payload.source for e in tracer.envelopes() if e.header.iteration == iteration and e.header.type == "code"]


def test_a_round_asks_for_new_methods_and_improvements_at_once(scripted_server, make_client, tracer, sandbox) -> None:
    pool = dial_pool()
    server_requests = []
    server = scripted_server(default=lambda body: (server_requests.append(body), pool.answer(body))[1])
    solve(
        dial_problem(), strategy="ale", language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        budget=Budget(max_calls=5), options={"folder": str(DIAL), "seeds": 4, "repeats": 1, "width": 4, "fresh": 1},
    )  # fmt: skip
    kinds = [request_kind("\n".join(m["content"] for m in body["messages"])) for body in server_requests]
    assert kinds[0] == "first" and sorted(kinds[1:]) == ["improve", "improve", "improve", "new"]


def test_ale_refuses_a_problem_without_a_scorer(scripted_server, make_client, tracer, sandbox) -> None:
    server = scripted_server(default=dial_pool().answer)
    with pytest.raises(ConfigError, match="does not solve a problem judged by expected outputs"):
        solve(sum_problem(), strategy="ale", language="python3", model=make_client(server), sandbox=sandbox)


def test_the_paired_comparison_picks_the_program_one_percent_better_on_fifty_seeds(sandbox) -> None:  # type: ignore[no-untyped-def]
    problem = dial_problem()
    tools = ScoringTools.load(problem, DIAL, sandbox)
    seeds = list(range(50))

    def scored(name: str):  # type: ignore[no-untyped-def]
        source = (DIAL / "solutions" / name).read_text()
        program = Solution(language="python3", source=source)
        return score_solution(program, problem.id, tools, seeds, limits=problem.limits)

    steady, uneven = scored("steady.py"), scored("uneven.py")
    assert steady.verdict == uneven.verdict == Verdict.AC
    assert uneven.mean / steady.mean == pytest.approx(1.0093, abs=5e-4)  # about 1% apart
    worse = sum(u.score < s.score for u, s in zip(uneven.seeds, steady.seeds, strict=True))
    assert worse == 26  # the better program loses on more than half the seeds
    assert compare_reports(uneven, steady).better == "a"
    assert compare_reports(steady, uneven).better == "b"


def test_the_score_pool_recognises_each_of_the_ale_prompts() -> None:
    from tests.paths import REPO

    prompts = REPO / "templates" / "prompts"
    kinds = {p.stem: request_kind(p.read_text()) for p in prompts.glob("heuristic_*.txt")}
    assert kinds == {"heuristic_first": "first", "heuristic_improve": "improve", "heuristic_new": "new"}


def test_a_strategy_for_expected_outputs_refuses_a_score_based_problem(scripted_server, make_client, sandbox) -> None:
    server = scripted_server(default=dial_pool().answer)
    with pytest.raises(ConfigError, match="does not solve a score-based problem") as e:
        solve(dial_problem(), strategy="direct", language="python3", model=make_client(server), sandbox=sandbox)
    assert "--strategy ale" in (e.value.hint or "")


def test_a_first_program_that_does_not_build_is_improved_with_the_compilers_words(
    scripted_server, make_client, tracer, sandbox
) -> None:
    from tests.agents.support.scripted_server import Reply

    asked: list[str] = []
    replies = iter([Reply("Idea: oops\n```python\ndef (:\n```\n"), *[None] * 10])

    def answer(body):  # type: ignore[no-untyped-def]
        text = "\n".join(m["content"] for m in body["messages"])
        asked.append(text)
        first = next(replies)
        return first if first is not None else dial_pool().answer(body)

    server = scripted_server(default=answer)
    result = solve(
        dial_problem(), strategy="ale", language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        budget=Budget(max_calls=3), options={"folder": str(DIAL), "seeds": 3, "repeats": 1, "width": 2, "fresh": 0},
    )  # fmt: skip
    improve = [t for t in asked if request_kind(t) == "improve"]
    assert improve and all("none: CE" in t and "SyntaxError" in t for t in improve)
    assert result.solution is not None and result.solution.source.startswith("input()")  # a program that builds


def test_unusable_replies_for_the_first_program_start_the_search_again(
    scripted_server, make_client, tracer, sandbox
) -> None:
    from tests.agents.support.scripted_server import Reply

    pool = dial_pool()
    unusable = iter([Reply("I would rather talk about it.")] * 3)  # the first ask and its two re-asks

    def answer(body):  # type: ignore[no-untyped-def]
        return next(unusable, None) or pool.answer(body)

    server = scripted_server(default=answer)
    result = solve(
        dial_problem(), strategy="ale", language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        budget=Budget(max_calls=6), options={"folder": str(DIAL), "seeds": 3, "repeats": 1, "width": 2},
    )  # fmt: skip
    assert result.solution is not None and pool.quality_of(result.solution.source) is not None
    assert len(tracer.of_kind(ScoreEvent)) == 3  # the first program, then one round of two


def test_under_relative_scoring_versions_rank_by_their_scores_relative_to_the_best_per_seed() -> None:
    from cpbot.agents.envelopes import CodeAttempt
    from cpbot.agents.strategies.ale import Version, VersionTree
    from cpbot.judge.model import HeuristicSpec
    from cpbot.judge.scoring import ScoreReport, SeedScore

    def report(*scores: float) -> ScoreReport:
        seeds = [SeedScore(seed=i, score=x, verdict=Verdict.AC) for i, x in enumerate(scores)]
        return ScoreReport(verdict=Verdict.AC, seeds=seeds)

    # A has the larger mean (one huge seed); B is best on two of the three seeds
    a, b = report(100, 10, 10), report(50, 20, 20)
    attempt = CodeAttempt(language="python3", source="print(1)\n")
    for scoring, leader in (("absolute", a), ("relative", b)):
        tree = VersionTree(HeuristicSpec(scoring=scoring, generator="g", scorer="s"))  # type: ignore[arg-type]
        tree.versions += [Version(1, None, "a", attempt, a), Version(2, None, "b", attempt, b)]
        assert tree.ordered()[0].report is leader
        assert tree.better(leader, b if leader is a else a)


def test_the_leader_is_kept_on_disk_whenever_it_changes(  # type: ignore[no-untyped-def]
    scripted_server, make_client, tracer, sandbox, tmp_path
) -> None:
    pool = dial_pool()
    best_file = tmp_path / "contest" / "best.py"
    kept: list[str] = []
    real_emit = tracer.emit

    def emit(event):  # type: ignore[no-untyped-def]
        real_emit(event)
        if isinstance(event, ScoreEvent) and event.best:  # the file already holds the new leader
            kept.append(best_file.read_text())

    tracer.emit = emit
    result = run_ale(scripted_server, make_client, tracer, sandbox, pool, calls=9, best_file=str(best_file))
    assert result.solution is not None and best_file.read_text() == result.solution.source
    qualities = [pool.quality_of(source) for source in kept]
    assert len(kept) >= 2 and qualities[0] == pool.programs[0].quality
    assert all(a < b for a, b in itertools.pairwise(qualities))  # type: ignore[operator]
    assert not list(best_file.parent.glob(".*partial"))  # nothing half written left behind


@pytest.mark.parametrize(("kept_source", "first_asked"), [("input()\nprint(300)\n", False), ("print(\n", True)])
def test_a_kept_program_is_scored_again_and_the_search_starts_from_it(  # type: ignore[no-untyped-def]
    scripted_server, make_client, tracer, sandbox, tmp_path, kept_source: str, first_asked: bool
) -> None:
    """`start_from` (a restarted watch): the kept program is the first version, scored on the same seeds, and no
    first program is asked for; one that no longer scores (here it does not even parse) is replaced by one."""
    kept = tmp_path / "best.py"
    kept.write_text(kept_source)
    pool = dial_pool()
    requests: list[str] = []
    server = scripted_server(
        default=lambda body: (requests.append(request_kind("\n".join(m["content"] for m in body["messages"]))),
                              pool.answer(body))[1]
    )  # fmt: skip
    result = solve(
        dial_problem(), strategy="ale", language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        budget=Budget(max_calls=5), options={"folder": str(DIAL), "seeds": 4, "repeats": 1, "start_from": str(kept)},
    )  # fmt: skip
    first = tracer.of_kind(ScoreEvent)[0]
    assert first.idea == KEPT_IDEA and [s.seed for s in first.report.seeds] == (
        default_seeds(dial_problem().heuristic, 4) if not first_asked else []  # type: ignore[arg-type]
    )
    assert ("first" in requests) is first_asked
    assert result.solution is not None
    if not first_asked:  # the kept dial (300) beats everything the pool serves within these calls
        assert result.solution.source == kept_source
