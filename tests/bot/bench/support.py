"""The bench tests' world: a few real dataset problems, and a scripted model that answers by problem title.

The script (the same for every strategy; a retry prompt is told apart by its wording):

- Bike Tour (Kick Start): a program that only looks at the first four checkpoints, so it is right on
  the samples and on test set 1 (N <= 5) and wrong on some cases of set 2.
- Retype (Kick Start): a wrong program (prints -1, never an answer); when asked again, a right one.
- Stone Removal Game (LeetCode): the dataset's reference solution.
- Find The K Th Character In String Game I (LeetCode): right for k <= 100, "a" above, so right on the
  examples and on some hidden cases.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from cpbot.judge.harness.dataset import iter_rows
from tests.agents.support.scripted_server import Reply
from tests.paths import KICKSTART_SUBSET as KICKSTART
from tests.paths import LEETCODE_DATASET as LEETCODE

KS_KEYS = ["2020_round_b_bike_tour", "2020_round_h_retype"]
LC_KEYS = ["stone-removal-game", "find-the-k-th-character-in-string-game-i"]
# recorded cases kept per LeetCode problem: few, so judging stays quick; unequal, so CPR and wCPR differ
LC_CASES = {"stone-removal-game": 12, "find-the-k-th-character-in-string-game-i": 24}

BIKE_PARTIAL = """t = int(input())
for case in range(1, t + 1):
    n = int(input())
    h = list(map(int, input().split()))
    peaks = sum(1 for i in range(1, min(n - 1, 4)) if h[i] > h[i - 1] and h[i] > h[i + 1])
    print(f"Case #{case}: {peaks}")
"""
RETYPE_WRONG = """t = int(input())
for case in range(1, t + 1):
    input()
    print(f"Case #{case}: -1")
"""
RETYPE_RIGHT = """t = int(input())
for case in range(1, t + 1):
    n, k, s = map(int, input().split())
    print(f"Case #{case}: {k - 1 + min(n + 1, k - s + n - s + 1)}")
"""
KTH_PARTIAL = """class Solution:
    def kthCharacter(self, k: int) -> str:
        if k > 100:
            return "a"
        word = [0]
        while len(word) < k:
            word += [(c + 1) % 26 for c in word]
        return chr(ord("a") + word[k - 1])
"""
RETRY_MARK = "Reconsider the task"  # nala's second generation prompt


def make_kickstart(root: Path) -> Path:
    """A Kick Start dataset folder holding the two scripted problems (links to the real ones)."""
    root.mkdir(parents=True, exist_ok=True)
    for key in KS_KEYS:
        (root / key).symlink_to(KICKSTART / key, target_is_directory=True)
    return root


def make_leetcode(path: Path) -> Path:
    """A LeetCodeDataset file with the two scripted problems, cut to their first recorded cases."""
    rows = {row["task_id"]: row for row in iter_rows(LEETCODE) if row["task_id"] in LC_KEYS}
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for key in LC_KEYS:
            row = dict(rows[key])
            row["input_output"] = row["input_output"][: LC_CASES[key]]
            f.write(json.dumps(row) + "\n")
    return path


def reference(task_id: str) -> str:
    """The dataset's own solution of a LeetCode problem (read at test time, never kept in the project)."""
    return next(row["completion"] for row in iter_rows(LEETCODE) if row["task_id"] == task_id)


def _program(source: str, language: str = "python") -> Reply:
    return Reply(f"Here is the program.\n```{language}\n{source}```\n", prompt_tokens=100, completion_tokens=40)


def prompt_text(body: dict[str, Any]) -> str:
    """Every message of a chat request as one text."""
    return "\n".join(str(m.get("content") or "") for m in body.get("messages", []))


class Script:
    """The scripted model: a callable step for `ScriptedServer(default=...)`."""

    def __init__(self) -> None:
        self.stone = reference("stone-removal-game")

    def __call__(self, body: dict[str, Any]) -> Reply:
        text = prompt_text(body)
        if "# Bike Tour" in text:
            return _program(BIKE_PARTIAL)
        if "# Retype" in text:
            return _program(RETYPE_RIGHT if RETRY_MARK in text else RETYPE_WRONG)
        if "# Stone Removal Game" in text:
            return _program(self.stone)
        if "# Find The K Th Character" in text:
            return _program(KTH_PARTIAL)
        return Reply("I do not know this problem.")
