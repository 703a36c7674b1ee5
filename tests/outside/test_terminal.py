"""Text from outside reaches the terminal through one escape (`cpbot.core.terminal.printable`), and every
error or log line built from a server's text through the redactor too (`shown`): a model's OSC/CSI
sequences in `cpbot transcripts show`, a problem's name in `cpbot fetch`, and a 401 that echoes the key."""

from __future__ import annotations

import json
import logging
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpbot.agents.budget import Usage
from cpbot.agents.tracing import LLMCallEvent
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore, default_db_path
from cpbot.core.terminal import printable, printable_line, shown
from cpbot.testing.scripted_server import HTTPFailure, ScriptedServer

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x9b1m\r\x08\x00"
TROJAN = "if (role != \u202e\u2066 admin\u2069\u2066) {\u200b\ufeff\u061c\u200e\u200f"
KEY = "sk-live0123456789abcdefghijklmnop"


def _raw_controls(text: str) -> list[str]:
    """Control characters but tab and newline, and format characters (bidi controls, zero-width ones)."""
    return [c for c in text if (unicodedata.category(c) == "Cc" and c not in "\t\n") or unicodedata.category(c) == "Cf"]


def test_every_format_character_of_this_pythons_unicode_is_escaped():
    format_chars = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    assert len(format_chars) > 150
    assert _raw_controls(printable("".join(format_chars))) == []


@given(st.text())
@settings(max_examples=300, deadline=None, derandomize=True)
def test_printable_leaves_no_control_character_and_is_idempotent(text):
    out = printable(text)
    assert _raw_controls(out) == [] and printable(out) == out
    assert "\n" not in printable_line(text)


@pytest.mark.parametrize("sent", [HOSTILE, TROJAN])
def test_transcripts_show_escapes_what_a_model_sent(capsys, sent):
    with TranscriptStore(default_db_path()) as store:
        run = store.start_run("solve", problem_id=f"local:{sent}")
        store.tracer(run).emit(
            LLMCallEvent(
                call_id="c1",
                role="coder",
                model="m",
                messages=[{"role": "user", "content": sent}],
                reply=f"here {sent} code",
                usage=Usage(prompt_tokens=1, completion_tokens=1),
                latency_ms=1.0,
                attempts=1,
            )
        )
        store.finish_run(run, "failed", reason=sent)
    for args in (["transcripts", "show", "last", "--full"], ["transcripts", "show", "last"], ["transcripts", "list"]):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert _raw_controls(out) == [], args
        assert ("\\x1b" if sent == HOSTILE else "\\u202e") in out
    assert sent != HOSTILE or "\\x1b]0;pwned" in out or "pwned" not in out


def test_a_problem_name_from_outside_is_escaped_on_fetch(tmp_path, capsys):
    source = tmp_path / "cc.json"
    source.write_text(json.dumps({"name": f"A. {HOSTILE}", "group": "g", "tests": [], "timeLimit": 1000}))
    assert main(["fetch", str(source), "-o", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    assert _raw_controls(captured.out + captured.err) == [] and "\\x1b" in captured.out


@pytest.mark.parametrize("verbose", [[], ["-v"]])
def test_a_401_echoing_the_key_is_printed_redacted_and_escaped(tmp_path, capsys, verbose):
    problem = tmp_path / "p.json"
    problem.write_text(json.dumps({"title": "Sum", "samples": [{"input": "1 2\n", "output": "3\n"}]}))
    failure = HTTPFailure(401, f"Incorrect API key provided: {KEY}. {HOSTILE}")
    with ScriptedServer(default=failure, model="m") as server:
        code = main([*verbose, "solve", str(problem), "--site", "local", "--strategy", "direct",
                     "--base-url", server.base_url, "--api-key", KEY, "--model", "m"])  # fmt: skip
    captured = capsys.readouterr()
    assert code != 0
    printed = captured.out + captured.err
    assert KEY not in printed and "[REDACTED]" in printed
    assert _raw_controls(printed) == []


def test_log_lines_are_redacted_and_escaped(capsys, monkeypatch):
    monkeypatch.setenv("SOME_API_KEY", KEY)
    main(["--version"])  # installs the CLI's log handler
    capsys.readouterr()
    logging.getLogger("cpbot.test").warning("server said %s %s", KEY, HOSTILE)
    err = capsys.readouterr().err
    assert "server said" in err and KEY not in err and _raw_controls(err) == []


def test_shown_removes_a_registered_secret():
    from cpbot.core.secrets import register_secret

    register_secret("hunter2-very-secret")
    assert "hunter2" not in shown("the password hunter2-very-secret\x1b[2J")


def test_cpbots_own_colours_reach_a_terminal_and_a_programs_escapes_do_not(capsys, monkeypatch):
    import click

    from cpbot.bot.report.render import print_stress
    from cpbot.judge.model import StressFailure, StressReport, Verdict

    monkeypatch.setattr(click.utils, "should_strip_ansi", lambda *args, **kwargs: False)  # as on a terminal
    failure = StressFailure(
        input="1\n", expected="2\n", got="\x1b]0;pwned\x07\n", size=1, seed=3, verdict=Verdict.WA, message="differ"
    )
    print_stress(StressReport(status="found", runs=4, seconds=0.5, failure=failure, first_failure_size=1))
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith(click.style("WA", fg="red", bold=True) + " after 4 runs")  # the colour itself
    assert "\x1b]0" not in out and "\\x1b]0;pwned\\x07" in out  # the program's OSC sequence, escaped


def test_quoted_clips_and_escapes_every_unprintable_character_a_server_sent():
    from cpbot.core.terminal import quoted

    sent = "ok\x1b]0;t\x07 \u202eevil\ttab\nline" + "x" * 50
    shown = quoted(sent, 30)
    assert shown.endswith("...") and len(shown) < len(sent)
    assert "\x1b" not in shown and "\u202e" not in shown  # ESC and a bidi override, as escapes
    assert "\\x1b]0;t\\x07" in shown and "\\u202e" in shown and "\ttab\nline" in shown
