"""Every command reaches a site through the one client factory, so the base URL the environment names
(`CPBOT_CODEFORCES_URL`, `CPBOT_LEETCODE_URL`) holds for fetching, solving, watching and submitting."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpbot.bot.commands.solve as solve_module
from cpbot.bot.app.sources import load_source
from cpbot.bot.commands.fetch import fetch
from cpbot.bot.submit.base import submitter_for
from cpbot.judge.model import Solution
from cpbot.scrapers.cookies import cookies_from_header
from cpbot.scrapers.endpoints import site_client
from tests.bot.submit.conftest import CF_B, LC_DECODE
from tests.fakes import FakeSiteServer

CPP = '#include <bits/stdc++.h>\nint main() { std::puts("1"); }\n'


@pytest.fixture
def env_points_at(fake_server: FakeSiteServer, monkeypatch: pytest.MonkeyPatch) -> FakeSiteServer:
    for name, value in fake_server.env().items():
        monkeypatch.setenv(name, value)
    return fake_server


def test_fetch_the_solve_loader_and_the_submitter_reach_the_host_the_environment_names(
    env_points_at: FakeSiteServer, ledger, tmp_path: Path
) -> None:
    site = env_points_at.site
    result = CliRunner().invoke(fetch, [CF_B, "-o", str(tmp_path / "B")])
    assert result.exit_code == 0, result.output
    # `cpbot solve` loads its problem with this loader (imported inside the command, for a quick start-up)
    assert "from cpbot.bot.app.sources import load_source" in inspect.getsource(solve_module)
    problem = load_source(CF_B)
    jar = cookies_from_header(f"JSESSIONID={site.cf_session}", "codeforces.com")
    with site_client(cookies=jar) as client:
        submitter = submitter_for(problem, client=client, ledger=ledger)
        submission_id = submitter.submit(problem, Solution(language="cpp17", source=CPP))
    fetched = [m for m, p in site.requests if p == "/contest/1873/problem/B"]
    assert fetched == ["GET", "GET"]  # once by `cpbot fetch`, once by the loader
    assert site.posts("/contest/1873/submit") == 1
    assert site.submissions[-1].id == int(submission_id) and site.submissions[-1].problem_key == "1873B"


def test_a_leetcode_problem_is_fetched_and_its_submitter_found_through_the_registry(
    env_points_at: FakeSiteServer, ledger
) -> None:
    site = env_points_at.site
    problem = load_source(LC_DECODE)
    jar = cookies_from_header(f"LEETCODE_SESSION={site.lc_session}; csrftoken={site.lc_csrf}", "leetcode.com")
    with site_client(cookies=jar) as client:
        submitter = submitter_for(problem, client=client, ledger=ledger)
        assert submitter.site == "leetcode"
        submitter.submit(problem, Solution(language="pypy3", source="class Solution:\n    pass\n"))
    assert site.submissions[-1].language == "python3"  # LeetCode's langSlug for the Python family
