"""`cpbot judge` on the terminal: one line per test as it ends (in test order), what went wrong under a
failed test, a live status line while tests run (on a terminal only), and the summary.

What a failure shows: RE the last lines of stderr (the traceback, `what()`); WA and PE the input, cut to
a few lines, then the expected and the received lines around the first difference; RAN (no expected
output) the output. Colours and the live line only on a terminal; piped, the same lines in plain text.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import TextIO

import click

from cpbot.bot.report.render import verdict_text
from cpbot.core.terminal import printable, printable_line
from cpbot.core.texts import count
from cpbot.judge.model import JudgeReport, Limits, TestCase, TestResult, Verdict

INPUT_LINES = 6  # lines of a test's input shown under a failure
STDERR_LINES = 8  # last lines of stderr shown under a runtime error
CONTEXT = 2  # lines shown before the first differing line (and one after)
OUTPUT_LINES = 6  # lines of output shown for a test without an expected output
WIDTH = 100  # characters of one shown line
INDENT = " " * 7


def _cut(line: str) -> str:
    line = printable_line(line)
    return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."


def test_line(r: TestResult) -> str:
    rerun = f"  (re-run {r.reruns}x)" if r.reruns else ""
    return (
        f"{r.index:>4} {r.name:<16} {verdict_text(r.verdict):<4} {r.cpu_ms:>8.0f} ms {r.peak_kb / 1024:>8.1f} MB{rerun}"
    )


def _head(text: str, n: int, what: str) -> list[str]:
    lines = text.splitlines()
    shown_lines = [f"{INDENT}  {_cut(line)}" for line in lines[:n]]
    more = len(lines) - n
    if not lines:
        return [f"{INDENT}{what}: empty"]
    header = f"{INDENT}{what} ({len(lines)} line{'s' if len(lines) != 1 else ''}):"
    return [header, *shown_lines, *([f"{INDENT}  ... {more} more"] if more > 0 else [])]


def _numbered(lines: list[str], first: int, last: int, mark: int, color: str) -> list[str]:
    out = []
    for n in range(first, last + 1):
        text = lines[n - 1] if n <= len(lines) else None
        shown_text = "<end of output>" if text is None else _cut(text)
        if n == mark:
            out.append(click.style(f"{INDENT}> {n:>4}| {shown_text}", fg=color))
        elif text is not None:
            out.append(f"{INDENT}  {n:>4}| {shown_text}")
    return out


def _difference(r: TestResult, expected: str) -> list[str]:
    """The expected and received lines around the first difference (or the first lines, without one)."""
    want, got = expected.splitlines(), r.stdout.splitlines()
    line = r.diff.line if r.diff else 1
    first, last = max(1, line - CONTEXT), line + 1
    out = [f"{INDENT}expected:", *_numbered(want, first, min(last, max(len(want), line)), line, "green")]
    out += [f"{INDENT}received:", *_numbered(got, first, min(last, max(len(got), line)), line, "red")]
    if line > len(got) and r.diff and r.diff.got != "<end of output>":
        out.append(f"{INDENT}  (line {line} is past the part of the output kept; there it has {r.diff.got!r})")
    return out


CRASH_SIGNALS = (signal.SIGSEGV, signal.SIGBUS)
SANITIZER_FRAMES = 4  # frames of a sanitizer's stack shown


def sanitizer_report(stderr: str) -> list[str]:
    """The lines of an AddressSanitizer report that say what and where (its error, the access, the first
    frames, the summary), not the shadow-memory map after them; [] without one."""
    lines = stderr.splitlines()
    start = next((i for i, line in enumerate(lines) if "ERROR: AddressSanitizer" in line), None)
    if start is None:
        return []
    shown = [lines[start].lstrip("=0123456789")]
    frames = 0
    for line in lines[start + 1 :]:
        if line.lstrip().startswith("#"):
            frames += 1
            if frames <= SANITIZER_FRAMES:
                shown.append(line)
        elif not line.strip():
            break
        else:
            shown.append(line)
    summary = next((line for line in lines if line.startswith("SUMMARY:")), None)
    return [*shown, *([summary] if summary else [])]


def failure_lines(r: TestResult, test: TestCase | None, crash_hint: str = "") -> list[str]:
    """What is shown under a test that is not AC (`crash_hint` under a segfault)."""
    out = [f"{INDENT}{printable_line(r.checker_message)}"] if r.checker_message else []
    if crash_hint and r.verdict == Verdict.RE and r.signal in CRASH_SIGNALS:
        out.append(f"{INDENT}{crash_hint}")
    if r.verdict == Verdict.RE and r.stderr.strip():
        lines = sanitizer_report(r.stderr) or r.stderr.rstrip().splitlines()[-STDERR_LINES:]
        out.append(f"{INDENT}stderr (last {len(lines)} line{'s' if len(lines) != 1 else ''}):")
        out += [f"{INDENT}  {_cut(line)}" for line in lines]
    elif r.verdict in (Verdict.WA, Verdict.PE) and test is not None:
        if r.diff:
            where = f"line {r.diff.line}" + (f", token {r.diff.token}" if r.diff.token else "")
            out.append(
                f"{INDENT}{where}: expected {printable_line(r.diff.expected)!r}, got {printable_line(r.diff.got)!r}"
            )
        out += _head(test.input, INPUT_LINES, "input")
        if test.output is not None:
            out += _difference(r, test.output)
    elif r.verdict == Verdict.RAN:
        out += _head(r.stdout, OUTPUT_LINES, "output")
    return out


def summary_line(report: JudgeReport, limits: Limits) -> str:
    checked = report.total - report.unchecked
    summary = f"{verdict_text(report.verdict)} {report.passed}/{checked} checked tests"
    if report.unchecked:
        summary += f", {report.unchecked} ran unchecked (no expected output)"
    return summary + f"  (TL {limits.time_ms} ms, ML {limits.memory_mb} MB)"


class JudgeView:
    """Prints a judging as it goes; `result` may be called from any thread (one at a time, in order)."""

    def __init__(
        self, tests: list[TestCase], *, stream: TextIO | None = None, live: bool | None = None, crash_hint: str = ""
    ) -> None:
        self.tests = tests
        self.crash_hint = crash_hint
        self.results: list[TestResult] = []
        self._stream = stream or sys.stdout
        self._live = self._stream.isatty() if live is None else live
        self._status_shown = False
        self._lock = threading.Lock()

    def _echo(self, line: str) -> None:
        click.echo(line, file=self._stream)

    def _clear_status(self) -> None:
        if self._status_shown:
            self._stream.write("\r\x1b[K")
            self._status_shown = False

    def status(self, text: str) -> None:
        """The live line (a terminal only): replaced by the next one, cleared before any other output."""
        if not self._live:
            return
        with self._lock:
            self._clear_status()
            self._stream.write(text[: WIDTH - 1])
            self._stream.flush()
            self._status_shown = True

    def result(self, r: TestResult) -> None:
        test = self.tests[r.index - 1] if 0 < r.index <= len(self.tests) else None
        with self._lock:
            self._clear_status()
            self.results.append(r)
            self._echo(test_line(r))
            if r.verdict != Verdict.AC:
                for line in failure_lines(r, test, self.crash_hint):
                    self._echo(line)
            self._stream.flush()
        self.status(self._progress())

    def _progress(self) -> str:
        counts: dict[Verdict, int] = {}
        for r in self.results:
            counts[r.verdict] = counts.get(r.verdict, 0) + 1
        tally = " ".join(f"{v.value} {n}" for v, n in counts.items())
        return f"[{len(self.results)}/{len(self.tests)}] {tally}  running..."

    def finish(self, report: JudgeReport, limits: Limits) -> None:
        """The summary of a judging that ended (the tests were shown as they ended)."""
        with self._lock:
            self._clear_status()
        if report.verdict == Verdict.CE:  # the compiler's lines as it wrote them (escaped on the way in)
            for line in printable(report.compile_log.rstrip()).splitlines():
                self._echo(line)
        shown_indexes = {r.index for r in self.results}
        for r in report.results:  # none were streamed when the judging stopped before its tests (CE, IE)
            if r.index not in shown_indexes:
                self.result(r)
        with self._lock:
            self._clear_status()
        self._echo(summary_line(report, limits))
        if report.verdict == Verdict.IE and report.reason:
            click.echo(f"judge error: {report.reason}", err=True)
        if report.verdict == Verdict.RAN:
            click.echo(f"not judged: {report.reason}", err=True)

    def interrupted(self) -> None:
        """The summary of a judging stopped by Ctrl-C: what finished, and how many did not."""
        with self._lock:
            self._clear_status()
            counts: dict[Verdict, int] = {}
            for r in self.results:
                counts[r.verdict] = counts.get(r.verdict, 0) + 1
            tally = ", ".join(f"{n} {verdict_text(v)}" for v, n in counts.items()) or "none finished"
            self._echo(f"interrupted: {len(self.results)} of {count(len(self.tests), 'test')} finished ({tally})")
            self._stream.flush()
