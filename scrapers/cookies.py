"""Cookie jars from what a browser can export: a Netscape `cookies.txt`, or a pasted Cookie header.

The reader is lenient where exporters differ (a missing magic first line, curl's `#HttpOnly_`
prefix, a missing value) and strict about everything else: a malformed line is reported with its
number. Expired cookies are left out.
"""

from __future__ import annotations

import stat
import time
from http.cookiejar import Cookie, CookieJar
from pathlib import Path

from cpbot.core.errors import ConfigError
from cpbot.core.secrets import register_secret

_HTTPONLY = "#HttpOnly_"
_HINT = (
    "export the cookies with a browser extension that writes the Netscape cookies.txt format "
    "(7 tab-separated fields: domain, subdomains, path, secure, expiry, name, value)"
)


def load_cookies_txt(path: str | Path, now: float | None = None) -> CookieJar:
    """Read a Netscape cookies.txt into a jar usable by `HttpClient`.

    A file the group or others can read is refused (its cookies are a logged-in session), and every
    cookie value is registered as a secret, so no transcript or log ever shows one."""
    p = Path(path)
    try:
        mode = p.stat().st_mode
        if mode & (stat.S_IRGRP | stat.S_IROTH):
            raise ConfigError(
                f"{p} can be read by other users (mode {stat.S_IMODE(mode):04o}); its cookies are a logged-in "
                "session, so cpbot will not use it",
                hint=f"chmod 600 {p}",
            )
        text = p.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise ConfigError(f"cannot read the cookies file {p}: {e.strerror or e}", hint=_HINT) from e
    jar = parse_cookies_txt(text, str(p), now)
    for cookie in jar:
        if cookie.value:
            register_secret(cookie.value)
    return jar


def parse_cookies_txt(text: str, source: str = "cookies.txt", now: float | None = None) -> CookieJar:
    """Parse the text of a Netscape cookies.txt; `source` names it in errors."""
    now = time.time() if now is None else now
    jar = CookieJar()
    for number, line in enumerate(text.splitlines(), start=1):
        http_only = line.startswith(_HTTPONLY)
        if http_only:
            line = line[len(_HTTPONLY) :]
        elif not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.rstrip("\r\n").split("\t")
        if len(fields) == 6:  # some exporters drop the tab of an empty value
            fields.append("")
        if len(fields) != 7:
            raise ConfigError(f"{source} line {number}: expected 7 tab-separated fields, got {len(fields)}", hint=_HINT)
        domain, subdomains, path, secure, expires, name, value = fields
        if not domain or not name:
            raise ConfigError(f"{source} line {number}: missing the domain or the cookie name", hint=_HINT)
        try:
            expiry = int(float(expires)) if expires.strip() else 0
        except ValueError as e:
            raise ConfigError(f"{source} line {number}: the expiry {expires!r} is not a number", hint=_HINT) from e
        if expiry and expiry < now:
            continue
        jar.set_cookie(
            _cookie(
                domain,
                subdomains.upper() == "TRUE",
                path or "/",
                secure.upper() == "TRUE",
                expiry or None,
                name,
                value,
                http_only,
            )
        )
    return jar


def cookies_from_header(header: str, domain: str) -> CookieJar:
    """A jar from a pasted `Cookie:` header value (`a=1; b=2`) for `domain` and its subdomains."""
    jar = CookieJar()
    header = header.strip()
    if header.lower().startswith("cookie:"):
        header = header[len("cookie:") :]
    for part in header.split(";"):
        name, sep, value = part.strip().partition("=")
        if not sep or not name:
            if part.strip():
                raise ConfigError(f"not a name=value pair in the Cookie header: {part.strip()!r}")
            continue
        jar.set_cookie(_cookie(domain, True, "/", False, None, name.strip(), value.strip(), False))
        if value.strip():
            register_secret(value.strip())
    return jar


def _cookie(
    domain: str, subdomains: bool, path: str, secure: bool, expires: int | None, name: str, value: str, http_only: bool
) -> Cookie:
    if subdomains and not domain.startswith("."):
        domain = "." + domain
    return Cookie(
        version=0,
        name=name,
        value=value,
        port=None,
        port_specified=False,
        domain=domain,
        domain_specified=subdomains,
        domain_initial_dot=domain.startswith("."),
        path=path,
        path_specified=True,
        secure=secure,
        expires=expires,
        discard=expires is None,
        comment=None,
        comment_url=None,
        rest={"HttpOnly": ""} if http_only else {},
    )
