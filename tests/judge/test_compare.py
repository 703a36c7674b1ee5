"""The paired comparison of two programs' scores on the same seeds."""

from __future__ import annotations

import random

import pytest

from cpbot.judge.compare import compare_paired, mean, stdev, t975


def test_t_quantiles_match_the_table_and_approach_the_normal() -> None:
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert t975(40) == pytest.approx(2.021, abs=1e-3)
    assert t975(120) == pytest.approx(1.980, abs=1e-3)
    assert t975(10**6) == pytest.approx(1.960, abs=1e-3)


def test_mean_and_sample_spread() -> None:
    assert mean([1, 2, 3, 4]) == 2.5
    assert stdev([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.138, abs=1e-3)
    assert stdev([5]) == 0.0 and mean([]) == 0.0


def scores_of(program_quality: float, seeds: range) -> list[float]:
    """Deterministic per seed: an input's difficulty spreads scores far more than the programs differ."""
    return [program_quality * random.Random(seed).uniform(1_000, 100_000) for seed in seeds]


def test_a_one_percent_better_program_is_picked_on_fifty_seeds() -> None:
    seeds = range(50)
    # the inputs spread the scores by a factor of 100; the better program is 1% better on each, give or take
    a = [s * (1 + 0.003 * random.Random(1000 + i).uniform(-1, 1)) for i, s in enumerate(scores_of(1.0, seeds))]
    b = scores_of(1.01, seeds)
    assert mean(b) / mean(a) == pytest.approx(1.01, abs=0.002)
    result = compare_paired(b, a)
    assert result.better == "a" and result.ci_low > 0  # "a" is the first argument: b's scores
    assert compare_paired(a, b).better == "b"
    # unpaired, the same data could not tell them apart: the inputs' spread swamps 1%
    assert abs(mean(b) - mean(a)) < stdev(a) / 50**0.5


def test_where_smaller_is_better_the_lower_scores_win() -> None:
    a, b = [10.0, 20.0, 30.0, 40.0], [11.0, 22.0, 33.0, 44.0]
    result = compare_paired(a, b, objective="minimize")
    assert result.better == "a" and result.mean_diff > 0


def test_equal_programs_tie() -> None:
    a = [float(i % 7) for i in range(40)]
    b = [x + (0.5 if i % 2 else -0.5) for i, x in enumerate(a)]
    assert compare_paired(a, b).better == "tie"


def test_scores_of_different_seeds_are_refused() -> None:
    with pytest.raises(ValueError, match="same seeds"):
        compare_paired([1.0, 2.0], [1.0])
