"""Credentials: the 0600 file rule, round trips, and redaction registration."""

from __future__ import annotations

import json
import os

import pytest
from pydantic import SecretStr

from cpbot.bot.submit.credentials import (
    SiteCredentials,
    credentials_path,
    load_credentials,
    register_secrets,
    save_credentials,
    session_jar,
)
from cpbot.core.errors import ConfigError
from cpbot.core.redact import Redactor
from cpbot.scrapers.cookies import cookies_from_header


def test_saved_file_is_0600_and_loads_back(tmp_path):
    creds = SiteCredentials(site="codeforces", handle="me", password=SecretStr("pa55-word-xyz"))
    where = save_credentials(creds, directory=tmp_path, use_keyring=False)
    path = credentials_path(tmp_path)
    assert where == str(path) and (path.stat().st_mode & 0o777) == 0o600
    loaded = load_credentials("codeforces", directory=tmp_path, use_keyring=False)
    assert loaded is not None and loaded.password is not None
    assert loaded.password.get_secret_value() == "pa55-word-xyz"
    assert "pa55" not in repr(loaded)
    assert load_credentials("leetcode", directory=tmp_path, use_keyring=False) is None


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o660])
def test_group_or_world_readable_file_is_refused(tmp_path, mode):
    save_credentials(SiteCredentials(site="leetcode"), directory=tmp_path, use_keyring=False)
    os.chmod(credentials_path(tmp_path), mode)
    with pytest.raises(ConfigError) as err:
        load_credentials("leetcode", directory=tmp_path, use_keyring=False)
    assert "chmod 600" in err.value.hint and f"{mode:04o}" in err.value.message


def test_every_secret_and_cookie_value_is_registered_for_redaction():
    redactor = Redactor()
    creds = SiteCredentials(site="leetcode", session_cookies={"LEETCODE_SESSION": SecretStr("sess-value-123456")})
    jar = cookies_from_header("csrftoken=csrf-value-987654; cf_clearance=clear-555555", "leetcode.com")
    register_secrets(redactor.add, creds, jar)
    text = redactor.text("sess-value-123456 csrf-value-987654 clear-555555")
    assert "value" not in text and "clear-555555" not in text


def test_a_version_1_file_with_leetcodes_own_fields_loads_into_the_session_cookies(tmp_path):
    path = credentials_path(tmp_path)
    v1 = {"schema_version": 1, "sites": {"leetcode": {"site": "leetcode", "leetcode_session": "S1", "csrftoken": "C1"}}}
    path.write_text(json.dumps(v1))
    os.chmod(path, 0o600)
    creds = load_credentials("leetcode", directory=tmp_path, use_keyring=False)
    assert creds is not None
    assert {k: v.get_secret_value() for k, v in creds.session_cookies.items()} == {
        "LEETCODE_SESSION": "S1",
        "csrftoken": "C1",
    }
    assert {c.name: c.value for c in session_jar("leetcode", None, creds)} == {
        "LEETCODE_SESSION": "S1",
        "csrftoken": "C1",
    }
    save_credentials(SiteCredentials(site="codeforces", handle="me"), directory=tmp_path, use_keyring=False)
    rewritten = json.loads(path.read_text())
    assert rewritten["schema_version"] == 2
    assert rewritten["sites"]["leetcode"]["session_cookies"] == {"LEETCODE_SESSION": "S1", "csrftoken": "C1"}
