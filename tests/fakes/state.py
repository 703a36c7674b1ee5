"""The fake sites' shared state: sessions, submissions, blocks; each site's contests (its own module's classes).

Everything is deterministic: time comes from `FakeSite.clock` (tests may replace it), a verdict moves
from queued to testing to final by the number of times it was looked at, not by wall time, and the
final verdict comes from `FakeSite.policy` (default `marker_policy`: accepted unless the source holds a
marker such as `FAKE:WA:3`).
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from tests.fakes.atcoder import FakeAtCoder
from tests.fakes.codeforces import CfContest, CfProblem, cf_languages
from tests.fakes.leetcode import LcContest, LcQuestion
from tests.fakes.wall import BotWall

Block = Literal["captcha", "cloudflare"]
BlockScope = Literal["pages", "submit", "all"]

_MARKER = re.compile(r"FAKE:(WA|TLE|MLE|RE|CE)(?::(\d+))?")
_MARKER_VERDICT = {
    "WA": "WRONG_ANSWER",
    "TLE": "TIME_LIMIT_EXCEEDED",
    "MLE": "MEMORY_LIMIT_EXCEEDED",
    "RE": "RUNTIME_ERROR",
    "CE": "COMPILATION_ERROR",
}


@dataclass
class Outcome:
    """The final verdict of a submission, in Codeforces' words (`OK`, `WRONG_ANSWER`, ...)."""

    verdict: str = "OK"
    failed_test: int | None = None  # 1-based; None when accepted or for a compile error
    total_tests: int = 12
    time_ms: int = 46
    memory_kb: int = 3400


@dataclass
class FakeSubmission:
    """One submission the fake site accepted into its queue."""

    id: int
    site: Literal["codeforces", "leetcode"]
    problem_key: str  # "1873B" or the LeetCode slug
    source: str
    language: str  # Codeforces: the option text; LeetCode: the lang slug
    handle: str
    created: float
    outcome: Outcome
    contest_id: int | None = None
    index: str | None = None
    polls: int = 0
    practice: bool = False  # sent after its contest ended (or outside any contest): no standing counts it

    def observe(self, queued_polls: int, testing_polls: int) -> tuple[str, bool]:
        """Look at the submission once: its stage ("queued", "testing", "final") and whether final."""
        k = self.polls
        self.polls += 1
        if k < queued_polls:
            return "queued", False
        if k < queued_polls + testing_polls:
            return "testing", False
        return "final", True


def marker_policy(sub: FakeSubmission) -> Outcome:
    """Accept unless the source holds `FAKE:WA:3`, `FAKE:TLE:5`, `FAKE:RE:2`, `FAKE:MLE:4` or `FAKE:CE`."""
    m = _MARKER.search(sub.source)
    if not m:
        return Outcome()
    verdict = _MARKER_VERDICT[m.group(1)]
    if verdict == "COMPILATION_ERROR":
        return Outcome(verdict=verdict, failed_test=None, time_ms=0, memory_kb=0)
    return Outcome(verdict=verdict, failed_test=int(m.group(2) or 1))


