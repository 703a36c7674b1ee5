"""A dry run needs no model until a problem must be solved: it lists contests and says what it would do;
the first solve without a model fails the contest with the configuration's message and hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from tests.bot.watch.support import contest_site
from tests.fakes.server import FakeSiteServer

ARGS = ["watch", "--once", "--site", "cf", "--lang", "python3", "--within", "1", "--poll", "0.5"]


@pytest.fixture
def no_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CPBOT_BASE_URL", "CPBOT_API_KEY", "CPBOT_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def _watch(start_in_s: float, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    with FakeSiteServer(contest_site(start_in_s=start_in_s)) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        return main([*ARGS, "--fetch-retry", "0.1", *extra])


def test_a_dry_run_without_a_model_lists_and_says_what_it_would_do(
    no_model: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = _watch(3 * 3600, monkeypatch)  # listed, but beyond --within 1 h: nothing to solve yet
    captured = capsys.readouterr()
    assert rc == 0
    assert "dry run: each contest is fetched, solved and gated at its start; nothing is submitted" in captured.err
    assert "no model is configured, which the first solve needs" in captured.err
    assert "no contest starting within 1 h to work on" in captured.out
    assert "error:" not in captured.err


def test_the_first_solve_without_a_model_fails_the_contest_with_the_hint(
    no_model: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = _watch(-60, monkeypatch)  # running: its problems are fetched, then one must be solved
    captured = capsys.readouterr()
    assert rc != 0
    assert "Round Down the Price" in captured.out  # listed and fetched before the model was needed
    assert "error: no language model configured" in captured.err
    assert "hint: " in captured.err
    assert "Traceback" not in captured.err
