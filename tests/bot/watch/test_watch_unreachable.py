"""`cpbot watch --once` when the contest lists cannot be read fails, and says so; an empty list is no error."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from tests.bot.watch.support import API_KEY, contest_site
from tests.conftest import REPO
from tests.fakes.server import FakeSiteServer


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


def _args(*extra: str) -> list[str]:
    return [
        "watch", "--site", "cf", "--lang", "python3", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
        "--api-key", API_KEY, "--within", "1", "--poll", "0.5", "--once", *extra,
    ]  # fmt: skip


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def test_once_with_an_unreachable_site_exits_non_zero_saying_the_lists_could_not_be_read(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_CODEFORCES_URL", f"http://127.0.0.1:{_closed_port()}")
    rc = main(_args())
    captured = capsys.readouterr()
    assert rc != 0
    assert "error: the contest lists were never read" in captured.err
    assert "hint: " in captured.err
    assert "are polled" not in captured.out + captured.err
    assert captured.out == ""


def test_once_with_a_readable_but_empty_list_exits_zero_without_promising_more_polls(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeSiteServer(contest_site(start_in_s=3 * 3600)) as server:  # beyond --within 1 h
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        rc = main(_args())
    captured = capsys.readouterr()
    assert rc == 0
    assert "no contest starting within 1 h to work on" in captured.out
    assert "are polled" not in captured.out + captured.err
    assert "could not be read" not in captured.err


def _without_model(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if not k.startswith(("CPBOT_", "OPENAI_"))}


def test_ctrl_c_after_the_lists_failed_says_they_were_never_read_and_exits_non_zero(tmp_path: Path) -> None:
    port = _closed_port()
    dead = f"http://127.0.0.1:{port}"
    env = {
        **_without_model(dict(os.environ)),
        "CPBOT_DATA_DIR": str(tmp_path / "data"),
        "CPBOT_CACHE_DIR": str(tmp_path / "cache"),
        "CPBOT_CODEFORCES_URL": dead,
        "CPBOT_LEETCODE_URL": dead,
    }
    args = [sys.executable, "-m", "cpbot", "watch", "--poll", "600"]  # all sites, no --once, no model
    proc = subprocess.Popen(args, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        seen: list[str] = []
        for line in proc.stderr:  # the watcher logs the failed poll, then waits 600 s for the next
            seen.append(line)
            if "contest list:" in line:
                break
        else:
            pytest.fail("the watcher never reported the failed poll:\n" + "".join(seen))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)  # safety nets only, as below
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = "".join(seen) + err
    assert proc.returncode not in (0, None)
    assert "error: the contest lists were never read" in err
    assert f"cannot reach 127.0.0.1:{port} (for codeforces.com)" in err  # the stand-in, not the public site
    assert "connection refused" in err
    assert "hint: " in err
    assert "no contest" not in out + err


def test_ctrl_c_before_the_first_listing_finished_does_not_claim_there_is_no_contest(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import threading

    from cpbot.scrapers import sites

    entered, release = threading.Event(), threading.Event()
    real_get_site = sites.get_site

    class SlowList:
        def __init__(self, site: object) -> None:
            self.site = site

        def __getattr__(self, name: str) -> object:
            return getattr(self.site, name)  # everything but the list is the real site's

        def upcoming_contests(self, client: object, now: object) -> list[object]:
            entered.set()
            release.wait(300)  # the list is still being read when Ctrl-C comes
            return []

    monkeypatch.setattr(sites, "get_site", lambda name: SlowList(real_get_site(name)))

    def interrupt() -> None:
        if entered.wait(300):
            os.kill(os.getpid(), signal.SIGINT)  # the watch's handler sets its stop event

    helper = threading.Thread(target=interrupt)
    helper.start()
    try:
        rc = main(["watch", "--site", "cf", "--poll", "600"])
    finally:
        release.set()
        helper.join()
    captured = capsys.readouterr()
    assert rc != 0
    assert "error: the contest lists were never read: cpbot watch stopped before the first listing finished" in (
        captured.err
    )
    assert "no contest" not in captured.out + captured.err
