"""LeetCode questions: a GraphQL `question` answer -> `judge.Problem` (kind "function").

`parse_question` is pure (JSON in, problem out). It accepts the `questionData` shape, the daily
challenge shape and older `getQuestionDetail` answers; `metaData` may be a JSON string (as on the
wire) or an already decoded object. `fetch_problem` asks LeetCode's GraphQL endpoint for one slug.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from cpbot.core import bounds
from cpbot.core.errors import ConfigError, FetchError, ParseError
from cpbot.judge.languages import SNIPPET_KEYS
from cpbot.judge.model import Method, Param, Problem, Signature, TestCase
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ids import local_id
from cpbot.scrapers.leetcode.examples import example_outputs
from cpbot.scrapers.leetcode.urls import PROBLEM_PATH, LeetcodeRef, parse_leetcode_url
from cpbot.scrapers.markdown import to_markdown

KEPT_LANGUAGES = tuple(SNIPPET_KEYS.values())  # the starting code kept, by langSlug
_HINT = "expected a LeetCode GraphQL answer with data.question (content, metaData, exampleTestcaseList)"

QUESTION_QUERY = """
query questionData($titleSlug: String!) {
  question(titleSlug: $titleSlug) {
    questionId questionFrontendId title titleSlug content difficulty isPaidOnly
    topicTags { name slug }
    codeSnippets { lang langSlug code }
    sampleTestCase exampleTestcases exampleTestcaseList metaData
  }
}
""".strip()


def fetch_problem(url: str, client: HttpClient) -> Problem:
    """Ask LeetCode's GraphQL endpoint for the problem at `url` and parse the answer."""
    ref = parse_leetcode_url(url)
    origin = f"https://{ref.host}"
    headers = {"Referer": f"{origin}/problems/{ref.slug}/", "Origin": origin, "Content-Type": "application/json"}
    csrf = client.cookie("csrftoken", ref.host)
    if csrf:
        headers["x-csrftoken"] = csrf
    body = {"query": QUESTION_QUERY, "variables": {"titleSlug": ref.slug}, "operationName": "questionData"}
    response = client.post(f"{origin}/graphql", json=body, headers=headers)
    return parse_question(response.content, ref.url)


def parse_question(payload: bytes | str | dict[str, Any], url: str | None = None) -> Problem:
    """Parse one question answer into a function (or design-class) problem with its examples."""
    where = url or "the LeetCode answer"
    raw = _load(payload, where)
    q = find_question(raw, where)
    ref = _ref_or_none(url)
    slug = _text(q, "titleSlug", where) or (ref.slug if ref else None) or _slug_from_link(raw)
    content = _text(q, "content", where)
    if not content or not content.strip():
        if q.get("isPaidOnly"):
            raise FetchError(
                f"{where}: the statement of this premium problem is hidden",
                hint="pass the cookies of a LeetCode Premium session with --cookies cookies.txt",
            )
        raise ParseError(f"cannot parse {where}: missing content (the statement HTML)", hint=_HINT)
    meta = _metadata(q, where)
    signature = _signature(meta, where)
    inputs = _example_inputs(q, signature, where)
    outputs = example_outputs(content)
    if len(outputs) != len(inputs):
        raise ParseError(
            f"cannot parse {where}: missing example outputs in the statement "
            f"({len(outputs)} found for {len(inputs)} example inputs)",
            hint=_HINT,
        )
    samples = [
        TestCase(input=inp, output=out, origin="sample", name=f"sample-{n}")
        for n, (inp, out) in enumerate(zip(inputs, outputs, strict=True), start=1)
    ]
    host = ref.host if ref else "leetcode.com"
    try:
        return Problem(
            id=f"leetcode:{slug}" if slug else local_id(json.dumps(raw, sort_keys=True)),
            site="leetcode",
            url=(LeetcodeRef(slug, ref.contest if ref else None, host).url if slug else url),
            title=_text(q, "title", where) or "",
            statement=to_markdown(content, f"https://{host}/"),
            samples=samples,
            kind="function",
            signature=signature,
            checker=_checker(meta, signature),
            contest=ref.contest if ref else None,
            tags=_tags(q),
            difficulty=_text(q, "difficulty", where),
            code_snippets=_snippets(q, where),
            raw=raw,
        )
    except ValidationError as e:
        raise ParseError(f"cannot parse {where}: a field has an unexpected shape ({e})", hint=_HINT) from e


