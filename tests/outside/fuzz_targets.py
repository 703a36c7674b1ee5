"""Every parser that takes bytes from outside, with inputs to fuzz it: recorded pages and files mutated
(cut, spliced, numbers made absurd, nesting made deep), JSON values built from the format's own keys, and
plain random bytes. The property all of them share: a valid result or a `CpbotError`, never another
exception. Used by tests/outside/test_fuzz_parsers.py (a few examples each) and scripts/fuzz.py (many)."""

from __future__ import annotations

import gzip
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.fakes.atcoder_pages import statement, task_page
from tests.paths import FIXTURES

NOW = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Target:
    """One parser: its name, what to feed it, and how to call it (`data`, a scratch folder)."""

    name: str
    inputs: st.SearchStrategy[bytes]
    parse: Callable[[bytes, Path], object]


# ---- inputs ------------------------------------------------------------------------------------------

ABSURD = [b"1e300", b"-1", b"0", b"NaN", b"Infinity", b"99999999999999999999999999", b"-0.0", b'"x"', b"null",
          b"[]", b"{}", b"true", b"\xff\xfe", b"\x1b]0;x\x07", b"../../x", b"/etc/passwd"]  # fmt: skip


@st.composite
def _mutated(draw: st.DrawFn, seeds: tuple[bytes, ...]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(0, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["cut", "drop", "insert", "absurd", "deep", "repeat", "flip"]))
        if kind == "cut":
            del data[at:]
        elif kind == "drop":
            del data[at : at + draw(st.integers(1, 200))]
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=20))
        elif kind == "absurd":  # a number (or a value) made absurd
            end = at
            while end < len(data) and data[end : end + 1].isdigit():
                end += 1
            data[at:end] = draw(st.sampled_from(ABSURD))
        elif kind == "deep":
            n = draw(st.sampled_from([50, 2000, 100_000]))
            data[at:at] = draw(st.sampled_from([b"[" * n, b'{"a":' * n, b"<div>" * n, b"[" * n + b"]" * n]))
        elif kind == "repeat":
            data[at:at] = bytes(data[at : at + 100]) * draw(st.integers(2, 50))
        else:
            data[at] ^= 1 << draw(st.integers(0, 7))
    return bytes(data)


def _json_values(keys: list[str]) -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30),
        st.sampled_from([1e300, -1, 0, "1e300", "", "../../x", "\x1b[2J"]),
    )  # fmt: skip
    names = st.one_of(st.sampled_from(keys), st.text(max_size=8)) if keys else st.text(max_size=8)
    return st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(names, inner, max_size=8)),
        max_leaves=40,
    )


def _as_bytes(value: Any) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


def inputs(seeds: list[bytes], keys: list[str] = (), *, json_like: bool = True) -> st.SearchStrategy[bytes]:
    """Mutated seeds, generated JSON of the format's keys (when `json_like`), and random bytes."""
    choices = [_mutated(tuple(seeds)), st.binary(max_size=500)]
    if json_like:
        choices.append(_json_values(list(keys)).map(_as_bytes))
        # a seed's object with some of its values replaced by generated ones
        choices.append(st.builds(_replace_values, st.sampled_from(seeds), st.data()))
    return st.one_of(*choices)


def _replace_values(seed: bytes, data: st.DataObject) -> bytes:
    try:
        value = json.loads(seed)
    except ValueError:
        return seed
    if isinstance(value, list) and value and isinstance(value[0], dict):
        value = value[0]
    if not isinstance(value, dict) or not value:
        return seed
    for key in data.draw(st.lists(st.sampled_from(sorted(value)), max_size=4)):
        value[key] = data.draw(_json_values(sorted(value)))
    return _as_bytes(value)


def _read(path: Path) -> bytes:
    return path.read_bytes()


def _lines(path: Path, n: int = 5) -> list[bytes]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as f:
        return [f.readline().rstrip(b"\n") for _ in range(n)]


def _keys(seeds: list[bytes]) -> list[str]:
    found: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            found.update(map(str, v))
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v[:20]:
                walk(x)

    for s in seeds:
        try:
            walk(json.loads(s))
        except ValueError:
            pass
    return sorted(found)


# ---- the parsers -------------------------------------------------------------------------------------


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _codeforces_page(data: bytes, _: Path) -> object:
    from cpbot.scrapers.codeforces.parse import parse_problems

    return parse_problems(data, "https://codeforces.com/contest/1/problem/A")


def _codeforces_api(data: bytes, _: Path) -> object:
    from cpbot.scrapers.codeforces.api import parse_contest_list, parse_envelope, parse_standings_problems
    from cpbot.scrapers.codeforces.ranking import parse_codeforces_standings

    result = parse_envelope(data, "contest.list")
    return parse_contest_list(result), parse_standings_problems(result), parse_codeforces_standings(result)


