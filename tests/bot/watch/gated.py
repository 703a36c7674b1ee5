"""A simulated round for the default gate (samples + generated tests + stress + profile): two recorded
problems, and a scripted model that plays the coder, the test designer and the complexity analyst of
the default `cpbot` strategy (each role has its own model name, so the script can tell them apart).

Round Down the Price (A): the first program passes the samples and the designed tests but is wrong
when m is a power of ten, which only the stress run finds; the coder fixes it once the gate's refusal
is in the notes. X Axis (B): right at once.
"""

from __future__ import annotations

import json
from typing import Any

from tests.agents.support.scripted_server import Reply
from tests.bot.watch.support import RIGHT_A
from tests.fakes import FakeSite, cf_problem

CONTEST = 2001
# every role of the strategy gets its own model name: CPBOT_MODEL_<ROLE>=<role>
ROLE_MODELS = {"CPBOT_MODEL_TESTGEN": "testgen", "CPBOT_MODEL_ANALYST": "analyst", "CPBOT_MODEL_CHECKER": "checker"}
# the strategy kept small: no repair inside a solve (the gate has to catch the bug), a tiny profile
OPTIONS = (
    "debugs=0", "plans=0", "max_n=24", "repeats=1", "count=false",
    "stress_runs=12", "stress_size=4", "stress_seconds=20",
    "candidates=1", "brutes=1",  # one program and one brute force a solve: the gate's story is about them
)  # fmt: skip

# m - 10^(digits of m-1): the same as the right answer except when m is 10, 100, 1000, ...
WRONG_A = "t = int(input())\nfor _ in range(t):\n    m = int(input())\n    print(m - 10 ** (len(str(m - 1)) - 1))\n"
BRUTE_A = (
    "t = int(input())\nfor _ in range(t):\n    m = int(input())\n    p = 1\n    while p * 10 <= m:\n"
    "        p *= 10\n    print(m - p)\n"
)
GEN_A = (
    "import random, sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nrandom.seed(seed)\nprint(n)\n"
    "for _ in range(n):\n    print(random.choice([1, 7, 10, 20, 100, 999, 1000, 12345]))\n"
)
INPUTS_A = ("3\n5\n55\n555\n", "2\n999\n123456789\n")

RIGHT_B = "t = int(input())\nfor _ in range(t):\n    x = list(map(int, input().split()))\n    print(max(x) - min(x))\n"
BRUTE_B = (
    "t = int(input())\nfor _ in range(t):\n    x = list(map(int, input().split()))\n"
    "    print(min(sum(abs(a - v) for v in x) for a in range(1, 11)))\n"
)
GEN_B = (
    "import random, sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nrandom.seed(seed)\nprint(n)\n"
    "for _ in range(n):\n    print(*(random.randint(1, 10) for _ in range(3)))\n"
)
INPUTS_B = ("2\n4 4 9\n10 10 10\n", "1\n3 7 5\n")

GATE_NOTE = "failed cpbot's local checks"  # what the loop writes into the notes after a refusal


def gated_site(start_in_s: float = -60) -> FakeSite:
    """A fake Codeforces round with A = 1702A and B = 1986A; verdicts come back at once."""
    site = FakeSite()
    site.queued_polls = 0
    site.testing_polls = 0
    site.add_cf_contest(
        CONTEST,
        "cpbot Gate Round",
        start_in_s=start_in_s,
        problems=[
            cf_problem("cf_1702A_modern_single_line_cases", "A"),
            cf_problem("cf_1986A_modern_bis_skin_checked_junk", "B"),
        ],
    )
    return site


def _suite(inputs: tuple[str, ...], generator: str, brute: str) -> str:
    blocks = "\n".join(f"```text\n{text}```" for text in inputs)
    return f"## Inputs\n{blocks}\n\n## Generator\n```python\n{generator}```\n\n## Brute force\n```python\n{brute}```\n"


def model_answer(body: dict[str, Any]) -> Reply:
    """The reply of whichever role is asked, for whichever problem the prompt is about."""
    prompt = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
    role = body.get("model")
    if "Round Down the Price" in prompt:
        problem = "A"
    elif "X Axis" in prompt:
        problem = "B"
    else:
        return Reply("I do not know this problem.")
    if role == "testgen":
        text = _suite(INPUTS_A, GEN_A, BRUTE_A) if problem == "A" else _suite(INPUTS_B, GEN_B, BRUTE_B)
        return Reply(text, prompt_tokens=300, completion_tokens=120)
    if role == "analyst":
        return Reply(json.dumps({"complexity": "O(n)"}))
    if role != "m":
        return Reply(f"the script has no answer for the {role} role")
    source = RIGHT_B if problem == "B" else RIGHT_A if GATE_NOTE in prompt else WRONG_A
    return Reply(f"```python\n{source}```", prompt_tokens=200, completion_tokens=50)
