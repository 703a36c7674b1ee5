"""`cpbot watch --submit` killed with SIGKILL at seeded random moments across a simulated contest and
restarted each time: it still settles every problem, the site never gets the same source twice, and the
transcript and state databases stay whole, with no gap in any run's event numbers."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cpbot.bot.submit.base import source_sha256
from tests.agents.support.scripted_server import Delay, ScriptedServer
from tests.bot.watch.support import CONTEST, contest_site, cookies_txt, model_answer
from tests.bot.watch.test_watch_e2e import watch_args
from tests.conftest import REPO
from tests.fakes.server import FakeSiteServer

KILLS = 20  # the slow tests' kills; the suite's own (FAST_KILLS) still hit every stage through the aims
FAST_KILLS = 6
SEED = 20261122
STALL_S = 120  # a safety net only: a process that neither asks for anything nor uses CPU this long is stuck


def slow_model(body: dict) -> Delay:
    # a model call takes a while, so that kills also land in the middle of solves
    return Delay(0.3, model_answer(body))


Aim = Callable[[dict[str, str]], bool]


def _kill_and_restart(
    tmp_path: Path,
    site,
    model: ScriptedServer,
    server: FakeSiteServer,
    args: list[str],
    rng: random.Random,
    aims: tuple[Aim, ...] = (),
    wanted: int = KILLS,
) -> tuple[int, list[dict[str, str]], subprocess.Popen[bytes]]:
    """Run `cpbot watch` (args), SIGKILL it and restart it, up to `wanted` times; then let a last process
    finish. The first kills land at the stages `aims` name (each as soon as the state shows it, so that
    every stage is hit however fast or loaded the machine is); the rest at seeded random moments. Returns
    the kills made, the statuses each kill left, and the last process."""
    env = {**os.environ, **server.env(), "CPBOT_DATA_DIR": str(tmp_path / "data")}

    def start() -> subprocess.Popen[bytes]:
        log = (tmp_path / "stderr.txt").open("ab")
        with log:
            return subprocess.Popen(args, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=log)

    def requests() -> int:
        return len(site.requests) + len(model.requests)

    kills = 0
    seen_at_kills: list[dict[str, str]] = []
    while kills < wanted:
        proc = start()
        if kills < len(aims):
            if not _reached(proc, requests, tmp_path / "data", aims[kills]):
                assert proc.returncode == 0, (tmp_path / "stderr.txt").read_text()[-2000:]
                break
        else:
            # a random moment, seeded: after the process made 1-3 more requests (to the site or the
            # model), plus up to 0.15 s; so every life makes some progress and kills hit every stage
            if not _progressed(proc, requests, rng.randint(1, 3)):
                assert proc.returncode == 0, (tmp_path / "stderr.txt").read_text()[-2000:]
                break  # it finished by itself: the contest is done
            time.sleep(rng.uniform(0.0, 0.15))
        if proc.poll() is not None:
            break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += 1
        seen_at_kills.append(_statuses(tmp_path / "data"))
    final = start()
    # however long a loaded machine makes the rest of the contest: only a stuck process fails
    watchdog = _Watchdog(final, requests)
    while final.poll() is None:
        watchdog.check()
        time.sleep(0.05)
    return kills, seen_at_kills, final


def test_watch_survives_kills_at_every_stage_without_a_duplicate_submission(tmp_path: Path) -> None:
    _survives_kills(tmp_path, FAST_KILLS)


@pytest.mark.slow
def test_watch_survives_twenty_kills_without_a_duplicate_submission(tmp_path: Path) -> None:
    _survives_kills(tmp_path, KILLS)


def _survives_kills(tmp_path: Path, wanted: int) -> None:
    rng = random.Random(SEED)
    site = contest_site(start_in_s=3.0)
    site.queued_polls = 1  # verdicts take a few polls, so kills also land while one is awaited
    site.testing_polls = 1
    data = tmp_path / "data"
    with FakeSiteServer(site) as server, ScriptedServer(default=slow_model) as model:
        args = [sys.executable, "-m", "cpbot", *watch_args(model, cookies_txt(tmp_path / "c.txt", site), "--submit")]
        args[args.index("--verdict-poll") + 1] = "0.1"
        args += ["--jobs", "1"]  # one problem at a time: a longer contest, more moments to kill it
        aims = (lambda statuses: statuses == {}, _at("solving"), _at("submitted"), _at("solved"))
        kills, seen_at_kills, final = _kill_and_restart(tmp_path, site, model, server, args, rng, aims, wanted)

    assert final.returncode == 0, (tmp_path / "stderr.txt").read_text()[-2000:]
    assert kills == wanted, f"the contest ended after {kills} kills; slow it down"
    statuses = {}
    with sqlite3.connect(data / "watch.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        statuses = dict(db.execute("SELECT problem_id, status FROM problems").fetchall())
        transitions = db.execute("SELECT COUNT(*) FROM transitions").fetchone()[0]
    assert set(statuses.values()) <= {"solved", "given_up"} and len(statuses) == 3, statuses
    assert transitions > 12
    # the kills really were spread over the contest: before it, while solving, while awaiting verdicts
    stages = {status for seen in seen_at_kills for status in seen.values()}
    assert {} in seen_at_kills and {"solving", "submitted"} <= stages and "solved" in stages, seen_at_kills

    # the site never received one source twice for a problem
    posted = [(s.problem_key, source_sha256(s.source)) for s in site.submissions]
    assert len(posted) == len(set(posted)), posted
    assert {key for key, _ in posted} <= {f"{CONTEST}{i}" for i in "ABC"}
    # each post is one ledger row, and the state's submissions are links to those rows
    with sqlite3.connect(data / "submissions.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        ledger = dict(db.execute("SELECT row_id, submission_id FROM submissions WHERE state = 'posted'").fetchall())
    db.close()
    assert sorted(ledger.values()) == sorted(str(s.id) for s in site.submissions)
    with sqlite3.connect(data / "watch.sqlite3") as db:
        links = [r[0] for r in db.execute("SELECT ledger_row FROM submissions").fetchall()]
    db.close()
    assert links and set(links) <= set(ledger)

    with sqlite3.connect(data / "transcripts.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = db.execute("SELECT run_id, COUNT(*), MIN(seq), MAX(seq) FROM events GROUP BY run_id").fetchall()
        gaps = [r for r in rows if not (r[2] == 1 and r[3] == r[1])]
        assert rows and gaps == []
        (contest_runs,) = db.execute("SELECT COUNT(*) FROM runs WHERE kind = 'contest'").fetchone()
        assert contest_runs == 1  # every restart resumed the same contest transcript
        running = db.execute("SELECT COUNT(*) FROM runs WHERE status = 'running'").fetchone()[0]
        assert running == 0


def _statuses(data: Path) -> dict[str, str]:
    """The problems' statuses as a killed process left them (empty before the contest began)."""
    path = data / "watch.sqlite3"
    if not path.exists():
        return {}
    with sqlite3.connect(path) as db:
        try:
            return dict(db.execute("SELECT problem_id, status FROM problems").fetchall())
        except sqlite3.OperationalError:  # killed before it made its tables
            return {}


