"""Hostile inputs, one or two per class of input from outside, each through the command a user runs; prints
for each whether cpbot contained it, how it ended, and the peak memory (RSS) of the cpbot process.

    .venv/bin/python scripts/perf/hostile_inputs.py                      # this checkout
    .venv/bin/python scripts/perf/hostile_inputs.py --cpbot OTHER/.venv/bin/cpbot   # another (e.g. main)

A case's process is killed past 3 GB of RSS or its time; the model and site servers are stand-ins on
127.0.0.1 (`cpbot.testing.scripted_server`, small http.server handlers here)."""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KILL_RSS_MB = 3072
KEY = "sk-live0123456789abcdefghijklmnop"
ESC = "\x1b]0;pwned\x07\x1b[2J"
TROJAN = "if (role != \u202e\u2066 admin\u2069\u2066) {\u200b"  # Trojan Source: bidi override, isolates


@dataclass
class Ran:
    code: int | None  # None: killed (time or memory)
    out: str
    err: str
    seconds: float
    peak_mb: float
    why_killed: str = ""

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.err

    def ending(self) -> str:
        if self.code is None:
            return f"killed: {self.why_killed}"
        last = next((line for line in reversed(self.err.strip().splitlines()) if line.strip()), "")
        kind = "traceback" if self.traceback else f"exit {self.code}"
        return f"{kind}: {last[:90]}" if last else kind


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run(cpbot: str, args: list[str], env: dict[str, str], cwd: Path, timeout: float = 60) -> Ran:
    """`cpbot ARGS`, watched: killed past `timeout` s or `KILL_RSS_MB`; peak RSS from the kernel (wait4)."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [cpbot, *args],
            stdout=out,
            stderr=err,
            cwd=cwd,
            env={**os.environ, **env},
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        why = ""
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout:
                why = f"still running after {timeout:.0f} s"
            elif _rss_mb(proc.pid) > KILL_RSS_MB:
                why = f"RSS past {KILL_RSS_MB} MB"
            if why:
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Ran(
            None if why else proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            time.monotonic() - started,
            usage.ru_maxrss / 1024,
            why,
        )


# ---- stand-ins on 127.0.0.1 ----------------------------------------------------------------------------


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        if "trickle" in self.path:
            self.end_headers()
            try:
                while True:  # one byte a second, each well within a read timeout
                    self.wfile.write(b"x")
                    time.sleep(1.0)
            except OSError:
                return
        if "bomb" in self.path:
            body = _GZIP_BOMB
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.end_headers()
        try:
            while True:  # an endless page
                self.wfile.write(b"<p>" + b"x" * 65533)
        except OSError:
            return

    def log_message(self, *args: object) -> None:
        pass


def _gzip_bomb(mb: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    return b"".join(packer.compress(block) for _ in range(mb)) + packer.flush()


_GZIP_BOMB = b""


def serve(handler: type[BaseHTTPRequestHandler]) -> tuple[str, ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


# ---- the cases -------------------------------------------------------------------------------------------


@dataclass
class Case:
    klass: str
    name: str
    go: Callable[[str, Path, dict[str, str]], tuple[bool, Ran]]  # (contained, how it ran)


def _problem(path: Path, samples: list[dict[str, object]], **more: object) -> Path:
    path.write_text(json.dumps({"title": "Sum", "statement": "Print a+b.", "samples": samples, **more}))
    return path


def names_dotdot(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    source = _problem(work / "p.json", [{"input": "1\n", "output": "1\n", "name": "../../escaped"}])
    out = work / "a" / "out"
    ran = run(cpbot, ["fetch", str(source), "-o", str(out)], env, work)
    stray = [p for p in work.rglob("*") if p.is_file() and not p.is_relative_to(out) and p != source]
    return not stray, ran


def names_absolute(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    target = work / "abs" / "planted"
    (work / "abs").mkdir()
    source = _problem(work / "p.json", [{"input": "1\n", "output": "1\n", "name": str(target)}])
    ran = run(cpbot, ["fetch", str(source), "-o", str(work / "out")], env, work)
    return not target.with_suffix(".in").exists(), ran


def names_symlink(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    precious = work / "precious.txt"
    precious.write_text("mine\n")
    out = work / "out"
    out.mkdir()
    (out / "problem.json").symlink_to(precious)
    source = _problem(work / "p.json", [{"input": "1\n", "output": "1\n"}])
    ran = run(cpbot, ["fetch", str(source), "-o", str(out), "--force"], env, work)
    return precious.read_text() == "mine\n", ran


def _fetch_from_site(cpbot: str, work: Path, env: dict[str, str], path: str, **more_env: str) -> Ran:
    """`cpbot fetch` of a Codeforces problem whose site is the stand-in here, answering as `path` says."""
    url, server = serve(_Site)
    try:
        return run(
            cpbot,
            ["fetch", "https://codeforces.com/contest/1/problem/A"],
            {**env, "CPBOT_CODEFORCES_URL": url + path, **more_env},
            work,
            timeout=90,
        )
    finally:
        server.shutdown()


def page_endless(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    ran = _fetch_from_site(cpbot, work, env, "/endless")
    return ran.code is not None and not ran.traceback and ran.peak_mb < 2 * 32 + 200, ran


def page_trickle(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    ran = _fetch_from_site(cpbot, work, env, "/trickle", CPBOT_MAX_PAGE_S="5")
    return ran.code not in (None, 0) and not ran.traceback and "max_page_s" in ran.err, ran


def page_gzip_bomb(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    ran = _fetch_from_site(cpbot, work, env, "/bomb")
    return ran.code is not None and not ran.traceback and ran.peak_mb < 2 * 32 + 200, ran


def _judge_with(cpbot: str, work: Path, env: dict[str, str], make: Callable[[Path], None]) -> Ran:
    tests = work / "tests"
    tests.mkdir()
    (tests / "a.in").write_text("1\n")
    (tests / "a.out").write_text("1\n")
    make(tests)
    solution = work / "s.py"
    solution.write_text("print(input())\n")
    return run(cpbot, ["judge", str(solution), "--tests", str(tests)], env, work, timeout=30)


def files_dev_zero(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    ran = _judge_with(cpbot, work, env, lambda t: (t / "z.in").symlink_to("/dev/zero"))
    return ran.code not in (None, 0) and not ran.traceback, ran


def files_zero_device(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    """A device node inside the tests folder (what /dev/zero is: character device 1,5); needs root to make."""
    ran = _judge_with(cpbot, work, env, lambda t: os.mknod(t / "z.in", stat.S_IFCHR | 0o666, os.makedev(1, 5)))
    return ran.code not in (None, 0) and not ran.traceback, ran


def files_fifo(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    ran = _judge_with(cpbot, work, env, lambda t: os.mkfifo(t / "f.in"))
    return ran.code not in (None, 0) and not ran.traceback, ran


def files_symlink_out(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    secret = work / "secret.txt"
    secret.write_text("PRIVATE-CONTENT\n")
    ran = _judge_with(cpbot, work, env, lambda t: (t / "b.in").symlink_to(secret))
    return ran.code not in (None, 0) and "PRIVATE-CONTENT" not in ran.out + ran.err, ran


def files_big(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    def sparse(t: Path) -> None:
        with (t / "big.in").open("wb") as f:
            f.truncate(1 << 30)  # 1 GB, no disk used

    ran = _judge_with(cpbot, work, {**env, "CPBOT_MAX_TEST_FILE_MB": "64"}, sparse)
    return ran.code not in (None, 0) and not ran.traceback and ran.peak_mb < 2 * 64 + 200, ran


def _lcb(work: Path, private: str) -> tuple[Path, Path]:
    line = (REPO / "tests/fixtures/datasets/livecodebench/sample.jsonl").read_text().splitlines()[0]
    row = json.loads(line)
    row["private_test_cases"] = private
    dataset = work / "test.jsonl"
    dataset.write_text(json.dumps(row) + "\n")
    generations = work / "gen.json"
    generations.write_text(json.dumps([{"question_id": row["question_id"], "code_list": ["print(7)"]}]))
    return dataset, generations


def zlib_bomb(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    packer = zlib.compressobj(9)
    block = b"\0" * (1 << 20)
    bomb = b"".join(packer.compress(block) for _ in range(2048)) + packer.flush()  # 2 GB of zeros
    dataset, generations = _lcb(work, base64.b64encode(bomb).decode())
    ran = run(cpbot, ["grade", str(dataset), str(generations)], env, work, timeout=120)
    return ran.code is not None and not ran.traceback and ran.peak_mb < 2 * 1024, ran


def json_deep_problem(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    source = work / "p.json"
    source.write_text('{"title": "t", "samples": [], "statement": ' + "[" * 100_000 + "]" * 100_000 + "}")
    ran = run(cpbot, ["fetch", str(source), "-o", str(work / "out")], env, work)
    return ran.code is not None and not ran.traceback, ran


def json_deep_generations(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    dataset, generations = _lcb(work, "[]")
    generations.write_text("[" * 100_000 + "]" * 100_000)
    ran = run(cpbot, ["grade", str(dataset), str(generations)], env, work)
    return ran.code is not None and not ran.traceback, ran


def limits_companion(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    source = work / "cc.json"
    source.write_text(json.dumps({"name": "A. Sum", "group": "g", "tests": [], "timeLimit": 1e300}))
    ran = run(cpbot, ["fetch", str(source), "-o", str(work / "out")], env, work)
    return ran.code not in (None, 0) and not ran.traceback, ran


def terminal_transcripts(cpbot: str, work: Path, env: dict[str, str], sent: str = ESC) -> tuple[bool, Ran]:
    python = str(Path(cpbot).with_name("python"))
    record = (
        "from cpbot.bot.store.transcripts import TranscriptStore, default_db_path\n"
        "from cpbot.agents.tracing import LLMCallEvent\nfrom cpbot.agents.budget import Usage\n"
        "with TranscriptStore(default_db_path()) as s:\n"
        "    r = s.start_run('solve', problem_id='local:x')\n"
        f"    s.tracer(r).emit(LLMCallEvent(call_id='c', role='coder', model='m', messages=[], reply={sent!r},"
        " usage=Usage(prompt_tokens=1, completion_tokens=1), latency_ms=1.0, attempts=1))\n"
        "    s.finish_run(r, 'failed', reason='x')\n"
    )
    subprocess.run([python, "-c", record], env={**os.environ, **env}, check=True)
    ran = run(cpbot, ["transcripts", "show", "last", "--full"], env, work)
    return not any(c in ran.out + ran.err for c in "\x1b\u202e\u2066\u2069\u200b"), ran


def terminal_trojan_source(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    return terminal_transcripts(cpbot, work, env, TROJAN)


def terminal_problem_name(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    source = work / "cc.json"
    source.write_text(json.dumps({"name": f"A. {ESC}", "group": "g", "tests": [], "timeLimit": 1000}))
    ran = run(cpbot, ["fetch", str(source), "-o", str(work / "out")], env, work)
    return "\x1b" not in ran.out + ran.err, ran


def secrets_401(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    from cpbot.testing.scripted_server import HTTPFailure, ScriptedServer

    problem = _problem(work / "p.json", [{"input": "1 2\n", "output": "3\n"}])
    with ScriptedServer(default=HTTPFailure(401, f"Incorrect API key provided: {KEY}"), model="m") as server:
        ran = run(
            cpbot,
            [
                "-v",
                "solve",
                str(problem),
                "--site",
                "local",
                "--strategy",
                "direct",
                "--base-url",
                server.base_url,
                "--api-key",
                KEY,
                "--model",
                "m",
            ],
            env,
            work,
            timeout=120,
        )
    return KEY not in ran.out + ran.err, ran


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listen(cpbot: str, work: Path, env: dict[str, str], talk: Callable[[int], None]) -> Ran:
    port = _free_port()
    out = work / "got"
    result: dict[str, Ran] = {}
    thread = threading.Thread(
        target=lambda: result.setdefault(
            "ran", run(cpbot, ["listen", "--port", str(port), "-o", str(out)], env, work, timeout=20)
        ),
        daemon=True,
    )
    thread.start()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    talk(port)
    time.sleep(1.0)
    thread.join()  # ends at its timeout (listen runs until stopped)
    return result["ran"]


_CC = json.dumps(
    {
        "name": "A. Sum",
        "group": "Codeforces - R",
        "url": "https://codeforces.com/contest/1/problem/A",
        "tests": [{"input": "1 2\n", "output": "3\n"}],
        "timeLimit": 1000,
        "memoryLimit": 256,
    }
).encode()


_HEAD = f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {len(_CC)}\r\n\r\n"


def _send(port: int, head: str, body: bytes, *, reset: bool = False) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=15) as conn:
        if reset:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        conn.sendall(head.encode() + body)
        if reset:
            return b""
        conn.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := conn.recv(4096):
            data += chunk
        return data


def listen_short_body(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    head = _HEAD.replace(f"Content-Length: {len(_CC)}", f"Content-Length: {len(_CC) + 10}")
    ran = _listen(cpbot, work, env, lambda port: _send(port, head, _CC))  # whole JSON, 10 bytes short
    return not any((work / "got").glob("*/problem.json")), ran


def listen_rebound_host(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    head = _HEAD.replace("127.0.0.1", "attacker.example:1")
    ran = _listen(cpbot, work, env, lambda port: _send(port, head, _CC))
    return not any((work / "got").glob("*/problem.json")), ran


def listen_gone_client(cpbot: str, work: Path, env: dict[str, str]) -> tuple[bool, Ran]:
    head = _HEAD

    def talk(port: int) -> None:
        for _ in range(5):
            _send(port, head, _CC, reset=True)

    ran = _listen(cpbot, work, env, talk)
    return not ran.traceback, ran


CASES = [
    Case("names", "sample named ../../escaped (fetch -o)", names_dotdot),
    Case("names", "sample named by an absolute path", names_absolute),
    Case("names", "problem.json a symlink out (fetch --force)", names_symlink),
    Case("pages", "endless page (fetch)", page_endless),
    Case("pages", "page of a byte a second, max_page_s=5 (fetch)", page_trickle),
    Case("pages", "gzip bomb page, 1 GB (fetch)", page_gzip_bomb),
    Case("files", "test -> /dev/zero (judge)", files_dev_zero),
    *([Case("files", "test is /dev/zero's device node (judge)", files_zero_device)] if os.geteuid() == 0 else []),
    Case("files", "test is a FIFO (judge)", files_fifo),
    Case("files", "test -> a file outside (judge)", files_symlink_out),
    Case("files", "1 GB test, max_test_file_mb=64 (judge)", files_big),
    Case("decompression", "LCB zlib bomb, 2 GB (grade)", zlib_bomb),
    Case("json depth", "problem.json 100,000 deep (fetch)", json_deep_problem),
    Case("json depth", "generations 100,000 deep (grade)", json_deep_generations),
    Case("limits", "Companion timeLimit 1e300 (fetch)", limits_companion),
    Case("terminal", "OSC/CSI in a reply (transcripts show)", terminal_transcripts),
    Case("terminal", "Trojan Source in a reply (transcripts show)", terminal_trojan_source),
    Case("terminal", "ESC in a problem's name (fetch)", terminal_problem_name),
    Case("secrets", "401 echoing the key (solve -v)", secrets_401),
    Case("listener", "body shorter than Content-Length", listen_short_body),
    Case("listener", "rebound Host, no Origin", listen_rebound_host),
    Case("listener", "client gone before the reply", listen_gone_client),
]


def main() -> int:
    global _GZIP_BOMB
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpbot", default=str(Path(sys.executable).with_name("cpbot")))
    parser.add_argument("-k", "--only", default="", help="cases whose class or name holds this")
    args = parser.parse_args()
    _GZIP_BOMB = _gzip_bomb(1024)
    print(f"cpbot: {args.cpbot}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'class':<14} {'case':<44} {'contained':<9} {'peak MB':>7} {'s':>5}  how it ended")
    contained = 0
    cases = [c for c in CASES if args.only in c.klass or args.only in c.name]
    for case in cases:
        work = Path(tempfile.mkdtemp(prefix="cpbot-hostile-"))
        env = {"CPBOT_DATA_DIR": str(work / "data"), "CPBOT_CONFIG_DIR": str(work / "config")}
        try:
            ok, ran = case.go(args.cpbot, work, env)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        contained += ok
        print(
            f"{case.klass:<14} {case.name:<44} {'yes' if ok else 'NO':<9} {ran.peak_mb:>7.0f} {ran.seconds:>5.1f}  "
            f"{ran.ending()!r}"[:240],
            flush=True,
        )
    print(f"contained: {contained} of {len(cases)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
