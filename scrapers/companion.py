"""Competitive Companion's problem JSON, read into `judge.Problem` and written back.

The browser extension POSTs one JSON object per problem: name, group, url, interactive,
memoryLimit (MB), timeLimit (ms), tests [{input, output}], testType, input/output (stdin or a file),
languages and batch {id, size}. Unknown fields survive a round trip through `Problem.raw`.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from pydantic import ValidationError

from cpbot.core import bounds
from cpbot.core.errors import ParseError, first_problem
from cpbot.core.registry import LOCAL_SITE
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import Limits, Problem, TestCase
from cpbot.scrapers.ids import local_id
from cpbot.scrapers.sites import all_sites, find_site

_WHERE = "the Competitive Companion JSON"


def is_companion_payload(data: bytes) -> bool:
    """True when `data` is one Competitive Companion problem (tests and a time limit or group)."""
    try:
        obj = bounds.loads(data.lstrip(b"\xef\xbb\xbf \t\r\n"), _WHERE)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return False
    return isinstance(obj, dict) and "tests" in obj and ("timeLimit" in obj or "group" in obj)


def parse_companion(payload: bytes | str | dict[str, Any]) -> Problem:
    """A Competitive Companion problem -> `Problem` (no statement: the extension sends none)."""
    data = _load(payload)
    name = _field(data, "name", str)
    tests = data.get("tests", [])
    if not isinstance(tests, list):
        raise ParseError(f"cannot parse {_WHERE}: tests is not a list")
    samples = []
    for n, t in enumerate(tests, start=1):
        if not isinstance(t, dict) or not isinstance(t.get("input"), str) or not isinstance(t.get("output"), str):
            raise ParseError(f"cannot parse {_WHERE}: missing input or output of test {n}")
        samples.append(TestCase(input=t["input"], output=t["output"], origin="sample", name=f"sample-{n}"))
    url = data.get("url") if isinstance(data.get("url"), str) else None
    group = data.get("group") if isinstance(data.get("group"), str) else ""
    site, pid, index, title = _identity(url, group, name, data)
    contest = group.split(" - ", 1)[1].strip() if " - " in group else None
    try:
        limits = Limits(
            time_ms=int(_field(data, "timeLimit", (int, float), 1000)),
            memory_mb=int(_field(data, "memoryLimit", (int, float), 1024)),
        )
    except ValidationError as e:
        raise ParseError(f"cannot parse {_WHERE}: bad time or memory limit ({first_problem(e)})") from None
    except (ValueError, OverflowError) as e:  # int() of NaN or infinity
        raise ParseError(f"cannot parse {_WHERE}: bad time or memory limit ({e})") from None
    return Problem(
        id=pid,
        site=site,
        url=url,
        title=title,
        index=index,
        limits=limits,
        samples=samples,
        kind="interactive" if data.get("interactive") is True else "stdio",
        input_file=_file(data.get("input")),
        output_file=_file(data.get("output")),
        contest=contest or None,
        raw=data,
    )


def to_companion(problem: Problem, batch_id: str | None = None, batch_size: int = 1) -> dict[str, Any]:
    """A `Problem` in Competitive Companion's format (fields of the original JSON are kept)."""
    site = find_site(problem.site)
    site_name = site.title if site is not None else problem.site.capitalize()
    # "A. Title", as contest sites show a problem (and as `name_problem` reads it back)
    name = f"{problem.index}. {problem.title}" if problem.index else problem.title
    out: dict[str, Any] = dict(problem.raw) if _is_companion(problem.raw) else {}
    out.update(
        {
            "name": name,
            "group": f"{site_name} - {problem.contest}" if problem.contest else site_name,
            "url": problem.url or "",
            "interactive": problem_kind(problem.kind).needs_interactor,
            "memoryLimit": problem.limits.memory_mb,
            "timeLimit": problem.limits.time_ms,
            "tests": [{"input": _nl(t.input), "output": _nl(t.output or "")} for t in problem.samples],
            "testType": out.get("testType", "single"),
            "input": {"type": "file", "fileName": problem.input_file} if problem.input_file else {"type": "stdin"},
            "output": {"type": "file", "fileName": problem.output_file} if problem.output_file else {"type": "stdout"},
            "languages": out.get("languages") or {"java": {"mainClass": "Main", "taskClass": _task_class(problem)}},
            "batch": {"id": batch_id or str(uuid.uuid4()), "size": batch_size},
        }
    )
    return out


def batch_of(payload: dict[str, Any]) -> tuple[str, int]:
    """The batch id and size of a Competitive Companion problem (a lone problem is its own batch)."""
    batch = payload.get("batch")
    if isinstance(batch, dict) and isinstance(batch.get("id"), str) and isinstance(batch.get("size"), int):
        return batch["id"], max(1, batch["size"])
    return str(uuid.uuid4()), 1


def _identity(url: str | None, group: str, name: str, data: dict[str, Any]) -> tuple[str, str, str | None, str]:
    """(site, problem id, index, title): the registered site that owns `url` names the problem;
    otherwise the site is the group's first word and the id a hash of the JSON."""
    if url:
        for site in all_sites():
            named = site.name_problem(url, name) if site.owns_url(url) else None
            if named is not None:
                return site.name, named.id, named.index, named.title
    site_name = group.split(" - ", 1)[0].strip().lower() or LOCAL_SITE
    return site_name, local_id(json.dumps(data, sort_keys=True)), None, name


def _load(payload: bytes | str | dict[str, Any]) -> dict[str, Any]:
    data: Any = payload
    if isinstance(payload, bytes | str):
        text = payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else payload
        if text.startswith("json\n"):  # the CHelper flavour prefixes the payload with a line "json"
            text = text[5:]
        try:
            data = bounds.loads(text, _WHERE)
        except json.JSONDecodeError as e:
            raise ParseError(f"cannot parse {_WHERE}: missing JSON ({e})") from e
    if not isinstance(data, dict):
        raise ParseError(f"cannot parse {_WHERE}: missing the problem object")
    return data


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    value = data.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, kind):
        raise ParseError(f"cannot parse {_WHERE}: missing {key}")
    return value


def _file(spec: Any) -> str | None:
    if isinstance(spec, dict) and spec.get("type") == "file" and isinstance(spec.get("fileName"), str):
        return spec["fileName"] or None
    return None


def _is_companion(raw: Any) -> bool:
    return isinstance(raw, dict) and "tests" in raw and "timeLimit" in raw


def _nl(text: str) -> str:
    return text if text.endswith("\n") or not text else text + "\n"


def _task_class(problem: Problem) -> str:
    name = re.sub(r"[^A-Za-z0-9]", "", problem.title.title()) or "Task"
    return name if not name[0].isdigit() else "Task" + name
