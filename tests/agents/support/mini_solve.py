"""A minimal solve loop built only from the foundation (client, extraction, envelopes, budget, tracer).

It is not a strategy: it exists so tests and the orchestration benchmark can drive every piece the way
strategies will, and check that each fault ends in a clear outcome and a complete transcript.
"""

from __future__ import annotations

from collections.abc import Callable

from cpbot.agents.budget import Attempt, BestAttempt, BudgetExhausted, BudgetTracker
from cpbot.agents.envelopes import CodeAttempt, Envelope, FinalAnswer, JudgeFeedback, Task
from cpbot.agents.extract import ExtractionError, extract_code
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_failures import LLMError
from cpbot.agents.tracing import BudgetEvent, NoteEvent, ReportEvent, Tracer, send
from cpbot.judge.model import JudgeReport, Language, Solution, Verdict

Judge = Callable[[Solution], JudgeReport]


def sum_judge(solution: Solution) -> JudgeReport:
    """A stand-in judge: accepts a program that adds (`a + b`), fails anything else on 1 of 2 tests."""
    ok = "a + b" in solution.source
    return JudgeReport(verdict=Verdict.AC if ok else Verdict.WA, passed=2 if ok else 1, total=2)


def mini_solve(
    client: LLMClient,
    *,
    task_id: str,
    language: Language,
    tracer: Tracer,
    budget: BudgetTracker,
    judge: Judge = sum_judge,
    rounds: int = 6,
) -> FinalAnswer:
    """Ask a coder for a program, judge it, feed back failures; return the answer and trace everything."""
    llm = client.bind(task_id=task_id, budget=budget, tracer=tracer)
    best = BestAttempt()
    send(tracer, Envelope.wrap(Task(problem_id=task_id, language=language), task_id=task_id, iteration=0))
    messages = [
        {"role": "system", "content": f"Write one complete {language} program in a fenced block."},
        {"role": "user", "content": "Read a and b, print their sum."},
    ]
    reason = f"no accepted program after {rounds} rounds"
    for iteration in range(rounds):
        try:
            reply = llm.complete("coder", messages)
        except BudgetExhausted as e:
            tracer.emit(BudgetEvent(task_id=task_id, reason=e.reason, spent=budget.snapshot()))
            reason = f"budget exhausted: {e.reason}"
            break
        except LLMError as e:
            tracer.emit(NoteEvent(task_id=task_id, message=f"model failed: {e.kind}", data={"error": e.message}))
            reason = e.message
            break
        messages = [*messages, {"role": "assistant", "content": reply.text}]
        try:
            code = extract_code(reply.text, language, finish_reason=reply.finish_reason)
        except ExtractionError as e:
            tracer.emit(NoteEvent(task_id=task_id, message=f"unusable reply: {e.reason}", data={"error": e.message}))
            messages.append({"role": "user", "content": f"{e.message}. {e.hint}."})
            continue
        attempt = send(
            tracer,
            Envelope.wrap(
                CodeAttempt(language=language, source=code.code), task_id=task_id, iteration=iteration, sender="coder"
            ),
        ).expect(CodeAttempt)
        report = judge(attempt.solution())
        tracer.emit(ReportEvent.of(report, task_id=task_id, iteration=iteration))
        best.offer(
            Attempt(iteration=iteration, solution=attempt.solution(), report=report, tokens=reply.usage.total_tokens)
        )
        if report.verdict == Verdict.AC:
            reason = "accepted on every test"
            break
        feedback = JudgeFeedback(report=report, code_iteration=iteration, summary=f"{report.verdict} on a test")
        send(tracer, Envelope.wrap(feedback, task_id=task_id, iteration=iteration, sender="judge"))
        messages.append({"role": "user", "content": f"Your program got {report.verdict}. Fix it."})
    final = best.final_answer(reason, tracker=budget)
    send(tracer, Envelope.wrap(final, task_id=task_id, iteration=0, sender="controller"))
    return final
