"""A real Chromium driven through the DevTools protocol (Playwright), for sites behind a bot wall.

A `BrowserSession` launches the system's Chromium or Chrome on a site's persistent profile (or
attaches to a browser the user already runs with remote debugging) and makes requests with `fetch()`
inside a page of the request's origin: cookies, TLS fingerprint, user agent and the challenge clearance
are the browser's own, which is what Cloudflare binds a clearance to. Requests made by Playwright's own
HTTP client (APIRequestContext) would share the cookies but not the browser's network stack, so a
clearance earned in the page would not hold for them.

Playwright's sync API belongs to the thread that started it, and cpbot calls from several threads
(`cpbot watch` runs contests in parallel), so each session runs Playwright on one worker thread of its
own and every call is handed to it. One process shares one session per site (`acquire`/`release`).

Playwright is imported only here and only when a session starts: it is an optional dependency
(`pip install 'cpbot[browser]'`).
"""

from __future__ import annotations

import base64
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError, FetchError
from cpbot.core.registry import SiteSpec, site_spec
from cpbot.scrapers.blocking import BlockedError, block_reason
from cpbot.scrapers.browser_settings import BrowserSettings, has_display

_log = logging.getLogger("cpbot.browser")

# Without these Chromium opens connections of its own (updates, sync, field trials) at start.
CHROMIUM_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--no-default-browser-check",
)
# The window is the user's browser, in which they sign in and pass checks themselves: it should not
# announce itself as an automated test browser (navigator.webdriver, the infobar).
IGNORED_DEFAULT_ARGS = ("--enable-automation",)
PLAYWRIGHT_HINT = "install the browser extra: pip install 'cpbot[browser]' (Playwright; it uses your own Chromium)"

# Runs in the page: one request with the browser's cookies; the body travels as base64 both ways.
_FETCH_JS = """
async ({url, method, headers, body, referrer, timeoutMs}) => {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const init = {method, headers, credentials: "include", redirect: "follow", cache: "no-store",
                  signal: abort.signal};
    if (referrer) init.referrer = referrer;
    if (body !== null) {
      const raw = atob(body);
      const bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      init.body = bytes;
    }
    const response = await fetch(url, init);
    const data = new Uint8Array(await response.arrayBuffer());
    let text = "";
    for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
    return {status: response.status, url: response.url, redirected: response.redirected,
            headers: [...response.headers], body: btoa(text)};
  } catch (e) {
    return {error: String(e), timeout: abort.signal.aborted};
  } finally {
    clearTimeout(timer);
  }
}
"""


@dataclass
class PageResponse:
    """What a `fetch()` in the page answered (after the redirects the browser followed)."""

    status: int
    url: str
    redirected: bool
    headers: list[tuple[str, str]]
    body: bytes


class BrowserRequestError(FetchError):
    """The request failed inside the browser (network error, timeout): worth a retry."""

    def __init__(self, message: str, *, timeout: bool = False) -> None:
        super().__init__(message, hint="check the network connection and try again")
        self.timeout = timeout