class _Watchdog:
    """Waits on a process fail only when it is stuck: no new request and no CPU used for STALL_S. A busy
    machine slows the process down (its start-up alone can take a minute at load 40); it does not stop it."""

    def __init__(self, proc: subprocess.Popen[bytes], requests: Callable[[], int]) -> None:
        self.proc = proc
        self.requests = requests
        self.mark = self._mark()
        self.since = time.monotonic()

    def _mark(self) -> tuple[int, int]:
        return self.requests(), _cpu_ticks(self.proc.pid)

    def check(self) -> None:
        mark, now = self._mark(), time.monotonic()
        if mark != self.mark:
            self.mark, self.since = mark, now
        elif now - self.since > STALL_S:
            raise AssertionError(f"cpbot watch made no request and used no CPU for {STALL_S} s")


def _cpu_ticks(pid: int) -> int:
    """CPU used by the process and its reaped children (user and system, in clock ticks); 0 once gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime


def _reached(proc: subprocess.Popen[bytes], requests: Callable[[], int], data: Path, aim: Aim) -> bool:
    """Wait until the state shows the stage `aim` looks for (True) or the process exited (False)."""
    watchdog = _Watchdog(proc, requests)
    while not aim(_statuses(data)):
        if proc.poll() is not None:
            return False
        watchdog.check()
        time.sleep(0.005)
    return True


def _at(status: str) -> Aim:
    return lambda statuses: status in statuses.values()


def _progressed(proc: subprocess.Popen[bytes], requests: Callable[[], int], k: int) -> bool:
    """Wait until `k` more requests were made (True) or the process exited (False)."""
    target = requests() + k
    watchdog = _Watchdog(proc, requests)
    while requests() < target:
        if proc.poll() is not None:
            return False
        watchdog.check()
        time.sleep(0.005)
    return True


def test_kills_across_the_shadow_phase_the_end_and_the_practice_phase_lose_and_repeat_nothing(
    tmp_path: Path,
) -> None:
    _shadow_survives_kills(tmp_path, FAST_KILLS, least=4)


@pytest.mark.slow
def test_twenty_kills_across_the_shadow_phase_the_end_and_the_practice_phase_lose_and_repeat_nothing(
    tmp_path: Path,
) -> None:
    _shadow_survives_kills(tmp_path, KILLS, least=10)


def _shadow_survives_kills(tmp_path: Path, wanted: int, least: int) -> None:
    """A live rated round (not listed as allowing AI): shadow solving, waiting for the end, practice."""
    rng = random.Random(SEED + 1)
    site = contest_site(start_in_s=3.0, duration_s=30)
    round_ = site.cf_contests[CONTEST]
    round_.starts_after_first_list_s = 3.0  # the round's clock starts when cpbot first looks, not before
    round_.ranklist = [("tourist", 3000.0, 0, 3500), ("bob", 100.0, 0, 1200)]
    site.queued_polls = 1
    site.testing_polls = 1
    data = tmp_path / "data"
    with FakeSiteServer(site) as server, ScriptedServer(default=slow_model) as model:
        args = [sys.executable, "-m", "cpbot", *watch_args(model, cookies_txt(tmp_path / "c.txt", site), "--submit")]
        i = args.index("--ai-allowed")
        del args[i : i + 2]  # a rated round the rules forbid AI in: shadow, then practice
        args[args.index("--verdict-poll") + 1] = "0.1"
        args += ["--jobs", "1"]
        aims = (_at("solving"), _at("shadowed"))
        kills, seen_at_kills, final = _kill_and_restart(tmp_path, site, model, server, args, rng, aims, wanted)

    assert final.returncode == 0, (tmp_path / "stderr.txt").read_text()[-2000:]
    assert kills >= least, f"only {kills} kills landed"
    stages = {status for seen in seen_at_kills for status in seen.values()}
    assert {"solving", "shadowed"} <= stages, seen_at_kills
    with sqlite3.connect(data / "watch.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        statuses = dict(db.execute("SELECT problem_id, status FROM problems").fetchall())
        shadows = db.execute("SELECT problem_id, at_s FROM shadow_submissions").fetchall()
        participation, standing = db.execute("SELECT participation, standing_json FROM contests").fetchone()
    db.close()
    assert set(statuses.values()) <= {"solved", "given_up"} and len(statuses) == 3, statuses
    # a problem is shadowed at most once (a kill may keep one from being gated before the end)
    shadowed = [p for p, _ in shadows]
    assert shadowed and len(shadowed) == len(set(shadowed)) and set(shadowed) <= set(statuses), shadows
    assert all(0 <= at <= round_.duration_s for _, at in shadows)
    assert participation == "practice" and standing is not None
    # nothing during the round, nothing twice after it
    end = round_.start + round_.duration_s
    assert site.submissions and all(s.created >= end and s.practice for s in site.submissions)
    posted = [(s.problem_key, source_sha256(s.source)) for s in site.submissions]
    assert len(posted) == len(set(posted)), posted
    with sqlite3.connect(data / "transcripts.sqlite3") as db:
        rows = db.execute("SELECT run_id, COUNT(*), MIN(seq), MAX(seq) FROM events GROUP BY run_id").fetchall()
        assert rows and [r for r in rows if not (r[2] == 1 and r[3] == r[1])] == []
    db.close()
