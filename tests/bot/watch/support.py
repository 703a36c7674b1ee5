"""A simulated contest for the watch tests: a fake Codeforces round on 127.0.0.1 with three recorded
problems, a scripted model that knows their answers (one wrong at first, in a way only the site's
judge sees), and a cookies.txt holding the fake site's session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.agents.support.scripted_server import Reply
from tests.fakes import FakeSite, cf_problem

CONTEST = 1999
API_KEY = "sk-watch-test-secret-key"

# Round Down the Price (1702A), Candies (1810B), Vlad and a Sum of Sum of Digits (1926C)
RIGHT_A = "t = int(input())\nfor _ in range(t):\n    m = int(input())\n    print(m - 10 ** (len(str(m)) - 1))\n"
RIGHT_B = (
    "t = int(input())\nfor _ in range(t):\n    n = int(input())\n    if n % 2 == 0:\n        print(-1)\n"
    "        continue\n    ops = []\n    while n > 1:\n        if (n + 1) // 2 % 2 == 1:\n            ops.append(1)\n"
    "            n = (n + 1) // 2\n        else:\n            ops.append(2)\n            n = (n - 1) // 2\n"
    "    print(len(ops))\n    print(*reversed(ops))\n"
)
# passes the samples; the fake judge answers WRONG_ANSWER on test 2 because of the marker
MARKED_B = "# FAKE:WA:2\n" + RIGHT_B
RIGHT_C = (
    "import sys\nN = 200001\ns = [0] * N\nfor i in range(1, N):\n    s[i] = s[i - 1] + sum(map(int, str(i)))\n"
    "data = sys.stdin.read().split()\nprint('\\n'.join(str(s[int(x)]) for x in data[1:]))\n"
)


def contest_site(start_in_s: float, *, duration_s: int = 7200) -> FakeSite:
    """A fake Codeforces with one round starting in `start_in_s` seconds; no verdict waits."""
    site = FakeSite()
    site.queued_polls = 0
    site.testing_polls = 0
    site.add_cf_contest(
        CONTEST,
        "cpbot Test Round",
        start_in_s=start_in_s,
        duration_s=duration_s,
        problems=[
            cf_problem("cf_1702A_modern_single_line_cases", "A"),
            cf_problem("cf_1810B_modern_trailing_spaces_output", "B"),
            cf_problem("cf_1926C_modern_0.5s_display_math", "C"),
        ],
    )
    return site


def model_answer(body: dict[str, Any]) -> Reply:
    """The coder's reply for whichever problem the prompt is about; Candies is wrong until the site's
    verdict comes back in the notes."""
    prompt = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
    if "You are the checker writer" in prompt:  # Candies accepts any answer and has no checker: none is written
        return Reply("I cannot write a checker for this.", prompt_tokens=20, completion_tokens=5)
    if "Round Down the Price" in prompt:
        source = RIGHT_A
    elif "Candies" in prompt:
        source = RIGHT_B if "answered WA on test 2" in prompt else MARKED_B
    elif "Sum of Sum of Digits" in prompt:
        source = RIGHT_C
    else:
        return Reply("I do not know this problem.")
    return Reply(f"```python\n{source}```", prompt_tokens=200, completion_tokens=50)


def cookies_txt(path: Path, site: FakeSite) -> Path:
    """A Netscape cookies.txt with the fake Codeforces session."""
    path.write_text(
        f"# Netscape HTTP Cookie File\n.codeforces.com\tTRUE\t/\tFALSE\t4102444800\tJSESSIONID\t{site.cf_session}\n",
        encoding="utf-8",
    )
    path.chmod(0o600)  # a session's cookies: cpbot refuses a file others can read
    return path
