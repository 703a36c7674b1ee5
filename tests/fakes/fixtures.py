"""Pytest fixtures for the fake sites; other test directories import them into their conftest.py:

    from tests.fakes.fixtures import fake_server, fake_site  # noqa: F401

`fake_site` is a `FakeSite` with one running and one upcoming contest per site (see `populate`);
`fake_server` serves it on 127.0.0.1 for the test's duration.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.codeforces import cf_problem
from tests.fakes.leetcode import lc_question
from tests.fakes.server import FakeSiteServer
from tests.fakes.state import FakeSite

CF_RUNNING = 1873
CF_UPCOMING = 1900
LC_RUNNING = "weekly-contest-400"
LC_UPCOMING = "weekly-contest-401"


def populate(site: FakeSite) -> FakeSite:
    """The default contests: CF 1873 (running, A/B/C from recorded pages), CF 1900 (in an hour),
    LeetCode weekly-contest-400 (running) and weekly-contest-401 (in an hour)."""
    site.add_cf_contest(
        CF_RUNNING,
        "Codeforces Round 900 (Div. 4)",
        start_in_s=-600,
        problems=[
            cf_problem("cf_1702A_modern_single_line_cases", "A"),
            cf_problem("cf_1810B_modern_trailing_spaces_output", "B"),
            cf_problem("cf_1926C_modern_0.5s_display_math", "C"),
        ],
    )
    site.add_cf_contest(
        CF_UPCOMING,
        "Codeforces Round 901 (Div. 2)",
        start_in_s=3600,
        problems=[cf_problem("cf_2141A_modern_multiline_empty_output_line", "A")],
    )
    site.add_lc_contest(
        LC_RUNNING,
        "Weekly Contest 400",
        start_in_s=-600,
        questions=[lc_question("lc_decode-ways_example_block"), lc_question("lc_group-anagrams_any_order_output")],
    )
    site.add_lc_contest(
        LC_UPCOMING, "Weekly Contest 401", start_in_s=3600, questions=[lc_question("lc_reverse-bits_manual_unsigned")]
    )
    return site


@pytest.fixture
def fake_site() -> FakeSite:
    """A fresh, populated fake site (not yet served)."""
    return populate(FakeSite())


@pytest.fixture
def fake_server(fake_site: FakeSite) -> Iterator[FakeSiteServer]:
    """`fake_site` served on 127.0.0.1 (random port) for one test."""
    with FakeSiteServer(fake_site) as server:
        yield server
