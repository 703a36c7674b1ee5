"""Reproducible draws: a request's seed depends on what it is and where it stands, not on when it arrives; the
population model answers a seeded request by the request, so the same requests get the same programs in any
order."""

from __future__ import annotations

from pathlib import Path

from cpbot.agents import seeding
from cpbot.agents.parallel import gather
from cpbot.testing.population_server import PopulationModel, load_lab
from tests.agents.test_population_server import write_lab

CODER = [{"role": "system", "content": "You are the coder of a team."}, {"role": "user", "content": "# Sum\n"}]


def seeds_of_a_draw() -> list[int]:
    """The seeds of four identical requests made at once (in threads, arriving in any order), by place."""
    with seeding.one_solve():
        return gather([lambda: seeding.request_seed(7, "local:sum", "coder", CODER)] * 4)  # type: ignore[return-value]


def test_concurrent_identical_requests_get_different_seeds_set_by_their_place() -> None:
    first = seeds_of_a_draw()
    assert len(set(first)) == 4
    # the same calls get the same seeds however their threads are scheduled
    assert all(seeds_of_a_draw() == first for _ in range(5))


def test_a_repeated_request_gets_a_new_seed_and_another_solve_starts_again() -> None:
    with seeding.one_solve():
        one = [seeding.request_seed(7, "local:sum", "coder", CODER) for _ in range(3)]
    with seeding.one_solve():
        again = [seeding.request_seed(7, "local:sum", "coder", CODER) for _ in range(3)]
    assert len(set(one)) == 3 and one == again
    with seeding.one_solve():
        assert seeding.request_seed(8, "local:sum", "coder", CODER) != one[0]  # another configured seed
        assert seeding.request_seed(7, "local:other", "coder", CODER) != one[0]  # another problem
    with seeding.one_solve(), seeding.at(1):
        assert seeding.request_seed(7, "local:sum", "coder", CODER) != one[0]  # another sample of the bench


def test_the_population_answers_a_seeded_request_by_the_request_whatever_the_order(tmp_path: Path) -> None:
    populations = load_lab(write_lab(tmp_path))
    bodies = [{"messages": [*CODER, {"role": "user", "content": "```python"}], "seed": s} for s in range(12)]

    def programs(order: list[int]) -> dict[int, str]:
        model = PopulationModel(populations, pass_at_1=0.5, seed=1)
        return {i: str(model(bodies[i]).text) for i in order}  # type: ignore[union-attr]

    forward = programs(list(range(12)))
    assert programs(list(reversed(range(12)))) == forward
    assert len(set(forward.values())) > 1  # the seeds draw different programs
