"""AtCoder task pages: parse one task (`/contests/CONTEST/tasks/TASK`) into a `judge.Problem`.

Parsing is pure (`parse_task_page`: HTML in, problem out) and reads every layout the site has used:
- the page around the statement: the title in `span.h2` (since 2018) or `h2` (the old
  `CONTEST.contest.atcoder.jp` pages), and the limits line after it ("Time Limit: 2 sec / Memory Limit:
  1024 MiB", "実行時間制限: 1.25 sec / メモリ制限: 256 MB", old "Time limit : 2sec / Memory limit : 64MB");
- the statement in `#task-statement`, in `span.lang-en` and `span.lang-ja` (English is taken when present),
  or bare (pages in one language);
- sections as `div.part > section > h3` (new markup) or `div.part > h3 + section` (old markup, where the
  input and output parts are `div.io-style.part`); samples under "Sample Input N" / "入力例 N".
Math is AtCoder's `<var>` TeX, kept as `$...$`; samples are the `<pre>` text as a browser shows it.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field

import lxml.html
from lxml.html import HtmlElement
from pydantic import ValidationError

from cpbot.core.errors import ConfigError, ParseError, first_problem
from cpbot.judge.checkers.tolerance import statement_tolerance
from cpbot.judge.model import Limits, Problem, TestCase
from cpbot.scrapers.atcoder.ahc_page import ahc_spec
from cpbot.scrapers.atcoder.contests import ContestKind, contest_kind
from cpbot.scrapers.atcoder.urls import ROOT, AtCoderRef, parse_atcoder_url, task_letter
from cpbot.scrapers.htmltools import collapse, find_class, first_class, is_element, load_html
from cpbot.scrapers.ids import local_id
from cpbot.scrapers.markdown import to_markdown

SITE_NAME = "atcoder"
_HINT = (
    "the page layout was not recognised; if this is an AtCoder task, save the page from the browser and "
    "run `cpbot fetch page.html --url URL`, or send it with Competitive Companion to `cpbot listen`"
)
_TITLE = re.compile(r"^(?P<letter>[A-Za-z0-9]{1,3})\s*[-\u2010-\u2015]\s*(?P<name>.+)$", re.DOTALL)
_TIME = re.compile(r"(?:Time\s*Limit|実行時間制限)\s*[:：]\s*(?P<value>[\d.]+)\s*(?P<unit>msec|ms|sec|s)\b", re.I)
_MEMORY = re.compile(r"(?:Memory\s*Limit|メモリ制限)\s*[:：]\s*(?P<value>[\d.]+)\s*(?P<unit>[KMG]i?B)\b", re.I)
_SAMPLE = re.compile(r"^(?:Sample\s*(?P<en>Input|Output)|(?P<ja>入力|出力)例)\s*#?\s*(?P<n>\d+)", re.I)
_CONTEST_VAR = re.compile(r'var\s+contestScreenName\s*=\s*"(?P<c>[\w-]+)"')
_SAVED_FROM = re.compile(r"saved from url=\(\d+\)(\S+)")
# Section headings, by what cpbot does with them (English and Japanese; lower case).
_STATEMENT = {"problem statement", "problem", "statement", "問題文", "問題"}
_INPUT = {"input", "入力", "input format"}
_OUTPUT = {"output", "出力", "output format"}
_INTERACTION = {"input and output", "interaction", "入出力", "入出力形式", "interactive", "対話"}
_NOTES = {"notes", "note", "注意", "注記"}
_INTERACTIVE_WORDS = ("this is an interactive task", "this problem is interactive", "インタラクティブ")


@dataclass
class _Sections:
    statement: list[str] = field(default_factory=list)
    input_spec: list[str] = field(default_factory=list)
    output_spec: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    inputs: dict[int, str] = field(default_factory=dict)
    outputs: dict[int, str] = field(default_factory=dict)
    interactive: bool = False


def parse_task_page(html: bytes | str, url: str | None = None) -> Problem:
    """Parse a task page (or a page saved from the browser, or a bare `#task-statement`) into a problem.

    `url` (the page's address) gives the problem id; without it the page's own address (`og:url`, the
    contest name in its script) is used, and failing those the id is a content hash. Raises `ParseError`
    naming the page and the missing part.
    """
    text = html.decode("utf-8", errors="replace") if isinstance(html, bytes) else html
    where = url or "the AtCoder page"
    doc = load_html(text, where)
    ref = _ref(url) or _ref(_own_url(doc, text))
    root = doc.get_element_by_id("task-statement", None)
    if root is None:
        raise ParseError(f"cannot parse {where}: missing div#task-statement", hint=_HINT)
    letter, title = _title(doc, ref)
    limits = _limits(doc, where)
    body = _language(root)
    base = url if url and url.startswith("http") else ROOT + "/"
    sections = _sections(body, base, where)
    interactive = sections.interactive or any(w in collapse(body.text_content()).lower() for w in _INTERACTIVE_WORDS)
    samples = _samples(sections, where)
    # an AHC task: a score per input, no right answer (its sample output is one valid output, not the answer)
    heuristic = ref is not None and contest_kind(ref.contest) == ContestKind.AHC
    if heuristic:
        samples = [s.model_copy(update={"output": None}) for s in samples]
    statement = "\n\n".join(sections.statement)
    if not statement:
        raise ParseError(f"cannot parse {where}: missing the problem statement section", hint=_HINT)
    if not samples and not interactive:
        raise ParseError(f"cannot parse {where}: missing the samples (Sample Input 1 / 入力例 1)", hint=_HINT)
    output_spec = "\n\n".join(sections.output_spec)
    if ref is not None and ref.task:
        pid, purl, contest = f"{SITE_NAME}:{ref.task}", ref.task_url(), ref.contest
    else:
        pid, purl, contest = local_id(text), None, ref.contest if ref else None
    return Problem(
        id=pid,
        site=SITE_NAME,
        url=purl,
        title=title,
        index=letter,
        statement=statement,
        input_spec="\n\n".join(sections.input_spec),
        output_spec=output_spec,
        notes="\n\n".join(sections.notes),
        limits=limits,
        samples=samples,
        kind="heuristic" if heuristic else "interactive" if interactive else "stdio",
        heuristic=ahc_spec(body, base) if heuristic else None,
        checker=statement_tolerance(f"{output_spec}\n{statement}") or "tokens",
        contest=contest,
        raw=text,
    )


def parse_time_ms(value: str, unit: str) -> int:
    """'2' 'sec' -> 2000, '1.25' 'sec' -> 1250, '500' 'msec' -> 500."""
    amount = float(value)
    return round(amount if unit.lower().startswith("m") else amount * 1000)


def parse_memory_mb(value: str, unit: str) -> int:
    """'1024' 'MiB' -> 1024, '256' 'MB' -> 256, '65536' 'KB' -> 64, '1' 'GiB' -> 1024 (megabytes, rounded up)."""
    amount = float(value)
    scale = {"k": 1 / 1024, "m": 1, "g": 1024}[unit[0].lower()]
    return math.ceil(amount * scale - 1e-9)


def _ref(url: str | None) -> AtCoderRef | None:
    if not url:
        return None
    try:
        return parse_atcoder_url(url)
    except ConfigError:
        return None


def _own_url(doc: HtmlElement, text: str) -> str | None:
    """The address a saved page names for itself."""
    m = _SAVED_FROM.search(text[:4096])
    if m:
        return m.group(1)
    for xpath in ('//meta[@property="og:url"]/@content', '//link[@rel="canonical"]/@href'):
        for found in doc.xpath(xpath):
            if "/tasks/" in str(found):
                return str(found)
    contest = _CONTEST_VAR.search(text)
    for href in doc.xpath('//a[contains(@href, "/tasks/")]/@href'):  # the language switch links to this page
        m = re.search(r"/contests/([\w-]+)/tasks/([\w-]+)", str(href))
        if m and (contest is None or m.group(1) == contest.group("c")) and "?lang=" in str(href):
            return f"{ROOT}/contests/{m.group(1)}/tasks/{m.group(2)}"
    return None


def _title(doc: HtmlElement, ref: AtCoderRef | None) -> tuple[str | None, str]:
    """("A", "N-choice question") from "A - N-choice question"; the task id's letter when the page gives none."""
    candidates = []
    h2 = first_class(doc, "h2", "span")
    if h2 is not None:  # its own text only: an "Editorial" button sits inside it
        candidates.append(collapse((h2.text or "") + "".join(c.tail or "" for c in h2 if is_element(c))))
    candidates += [collapse(h.text_content()) for h in doc.iter("h2")]
    candidates += [collapse(t.text_content()) for t in doc.iter("title")]
    for text in candidates:
        m = _TITLE.match(text)
        if m:
            return m.group("letter").upper(), m.group("name").strip()
    letter = task_letter(ref.task) if ref and ref.task else None
    return letter, next((c for c in candidates if c), "")


def _limits(doc: HtmlElement, where: str) -> Limits:
    text = collapse(" ".join(p.text_content() for p in doc.iter("p", "span", "div") if _has_limit_words(p)))
    tl, ml = _TIME.search(text), _MEMORY.search(text)
    if tl is None or ml is None:  # older layouts: the line inside other markup (a bold label, a shared paragraph)
        before = _text_before_statement(doc)
        tl, ml = tl or _TIME.search(before), ml or _MEMORY.search(before)
    if tl is None:
        raise ParseError(f"cannot parse {where}: missing the time limit (Time Limit: N sec)", hint=_HINT)
    if ml is None:
        raise ParseError(f"cannot parse {where}: missing the memory limit (Memory Limit: N MiB)", hint=_HINT)
    try:
        return Limits(
            time_ms=parse_time_ms(tl.group("value"), tl.group("unit")),
            memory_mb=parse_memory_mb(ml.group("value"), ml.group("unit")),
        )
    except ValidationError as e:
        raise ParseError(f"cannot parse {where}: bad limits ({first_problem(e)})", hint=_HINT) from e


def _text_before_statement(doc: HtmlElement, limit: int = 200_000) -> str:
    """The page's text up to `#task-statement` (the limits line is above it, never in the statement)."""
    body = doc.find(".//body")
    text = collapse((body if body is not None else doc).text_content()[:limit])
    statement = doc.get_element_by_id("task-statement", None)
    if statement is not None:
        own = collapse(statement.text_content())[:80]
        cut = text.find(own) if own else -1
        if cut > 0:
            return text[:cut]
    return text


def _has_limit_words(el: HtmlElement) -> bool:
    own = (el.text or "").strip()
    return own.lower().startswith(("time limit", "実行時間制限"))


def _language(root: HtmlElement) -> HtmlElement:
    """The English statement when the page has one, else the Japanese one, else the whole statement."""
    for name in ("lang-en", "lang-ja"):
        found = first_class(root, name, "span")
        if found is not None and collapse(found.text_content()):
            return found
    return root


def _sections(body: HtmlElement, base: str, where: str) -> _Sections:
    out = _Sections()
    parts = [p for p in find_class(body, "part") if not find_class(p, "part")] or _bare_sections(body)
    if not parts:
        raise ParseError(f"cannot parse {where}: missing the statement's sections (div.part)", hint=_HINT)
    for part in parts:
        heading = part.find(".//h3")
        name = collapse(heading.text_content()) if heading is not None else ""
        key = name.lower()
        sample = _SAMPLE.match(name)
        if sample:
            is_input = (sample.group("en") or "").lower() == "input" or sample.group("ja") == "入力"
            pre = part.find(".//pre")
            if pre is None:
                raise ParseError(f"cannot parse {where}: missing the <pre> of {name}", hint=_HINT)
            (out.inputs if is_input else out.outputs)[int(sample.group("n"))] = _pre_text(pre)
            explanation = _markdown(part, base, skip=(heading, pre))
            if explanation and not is_input:
                out.notes.append(f"{name}: {explanation}")
            continue
        content = _markdown(part, base, skip=(heading,))
        if key in _STATEMENT or (not name and not out.statement):
            out.statement.append(content)
        elif key in _INPUT:
            out.input_spec.append(content)
        elif key in _OUTPUT:
            out.output_spec.append(content)
        elif key in _INTERACTION:
            out.interactive = True
            out.input_spec.append(content)
        elif key in _NOTES:
            out.notes.append(content)
        elif content:
            out.statement.append(f"## {name}\n\n{content}")
    return out


def _bare_sections(body: HtmlElement) -> list[HtmlElement]:
    """Statements without `div.part`: each `h3` with what follows it up to the next `h3`, as a part."""
    parts: list[HtmlElement] = []
    for h3 in body.iter("h3"):
        part = lxml.html.Element("div")
        part.append(copy.deepcopy(h3))
        for sibling in h3.itersiblings():
            if is_element(sibling) and sibling.tag == "h3":
                break
            part.append(copy.deepcopy(sibling))
        parts.append(part)
    return parts


def _markdown(part: HtmlElement, base: str, skip: tuple[HtmlElement | None, ...]) -> str:
    """A part's content as Markdown, without the elements in `skip` and with `<var>` math as `$...$`."""
    clone = copy.deepcopy(part)
    originals = list(part.iter())
    for el, twin in zip(originals, clone.iter(), strict=True):
        if any(el is s for s in skip if s is not None):
            _drop(twin)
    for var in list(clone.iter("var")):
        if any(a.tag == "pre" for a in var.iterancestors()):
            continue
        tex = collapse(var.text_content())
        _replace_with_text(var, f"${tex}$" if tex else "")
    return to_markdown(clone, base)


def _drop(el: HtmlElement) -> None:
    _replace_with_text(el, "")


def _replace_with_text(el: HtmlElement, text: str) -> None:
    parent = el.getparent()
    if parent is None:
        return
    joined = text + (el.tail or "")
    prev = el.getprevious()
    if prev is not None:
        prev.tail = (prev.tail or "") + joined
    else:
        parent.text = (parent.text or "") + joined
    parent.remove(el)


def _pre_text(pre: HtmlElement) -> str:
    """The text of a sample `<pre>` as the browser shows it: CRLF as LF, the newline right after `<pre>`
    dropped (the HTML rules do), trailing spaces kept, one final newline."""
    raw = pre.text_content().replace("\r\n", "\n").replace("\r", "\n")
    if raw.startswith("\n"):
        raw = raw[1:]
    raw = raw.rstrip("\n")
    return raw + "\n" if raw else ""


def _samples(sections: _Sections, where: str) -> list[TestCase]:
    numbers = sorted(set(sections.inputs) | set(sections.outputs))
    missing = [n for n in numbers if n not in sections.inputs or n not in sections.outputs]
    if missing:
        raise ParseError(f"cannot parse {where}: sample {missing[0]} lacks its input or its output", hint=_HINT)
    return [
        TestCase(input=sections.inputs[n], output=sections.outputs[n], origin="sample", name=f"sample-{n}")
        for n in numbers
    ]


def is_task_page(data: bytes) -> bool:
    """Whether saved content is an AtCoder task page or its statement."""
    head = data[:200_000]
    return b'id="task-statement"' in head and (b"atcoder" in head.lower() or b"lang-en" in head or b"part" in head)