def find_question(raw: Any, where: str = "the LeetCode answer") -> dict[str, Any]:
    """The question object inside a GraphQL answer (or the answer itself when it is one)."""
    if not isinstance(raw, dict):
        raise ParseError(f"cannot parse {where}: missing the JSON object of a GraphQL answer", hint=_HINT)
    errors = raw.get("errors")
    data = raw.get("data", raw)
    if isinstance(data, dict):
        daily = data.get("activeDailyCodingChallengeQuestion")
        if isinstance(daily, dict) and isinstance(daily.get("question"), dict):
            return daily["question"]
        if isinstance(data.get("question"), dict):
            return data["question"]
        if "question" in data and data["question"] is None:
            raise FetchError(f"{where}: LeetCode has no such problem", hint="check the problem's slug in the URL")
        if "content" in data and "metaData" in data:
            return data
    if errors:
        raise FetchError(f"{where}: LeetCode answered with errors: {_error_text(errors)}")
    raise ParseError(f"cannot parse {where}: missing data.question", hint=_HINT)


def question_ids(problem: Problem) -> dict[str, str | None]:
    """The site's ids of a parsed LeetCode problem (kept in `raw`): question_id, frontend_id, slug."""
    q = find_question(problem.raw)
    return {
        "question_id": _text(q, "questionId", problem.id),
        "frontend_id": _text(q, "questionFrontendId", problem.id),
        "slug": _text(q, "titleSlug", problem.id),
    }


def _load(payload: bytes | str | dict[str, Any], where: str) -> Any:
    if isinstance(payload, dict):
        return payload
    try:
        return bounds.loads(payload, where)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ParseError(f"cannot parse {where}: missing JSON (the answer is not JSON: {e})", hint=_HINT) from e