def _atcoder_page(data: bytes, _: Path) -> object:
    from cpbot.scrapers.atcoder.contests import parse_task_list
    from cpbot.scrapers.atcoder.parse import parse_task_page

    return parse_task_page(data, "https://atcoder.jp/contests/abc300/tasks/abc300_a"), parse_task_list(data, "abc300")


def _atcoder_standings(data: bytes, _: Path) -> object:
    from cpbot.scrapers.atcoder.ranking import parse_standings

    return parse_standings(data)


def _ahc_page(data: bytes, _: Path) -> object:
    from cpbot.scrapers.atcoder.parse import parse_task_page

    return parse_task_page(data, "https://atcoder.jp/contests/ahc001/tasks/ahc001_a")


def _ahc_tools(data: bytes, folder: Path) -> object:
    from cpbot.judge.model import HeuristicSpec
    from cpbot.scrapers.atcoder.ahc_tools import tools_spec, unpack_tools

    return unpack_tools(data, folder), tools_spec(HeuristicSpec(), folder)


def _ale_bench(data: bytes, folder: Path) -> object:
    """An ALE-Bench folder whose data.json is `data` (its standings and tools as recorded)."""
    import shutil

    from cpbot.bot.bench.ale_bench import ale_problem

    problem = folder / "ale"
    shutil.copytree(FIXTURES / "heuristic" / "ale_bench" / "ahc900", problem)
    (problem / "tools").mkdir()
    _write(problem / "tools", "gen.py", b"print(1)\n")
    _write(problem / "tools", "score.py", b"print('Score = 1')\n")
    _write(problem, "data.json", data)
    return ale_problem(problem)


def _standings_csv(data: bytes, folder: Path) -> object:
    from cpbot.bot.bench.standings import read_standings

    _write(folder, "standings_scores.csv", data)
    _write(folder, "performance.csv", data)
    _write(folder, "relative_results.csv", data)
    return read_standings(folder)


def _leetcode_question(data: bytes, _: Path) -> object:
    from cpbot.scrapers.leetcode.parse import parse_question

    return parse_question(data, "https://leetcode.com/problems/two-sum/")


def _leetcode_contests(data: bytes, _: Path) -> object:
    from cpbot.scrapers.leetcode.contests import parse_contest_info, parse_contests
    from cpbot.scrapers.leetcode.ranking import parse_leetcode_ranking

    return parse_contests(data, NOW), parse_contest_info(data, NOW), parse_leetcode_ranking(data, 1, 0.0)


def _companion(data: bytes, _: Path) -> object:
    from cpbot.scrapers.companion import parse_companion

    return parse_companion(data)


def _problem_json(data: bytes, folder: Path) -> object:
    from cpbot.bot.app.problem_folder import load_problem

    return load_problem(_write(folder, "problem.json", data))


def _saved_file(data: bytes, folder: Path) -> object:
    """`cpbot fetch FILE`: whatever the file is (a page, a JSON answer, Companion JSON, a problem.json)."""
    from cpbot.bot.app.sources import load_problems

    return load_problems(str(_write(folder, "saved.json", data)))


def _config(data: bytes, folder: Path) -> object:
    from cpbot.bot.cli.config import load_settings

    settings = load_settings(_write(folder, "config.toml", data))
    return settings.llm_fallback()


def _lcb_line(data: bytes, _: Path) -> object:
    from cpbot.bot.bench import livecodebench
    from cpbot.core import bounds

    row = bounds.loads(data, "line")
    if not isinstance(row, dict):
        return None
    return livecodebench.to_problem(livecodebench.decode_row(row))


def _lcb_file(data: bytes, folder: Path) -> object:
    from cpbot.bot.bench import livecodebench

    path = _write(folder, "test.jsonl", data)
    return [livecodebench.read_head_at(s) for s in livecodebench.index(path).values()]


def _leetcode_dataset(data: bytes, folder: Path) -> object:
    from cpbot.bot.bench.datasets import leetcode_problem
    from cpbot.judge.harness.dataset import iter_rows

    return [leetcode_problem(row) for row in iter_rows(_write(folder, "d.jsonl.gz", gzip.compress(data)))]


def _kickstart(data: bytes, folder: Path) -> object:
    from cpbot.bot.bench.datasets import kickstart_problem

    problem = folder / "ks"
    problem.mkdir(exist_ok=True)
    _write(problem, "problem.json", data)
    _write(problem, "statement.md", b"Add.")
    (problem / "data").mkdir(exist_ok=True)
    _write(problem / "data", "1.in", b"1\n1 2\n")
    _write(problem / "data", "1.out", b"Case #1: 3\n")
    return kickstart_problem(problem)


def _generations(data: bytes, folder: Path) -> object:
    from cpbot.bot.bench.grade import _load_items

    return _load_items(_write(folder, "generations.json", data))


