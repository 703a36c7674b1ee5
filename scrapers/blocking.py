"""Recognise answers that are not the page asked for: Cloudflare challenges, captchas, JS redirects."""

from __future__ import annotations

from collections.abc import Mapping

from cpbot.core.errors import FetchError

BLOCKED_HINT = (
    "let cpbot go on through a real browser with `--browser` (your Chromium or Chrome; see README, Browser "
    "transport), or run `cpbot listen` and send the problem from the browser with Competitive Companion, or "
    "save the page from the browser and run `cpbot fetch page.html`; importing the browser's cookies "
    "(`--cookies cookies.txt`) seldom helps, since Cloudflare binds its clearance to the browser that earned it"
)

# Markers of challenge pages; a real problem page carries none of them.
_CHALLENGE = ("_cf_chl_opt", "cf-challenge", 'id="challenge-form"', "cf-turnstile", "challenges.cloudflare.com")
_CLOUDFLARE_BLOCK = ("attention required! | cloudflare", "cf-error-details")
_CAPTCHA = ("g-recaptcha", "h-captcha", "hcaptcha.com/1/api.js", "www.google.com/recaptcha/api.js")
_REAL_CONTENT = ("problem-statement", "problemindexholder")


class BlockedError(FetchError):
    """The site answered with an anti-bot page (Cloudflare, captcha) instead of the content."""


def block_reason(status: int, headers: Mapping[str, str], body: bytes) -> str | None:
    """Say what kind of block page this response is, or None when it is a normal answer."""
    if headers.get("cf-mitigated", "").lower() == "challenge":
        return "a Cloudflare challenge page"
    content_type = headers.get("content-type", "").lower()
    head = body[:65536].decode("utf-8", errors="replace").lower()
    looks_html = "html" in content_type or head.lstrip().startswith(("<!doctype html", "<html"))
    if not looks_html or any(marker in head for marker in _REAL_CONTENT):
        return None
    if "<title>just a moment" in head or any(marker in head for marker in _CHALLENGE):
        return "a Cloudflare challenge page"
    if any(marker in head for marker in _CLOUDFLARE_BLOCK):
        return "a Cloudflare block page"
    if any(marker in head for marker in _CAPTCHA):
        return "a captcha page"
    if "redirecting... please, wait" in head and "aes.min.js" in head:
        return "a JavaScript challenge page (RCPC)"
    server = headers.get("server", "").lower()
    if status == 403 and server == "cloudflare":
        return "a Cloudflare refusal (HTTP 403)"
    return None


def blocked_error(url: str, reason: str) -> BlockedError:
    """The error a user sees when a site hides behind a challenge: what happened and what to do."""
    return BlockedError(f"{url} answered with {reason} instead of the page", hint=BLOCKED_HINT)