def _text(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ParseError(f"cannot parse {where}: {key} is not text", hint=_HINT)
    return str(value)


def _metadata(q: dict[str, Any], where: str) -> dict[str, Any]:
    meta = q.get("metaData")
    if isinstance(meta, str):
        try:
            meta = bounds.loads(meta, f"{where}: metaData")
        except json.JSONDecodeError as e:
            raise ParseError(f"cannot parse {where}: metaData is not valid JSON ({e})", hint=_HINT) from e
    if not isinstance(meta, dict):
        raise ParseError(f"cannot parse {where}: missing metaData (the function signature)", hint=_HINT)
    return meta


def _signature(meta: dict[str, Any], where: str) -> Signature:
    classname = meta.get("classname")
    if classname is not None or meta.get("systemdesign"):
        if not isinstance(classname, str) or not classname:
            raise ParseError(f"cannot parse {where}: missing metaData.classname of a design problem")
        ctor = meta.get("constructor") or {}
        if not isinstance(ctor, dict):
            raise ParseError(f"cannot parse {where}: metaData.constructor is not an object")
        methods = meta.get("methods")
        if not isinstance(methods, list):
            raise ParseError(f"cannot parse {where}: missing metaData.methods of a design problem")
        return Signature(
            kind="design",
            class_name=classname,
            constructor=Method(name=classname, params=_params(ctor.get("params"), where, "constructor.params")),
            methods=[_method(m, where) for m in methods],
        )
    return Signature(kind="function", class_name="Solution", methods=[_method(meta, where)])


def _method(m: Any, where: str) -> Method:
    if not isinstance(m, dict) or not isinstance(m.get("name"), str) or not m["name"]:
        raise ParseError(f"cannot parse {where}: missing a method name in metaData")
    return Method(name=m["name"], params=_params(m.get("params"), where, m["name"]), return_type=_return(m, where))


def _params(raw: Any, where: str, what: str) -> list[Param]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ParseError(f"cannot parse {where}: the params of {what} in metaData are not a list")
    params = []
    for p in raw:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not isinstance(p.get("type"), str):
            raise ParseError(f"cannot parse {where}: missing the name or type of a parameter of {what}")
        params.append(Param(name=p["name"], type=p["type"]))
    return params


def _return(m: dict[str, Any], where: str) -> str | None:
    ret = m.get("return")
    if ret is None:
        return None
    if not isinstance(ret, dict) or not isinstance(ret.get("type"), str):
        raise ParseError(f"cannot parse {where}: missing the return type of {m.get('name')} in metaData")
    return ret["type"]


def _example_inputs(q: dict[str, Any], signature: Signature, where: str) -> list[str]:
    listed = q.get("exampleTestcaseList")
    joined = q.get("exampleTestcases")
    single = q.get("sampleTestCase")
    if isinstance(listed, list) and listed and all(isinstance(x, str) for x in listed):
        cases = listed
    elif isinstance(joined, str) and joined.strip():
        cases = _split_cases(joined, signature, where)
    elif isinstance(single, str) and single.strip():
        cases = [single]
    else:
        raise ParseError(
            f"cannot parse {where}: missing example inputs (exampleTestcaseList, exampleTestcases or sampleTestCase)",
            hint=_HINT,
        )
    return [_one_line_per_param(c) for c in cases]


def _split_cases(joined: str, signature: Signature, where: str) -> list[str]:
    lines = joined.replace("\r\n", "\n").rstrip("\n").split("\n")
    per = 2 if signature.kind == "design" else len(signature.methods[0].params)
    if per == 0 or len(lines) % per:
        raise ParseError(
            f"cannot parse {where}: exampleTestcases has {len(lines)} lines, not a multiple of {per} "
            "(lines per example)"
        )
    return ["\n".join(lines[i : i + per]) for i in range(0, len(lines), per)]


def _one_line_per_param(case: str) -> str:
    return case.replace("\r\n", "\n").rstrip("\n") + "\n"


def _checker(meta: dict[str, Any], signature: Signature) -> str:
    if meta.get("manual"):
        return "special"
    returns = [m.return_type or "" for m in signature.methods]
    if any("double" in r or "float" in r for r in returns):
        return "float:1e-5"  # LeetCode accepts answers within 1e-5
    return "tokens"


def _tags(q: dict[str, Any]) -> list[str]:
    tags = q.get("topicTags")
    if not isinstance(tags, list):
        return []
    return [t["name"] for t in tags if isinstance(t, dict) and isinstance(t.get("name"), str)]


def _snippets(q: dict[str, Any], where: str) -> dict[str, str]:
    found: dict[str, str] = {}
    snippets = q.get("codeSnippets")
    if isinstance(snippets, list):
        for s in snippets:
            if isinstance(s, dict) and isinstance(s.get("langSlug"), str) and isinstance(s.get("code"), str):
                found[s["langSlug"]] = s["code"]
    definition = q.get("codeDefinition")  # the 2017 shape: a JSON string of {value, defaultCode}
    if isinstance(definition, str) and not found:
        try:
            entries = bounds.loads(definition, f"{where}: codeDefinition")
        except json.JSONDecodeError as e:
            raise ParseError(f"cannot parse {where}: codeDefinition is not valid JSON ({e})") from e
        for s in entries if isinstance(entries, list) else []:
            if isinstance(s, dict) and isinstance(s.get("value"), str) and isinstance(s.get("defaultCode"), str):
                found[s["value"]] = s["defaultCode"]
    return {lang: found[lang].replace("\r\n", "\n") for lang in KEPT_LANGUAGES if lang in found}


def _ref_or_none(url: str | None) -> LeetcodeRef | None:
    if not url:
        return None
    try:
        return parse_leetcode_url(url)
    except ConfigError:
        return None


def _slug_from_link(raw: Any) -> str | None:
    data = raw.get("data") if isinstance(raw, dict) else None
    daily = data.get("activeDailyCodingChallengeQuestion") if isinstance(data, dict) else None
    link = daily.get("link") if isinstance(daily, dict) else None
    if isinstance(link, str):
        m = PROBLEM_PATH.match(link)
        if m:
            return m.group("slug")
    return None


def _error_text(errors: Any) -> str:
    if isinstance(errors, list):
        return "; ".join(str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in errors)
    return str(errors)
