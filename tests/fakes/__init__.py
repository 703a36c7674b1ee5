"""Fake sites on 127.0.0.1 that speak the real sites' protocols, for tests: one module per site.

`codeforces.py` and `leetcode.py` each hold one site's contests and problems and answer its requests;
`FakeSite` (state.py) holds what they share (sessions, submissions, the clock, blocks and walls);
`FakeSiteServer` (server.py) serves them all over HTTP, routing by path; `tests.fakes.fixtures` has
the pytest fixtures. Clients built with
`FakeSiteServer.client()` (or `cpbot.scrapers.endpoints.site_client` with `CPBOT_CODEFORCES_URL` /
`CPBOT_LEETCODE_URL` set to `server.url`) send every codeforces.com / leetcode.com request here.
"""

from tests.fakes.codeforces import CfContest, CfProblem, cf_problem
from tests.fakes.leetcode import LcContest, LcQuestion, lc_question
from tests.fakes.server import FakeSiteServer
from tests.fakes.state import FakeSite, FakeSubmission, Outcome, marker_policy

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
