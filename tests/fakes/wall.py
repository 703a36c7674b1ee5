"""The fake sites' bot wall: a "Just a moment..." page whose script a real browser must run.

Like Cloudflare's, the wall answers every request that lacks a valid clearance cookie with a 403
challenge page. The page's script computes a value from a nonce the wall issued and the browser's own
user agent, stores it in the `cf_clearance` cookie and reloads. The wall checks the value against the
user agent of each request, so the cookie only works for the browser that earned it: copied into a
scripted client (another user agent) it does not pass. The "visible" kind refuses to grant clearance to
a headless browser, like a check that only a person in a window can pass.
"""

from __future__ import annotations

import secrets
from typing import Literal

Wall = Literal["script", "visible"]
COOKIE = "cf_clearance"


def fnv1a(text: str) -> int:
    """32-bit FNV-1a over UTF-16 code units, as the challenge's script computes it."""
    h = 0x811C9DC5
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        h ^= data[i] | data[i + 1] << 8
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def clearance_for(nonce: str, user_agent: str) -> str:
    """The cookie value the challenge's script sets for `nonce` in a browser with `user_agent`."""
    return f"{nonce}.{fnv1a(nonce + '|' + user_agent):x}"


class BotWall:
    """The wall's state: the nonces it issued and how many challenge pages it served."""

    def __init__(self, kind: Wall = "script") -> None:
        self.kind = kind
        self.nonces: set[str] = set()
        self.challenges = 0  # challenge pages served
        self.challenged: list[str] = []  # the User-Agent of each challenged request
        self.passed = 0  # requests let through with a valid clearance

    def admits(self, cookies: dict[str, str], user_agent: str) -> bool:
        """Whether a request with these cookies and this User-Agent gets through."""
        value = cookies.get(COOKIE, "")
        nonce = value.split(".", 1)[0]
        ok = nonce in self.nonces and value == clearance_for(nonce, user_agent)
        self.passed += ok
        return ok

    def challenges_to(self, marker: str) -> int:
        """How many challenge pages went to user agents containing `marker` ("HeadlessChrome", "cpbot")."""
        return sum(marker in agent for agent in self.challenged)

    def challenge_page(self, user_agent: str = "") -> str:
        """A new challenge page (a new nonce) for a request from `user_agent`; its script earns the clearance
        in a real browser."""
        nonce = secrets.token_hex(8)
        self.nonces.add(nonce)
        self.challenges += 1
        self.challenged.append(user_agent)
        refuse_headless = "if (/Headless/.test(navigator.userAgent)) return;" if self.kind == "visible" else ""
        script = (
            "(function () {"
            f'var n = "{nonce}"; var s = n + "|" + navigator.userAgent; var h = 0x811c9dc5;'
            "for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }"
            f"{refuse_headless}"
            f'document.cookie = "{COOKIE}=" + n + "." + h.toString(16) + "; path=/; max-age=86400";'
            "setTimeout(function () { location.reload(); }, 50);"
            "})();"
        )
        return (
            "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
            '<div id="challenge-form"><p>Checking your browser before accessing the site.</p></div>'
            f'<script>window._cf_chl_opt = {{cType: "managed"}};</script><script>{script}</script>'
            "</body></html>"
        )
