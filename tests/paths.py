"""Where the tests' recorded data lives.

Everything the default run needs is inside the repository, under `tests/fixtures/` (recorded pages,
API answers, and the small datasets; provenance in the README/SOURCES files there). Large optional
datasets stay outside: `optional_dataset` finds them under `$CPBOT_DATASETS` and otherwise skips the
test with a message naming what is missing and where to get it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cpbot.judge.harness.dataset import dataset_path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
CODEFORCES_PAGES = FIXTURES / "codeforces"
LEETCODE_ANSWERS = FIXTURES / "leetcode"
DATASETS = FIXTURES / "datasets"
HEURISTIC = FIXTURES / "heuristic"  # score-based problems in AHC's form: generator, scorer, statement
KICKSTART_SUBSET = DATASETS / "kickstart"  # the two Kick Start problems the bench tests script
LEETCODE_DATASET = dataset_path(DATASETS)

DATASETS_ENV = "CPBOT_DATASETS"

# name -> (what it is, where to get it)
OPTIONAL_DATASETS = {
    "kickstart": (
        "the 40-problem Kick Start set (statements, samples and official hidden tests, 19 MB)",
        "google/coding-competitions-archive (Apache-2.0), packaged as tests/fixtures/datasets/kickstart/README.md "
        "describes; put it at $CPBOT_DATASETS/kickstart/",
    ),
}


def optional_dataset(name: str) -> Path:
    """`$CPBOT_DATASETS/<name>`, or skip the test saying what is missing and where to get it."""
    what, source = OPTIONAL_DATASETS[name]
    root = os.environ.get(DATASETS_ENV)
    if not root:
        pytest.skip(f"optional dataset {name!r} ({what}) not configured: set {DATASETS_ENV}; source: {source}")
    path = Path(root).expanduser() / name
    if not path.is_dir():
        pytest.skip(f"optional dataset {name!r} ({what}) not found at {path}; source: {source}")
    return path
