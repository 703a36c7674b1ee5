"""A model server on 127.0.0.1 that misbehaves, while one command runs against it: for measuring how cpbot
bounds what it reads from a model (peak memory on an endless reply, time to leave a server that drips).

    python scripts/perf/hostile_model.py endless -- /usr/bin/time -v cpbot solve problem.json ...
    python scripts/perf/hostile_model.py drip -- cpbot solve problem.json --timeout 5 ...

`baseline`: a right answer at once (cpbot's own peak memory). `endless`: a chat completion whose content
never ends, 64 KiB chunks as fast as the client reads them.
`drip`: the same, one byte a second. `bad-utf8`, `content-list`, `usage-text`, `deep` (100,000 levels),
`no-message`: a chat completion malformed in that way. `long`: a right answer after 10 MB of text.
`CPBOT_BASE_URL`, `CPBOT_MODEL` and `CPBOT_API_KEY` point the command at the server; the command's exit
code is kept, and the wall seconds it ran are printed.
"""

from __future__ import annotations

import argparse
import sys
import time

from cpbot.testing.scripted_server import RawReply, Reply, ScriptedServer, Stream, run_with_server, split_command

HEAD = b'{"object": "chat.completion", "model": "m", "choices": [{"message": {"role": "assistant", "content": "'
MODES = {
    "baseline": Reply("```python\nprint(sum(map(int, input().split())))\n```"),  # a well-behaved server
    "endless": Stream(head=HEAD, piece=b"a" * 65536),
    "drip": Stream(head=HEAD, piece=b"a", interval=1.0),
    # malformed chat completions, each a class of bad reply
    "bad-utf8": RawReply(HEAD + b'fi\xff\xfene"}}]}'),
    "content-list": RawReply(HEAD[:-1] + b'[{"type": "text", "text": "hi"}]}}]}'),
    "usage-text": RawReply(HEAD + b'fine"}}], "usage": {"prompt_tokens": "5", "completion_tokens": "7"}}'),
    "deep": RawReply(b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    "no-message": RawReply(b'{"object": "chat.completion", "choices": [{"index": 0}]}'),
    # a valid reply of 10 MB, its program at the end: what the transcript keeps of it
    "long": Reply("thinking " * 1_200_000 + "```python\nprint(sum(map(int, input().split())))\n```"),
}


def main() -> int:
    own, command = split_command(sys.argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=sorted(MODES))
    args = parser.parse_args(own)
    with ScriptedServer(default=MODES[args.mode], model="m") as server:
        started = time.monotonic()
        code = run_with_server(server, command)
        print(
            f"hostile_model: {args.mode}: the command ran {time.monotonic() - started:.1f} s, exit {code}", flush=True
        )
        return code


if __name__ == "__main__":
    sys.exit(main())
