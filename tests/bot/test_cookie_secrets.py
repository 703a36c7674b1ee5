"""Cookie values read by the scrapers reach every redactor of the bot."""

from __future__ import annotations

from pathlib import Path

from cpbot.core.redact import Redactor
from cpbot.scrapers.cookies import load_cookies_txt


def test_cookie_values_read_from_a_file_are_redacted_everywhere(tmp_path: Path) -> None:
    earlier = Redactor()  # made before the cookies were read: it learns of them too
    path = tmp_path / "cookies.txt"
    path.write_text(".codeforces.com\tTRUE\t/\tFALSE\t0\tJSESSIONID\tq7Zx9cookieValue\n")
    path.chmod(0o600)
    load_cookies_txt(path)
    for redactor in (earlier, Redactor()):
        assert "q7Zx9cookieValue" not in redactor.text("session q7Zx9cookieValue in a log line")