def origin_of(url: str) -> str:
    """scheme://host[:port] of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def say_to_stderr(message: str) -> None:
    """The default way a session tells the user something (a window opened, a check to pass)."""
    print(f"cpbot: {message}", file=sys.stderr, flush=True)


class BrowserSession:
    """One browser for one site: a Chromium on the site's persistent profile, or the user's own browser
    reached over CDP. Every public method may be called from any thread."""

    def __init__(self, site: str, settings: BrowserSettings, notify: Callable[[str], None] = say_to_stderr) -> None:
        self.spec: SiteSpec = site_spec(site)
        self.settings = settings
        self.notify = notify
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"cpbot-browser-{self.spec.name}")
        self._playwright: Any = None
        self._browser: Any = None  # only when attached over CDP
        self._context: Any = None
        self._pages: dict[str, Any] = {}
        self._visible = False
        self._lock_fd: int | None = None
        self._seeded: set[str] = set()
        self.launches = 0  # how many times a browser was started (a visible window counts again)
        self.switched = False  # a site's client met a challenge and went on through this browser

    # ---- public, thread-safe ----

    @property
    def profile(self) -> Path | None:
        """The persistent profile in use (None when attached to the user's browser over CDP)."""
        return None if self.settings.cdp_url else self.settings.profile_dir(self.spec.name)

    def fetch(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        body: bytes | None,
        *,
        referrer: str | None = None,
        seed_cookies: dict[str, str] | None = None,
    ) -> PageResponse:
        """Make one request from a page of `url`'s origin; a challenge is passed first when one shows."""
        return self._run(self._fetch, method, url, headers, body, referrer, seed_cookies or {})

    def cookies(self, url: str) -> list[dict[str, Any]]:
        """The browser's cookies that `url` would be sent (HttpOnly ones included)."""
        return self._run(lambda: self._context.cookies([url]) if self._context is not None else [])

    def sign_in(self, login_url: str) -> bool:
        """Open a visible window on the site's login page and wait until the user has signed in (the page
        left the login form) or closed the window; True when signed in."""
        return self._run(self._sign_in, login_url)

    def close(self) -> None:
        """Close the browser (cookies are flushed to the profile) and stop the worker thread."""
        try:
            self._run(self._shutdown)
        finally:
            self._worker.shutdown(wait=True)

    # ---- on the worker thread ----

    def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self._worker.submit(fn, *args).result()

    def _start(self, visible: bool) -> None:
        if self._context is not None:
            return
        api = playwright_api()
        playwright_error = api.Error
        if self._playwright is None:
            self._playwright = api.sync_playwright().start()
        chromium = self._playwright.chromium

        try:
            if self.settings.cdp_url:
                self._browser = chromium.connect_over_cdp(self.settings.cdp_url, no_defaults=True)
                contexts = self._browser.contexts
                self._context = contexts[0] if contexts else self._browser.new_context()
                self._visible = True
            else:
                profile = self.settings.profile_dir(self.spec.name)
                self._lock_profile(profile)
                self._context = chromium.launch_persistent_context(
                    str(profile),
                    executable_path=str(self.settings.browser_path()),
                    headless=not visible,
                    args=[*CHROMIUM_ARGS, *(["--no-sandbox"] if _is_root() else []), *self.settings.args],
                    ignore_default_args=list(IGNORED_DEFAULT_ARGS),
                    no_viewport=visible,
                    handle_sigint=False,
                )
                self._visible = visible
        except playwright_error as e:
            self._release_profile()
            where = self.settings.cdp_url or self.settings.browser_path()
            raise ConfigError(
                f"cannot start the browser for {self.spec.title} ({where}): {_first_line(e)}",
                hint="check [browser] in config.toml; a browser already open on the same profile must be closed first",
            ) from e
        self.launches += 1
        _log.info("browser: %s started (%s)", self.spec.name, "visible" if self._visible else "headless")

    def _stop_browser(self) -> None:
        for page in self._pages.values():
            if self._browser is not None and not page.is_closed():
                page.close()  # pages we opened in the user's own browser
        self._pages.clear()
        self._seeded.clear()
        if self._browser is not None:
            self._browser.close()  # over CDP this only disconnects: the user's browser keeps running
        elif self._context is not None:
            self._context.close()
        self._browser = None
        self._context = None
        self._release_profile()

    def _shutdown(self) -> None:
        try:
            if self._context is not None:
                self._stop_browser()
        finally:
            if self._playwright is not None:
                self._playwright.stop()
                self._playwright = None

    def _lock_profile(self, profile: Path) -> None:
        profile.mkdir(parents=True, exist_ok=True)
        try:
            import fcntl
        except ImportError:  # Windows: Chromium's own profile lock is the guard
            return
        fd = os.open(profile / ".cpbot-lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ConfigError(
                f"the browser profile {profile} is in use by another cpbot process",
                hint="wait until it ends (a running `cpbot watch`, a `cpbot login --browser` window), then try again",
            ) from None
        self._lock_fd = fd

    def _release_profile(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor drops the lock
            self._lock_fd = None

    def _wants_visible_first(self) -> bool:
        return self.settings.headless is False

    def _page(self, origin: str) -> Any:
        """The page requests to `origin` are made from; opened (and the site's check passed) on first use."""
        self._start(visible=self._wants_visible_first())
        page = self._pages.get(origin)
        if page is not None and not page.is_closed():
            return page
        page = self._blank_page()
        self._pages[origin] = page
        self._pass_check(page, origin + "/")
        return self._pages[origin]

    def _blank_page(self) -> Any:
        free = [p for p in self._context.pages if p.url == "about:blank" and p not in self._pages.values()]
        return free[0] if free and self._browser is None else self._context.new_page()

    def _on_challenge(self, page: Any) -> bool:
        try:
            html = page.content()
        except playwright_api().Error:  # the challenge's script is navigating: not through yet
            return True
        return block_reason(200, {"content-type": "text/html"}, html.encode("utf-8")) is not None

    def _wait_clear(self, page: Any, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self._on_challenge(page):
            if page.is_closed() or time.monotonic() >= deadline:
                return False
            page.wait_for_timeout(200)
        return True

    def _goto(self, page: Any, url: str) -> None:
        playwright_error = playwright_api().Error

        try:
            page.goto(url, wait_until="domcontentloaded", timeout=self.settings.request_timeout_s * 1000)
        except playwright_error as e:
            raise BrowserRequestError(f"the browser could not open {url}: {_first_line(e)}") from e

    def _pass_check(self, page: Any, url: str) -> None:
        """Open `url` in `page` and wait until the site's check (if any) is through: headless first, then a
        visible window where the user can pass it, when the settings allow one."""
        self._goto(page, url)
        if not self._on_challenge(page):
            return
        if self._wait_clear(page, self.settings.check_timeout_s):
            return
        if not self._visible:
            if self.settings.headless is True or not has_display():
                raise self._blocked(url, "it does not pass in a headless browser")
            self.notify(
                f"{self.spec.title} wants a check a headless browser does not pass: a browser window opened; "
                f"pass the check there (waiting up to {self.settings.human_timeout_s:.0f} s)"
            )
            self._restart_visible()
            page = self._pages[origin_of(url)] = self._blank_page()
            self._goto(page, url)
        else:
            self.notify(
                f"{self.spec.title} shows a check in the browser window: pass it there "
                f"(waiting up to {self.settings.human_timeout_s:.0f} s)"
            )
        if not self._wait_clear(page, self.settings.human_timeout_s):
            raise self._blocked(url, "it was not passed in the browser window in time")

    def _restart_visible(self) -> None:
        self._stop_browser()
        self._start(visible=True)

    def _blocked(self, url: str, why: str) -> BlockedError:
        return BlockedError(
            f"{url} answered with a challenge page, and {why}",
            hint=f"run `cpbot login --browser --site {self.spec.aliases[0] if self.spec.aliases else self.spec.name}` "
            "where a window can open and pass the check there (the clearance stays in cpbot's browser profile), "
            "or start Chrome with --remote-debugging-port=9222 and set [browser] cdp_url in config.toml",
        )

    def _fetch(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        body: bytes | None,
        referrer: str | None,
        seed_cookies: dict[str, str],
    ) -> PageResponse:
        playwright_error = playwright_api().Error

        try:
            return self._fetch_in_page(method, url, headers, body, referrer, seed_cookies)
        except playwright_error as e:  # the window was closed, the browser crashed: start afresh next time
            self._drop_browser()
            raise BrowserRequestError(f"the browser failed on {method} {url}: {_first_line(e)}") from e

    def _drop_browser(self) -> None:
        try:
            self._stop_browser()
        except Exception as e:  # it is gone already; what is left is forgotten
            _log.info("browser: %s closed with an error: %s", self.spec.name, e)
        self._pages.clear()
        self._browser = self._context = None
        self._release_profile()

    def _fetch_in_page(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        body: bytes | None,
        referrer: str | None,
        seed_cookies: dict[str, str],
    ) -> PageResponse:
        origin = origin_of(url)
        page = self._page(origin)
        self._seed(origin, seed_cookies)
        response = self._evaluate(page, method, url, headers, body, referrer)
        if block_reason(response.status, dict(response.headers), response.body) is not None:
            # the clearance ran out, or the site wants a check for this address: open it (the site's root for
            # a POST) in the page, pass the check there, then send the request once more
            self._pass_check(page, url if method == "GET" else origin + "/")
            page = self._pages[origin]
            response = self._evaluate(page, method, url, headers, body, referrer)
        return response

    def _seed(self, origin: str, cookies: dict[str, str]) -> None:
        """Hand the browser the cookies cpbot was given (--cookies, stored credentials) that it lacks, once
        per origin: a session imported from another browser keeps working here. The user's own browser
        (over CDP) is left as it is."""
        if origin in self._seeded or self._browser is not None:
            return
        self._seeded.add(origin)
        have = {c["name"] for c in self._context.cookies([origin + "/"])}
        missing = [{"name": n, "value": v, "url": origin + "/"} for n, v in cookies.items() if n not in have]
        if missing:
            self._context.add_cookies(missing)

    def _evaluate(
        self, page: Any, method: str, url: str, headers: dict[str, str], body: bytes | None, referrer: str | None
    ) -> PageResponse:
        playwright_error = playwright_api().Error

        args = {
            "url": url,
            "method": method,
            "headers": headers,
            "body": base64.b64encode(body).decode("ascii") if body is not None else None,
            "referrer": referrer,
            "timeoutMs": int(self.settings.request_timeout_s * 1000),
        }
        for attempt in range(2):
            try:
                result = page.evaluate(_FETCH_JS, args)
                break
            except playwright_error as e:  # the page navigated under us (a challenge reloading): once more
                if attempt == 1:
                    raise BrowserRequestError(f"the browser could not send {method} {url}: {_first_line(e)}") from e
                page.wait_for_load_state("domcontentloaded")
        if "error" in result:
            raise BrowserRequestError(
                f"{method} {url} failed in the browser: {result['error']}", timeout=result["timeout"]
            )
        return PageResponse(
            status=int(result["status"]),
            url=str(result["url"]),
            redirected=bool(result["redirected"]),
            headers=[(str(k), str(v)) for k, v in result["headers"]],
            body=base64.b64decode(result["body"]),
        )

    def _sign_in(self, login_url: str) -> bool:
        if not self._visible:
            if self._context is not None:
                self._stop_browser()
            if not self.settings.cdp_url and not has_display():
                raise ConfigError(
                    "`cpbot login --browser` opens a browser window, and there is no display here",
                    hint="run it in a desktop session (or over ssh -X), or start Chrome with "
                    "--remote-debugging-port=9222 and set [browser] cdp_url in config.toml",
                )
            self._start(visible=True)
        page = self._context.new_page()
        self._goto(page, login_url)
        login_path = urlsplit(login_url).path.rstrip("/")
        deadline = time.monotonic() + self.settings.human_timeout_s
        while time.monotonic() < deadline:
            if page.is_closed():
                return False
            try:
                # signed in: the site moved on from its login form to another of its pages (an error page
                # of the browser is not the site)
                on_site = origin_of(page.url) == origin_of(login_url)
                path = urlsplit(page.url).path.rstrip("/")
                if on_site and path != login_path and not self._on_challenge(page):
                    page.wait_for_load_state("load")
                    return True
                page.wait_for_timeout(250)
            except playwright_api().Error:  # the user closed the window while we looked
                return False
        return False


def playwright_api() -> Any:
    """`playwright.sync_api`, imported on first use (an optional dependency)."""
    try:
        import playwright.sync_api
    except ImportError as e:
        raise ConfigError("the browser transport needs Playwright, which is not installed", hint=PLAYWRIGHT_HINT) from e
    return playwright.sync_api


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _is_root() -> bool:
    # Chromium refuses to run as root with its sandbox on
    return hasattr(os, "geteuid") and os.geteuid() == 0


# ---- one session per site and profile in a process ----

_sessions: dict[tuple[str, str], tuple[BrowserSession, int]] = {}
_sessions_lock = threading.Lock()


def _key(site: str, settings: BrowserSettings) -> tuple[str, str]:
    return site_spec(site).name, settings.cdp_url or str(settings.profile_dir(site))


def acquire(site: str, settings: BrowserSettings, notify: Callable[[str], None] = say_to_stderr) -> BrowserSession:
    """The process's session for `site` (made on first use); give it back with `release`."""
    key = _key(site, settings)
    with _sessions_lock:
        session, users = _sessions.get(key, (None, 0))
        if session is None:
            session = BrowserSession(site, settings, notify)
        _sessions[key] = (session, users + 1)
        return session


def switched(site: str, settings: BrowserSettings) -> bool:
    """Whether a client of this process already switched `site` to the browser (the others follow)."""
    with _sessions_lock:
        session, _ = _sessions.get(_key(site, settings), (None, 0))
        return session is not None and session.switched


def release(session: BrowserSession) -> None:
    """Give a session back; the last user closes the browser."""
    key = _key(session.spec.name, session.settings)
    with _sessions_lock:
        current, users = _sessions.get(key, (None, 0))
        if current is not session:
            return
        if users > 1:
            _sessions[key] = (session, users - 1)
            return
        del _sessions[key]
    session.close()