class FakeSite:
    """All the state of both fake sites; every method is thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.lock = threading.RLock()
        self.atcoder = FakeAtCoder(clock)  # AtCoder keeps its own contests and submissions (tests.fakes.atcoder)
        self.policy: Callable[[FakeSubmission], Outcome] = marker_policy
        self.queued_polls = 1  # observations that see the submission queued (no verdict yet)
        self.testing_polls = 1  # then observations that see it TESTING / STARTED
        self.block: Block | None = None
        self.block_scope: BlockScope = "pages"
        self.wall: BotWall | None = None  # a challenge page a real browser gets through (`wall.py`)
        self.autofill_login = False  # the login pages fill in and send the account's password (the user)
        self.logged_out = False  # every session is treated as expired
        # Codeforces accounts and sessions
        self.cf_handle = "cpbot_tester"
        self.cf_password = "correct horse battery"
        self.cf_session = "cfsess-" + secrets.token_hex(12)  # a valid JSESSIONID (for cookies.txt)
        self.cf_sessions: dict[str, str] = {self.cf_session: self.cf_handle}
        self.cf_csrf = secrets.token_hex(16)
        # the value the site's JavaScript puts in the forms' hidden _tta field; a post must echo it
        self.cf_tta = str(100 + secrets.randbelow(900))
        self.cf_languages = cf_languages()
        self.cf_contests: dict[int, CfContest] = {}
        # LeetCode session
        self.lc_user = "cpbot_tester"
        self.lc_session = "lcsess-" + secrets.token_hex(16)
        self.lc_csrf = "lccsrf-" + secrets.token_hex(12)
        self.lc_password = "correct horse battery"
        self.lc_contests: dict[str, LcContest] = {}
        self.ranking_pages: list[int] = []  # the LeetCode ranking pages asked for, in order
        self.lc_questions: dict[str, LcQuestion] = {}
        # submissions and counters
        self.submissions: list[FakeSubmission] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of every request
        self.rejected: Counter[str] = Counter()  # why a submit POST was refused
        self._next_id = {"codeforces": 240000001, "leetcode": 1300000001}

    # ---- setting up ----

    def add_cf_contest(
        self,
        contest_id: int,
        name: str,
        *,
        start_in_s: float,
        problems: list[CfProblem],
        duration_s: int = 7200,
    ) -> CfContest:
        """A contest starting `start_in_s` seconds from now (negative: already started)."""
        with self.lock:
            contest = CfContest(contest_id, name, self.clock() + start_in_s, duration_s, problems)
            self.cf_contests[contest_id] = contest
            return contest

    def add_lc_contest(
        self, slug: str, title: str, *, start_in_s: float, questions: list[LcQuestion], duration_s: int = 5400
    ) -> LcContest:
        """A LeetCode contest starting `start_in_s` seconds from now; its questions become public then."""
        with self.lock:
            contest = LcContest(slug, title, self.clock() + start_in_s, duration_s, questions)
            self.lc_contests[slug] = contest
            for q in questions:
                self.lc_questions[q.slug] = q
            return contest

    def add_lc_question(self, question: LcQuestion) -> None:
        """A question outside any contest (always public)."""
        with self.lock:
            self.lc_questions[question.slug] = question

    # ---- queries used by the server and by tests ----

    def lc_contest_of(self, slug: str) -> LcContest | None:
        return next((c for c in self.lc_contests.values() if any(q.slug == slug for q in c.questions)), None)

    def lc_over(self, slug: str) -> bool:
        """Whether a question is outside any running contest: its contest has ended, or it has none."""
        contest = self.lc_contest_of(slug)
        return contest is None or self.clock() >= contest.start + contest.duration_s

    def lc_public(self, slug: str) -> LcQuestion | None:
        """The question if it exists and its contest (if any) has started."""
        q = self.lc_questions.get(slug)
        contest = self.lc_contest_of(slug)
        if q is None or (contest is not None and not contest.started(self.clock())):
            return None
        return q

    def count(self, problem_key: str, site: str | None = None) -> int:
        """How many submissions the site accepted for a problem ("1873B", "two-sum")."""
        with self.lock:
            return sum(1 for s in self.submissions if s.problem_key == problem_key and site in (None, s.site))

    def posts(self, path_part: str) -> int:
        """How many POST requests had `path_part` in their path (e.g. "/submit")."""
        with self.lock:
            return sum(1 for m, p in self.requests if m == "POST" and path_part in p)

    def new_submission(self, **kw: Any) -> FakeSubmission:
        with self.lock:
            site = kw["site"]
            sub_id = self._next_id[site]
            self._next_id[site] += 1
            sub = FakeSubmission(id=sub_id, created=self.clock(), outcome=Outcome(), **kw)
            sub.outcome = self.policy(sub)
            self.submissions.append(sub)
            return sub

    def submission(self, site: str, sub_id: int) -> FakeSubmission | None:
        with self.lock:
            return next((s for s in self.submissions if s.site == site and s.id == sub_id), None)
