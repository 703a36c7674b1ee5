"""A recorded contest to export: two problems solved for real by the agents (scripted model, real judge),
plus the gate, submission, remote-verdict and contest-state events the watch and submit side append.

1873A goes through `macs` with one planning cycle: a wrong fast program, a plan, a wrong planned
program, and the wrong-answer debugger's right one (three attempts). 1873B is `direct` with a program
that passes the samples but is linear in a value up to 10^9, so its profile is too slow for the gate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.solve import solve
from cpbot.agents.tracing import ReportEvent
from cpbot.bot.store.transcripts import DB_NAME, TranscriptStore
from cpbot.judge.model import Limits, Problem, ProfilePoint, ProfileReport, TestCase
from tests.agents.support.scripted_server import Reply, ScriptedServer

WRONG = "a, b = map(int, input().split())\nprint(a - b)\n"
WRONG_PLANNED = "a, b = map(int, input().split())\nprint(a * b)\n"
PLAN = {"algorithm": "add the two numbers", "steps": ["read a and b", "print a + b"], "complexity": "O(1)"}
RIGHT = "a, b = map(int, input().split())\nprint(a + b)\n"
SLOW = "a, b = map(int, input().split())\ns = 0\nfor _ in range(a):\n    s += 1\nprint(s + b)\n"
HOSTILE = '<script>alert("statement")</script></pre><img src="https://evil.example/x.png">'
SECRET = "sk-export-planted-0123456789abcdef"


@dataclass(frozen=True)
class Contest:
    path: Path
    contest: str
    sum_run: str
    slow_run: str
    empty_run: str
    profile: ProfileReport


def sum_problem(problem_id: str, statement: str) -> Problem:
    return Problem(
        id=problem_id,
        title="Sum",
        statement=statement,
        limits=Limits(time_ms=1000, memory_mb=256),
        samples=[TestCase(input="1 2\n", output="3\n"), TestCase(input="10 20\n", output="30\n")],
    )


def reply(source: str, prompt: int, completion: int, words: str = "Here it is.") -> Reply:
    return Reply(f"{words}\n```python\n{source}```\n", prompt_tokens=prompt, completion_tokens=completion)


def linear_profile() -> ProfileReport:
    sizes = [1000, 2000, 4000, 8000, 16000, 32000, 64000]
    points = [ProfilePoint(size=n, cpu_ms=2.0 + n * 0.05, peak_kb=9000 + n // 100) for n in sizes]
    points.append(ProfilePoint(size=128000, cpu_ms=1500.0, peak_kb=10500, status="tle"))
    return ProfileReport(
        points=points, complexity="O(n)", slope=1.0, r2=0.998, predicted_ms_at_max=50002.0, efficient=False,
        reason="O(n) in a, up to 10^9: about 50 s at the largest input",
    )  # fmt: skip


@pytest.fixture(scope="session")
def contest(tmp_path_factory: pytest.TempPathFactory, sandbox) -> Contest:
    path = tmp_path_factory.mktemp("export") / DB_NAME
    replies = [
        reply(WRONG, 300, 40, words=f'<img src=x onerror="alert(1)"> my key is {SECRET}'),
        Reply(json.dumps(PLAN), prompt_tokens=120, completion_tokens=60),
        reply(WRONG_PLANNED, 400, 50),
        reply(RIGHT, 500, 45),
        reply(SLOW, 200, 30),
    ]
    with ScriptedServer(replies) as server, TranscriptStore(path, secrets=[SECRET]) as store:
        config = LLMConfig(base_url=server.base_url, api_key=SECRET, model="scripted-model")
        contest_id = store.start_run("contest", problem_id="codeforces:1873", config={"contest_id": "1873"})
        store.append(contest_id, "contest_state", {"contest_id": "1873", "state": "fetching", "detail": "2 problems"})
        with LLMClient(config) as client:
            sum_run = store.start_run("solve", problem_id="codeforces:1873A", strategy="macs", parent=contest_id)
            result = solve(
                sum_problem("codeforces:1873A", "Print the sum of $a$ and $b$.\n\n" + HOSTILE),
                strategy="macs", language="python3", model=client, tracer=store.tracer(sum_run), sandbox=sandbox,
                options={"plans": 1, "debugs": 2},
            )  # fmt: skip
            assert result.status == "unverified"  # macs tests on the samples only
            store.append(
                sum_run,
                "gate",
                {"problem_id": "codeforces:1873A", "language": "python3", "source_sha256": "ab" * 32,
                 "allowed": True, "reasons": [],
                 "checks": [{"name": "samples", "required": True, "passed": True, "detail": "AC 2/2"}],
                 "summary": {"samples": "AC on 2 of 2", "profile": "O(1), 0 ms at the largest n"}},
            )  # fmt: skip
            store.append(
                sum_run,
                "submission",
                {"submission_id": "240001", "problem_id": "codeforces:1873A", "language": "python3",
                 "source_sha256": "ab" * 32, "url": "https://codeforces.com/contest/1873/submission/240001"},
            )  # fmt: skip
            for final, verdict, text in ((False, None, "TESTING"), (True, "AC", "OK")):
                store.append(
                    contest_id,  # the watch loop may log verdicts in the contest run; problem_id says whose
                    "remote_verdict",
                    {"site": "codeforces", "submission_id": "240001", "problem_id": "codeforces:1873A",
                     "verdict": verdict, "final": final, "status_text": text, "failed_test": None,
                     "time_ms": 46, "memory_kb": 100},
                )  # fmt: skip
            store.finish_run(sum_run, result.status, reason=result.reason)

            slow_run = store.start_run("solve", problem_id="codeforces:1873B", strategy="direct", parent=contest_id)
            tracer = store.tracer(slow_run)
            slow = solve(
                sum_problem("codeforces:1873B", "Print the sum again, for $a$ up to $10^9$."),
                strategy="direct", language="python3", model=client, tracer=tracer, sandbox=sandbox,
            )  # fmt: skip
            assert slow.report is not None
            code_iterations = [
                e.payload["envelope"]["header"]["iteration"]
                for e in store.events(slow_run)
                if e.kind == "envelope" and e.payload["envelope"]["header"]["type"] == "code"
            ]
            profile = linear_profile()  # what the profiler measures of SLOW, without spending seconds on it
            tracer.emit(ReportEvent.of(profile, task_id="codeforces:1873B", iteration=code_iterations[-1]))
            store.append(
                slow_run,
                "gate",
                {"allowed": False,
                 "reasons": ["the profile predicts 50002 ms at the largest n, over the 1000 ms limit"],
                 "evidence": {"profile": "O(n), r2 0.998", "samples": "AC 2/2"}},
            )  # fmt: skip
            store.append(slow_run, "mystery_event", {"what": "<b>unknown</b> kind", "n": 3})
            store.finish_run(slow_run, "best_effort", reason="the gate refused: too slow")
        empty_run = store.start_run("solve", problem_id="codeforces:1873C", parent=contest_id)
        store.finish_run(empty_run, "failed", reason="the problem page was never published")
        store.append(contest_id, "contest_state", {"contest_id": "1873", "state": "finished", "detail": "1 accepted"})
        store.finish_run(contest_id, "finished", reason="1 of 3 accepted")
    return Contest(path, contest_id, sum_run, slow_run, empty_run, profile)
