"""What every fake site needs to speak HTTP: the request and reply of one exchange, the pages a bot
wall or a captcha shows, and the script a password manager would run on a login page."""

from __future__ import annotations

import json
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

CAPTCHA_PAGE = (
    "<!DOCTYPE html><html><head><title>Verification</title>"
    '<script src="https://www.google.com/recaptcha/api.js"></script></head><body>'
    '<form method="post"><div class="g-recaptcha" data-sitekey="6Lc-fake"></div></form></body></html>'
)
CLOUDFLARE_PAGE = (
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
    '<div id="challenge-form"></div><script>window._cf_chl_opt={cType: "managed"};</script></body></html>'
)


class Reply:
    """What a handler answers: status, headers, body."""

    def __init__(self, status: int, body: bytes | str = b"", ctype: str = "text/html; charset=utf-8") -> None:
        self.status = status
        self.body = body.encode("utf-8") if isinstance(body, str) else body
        self.headers: list[tuple[str, str]] = [("Content-Type", ctype)]

    @classmethod
    def json(cls, obj: Any, status: int = 200) -> Reply:
        return cls(status, json.dumps(obj), "application/json")

    @classmethod
    def redirect(cls, location: str) -> Reply:
        r = cls(302, b"")
        r.headers.append(("Location", location))
        return r


class Request:
    def __init__(self, method: str, path: str, headers: Message, body: bytes) -> None:
        parts = urlsplit(path)
        self.method = method
        self.path = parts.path
        self.query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        self.headers = headers
        self.body = body
        jar: SimpleCookie = SimpleCookie()
        for header in headers.get_all("Cookie") or []:
            jar.load(header)
        self.cookies = {k: m.value for k, m in jar.items()}

    def form(self) -> dict[str, str]:
        """The fields of a urlencoded or multipart/form-data body."""
        ctype = self.headers.get("Content-Type", "")
        if ctype.startswith("multipart/form-data"):
            msg = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + self.body)
            out = {}
            for part in msg.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if name:
                    payload = part.get_payload(decode=True) or b""
                    out[str(name)] = payload.decode("utf-8")
            return out
        return {k: v[-1] for k, v in parse_qs(self.body.decode("utf-8"), keep_blank_values=True).items()}

    def json(self) -> Any:
        try:
            return json.loads(self.body or b"null")
        except json.JSONDecodeError:
            return None


def autofill(enabled: bool, user: str, password: str) -> str:
    """When `enabled` (`FakeSite.autofill_login`), a script that signs in as the user would (a password
    manager): tests of `cpbot login --browser` need no one at the keyboard."""
    if not enabled:
        return ""
    return (
        "<script>setTimeout(function () {"
        "var f = document.forms[0];"
        f"(f.handleOrEmail || f.login).value = {json.dumps(user)};"
        f"f.password.value = {json.dumps(password)};"
        "f.submit(); }, 100);</script>"
    )
