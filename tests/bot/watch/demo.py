"""Serve the simulated Codeforces round and a slow scripted model on 127.0.0.1, to watch `cpbot watch`'s
live table by hand (e.g. inside tmux). Not a test: run it, source the printed environment file, then
run the printed command in another terminal; Ctrl-C stops the servers.

    .venv/bin/python -m tests.bot.watch.demo --env-file /tmp/watch-demo.env
"""

from __future__ import annotations

import argparse
import shlex
import tempfile
import threading
from pathlib import Path
from typing import Any

from tests.agents.support.scripted_server import Delay, ScriptedServer
from tests.bot.watch.support import API_KEY, contest_site, cookies_txt, model_answer
from tests.fakes.server import FakeSiteServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env-file", type=Path, required=True, help="where to write the environment to source")
    parser.add_argument("--start-in", type=float, default=8.0, help="seconds until the round starts")
    parser.add_argument("--model-delay", type=float, default=2.0, help="seconds each model reply takes")
    parser.add_argument("--verdict-polls", type=int, default=3, help="polls that see a submission in queue")
    args = parser.parse_args()

    site = contest_site(start_in_s=args.start_in)
    site.queued_polls = args.verdict_polls
    site.testing_polls = args.verdict_polls

    def slow(body: dict[str, Any]) -> Delay:
        return Delay(args.model_delay, model_answer(body))

    work = Path(tempfile.mkdtemp(prefix="cpbot-watch-demo-"))
    with FakeSiteServer(site) as server, ScriptedServer(default=slow) as model:
        env = {**server.env(), "CPBOT_DATA_DIR": str(work / "data"), "CPBOT_API_KEY": API_KEY}
        env["CPBOT_COOKIES"] = str(cookies_txt(work / "cookies.txt", site))
        lines = [f"export {k}={shlex.quote(v)}" for k, v in env.items()]
        command = (
            f"cpbot watch --site cf --strategy direct --lang python3 --gate samples --submit --model m "
            f"--base-url {model.base_url} --within 1 --poll 2 --fetch-retry 1 --verdict-poll 1 "
            "--submit-interval 2 --once"
        )
        lines.append(f"# then: {command}")
        args.env_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"environment in {args.env_file}; run:\n  {command}", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            print(f"{len(site.submissions)} submissions; {len(model.requests)} model requests")


if __name__ == "__main__":
    main()
