"""`cpbot lab` on a problem package: its submissions are the candidates (accepted right, the others wrong), its
tests beside the samples the hidden tests, with a package's own answer files."""

from __future__ import annotations

import json

from cpbot.bot.cli.main import main
from cpbot.bot.lab.dataset import hidden_tests
from cpbot.bot.lab.packages import load_lab
from tests.paths import FIXTURES, REPO

SUM = REPO / "examples" / "verify" / "sum"


def test_a_kattis_package_reads_as_a_lab_problem_with_its_answers_as_hidden_outputs():
    (lab,) = load_lab(SUM)
    assert [(c.file, c.label, c.kind) for c in lab.spec.candidates] == [
        ("submissions/accepted/sum.py", "right", "accepted"),
        ("submissions/wrong_answer/mod.py", "wrong", "wrong_answer"),
    ]
    assert lab.spec.reference == "submissions/accepted/sum.py"
    assert [t.input for t in lab.problem.samples] == ["1 2\n"]
    assert [(t.input, t.output) for t in hidden_tests(lab)] == [("100 100\n", "200\n"), ("0 7\n", "7\n")]
    (polygon,) = load_lab(FIXTURES / "packages" / "polygon" / "palindromes")
    assert polygon.problem.checker.endswith("files/check.cpp") and polygon.problem.limits.time_ms == 15000
    assert hidden_tests(polygon)[0].output == (FIXTURES / "packages/polygon/palindromes/tests/01.a").read_text()


def test_the_lab_measures_the_gate_on_a_packages_submissions(capsys):
    assert main(["lab", str(SUM), "--json"]) == 0
    results = {r["file"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    wrong = results["submissions/wrong_answer/mod.py"]
    # the sample (1 2) does not show it; the hidden 100 + 100 does
    assert wrong["hidden_ok"] is False and wrong["passed"]["samples"] is True
    assert results["submissions/accepted/sum.py"]["hidden_ok"] is True


def test_on_a_terminal_the_lab_shows_one_progress_line_and_in_a_log_a_line_per_candidate(capsys, monkeypatch):
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["lab", str(SUM)]) == 0
    shown = terminal.getvalue()
    assert "\r\x1b[Klab: 2/2 candidates, 0 caught, 1 wrong let through" in shown and shown.endswith("\r\x1b[K")
    assert "caught by" not in shown  # no line per candidate on a terminal
    monkeypatch.undo()
    assert main(["lab", str(SUM)]) == 0
    log = capsys.readouterr().err
    assert "submissions/wrong_answer/mod.py: caught by" in log and "\x1b[K" not in log
