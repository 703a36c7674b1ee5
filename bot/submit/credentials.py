"""Site credentials: from the keyring when the `keyring` package is installed, else a 0600 file.

The file is `credentials.json` in the user config dir (`CPBOT_CONFIG_DIR` overrides the dir); a file
that the group or others can read is refused. Secrets are `SecretStr` (never printed) and every one
is handed to the transcript store's redaction with `register_secrets`.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, SecretStr, ValidationError, model_validator

from cpbot.core.dirs import config_dir
from cpbot.core.errors import ConfigError
from cpbot.core.registry import site_spec
from cpbot.scrapers.cookies import cookies_from_header, load_cookies_txt

SCHEMA_VERSION = 2  # 2: a site's session cookies in one `session_cookies` map
FILE_NAME = "credentials.json"
# version 1 field -> the cookie it held
_V1_COOKIE_FIELDS = {"leetcode_session": "LEETCODE_SESSION", "csrftoken": "csrftoken"}
KEYRING_SERVICE = "cpbot"


class SiteCredentials(BaseModel):
    """What cpbot may use to act as the user on one site."""

    model_config = ConfigDict(extra="forbid")

    site: str
    cookies_file: Path | None = None  # a Netscape cookies.txt exported from the browser
    handle: str | None = None
    password: SecretStr | None = None
    # cookie values typed in at `cpbot login` (the site's `session_cookies`, e.g. LeetCode's two)
    session_cookies: dict[str, SecretStr] = {}

    @model_validator(mode="before")
    @classmethod
    def _from_version_1(cls, data: Any) -> Any:
        """Version 1 kept LeetCode's two session cookies in fields of their own."""
        if isinstance(data, dict) and any(old in data for old in _V1_COOKIE_FIELDS):
            data = dict(data)
            cookies = dict(data.get("session_cookies") or {})
            for field, cookie in _V1_COOKIE_FIELDS.items():
                value = data.pop(field, None)
                if value:
                    cookies[cookie] = value
            data["session_cookies"] = cookies
        return data

    def secrets(self) -> list[str]:
        """The secret values, for redaction."""
        values = [self.password, *self.session_cookies.values()]
        return [s.get_secret_value() for s in values if s and s.get_secret_value()]


class CredentialsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION  # files of version 1 are read (and rewritten as 2 when saved)
    sites: dict[str, SiteCredentials] = {}


def credentials_path(directory: Path | None = None) -> Path:
    return (directory or config_dir()) / FILE_NAME


def _keyring() -> Any | None:
    try:
        import keyring  # optional dependency
    except ImportError:
        return None
    return keyring


def load_credentials(site: str, *, directory: Path | None = None, use_keyring: bool = True) -> SiteCredentials | None:
    """The stored credentials of `site` (keyring first, then the file), or None."""
    kr = _keyring() if use_keyring else None
    if kr is not None:
        stored = kr.get_password(KEYRING_SERVICE, site)
        if stored:
            try:
                return SiteCredentials.model_validate_json(stored)
            except ValidationError as e:
                raise ConfigError(f"the keyring entry {KEYRING_SERVICE}/{site} is not cpbot credentials") from e
    path = credentials_path(directory)
    if not path.exists():
        return None
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"{path} can be read by other users (mode {stat.S_IMODE(mode):04o}); cpbot will not use it",
            hint=f"chmod 600 {path}",
        )
    try:
        data = CredentialsFile.model_validate_json(path.read_bytes())
    except ValidationError as e:
        raise ConfigError(f"{path} is not a cpbot credentials file: {e.errors()[0]['msg']}") from None
    return data.sites.get(site)


def save_credentials(creds: SiteCredentials, *, directory: Path | None = None, use_keyring: bool = True) -> str:
    """Store credentials in the keyring if there is one, else in the 0600 file; returns where."""
    kr = _keyring() if use_keyring else None
    if kr is not None:
        kr.set_password(KEYRING_SERVICE, creds.site, _dump(creds))
        return f"keyring {KEYRING_SERVICE}/{creds.site}"
    path = credentials_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = CredentialsFile()
    if path.exists():
        data = CredentialsFile.model_validate_json(path.read_bytes())
        data.schema_version = SCHEMA_VERSION
    data.sites[creds.site] = creds
    _write_file(path, data)
    return str(path)


def _write_file(path: Path, data: CredentialsFile) -> None:
    payload = {"schema_version": data.schema_version, "sites": {k: json.loads(_dump(v)) for k, v in data.sites.items()}}
    # create with 0600 from the start, so the secret is never readable by others even briefly
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(payload, f, indent=2)
    os.chmod(path, 0o600)


def forget_credentials(site: str, *, directory: Path | None = None, use_keyring: bool = True) -> list[str]:
    """Remove the stored credentials of `site` from the keyring and the file; returns where they were."""
    removed = []
    kr = _keyring() if use_keyring else None
    if kr is not None and kr.get_password(KEYRING_SERVICE, site):
        kr.delete_password(KEYRING_SERVICE, site)
        removed.append(f"keyring {KEYRING_SERVICE}/{site}")
    path = credentials_path(directory)
    if path.exists():
        data = CredentialsFile.model_validate_json(path.read_bytes())
        if data.sites.pop(site, None) is not None:
            _write_file(path, data)
            removed.append(str(path))
    return removed


def _dump(creds: SiteCredentials) -> str:
    data = creds.model_dump(mode="json")
    data["password"] = creds.password.get_secret_value() if creds.password else None
    data["session_cookies"] = {name: value.get_secret_value() for name, value in creds.session_cookies.items()}
    return json.dumps(data)


def session_jar(site: str, cookies: Path | None, creds: SiteCredentials | None) -> CookieJar | None:
    """The cookies to act with: `cookies` (a cookies.txt), else the stored credentials' cookies file,
    plus the session cookie values stored for the site (LeetCode's LEETCODE_SESSION and csrftoken)."""
    path = cookies or (creds.cookies_file if creds else None)
    jar = load_cookies_txt(path) if path else None
    if creds and creds.session_cookies:
        pairs = "; ".join(f"{name}={value.get_secret_value()}" for name, value in creds.session_cookies.items())
        extra = cookies_from_header(pairs, site_spec(site).domain)
        if jar is None:
            return extra
        for c in extra:
            jar.set_cookie(c)
    return jar


def jar_secrets(jar: CookieJar | None) -> list[str]:
    """Every cookie value of a jar: all of them are treated as secrets."""
    return [c.value for c in jar] if jar is not None else []


def register_secrets(
    add: Callable[[str], None], creds: SiteCredentials | None = None, jar: CookieJar | None = None
) -> None:
    """Hand every secret in use to `add` (`TranscriptStore.add_secret` or `Redactor.add`)."""
    for secret in [*(creds.secrets() if creds else []), *jar_secrets(jar)]:
        add(secret)
