"""The full Kick Start set (an optional dataset outside the repository) opens as a bench dataset.

Skipped, with a message naming the dataset and its source, unless `$CPBOT_DATASETS/kickstart/` exists.
"""

from __future__ import annotations

import filecmp

from cpbot.bot.bench.datasets import open_dataset
from tests.paths import KICKSTART_SUBSET, optional_dataset


def test_every_problem_of_the_full_set_has_samples_and_hidden_sets_of_case_answers() -> None:
    dataset = open_dataset(str(optional_dataset("kickstart")))
    assert dataset.kind == "kickstart"
    keys = dataset.problem_keys()
    assert len(keys) == 40
    difficulties = []
    for key in keys:
        problem = dataset.load(key)
        assert problem.problem.samples, key
        assert problem.hidden, key
        # every Kick Start answer is a run of `Case #i:` lines, so cases are counted per hidden set
        assert problem.case_format == "case_lines", key
        assert min(problem.case_counts) >= 1, key
        difficulties.append(problem.problem.difficulty)
    assert {d: difficulties.count(d) for d in set(difficulties)} == {"easy": 15, "medium": 15, "hard": 10}


def test_the_problems_kept_in_the_repository_are_unchanged_copies_from_the_full_set() -> None:
    full = optional_dataset("kickstart")
    kept = sorted(d.name for d in KICKSTART_SUBSET.iterdir() if d.is_dir())
    assert kept
    for key in kept:
        comparison = filecmp.dircmp(KICKSTART_SUBSET / key, full / key)
        assert not comparison.diff_files and not comparison.left_only, key
        for sub in comparison.subdirs.values():
            assert not sub.diff_files and not sub.left_only, key
