"""A fake Codeforces + LeetCode on 127.0.0.1 that speaks the sites' real protocols, for tests.

`FakeSite` (state.py) holds contests, sessions and submissions; `FakeSiteServer` (server.py) serves
them over HTTP; `tests.fakesite.fixtures` has the pytest fixtures. Clients built with
`FakeSiteServer.client()` (or `cpbot.scrapers.endpoints.site_client` with `CPBOT_CODEFORCES_URL` /
`CPBOT_LEETCODE_URL` set to `server.url`) send every codeforces.com / leetcode.com request here.
"""

from tests.fakesite.server import FakeSiteServer
from tests.fakesite.state import (
    CfContest,
    CfProblem,
    FakeSite,
    FakeSubmission,
    LcContest,
    LcQuestion,
    Outcome,
    cf_problem,
    lc_question,
    marker_policy,
)

__all__ = [
    "CfContest",
    "CfProblem",
    "FakeSite",
    "FakeSiteServer",
    "FakeSubmission",
    "LcContest",
    "LcQuestion",
    "Outcome",
    "cf_problem",
    "lc_question",
    "marker_policy",
]
