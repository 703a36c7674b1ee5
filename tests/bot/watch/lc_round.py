"""A simulated LeetCode weekly contest for the watch tests: two recorded function problems on the fake
site, a scripted model that writes `class Solution` answers (Decode Ways wrong at first, in a way only
the site's judge sees), and a cookies.txt holding the fake LeetCode session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.agents.support.scripted_server import Reply
from tests.fakes import FakeSite, lc_question

CONTEST = "weekly-contest-990"
DECODE = "decode-ways"
ATOI = "string-to-integer-atoi"

RIGHT_DECODE = (
    "class Solution:\n    def numDecodings(self, s: str) -> int:\n        prev, cur = 1, int(s[0] != '0')\n"
    "        for i in range(1, len(s)):\n            nxt = cur if s[i] != '0' else 0\n"
    "            if s[i - 1] == '1' or (s[i - 1] == '2' and s[i] <= '6'):\n                nxt += prev\n"
    "            prev, cur = cur, nxt\n        return cur\n"
)
# passes the examples; the fake judge answers Wrong Answer on test 3 because of the marker
MARKED_DECODE = "# FAKE:WA:3\n" + RIGHT_DECODE
RIGHT_ATOI = (
    "class Solution:\n    def myAtoi(self, s: str) -> int:\n        s = s.lstrip(' ')\n        sign = 1\n"
    "        if s[:1] in ('+', '-'):\n            sign = -1 if s[0] == '-' else 1\n            s = s[1:]\n"
    "        n = 0\n        for c in s:\n            if not '0' <= c <= '9':\n                break\n"
    "            n = n * 10 + int(c)\n        return max(-(2**31), min(2**31 - 1, sign * n))\n"
)
FEEDBACK = "the judge answered WA"  # what the loop writes into the notes after a wrong remote verdict


def lc_site(start_in_s: float, *, duration_s: int = 5400) -> FakeSite:
    """A fake LeetCode with one weekly contest starting in `start_in_s` seconds; verdicts after one
    PENDING and one STARTED answer of the check endpoint."""
    site = FakeSite()
    site.add_lc_contest(
        CONTEST,
        "Weekly Contest 990",
        start_in_s=start_in_s,
        duration_s=duration_s,
        questions=[lc_question("lc_decode-ways_example_block"), lc_question("lc_string-to-integer-atoi_example_block")],
    )
    return site


def model_answer(body: dict[str, Any]) -> Reply:
    """The coder's reply for whichever problem the prompt is about."""
    prompt = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
    if "numDecodings" in prompt:
        source = RIGHT_DECODE if FEEDBACK in prompt else MARKED_DECODE
    elif "myAtoi" in prompt:
        source = RIGHT_ATOI
    else:
        return Reply("I do not know this problem.")
    return Reply(f"```python\n{source}```", prompt_tokens=150, completion_tokens=60)


def lc_cookies_txt(path: Path, site: FakeSite) -> Path:
    """A Netscape cookies.txt with the fake LeetCode session and csrf token."""
    rows = [
        f".leetcode.com\tTRUE\t/\tTRUE\t4102444800\t{name}\t{value}"
        for name, value in (("LEETCODE_SESSION", site.lc_session), ("csrftoken", site.lc_csrf))
    ]
    path.write_text("# Netscape HTTP Cookie File\n" + "\n".join(rows) + "\n", encoding="utf-8")
    path.chmod(0o600)  # a session's cookies: cpbot refuses a file others can read
    return path
