"""How cpbot reaches a real browser, and where its browser profiles live.

The `[browser]` table of config.toml (read by the bot layer) becomes `BrowserSettings`. Each site has
its own persistent Chromium profile under the user data dir (`<data>/browser/<site>`): the user signs
in there once (`cpbot login --browser`), and the session and the sites' challenge clearance stay in it.
A small marker file in the profile says that a sign-in happened there.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cpbot.core.dirs import data_dir
from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.registry import site_spec

# Browsers cpbot looks for on PATH when no executable is configured, most likely first.
EXECUTABLE_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "msedge")
MARKER_NAME = "cpbot-profile.json"
PROFILE_VERSION = 1


class BrowserSettings(BaseModel):
    """The `[browser]` table: which browser, how it is shown, how long a site's check may take."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True  # a site that answers with a challenge switches to the browser
    executable: Path | None = None  # default: the first of EXECUTABLE_NAMES on PATH
    cdp_url: str | None = None  # a browser the user runs with --remote-debugging-port, instead of launching one
    headless: bool | Literal["auto"] = "auto"  # auto: headless, a visible window when a check does not pass
    check_timeout_s: float = Field(default=20.0, gt=0)  # a check that passes by itself (headless)
    human_timeout_s: float = Field(default=300.0, gt=0)  # a check or sign-in done by the user in a window
    request_timeout_s: float = Field(default=60.0, gt=0)
    profiles: Path | None = None  # default: <data dir>/browser
    args: list[str] = []  # more Chromium flags, e.g. "--no-sandbox" where user namespaces are off, "--proxy-server=..."

    @classmethod
    def from_table(cls, table: object, source: str = "config.toml") -> BrowserSettings:
        """Settings from the `[browser]` table of config.toml (a ConfigError names a bad entry)."""
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [browser] must be a table", hint="see README, Browser transport")
        try:
            return cls.model_validate(table)
        except ValidationError as e:
            raise ConfigError(f"{source}: [browser] {first_problem(e)}", hint="see README, Browser transport") from None

    def profile_dir(self, site: str) -> Path:
        """The persistent profile of one site (created on first use)."""
        root = self.profiles or data_dir() / "browser"
        return root / site_spec(site).name

    def browser_path(self) -> Path:
        """The browser executable to launch: the configured one, else the first found on PATH."""
        if self.executable is not None:
            found = shutil.which(str(self.executable))
            if found is None:
                raise ConfigError(
                    f"the browser {self.executable} configured in [browser] executable does not exist",
                    hint="give the path of a Chromium or Chrome executable",
                )
            return Path(found)
        for name in EXECUTABLE_NAMES:
            found = shutil.which(name)
            if found:
                return Path(found)
        raise ConfigError(
            "no Chromium or Chrome found on PATH for the browser transport",
            hint="install one (Debian/Ubuntu: `apt-get install chromium`) or set [browser] executable = "
            '"/path/to/chrome" in config.toml',
        )


class ProfileMarker(BaseModel):
    """Written into a profile by `cpbot login --browser`: the site's session lives in this profile."""

    model_config = ConfigDict(extra="forbid")

    version: int = PROFILE_VERSION
    site: str
    signed_in_at: float


def mark_signed_in(profile: Path, site: str, now: float | None = None) -> None:
    """Record that the user signed in to `site` in `profile`."""
    profile.mkdir(parents=True, exist_ok=True)
    marker = ProfileMarker(site=site, signed_in_at=time.time() if now is None else now)
    (profile / MARKER_NAME).write_text(marker.model_dump_json() + "\n", encoding="utf-8")


def signed_in(profile: Path) -> ProfileMarker | None:
    """The marker of a profile a sign-in was made in, or None (no profile, no sign-in, unreadable marker)."""
    try:
        return ProfileMarker.model_validate_json((profile / MARKER_NAME).read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        return None


def has_display() -> bool:
    """Whether a visible browser window can be shown (always on macOS and Windows; X11 or Wayland on Linux)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
