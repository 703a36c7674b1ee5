"""A recorded contest cpbot took part in only in the shadow: two problems with their attempts, the times it
would have submitted during the round, practice submissions after the end with the site's verdicts, and
the standing the watch computed (as the contest loop appends them)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cpbot.agents.envelopes import CodeAttempt, Envelope, Task
from cpbot.agents.tracing import EnvelopeEvent, ReportEvent
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.standing import ProblemScore, Standing
from cpbot.judge.model import Diff, JudgeReport, TestResult, Verdict
from cpbot.scrapers.ranklist import Scoring

CPP_WRONG = (
    '#include <cstdio>\nint main() {\n    long long a, b;\n    scanf("%lld %lld", &a, &b);\n'
    '    printf("%lld\\n", a - b);\n}\n'
)
CPP_RIGHT = CPP_WRONG.replace("a - b", "a + b")
PY_SLOW = "n = int(input())\nprint(sum(i for i in range(n)))\n"
A_AT_S = 42 * 60 + 13  # the shadow submission of A, 00:42:13 into the round
B_AT_S = 1 * 3600 + 5 * 60 + 7


def standing() -> Standing:
    return Standing(
        scoring=Scoring.POINTS,
        problems=[
            ProblemScore(index="A", solved=True, time_s=A_AT_S, rejected=0, points=437.0),
            ProblemScore(index="B", solved=False, rejected=1, note="every shadow submission was rejected"),
        ],
        points=437.0,
        penalty=0.0,
        rank=5123,
        participants=20411,
        percentile=74.9,
        performance=1412,
        performance_note="from the 18,902 rated participants' ratings before the round",
        assumptions=[
            "a practice verdict is the verdict the shadow submission would have had",
            "the standings are the final ones, after system tests",
        ],
    )


@dataclass(frozen=True)
class ShadowContest:
    contest: str
    a_run: str
    b_run: str


def _judge(verdict: Verdict, *, got: str = "", expected: str = "", stderr: str = "") -> JudgeReport:
    diff = Diff(line=1, token=1, expected=expected, got=got) if got else None
    result = TestResult(index=1, name="sample-1", verdict=verdict, diff=diff, stderr=stderr, cpu_ms=12.0, wall_ms=15.0)
    return JudgeReport(verdict=verdict, results=[result], passed=int(verdict == Verdict.AC), total=1)


def record_shadow_contest(store: TranscriptStore, *, with_standing: bool = True) -> ShadowContest:
    contest = store.start_run("contest", problem_id="codeforces:2001", config={"contest_id": "2001"})
    store.append(contest, "contest_state", {"contest_id": "2001", "state": "running", "detail": "shadow: rated round"})
    runs = []
    for pid, language, attempts in (
        ("codeforces:2001A", "cpp17", [("coder", CPP_WRONG, _judge(Verdict.WA, got="-1", expected="3")),
                                       ("debugger", CPP_RIGHT, _judge(Verdict.AC))]),
        ("codeforces:2001B", "python3", [("coder", PY_SLOW, _judge(Verdict.TLE))]),
    ):  # fmt: skip
        run = store.start_run("solve", problem_id=pid, strategy="macs", parent=contest)
        tracer = store.tracer(run)
        task = Task(problem_id=pid, language=language, strategy="macs", statement="Print $a + b$.", time_ms=1000)
        tracer.emit(EnvelopeEvent(envelope=Envelope.wrap(task, task_id=pid, iteration=0)))
        for i, (sender, source, report) in enumerate(attempts):
            code = CodeAttempt(language=language, source=source)
            tracer.emit(EnvelopeEvent(envelope=Envelope.wrap(code, task_id=pid, iteration=3 * i + 2, sender=sender)))
            tracer.emit(ReportEvent.of(report, task_id=pid, iteration=3 * i + 2))
        store.finish_run(run, "solved" if attempts[-1][2].verdict == Verdict.AC else "best_effort")
        runs.append(run)
    sha_a = hashlib.sha256(CPP_RIGHT.encode()).hexdigest()
    sha_b = hashlib.sha256(PY_SLOW.encode()).hexdigest()
    for pid, at_s, sha, language in (
        ("codeforces:2001A", A_AT_S, sha_a, "cpp17"),
        ("codeforces:2001B", B_AT_S, sha_b, "python3"),
    ):
        shadow = {"problem_id": pid, "at_s": at_s, "sha256": sha, "language": language}
        store.append(contest, "shadow_submission", shadow)
    store.append(contest, "contest_state", {"contest_id": "2001", "state": "ended", "detail": "practice from now on"})
    for pid, sub, sha, language, verdict, test in (
        ("codeforces:2001A", "300001", sha_a, "cpp17", "AC", None),
        ("codeforces:2001B", "300002", sha_b, "python3", "TLE", 7),
    ):
        store.append(
            contest,
            "submission",
            {"submission_id": sub, "problem_id": pid, "language": language, "source_sha256": sha, "practice": True,
             "url": f"https://codeforces.com/contest/2001/submission/{sub}"},
        )  # fmt: skip
        store.append(
            contest,
            "remote_verdict",
            {"site": "codeforces", "submission_id": sub, "problem_id": pid, "verdict": verdict, "final": True,
             "status_text": verdict, "failed_test": test, "time_ms": 15, "memory_kb": 900},
        )  # fmt: skip
    if with_standing:
        stale = standing().model_copy(update={"rank": 9999, "assumptions": ["an earlier, superseded standing"]})
        store.append(contest, "standing", stale.model_dump(mode="json"))
        store.append(contest, "standing", standing().model_dump(mode="json"))
    store.finish_run(contest, "finished", reason="1 of 2 accepted in practice")
    return ShadowContest(contest, runs[0], runs[1])
