"""`cpbot fetch`, `cpbot listen` and `cpbot contests`, invoked through click's CliRunner."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import threading
import time
from pathlib import Path

from click.testing import CliRunner
from pytest_httpx import HTTPXMock

from cpbot.bot.commands.contests import contests
from cpbot.bot.commands.fetch import fetch
from cpbot.bot.commands.listen import listen
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem
from cpbot.scrapers.blocking import BlockedError
from tests.scrapers.scraper_support import fixture_path


def test_fetch_a_saved_codeforces_page_writes_problem_json_and_tests(tmp_path: Path) -> None:
    page = fixture_path("codeforces", "cf_2141A_modern_multiline_empty_output_line.html")
    result = CliRunner().invoke(
        fetch, [str(page), "-o", str(tmp_path / "A"), "--url", "https://codeforces.com/contest/2141/problem/A"]
    )
    assert result.exit_code == 0, result.output
    problem = Problem.model_validate_json((tmp_path / "A" / "problem.json").read_text(encoding="utf-8"))
    assert problem.id == "codeforces:2141A"
    assert (
        tmp_path / "A" / "tests" / "sample-1.in"
    ).read_bytes() == b"4\n3\n1 2 3\n4\n4 6 2 1\n1\n100\n6\n7 5 8 4 6 2\n"
    assert (tmp_path / "A" / "tests" / "sample-1.out").read_bytes() == b"2\n2 3\n1\n2\n0\n\n2\n3 5\n"
    assert "codeforces:2141A" in result.output


def test_fetch_an_all_problems_page_writes_one_folder_per_problem(tmp_path: Path) -> None:
    page = fixture_path("codeforces", "cf_gym245042_complete_problems_page.html")
    result = CliRunner().invoke(fetch, [str(page), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"245042{chr(c)}" for c in range(ord("A"), ord("T") + 1)]
    assert (tmp_path / "245042B" / "tests" / "sample-1.out").read_text() == "8\n198\n-17\n2999997\n0\n1\n"


def test_refetching_with_force_replaces_old_samples_but_keeps_user_tests(tmp_path: Path) -> None:
    folder = tmp_path / "630B"
    tests = folder / "tests"
    tests.mkdir(parents=True)
    (tests / "sample-9.in").write_text("stale")
    (tests / "mine.in").write_text("1\n")
    page = fixture_path("codeforces", "cf_630B_old_br_0.5s_64mb_tex_span.html")
    # without --force the folder is kept as it is (a sample would go) and the problem goes beside it
    assert CliRunner().invoke(fetch, [str(page), "-o", str(folder)]).exit_code == 0
    assert sorted(p.name for p in tests.iterdir()) == ["mine.in", "sample-9.in"]
    assert (tmp_path / "630B-2" / "tests" / "sample-1.in").is_file()
    assert CliRunner().invoke(fetch, [str(page), "-o", str(folder), "--force"]).exit_code == 0
    assert sorted(p.name for p in tests.iterdir()) == ["mine.in", "sample-1.in", "sample-1.out"]


def test_fetch_json_prints_the_problem_and_detects_a_leetcode_answer(tmp_path: Path) -> None:
    answer = fixture_path("leetcode", "lc_lru-cache_design.json")
    result = CliRunner().invoke(fetch, [str(answer), "-o", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    problem = Problem.model_validate_json(result.output)
    assert problem.id == "leetcode:lru-cache" and problem.signature is not None
    assert (tmp_path / "tests" / "sample-1.out").read_text() == "[null, null, null, 1, null, -1, null, -1, 3, 4]"


def test_fetch_url_downloads_the_english_page(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    page = fixture_path("codeforces", "cf_1081E_old_br_3samples_prettified.html").read_bytes()
    httpx_mock.add_response(url="https://codeforces.com/contest/1081/problem/E?locale=en", content=page)
    result = CliRunner().invoke(fetch, ["https://codeforces.com/contest/1081/problem/E", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "problem.json").read_text())["url"] == "https://codeforces.com/contest/1081/problem/E"


def test_fetch_behind_cloudflare_fails_with_the_import_cookies_or_listen_hint(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(status_code=403, html="<html><head><title>Just a moment...</title></head></html>")
    result = CliRunner().invoke(fetch, ["https://codeforces.com/contest/1873/problem/B", "-o", str(tmp_path)])
    assert result.exit_code != 0
    assert isinstance(result.exception, BlockedError)
    assert "cpbot listen" in result.exception.hint
    assert not (tmp_path / "problem.json").exists()


def test_fetch_of_a_missing_file_is_a_config_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(fetch, [str(tmp_path / "nope.html")])
    assert isinstance(result.exception, ConfigError)


def test_fetch_of_unrecognisable_content_asks_for_site(tmp_path: Path) -> None:
    junk = tmp_path / "junk.html"
    junk.write_text("<html><body>hello</body></html>")
    result = CliRunner().invoke(fetch, [str(junk)])
    assert isinstance(result.exception, ConfigError)
    assert "--site" in result.exception.hint


def test_contests_lists_upcoming_codeforces_rounds(httpx_mock: HTTPXMock) -> None:
    body = fixture_path("codeforces", "api", "api_contest.list_2022-08-14.json").read_bytes()
    httpx_mock.add_response(content=body)
    result = CliRunner().invoke(contests, ["--site", "codeforces", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    assert len(listed) == 4 and {c["phase"] for c in listed} == {"BEFORE"}
    assert listed[0]["start"] <= listed[-1]["start"]


def test_contests_on_every_site_reports_a_failing_site_and_lists_the_others(httpx_mock: HTTPXMock) -> None:
    body = fixture_path("codeforces", "api", "api_contest.list_2022-08-14.json").read_bytes()
    httpx_mock.add_response(url="https://codeforces.com/api/contest.list?gym=false", content=body)
    httpx_mock.add_response(url="https://leetcode.com/graphql", status_code=403, html="<title>Just a moment...</title>")
    httpx_mock.add_response(url="https://atcoder.jp/contests/?lang=en", html="<html><body></body></html>")
    result = CliRunner().invoke(contests, [])
    assert result.exit_code == 0
    assert "warning: leetcode" in result.stderr
    assert len(result.stdout.splitlines()) == 4


def test_contests_with_every_site_failing_is_one_error_naming_each(httpx_mock: HTTPXMock) -> None:
    from cpbot.core.errors import CpbotError

    page = "<title>Just a moment...</title>"
    httpx_mock.add_response(url="https://codeforces.com/api/contest.list?gym=false", status_code=403, html=page)
    httpx_mock.add_response(url="https://leetcode.com/graphql", status_code=403, html=page, is_reusable=True)
    httpx_mock.add_response(url="https://atcoder.jp/contests/?lang=en", status_code=403, html=page, is_reusable=True)
    result = CliRunner().invoke(contests, [])
    assert isinstance(result.exception, CpbotError)
    assert "codeforces:" in result.exception.message and "leetcode:" in result.exception.message
    assert "atcoder:" in result.exception.message
    assert "warning" not in result.stderr, "no per-site warning before the error that already names them"


def test_contests_for_leetcode_reads_upcoming_contests(httpx_mock: HTTPXMock) -> None:
    answer = {
        "data": {
            "upcomingContests": [
                {
                    "title": "Weekly Contest 9999",
                    "titleSlug": "weekly-contest-9999",
                    "startTime": 4102444800,
                    "duration": 5400,
                }
            ]
        }
    }
    httpx_mock.add_response(url="https://leetcode.com/graphql", json=answer)
    result = CliRunner().invoke(contests, ["--site", "leetcode"])
    assert result.exit_code == 0, result.output
    assert "2100-01-01 00:00 UTC  1h30  leetcode    BEFORE    Weekly Contest 9999" in result.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post_when_ready(port: int, bodies: list[bytes]) -> None:
    deadline = time.monotonic() + 300  # a safety net only: on a loaded machine the server starts late
    for body in bodies:
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("POST", "/", body=body, headers={"Content-Type": "application/json"})
                conn.getresponse().read()
                conn.close()
                break
            except ConnectionRefusedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)


def test_listen_saves_each_problem_of_a_batch_and_stops_after_it(tmp_path: Path) -> None:
    port = _free_port()
    bodies = [
        json.dumps(
            {
                "name": f"{i}. P{i}",
                "group": "Codeforces - Round",
                "url": f"https://codeforces.com/contest/5/problem/{i}",
                "memoryLimit": 256,
                "timeLimit": 1000,
                "tests": [{"input": f"{n}\n", "output": f"{n * 2}\n"}],
                "batch": {"id": "b1", "size": 2},
            }
        ).encode()
        for n, i in enumerate("AB", start=1)
    ]
    poster = threading.Thread(target=_post_when_ready, args=(port, bodies), daemon=True)
    poster.start()
    finished = threading.Event()
    # Should the batch never complete, interrupt the server (as Ctrl-C would) rather than hang; the limit is
    # a safety net only, far beyond what a loaded machine needs.
    watchdog = threading.Timer(300, lambda: finished.is_set() or os.kill(os.getpid(), signal.SIGINT))
    watchdog.start()
    try:
        result = CliRunner().invoke(listen, ["--port", str(port), "-o", str(tmp_path), "--batches", "1"])
    finally:
        finished.set()
        watchdog.cancel()
    poster.join(timeout=300)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "5A" / "tests" / "sample-1.in").read_text() == "1\n"
    assert (tmp_path / "5B" / "tests" / "sample-1.out").read_text() == "4\n"
    assert "[2/2]" in result.output


def test_listen_never_overwrites_a_saved_problem_without_force(tmp_path: Path) -> None:
    from cpbot.bot.app.problem_folder import free_dir

    taken = tmp_path / "5A"
    taken.mkdir()
    (tmp_path / "5A-2").mkdir()
    assert free_dir(taken, force=False) == tmp_path / "5A-3"
    assert free_dir(taken, force=True) == taken
    assert free_dir(tmp_path / "5B", force=False) == tmp_path / "5B"
