"""Importing browser cookies: Netscape cookies.txt and pasted Cookie headers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.core.errors import ConfigError
from cpbot.scrapers.cookies import cookies_from_header, load_cookies_txt, parse_cookies_txt

NOW = 1_700_000_000.0


def _names(jar: object) -> dict[str, str]:
    return {c.name: c.value for c in jar}  # type: ignore[attr-defined]


def test_reads_netscape_lines_including_curl_httponly_prefix_and_empty_values() -> None:
    text = (
        "# Netscape HTTP Cookie File\n\n"
        ".codeforces.com\tTRUE\t/\tTRUE\t1800000000\t39ce7\tCFxyz\n"
        "#HttpOnly_.leetcode.com\tTRUE\t/\tTRUE\t1800000000\tLEETCODE_SESSION\teyJ\n"
        "codeforces.com\tFALSE\t/\tFALSE\t0\tevercookie\t\n"
    )
    jar = parse_cookies_txt(text, now=NOW)
    assert _names(jar) == {"39ce7": "CFxyz", "LEETCODE_SESSION": "eyJ", "evercookie": ""}


def test_expired_cookies_are_left_out() -> None:
    jar = parse_cookies_txt(".codeforces.com\tTRUE\t/\tTRUE\t1000\told\tx\n", now=NOW)
    assert _names(jar) == {}


def test_a_malformed_line_is_reported_with_its_number() -> None:
    with pytest.raises(ConfigError, match="line 2: expected 7 tab-separated fields"):
        parse_cookies_txt("# header\n.codeforces.com TRUE / TRUE 0 a b\n", now=NOW)


def test_a_missing_file_is_a_config_error_with_a_hint(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_cookies_txt(tmp_path / "nope.txt")
    assert "cookies.txt" in info.value.hint


def test_subdomain_flag_without_leading_dot_still_covers_subdomains() -> None:
    (cookie,) = list(parse_cookies_txt("codeforces.com\tTRUE\t/\tTRUE\t0\tcf_clearance\tv\n", now=NOW))
    assert cookie.domain == ".codeforces.com"


def test_a_pasted_cookie_header_becomes_a_jar_for_the_domain() -> None:
    jar = cookies_from_header("Cookie: LEETCODE_SESSION=abc; csrftoken=def", "leetcode.com")
    assert _names(jar) == {"LEETCODE_SESSION": "abc", "csrftoken": "def"}
    assert {c.domain for c in jar} == {".leetcode.com"}


def test_a_cookies_file_others_can_read_is_refused_with_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "cookies.txt"
    path.write_text(".codeforces.com\tTRUE\t/\tFALSE\t0\tJSESSIONID\tabcdef123456\n")
    path.chmod(0o644)
    with pytest.raises(ConfigError) as info:
        load_cookies_txt(path)
    assert "can be read by other users" in info.value.message
    assert info.value.hint == f"chmod 600 {path}"
    path.chmod(0o600)
    assert [c.value for c in load_cookies_txt(path)] == ["abcdef123456"]