def _zipped(files: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


COMPANION = {
    "name": "A. Sum",
    "group": "Codeforces - Round 1",
    "url": "https://codeforces.com/contest/1/problem/A",
    "interactive": False,
    "memoryLimit": 256,
    "timeLimit": 1000,
    "tests": [{"input": "1 2\n", "output": "3\n"}],
    "testType": "single",
    "input": {"type": "stdin"},
    "output": {"type": "stdout"},
    "batch": {"id": "b", "size": 1},
}


@cache
def targets() -> tuple[Target, ...]:
    """Every fuzzed parser (seeds read once)."""
    cf_pages = [_read(p) for p in sorted((FIXTURES / "codeforces").glob("cf_*.html"))[:4]]
    cf_api = [_read(p) for p in sorted((FIXTURES / "codeforces" / "api").glob("api_contest*.json"))]
    ac_pages = [_read(p) for p in sorted((FIXTURES / "atcoder").glob("*.html"))]
    ac_standings = [_read(FIXTURES / "atcoder" / "standings_wtf19_partial.json")]
    lc = [_read(p) for p in sorted((FIXTURES / "leetcode").glob("lc_*.json")) if ".expected" not in p.name][:5]
    lc_api = [_read(p) for p in sorted((FIXTURES / "leetcode" / "api").glob("graphql_*.json"))]
    companion = [json.dumps(COMPANION).encode()]
    problems = [_read(p) for p in sorted((FIXTURES / "codeforces").glob("*.expected.json"))[:3]]
    problems.append(json.dumps({"title": "T", "samples": [{"input": "1\n", "output": "1\n", "name": "s"}]}).encode())
    config = [b'[llm]\nbase_url = "http://127.0.0.1:1/v1"\nmodel = "m"\ntimeout_s = 30\n[llm.roles]\ncoder = "x"\n'
              b'[input]\nmax_page_mb = 4\n[judge]\npython = "python3"\n']  # fmt: skip
    ahc = [task_page(statement("ahc001_a"), "A").encode()]
    ahc_zip = [_zipped({"tools/gen.py": b"print(1)\n", "tools/vis.py": b"print('Score = 1')\n"})]
    ale = [_read(FIXTURES / "heuristic" / "ale_bench" / "ahc900" / "data.json")]
    ale_csv = [_read(FIXTURES / "heuristic" / "ale_bench" / "ahc900" / "standings_scores.csv"),
               b"private_0,private_1\n100,200\n50,-1\n"]  # fmt: skip
    lcb = _lines(FIXTURES / "datasets" / "livecodebench" / "sample.jsonl", 3)
    lcd = _lines(FIXTURES / "datasets" / "leetcode" / "LeetCodeDataset-v0.3.1-test.jsonl.gz", 2)
    kickstart = [_read(p) for p in sorted((FIXTURES / "datasets" / "kickstart").glob("*/problem.json"))]
    generations = [json.dumps([{"question_id": "q1", "code_list": ["print(1)"]}]).encode(),
                   b'{"question_id": "q1", "language": "python3", "source": "print(1)"}\n']  # fmt: skip
    return (
        Target("codeforces page", inputs(cf_pages, json_like=False), _codeforces_page),
        Target("codeforces api", inputs(cf_api, _keys(cf_api)), _codeforces_api),
        Target("atcoder page", inputs(ac_pages, json_like=False), _atcoder_page),
        Target("atcoder standings", inputs(ac_standings, _keys(ac_standings)), _atcoder_standings),
        Target("atcoder ahc page", inputs(ahc, json_like=False), _ahc_page),
        Target("ahc tools zip", inputs(ahc_zip, json_like=False), _ahc_tools),
        Target("ale-bench data.json", inputs(ale, _keys(ale)), _ale_bench),
        Target("recorded standings csv", inputs(ale_csv, json_like=False), _standings_csv),
        Target("leetcode question", inputs(lc, _keys(lc)), _leetcode_question),
        Target("leetcode contests", inputs(lc_api, _keys(lc_api)), _leetcode_contests),
        Target("competitive companion", inputs(companion, _keys(companion)), _companion),
        Target("problem.json", inputs(problems, _keys(problems)), _problem_json),
        Target("saved file", inputs(problems + companion + lc[:1] + cf_pages[:1], _keys(problems)), _saved_file),
        Target("config.toml", inputs(config, json_like=False), _config),
        Target("livecodebench line", inputs(lcb, _keys(lcb)), _lcb_line),
        Target("livecodebench file", inputs([b"\n".join(lcb)], _keys(lcb)), _lcb_file),
        Target("leetcodedataset", inputs(lcd, _keys(lcd)), _leetcode_dataset),
        Target("kickstart folder", inputs(kickstart, _keys(kickstart)), _kickstart),
        Target(
            "generations file", inputs(generations, ["question_id", "code_list", "language", "source"]), _generations
        ),
    )


def check(target: Target, data: bytes) -> None:
    """Run one example: a result or a `CpbotError` pass; anything else is raised for the caller."""
    from cpbot.core.errors import CpbotError

    with tempfile.TemporaryDirectory(prefix="cpbot-fuzz-") as folder:
        try:
            target.parse(data, Path(folder))
        except CpbotError:
            pass
