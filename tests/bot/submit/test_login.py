"""`cpbot login`: sessions stored 0600 (no keyring here), shown without secrets, used by the submitters."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpbot.bot.cli.main import cli
from cpbot.bot.submit.credentials import credentials_path, load_credentials, session_jar


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CPBOT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr("cpbot.bot.submit.credentials._keyring", lambda: None)
    return tmp_path / "config"


def test_codeforces_handle_login_is_stored_privately_and_shown_without_the_password(config_dir):
    runner = CliRunner()
    result = runner.invoke(cli, ["login", "--site", "cf", "--handle", "tourist"], input="s3cret-pass\n")
    assert result.exit_code == 0, result.output
    assert "s3cret-pass" not in result.output
    path = credentials_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    creds = load_credentials("codeforces")
    assert creds is not None and creds.handle == "tourist" and creds.password.get_secret_value() == "s3cret-pass"
    shown = runner.invoke(cli, ["login", "--site", "codeforces", "--show"])
    assert shown.exit_code == 0 and "tourist" in shown.output and "password       set (hidden)" in shown.output
    assert "s3cret-pass" not in shown.output


def test_leetcode_cookie_values_become_the_session_jar(config_dir):
    runner = CliRunner()
    result = runner.invoke(cli, ["login", "--site", "lc"], input="lc-session-value\ncsrf-value\n")
    assert result.exit_code == 0, result.output
    jar = session_jar("leetcode", None, load_credentials("leetcode"))
    assert jar is not None
    assert {c.name: c.value for c in jar} == {"LEETCODE_SESSION": "lc-session-value", "csrftoken": "csrf-value"}


def test_a_cookies_file_is_kept_by_path_and_forget_removes_only_that_site(config_dir, tmp_path):
    cookies = tmp_path / "cookies.txt"
    cookies.write_text("# Netscape HTTP Cookie File\n.codeforces.com\tTRUE\t/\tTRUE\t0\tJSESSIONID\tabc123\n")
    cookies.chmod(0o600)  # a session: cpbot refuses a cookies file others can read
    runner = CliRunner()
    assert runner.invoke(cli, ["login", "--site", "cf", "--cookies", str(cookies)]).exit_code == 0
    assert runner.invoke(cli, ["login", "--site", "lc"], input="a\nb\n").exit_code == 0
    jar = session_jar("codeforces", None, load_credentials("codeforces"))
    assert [c.value for c in jar] == ["abc123"]
    forgot = runner.invoke(cli, ["login", "--site", "cf", "--forget"])
    assert forgot.exit_code == 0 and "removed codeforces credentials" in forgot.output
    assert load_credentials("codeforces") is None and load_credentials("leetcode") is not None


def test_codeforces_needs_cookies_or_a_handle(config_dir):
    result = CliRunner().invoke(cli, ["login", "--site", "cf"])
    assert result.exit_code == 2 and "--cookies" in result.output
    assert not credentials_path().exists()


def test_a_cookies_file_that_is_not_for_the_site_is_refused(config_dir, tmp_path):
    from cpbot.bot.cli.main import main

    garbage = tmp_path / "garbage.txt"
    garbage.write_text("garbage\n")
    cf_only = tmp_path / "cf.txt"
    cf_only.write_text("# Netscape HTTP Cookie File\n.codeforces.com\tTRUE\t/\tTRUE\t0\tJSESSIONID\tabc123\n")
    assert main(["login", "--site", "cf", "--cookies", str(garbage)]) == 2
    assert main(["login", "--site", "lc", "--cookies", str(cf_only)]) == 2
    assert not credentials_path().exists()


def test_a_handle_for_a_site_without_password_login_is_a_usage_error(config_dir):
    result = CliRunner().invoke(cli, ["login", "--site", "LeetCode", "--handle", "someone"])
    assert result.exit_code == 2 and "--cookies" in result.output
    assert not credentials_path().exists()
