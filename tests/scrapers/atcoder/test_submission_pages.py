"""AtCoder's submit form and submission list, on recorded pages (atcoder-tools' recordings of arc001)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.core.errors import SubmitError
from cpbot.judge.model import Verdict
from cpbot.scrapers.atcoder.submissions import (
    CURRENT_JUDGE_IDS,
    choose_language,
    parse_submissions,
    parse_submit_form,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "atcoder"


def test_submit_form_gives_token_tasks_and_per_task_languages() -> None:
    form = parse_submit_form((FIXTURES / "submit_arc001_2023.html").read_bytes())
    assert form.csrf_token == "2TfLiM/mkOoZRM9OnbCFUYWuq1gqpC5lhkAlhRNZ3as="
    assert form.tasks == ["arc001_1", "arc001_2", "arc001_3", "arc001_4"]
    assert len(form.options("arc001_3")) == 56 and not form.human_check


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("cpp17", ("3003", "C++ 20 (gcc 12.2)")),
        ("cpp20", ("3003", "C++ 20 (gcc 12.2)")),
        ("python3", ("3023", "Python3 (3.4.3)")),
        ("pypy3", ("3510", "PyPy3 (2.4.0)")),
    ],
)
def test_languages_are_chosen_from_the_served_options(language: str, expected: tuple[str, str]) -> None:
    form = parse_submit_form((FIXTURES / "submit_arc001_2023.html").read_bytes())
    assert choose_language(form.options("arc001_1"), language) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [("cpp17", "6017"), ("cpp20", "6017"), ("python3", "6082"), ("pypy3", "6083")],
)
def test_current_judge_names_map_to_their_ids(language: str, expected: str) -> None:
    """The 2024-25 language update's options (as listed in atcoder-tools PR #306), with a decoy before them."""
    options = [("6116", "C++23 (Clang 21.1.0)"), ("6115", "Python (Codon 0.19.3)")]
    options += [(v, k) for k, v in CURRENT_JUDGE_IDS.items()]
    assert choose_language(options, language)[0] == expected


def test_a_form_without_the_language_says_what_it_offers() -> None:
    with pytest.raises(SubmitError, match="python3") as e:
        choose_language([("6088", "Rust (rustc 1.89.0)")], "python3")
    assert "Rust (rustc 1.89.0)" in (e.value.hint or "")


def test_a_form_with_turnstile_is_flagged() -> None:
    page = (FIXTURES / "submit_arc001_2023.html").read_text(encoding="utf-8")
    page = page.replace("</form>", '<div class="cf-turnstile" data-sitekey="x"></div></form>', 1)
    assert parse_submit_form(page).human_check


def test_submission_list_rows_with_ids_labels_time_and_memory() -> None:
    rows = parse_submissions((FIXTURES / "submissions_me_arc001_2023.html").read_bytes())
    assert len(rows) == 20
    ce, wa = rows[0], rows[2]
    assert (ce.submission_id, ce.task, ce.status, ce.final, ce.verdict) == (
        "13269587",
        "arc001_1",
        "CE",
        True,
        Verdict.CE,
    )
    assert (ce.time_ms, ce.memory_kb) == (None, None)
    assert (wa.submission_id, wa.status, wa.verdict, wa.time_ms, wa.memory_kb) == ("4509697", "WA", Verdict.WA, 1, 256)
    assert wa.created is not None and wa.created.isoformat() == "2019-03-09T05:08:56+00:00"
    assert wa.language == "C++ 20 (gcc 12.2)"
