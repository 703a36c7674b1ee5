"""A simulated AtCoder Beginner Contest for the end-to-end tests: the fake AtCoder with two recorded tasks
(abc300_a "N-choice question", abc117_a "Entrance Examination", whose answer is a float) and a scripted
model that knows their answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.agents.support.scripted_server import Reply
from tests.fakes import FakeSite, FakeSiteServer
from tests.fakes.atcoder import FakeAtCoder

CONTEST = "abc300"
API_KEY = "sk-atcoder-test-secret-key"
RIGHT_A = "n, a, b = map(int, input().split())\nc = list(map(int, input().split()))\nprint(c.index(a + b) + 1)\n"
RIGHT_B = "t, x = map(int, input().split())\nprint(t / x)\n"


def abc_site(start_in_s: float, *, duration_s: int = 6000) -> FakeAtCoder:
    """A fake AtCoder with ABC 300 (tasks A: 100 points, B: 200 points) starting in `start_in_s` seconds."""
    site = FakeAtCoder()
    site.judging_polls = 0
    site.add_contest(
        CONTEST,
        "AtCoder Beginner Contest 300",
        start_in_s=start_in_s,
        duration_s=duration_s,
        tasks=[("A", "abc300_a", 100), ("B", "abc117_a", 200)],
    )
    return site


def served(atcoder: FakeAtCoder) -> FakeSiteServer:
    """The shared fake-site server with `atcoder` as its AtCoder (use as a context manager)."""
    site = FakeSite(atcoder.clock)
    site.atcoder = atcoder
    return FakeSiteServer(site)


def model_answer(body: dict[str, Any]) -> Reply:
    """The coder's reply for whichever task the prompt is about."""
    prompt = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
    source = RIGHT_A if "N-choice" in prompt else RIGHT_B
    return Reply(f"```python\n{source}```", prompt_tokens=300, completion_tokens=40)


def cookies_txt(path: Path, site: FakeAtCoder) -> Path:
    """A Netscape cookies.txt with the fake AtCoder session (0600: cpbot refuses a file others can read)."""
    path.write_text(site.cookies_txt(), encoding="utf-8")
    path.chmod(0o600)
    return path
