"""The smaller findings of the contestant's walkthrough, one rule each: language aliases and C files,
transcripts by any unique part of the id, "did you mean", files of a newer cpbot, JSON errors without a
stray `: :`, a saved page's --url that names another problem."""

from __future__ import annotations

import json

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptError, TranscriptStore
from cpbot.judge.model import SCHEMA_VERSION, Problem, TestCase
from tests.paths import CODEFORCES_PAGES

C_SUM = '#include <stdio.h>\nint main(void) { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); }\n'


@pytest.fixture
def one_test(tmp_path):
    d = tmp_path / "tests"
    d.mkdir()
    (d / "1.in").write_text("1 2\n")
    (d / "1.out").write_text("3\n")
    return d


@pytest.mark.parametrize("alias", ["cpp", "CPP", "c++"])
def test_lang_cpp_is_an_alias_of_cpp17(alias, tmp_path, one_test, capsys):
    (tmp_path / "a.c").write_text(C_SUM)
    assert main(["judge", str(tmp_path / "a.c"), "--tests", str(one_test), "--lang", alias, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["language"] == "cpp17"


def test_a_c_file_without_lang_is_a_clear_error(tmp_path, one_test, capsys):
    (tmp_path / "a.c").write_text(C_SUM)
    assert main(["judge", str(tmp_path / "a.c"), "--tests", str(one_test)]) == 2
    err = capsys.readouterr().err
    assert "does not judge a.c as C" in err and "--lang cpp17" in err


def test_transcripts_show_takes_any_unique_part_of_the_id(tmp_path, monkeypatch, capsys):
    suffixes = iter(["aaaaaa", "bbbbbb"])
    monkeypatch.setattr("cpbot.bot.store.transcripts.token_hex", lambda n: next(suffixes))
    with TranscriptStore() as store:
        first = store.start_run("solve", problem_id="codeforces:1A")
        second = store.start_run("solve", problem_id="codeforces:2B")
        assert store.resolve("bbbbbb") == second  # the random tail
        assert store.resolve(first[-8:]) == first
        with pytest.raises(TranscriptError, match="matches several runs"):
            store.resolve(first[4:8])  # the date, shared
    assert main(["transcripts", "show", "aaaa"]) == 0
    assert first in capsys.readouterr().out


def test_a_mistyped_command_gets_a_suggestion(capsys):
    assert main(["jduge", "a.cpp"]) == 2
    assert "Did you mean 'judge'?" in capsys.readouterr().err
    assert main(["transcript", "list"]) == 2
    assert "Did you mean 'transcripts'?" in capsys.readouterr().err
    assert main(["xyzzy"]) == 2
    assert "Did you mean" not in capsys.readouterr().err


def test_a_problem_file_of_a_newer_cpbot_is_refused_with_a_hint(tmp_path, one_test, capsys):
    problem = Problem(id="local:x", samples=[TestCase(input="1 2\n", output="3\n")])
    data = json.loads(problem.model_dump_json())
    data["schema_version"] = SCHEMA_VERSION + 1
    (tmp_path / "problem.json").write_text(json.dumps(data))
    (tmp_path / "a.py").write_text("print(3)\n")
    assert main(["judge", str(tmp_path / "a.py"), "--problem", str(tmp_path / "problem.json"), "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert "written by a newer cpbot" in error["message"] and "upgrade cpbot" in error["hint"]


def test_a_json_error_about_the_whole_file_has_no_stray_colons(tmp_path, capsys):
    (tmp_path / "problem.json").write_text("[1, 2]")
    (tmp_path / "a.py").write_text("print(3)\n")
    assert main(["judge", str(tmp_path / "a.py"), "--problem", str(tmp_path / "problem.json"), "--json"]) == 2
    message = json.loads(capsys.readouterr().out)["error"]["message"]
    assert ": :" not in message and message.endswith("Input should be a valid dictionary or instance of Problem")


CF_1751A = "cf_1751A_browser_saved_mathjax_grepper_15s_1024mb.html"


@pytest.mark.parametrize(
    ("page", "url", "ok"),
    [
        ("cf_1702A_modern_single_line_cases.html", "https://codeforces.com/contest/1702/problem/A", True),
        ("cf_1702A_modern_single_line_cases.html", "https://codeforces.com/contest/1702/problem/B", False),
        (CF_1751A, "https://codeforces.com/contest/1751/problem/A", True),
        # the page links its own contest: another contest's address is wrong even with the right index
        (CF_1751A, "https://codeforces.com/contest/1800/problem/A", False),
        ("cf_gym245042_complete_problems_page.html", "https://codeforces.com/gym/245042", True),
    ],
)
def test_fetch_url_must_name_the_problem_on_the_page(page, url, ok, tmp_path, capsys):
    code = main(["fetch", str(CODEFORCES_PAGES / page), "--url", url, "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    if ok:
        assert code in (0, None) and "error" not in err
    else:
        assert code == 2 and f"--url {url} names" in err and "hint:" in err
        assert not (tmp_path / "out").exists()
