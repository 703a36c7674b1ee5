"""Codeforces problem pages: parse one statement or an all-problems page into `judge.Problem`s.

Parsing is pure (`parse_problems`: HTML in, problems out) and works on raw server pages, pages saved
from the browser and bare `.problem-statement` fragments. `fetch_problems` downloads a URL through
the shared HTTP layer and parses it.
"""

from __future__ import annotations

import math
import re
from urllib.parse import urljoin, urlsplit

import lxml.html
from lxml.html import HtmlElement
from pydantic import ValidationError

from cpbot.core.errors import ConfigError, ParseError, first_problem
from cpbot.judge.checkers.tolerance import statement_tolerance
from cpbot.judge.model import Limits, Problem, TestCase
from cpbot.scrapers.codeforces.samples import read_pre
from cpbot.scrapers.codeforces.urls import CodeforcesRef, is_codeforces_host, parse_codeforces_url
from cpbot.scrapers.htmltools import class_xpath, collapse, find_class, first_class, has_class, is_element, load_html
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ids import local_id
from cpbot.scrapers.markdown import to_markdown

INTERACTION_TITLES = {"interaction", "протокол взаимодействия"}
_STDIN = {"standard input", "stdin", "стандартный ввод"}
_STDOUT = {"standard output", "stdout", "стандартный вывод"}
_TITLE = re.compile(r"^(?P<index>[A-Za-z0-9]{1,4})\.\s*(?P<name>.+)$", re.DOTALL)
_AMOUNT = re.compile(r"(\d+(?:[.,]\d+)?)\s*([^\d\s]*)")
_SAVED_FROM = re.compile(r"saved from url=\(\d+\)(\S+)")
_HINT = (
    "the page layout was not recognised; if this is a Codeforces problem, save the page from the "
    "browser and run `cpbot fetch page.html`, or send it with Competitive Companion to `cpbot listen`"
)


def parse_problems(html: bytes | str, url: str | None = None) -> list[Problem]:
    """Parse a problem page, an all-problems page or a statement fragment into problems.

    `url` (the page's address) gives the problem ids; without it the page's own links are used, and
    failing those the id is a content hash. Raises `ParseError` naming the URL and the missing part.
    """
    text = html.decode("utf-8", errors="replace") if isinstance(html, bytes) else html
    where = url or "the Codeforces page"
    doc = load_html(text, where)
    page_url = url or _saved_url(doc, text)
    ref = _ref_from(page_url) or _ref_from_links(doc)
    statements = _statements(doc)
    if not statements:
        raise ParseError(f"cannot parse {where}: missing div.problem-statement", hint=_HINT)
    contest = _contest_name(doc)
    base = page_url if page_url and page_url.startswith("http") else "https://codeforces.com/"
    problems = []
    for st in statements:
        raw = text if len(statements) == 1 else _outer_html(st)
        problems.append(_parse_statement(st, where, ref, contest, base, raw))
    if len(problems) == 1:
        tags, rating = _tags(doc)
        problems[0] = problems[0].model_copy(update={"tags": tags, "difficulty": rating})
    return problems


def parse_problem(html: bytes | str, url: str | None = None) -> Problem:
    """Parse a page that holds exactly one problem statement."""
    problems = parse_problems(html, url)
    if len(problems) != 1:
        raise ParseError(
            f"{url or 'the page'} holds {len(problems)} problems, expected one",
            hint="use parse_problems for an all-problems page",
        )
    return problems[0]


def fetch_problems(url: str, client: HttpClient) -> list[Problem]:
    """Download a problem (or a contest's all-problems page) in English and parse it."""
    ref = parse_codeforces_url(url)
    response = client.get(ref.fetch_url())
    canonical = ref.problem_url() if ref.index else ref.problems_url()
    problems = parse_problems(response.content, canonical)
    if ref.index and all(p.index != ref.index for p in problems):
        raise ParseError(f"cannot parse {canonical}: missing problem {ref.index} on the page", hint=_HINT)
    return problems


def parse_time_ms(text: str) -> int | None:
    """'2 seconds', '0.5 seconds', '1 s.', '2 секунды', '500 ms' -> milliseconds."""
    m = _AMOUNT.search(text)
    if not m:
        return None
    value = float(m.group(1).replace(",", "."))
    unit = m.group(2).lower()
    ms = value if unit.startswith(("ms", "мс", "milli", "милли")) else value * 1000
    return round(ms)


def parse_memory_mb(text: str) -> int | None:
    """'256 megabytes', '512 MB', '1 GB', '65536 KB' -> megabytes."""
    m = _AMOUNT.search(text)
    if not m:
        return None
    value = float(m.group(1).replace(",", "."))
    unit = m.group(2).lower()
    if unit.startswith(("g", "г")):
        value *= 1024
    elif unit.startswith(("k", "к")):
        value /= 1024
    return math.ceil(value)


def _parse_statement(
    st: HtmlElement, where: str, ref: CodeforcesRef | None, contest: str | None, base: str, raw: str
) -> Problem:
    header = first_class(st, "header", "div")
    if header is None:
        raise ParseError(f"cannot parse {where}: missing div.header of a statement", hint=_HINT)
    index, title = _title(header, st, where)
    limits = _limits(header, where, index)
    sections = _sections(st, base)
    interactive = any(collapse(t.text_content()).lower() in INTERACTION_TITLES for t in find_class(st, "section-title"))
    if not sections.legend:
        raise ParseError(f"cannot parse {where}: missing the statement text of problem {index}", hint=_HINT)
    if sections.input_spec is None:
        raise ParseError(f"cannot parse {where}: missing the Input section of problem {index}", hint=_HINT)
    if sections.output_spec is None and not interactive:
        raise ParseError(f"cannot parse {where}: missing the Output section of problem {index}", hint=_HINT)
    if sections.samples_div is None:
        raise ParseError(f"cannot parse {where}: missing the sample tests of problem {index}", hint=_HINT)
    samples = _samples(sections.samples_div, where, index)
    if ref is not None:
        pid, purl = ref.problem_id(index), ref.problem_url(index)
    else:
        pid, purl = local_id(raw), None
    return Problem(
        id=pid,
        site="codeforces",
        url=purl,
        title=title,
        index=index,
        statement=sections.statement(),
        input_spec=sections.input_spec or "",
        output_spec=sections.output_spec or "",
        notes=sections.notes,
        limits=limits,
        samples=samples,
        kind="interactive" if interactive else "stdio",
        # Codeforces' standard float checkers take an absolute or a relative error, whichever the text names
        checker=statement_tolerance(f"{sections.output_spec}\n{sections.statement()}", either=True) or "tokens",
        input_file=_file_name(header, "input-file", _STDIN),
        output_file=_file_name(header, "output-file", _STDOUT),
        contest=contest,
        raw=raw,
    )


def _title(header: HtmlElement, st: HtmlElement, where: str) -> tuple[str, str]:
    el = first_class(header, "title", "div")
    text = collapse(el.text_content()) if el is not None else ""
    m = _TITLE.match(text)
    if m:
        return m.group("index").upper(), m.group("name").strip()
    holder = st.xpath(f"ancestor-or-self::div[{class_xpath('problemindexholder')}][1]")
    index = holder[0].get("problemindex") if holder else None
    if text and index and re.fullmatch(r"[A-Za-z0-9]{1,4}", index):
        return index.upper(), text
    raise ParseError(f'cannot parse {where}: missing the problem title ("A. Name") in div.title', hint=_HINT)


def _limits(header: HtmlElement, where: str, index: str) -> Limits:
    tl = _property(header, "time-limit")
    ml = _property(header, "memory-limit")
    time_ms = parse_time_ms(tl) if tl else None
    memory_mb = parse_memory_mb(ml) if ml else None
    if not time_ms:
        raise ParseError(f"cannot parse {where}: missing the time limit of problem {index}", hint=_HINT)
    if not memory_mb:
        raise ParseError(f"cannot parse {where}: missing the memory limit of problem {index}", hint=_HINT)
    try:
        return Limits(time_ms=time_ms, memory_mb=memory_mb)
    except ValidationError as e:
        raise ParseError(f"cannot parse {where}: bad limits of problem {index} ({first_problem(e)})", hint=_HINT) from e


def _property(header: HtmlElement, name: str) -> str | None:
    """The value of a header property: its last piece of text outside the property title."""
    div = first_class(header, name, "div")
    if div is None:
        return None
    parts = [div.text or ""]
    for child in div:
        if is_element(child) and not has_class(child, "property-title"):
            parts.extend(child.itertext())
        parts.append(child.tail or "")
    values = [p.strip() for p in parts if p and p.strip()]
    return values[-1] if values else None


def _file_name(header: HtmlElement, name: str, standard: set[str]) -> str | None:
    value = _property(header, name)
    if value is None or value.lower() in standard:
        return None
    return value


class _Sections:
    def __init__(self) -> None:
        self.legend = ""
        self.extra: list[tuple[str, str]] = []
        self.input_spec: str | None = None
        self.output_spec: str | None = None
        self.notes = ""
        self.samples_div: HtmlElement | None = None

    def statement(self) -> str:
        parts = [self.legend] + [f"## {title}\n\n{body}" for title, body in self.extra]
        return "\n\n".join(p for p in parts if p)


_TITLE_ONLY = frozenset({"section-title"})


def _sections(st: HtmlElement, base: str) -> _Sections:
    out = _Sections()
    header = first_class(st, "header", "div")
    container = header.getparent() if header is not None else st
    legend_parts = []
    for child in container:
        if not is_element(child) or child is header:
            continue
        if has_class(child, "input-specification"):
            out.input_spec = to_markdown(child, base, _TITLE_ONLY)
        elif has_class(child, "output-specification"):
            out.output_spec = to_markdown(child, base, _TITLE_ONLY)
        elif has_class(child, "sample-tests"):
            out.samples_div = child
        elif has_class(child, "note"):
            out.notes = to_markdown(child, base, _TITLE_ONLY)
        else:
            title = child.xpath(f"./div[{class_xpath('section-title')}]")
            if title:
                out.extra.append((collapse(title[0].text_content()), to_markdown(child, base, _TITLE_ONLY)))
            elif child.tag.lower() not in ("script", "style"):
                legend_parts.append(to_markdown(child, base))
    out.legend = "\n\n".join(p for p in legend_parts if p)
    return out


def _samples(section: HtmlElement, where: str, index: str) -> list[TestCase]:
    boxes = section.xpath(f".//div[{class_xpath('input')} or {class_xpath('output')}]")
    inputs, outputs = [], []
    for box in boxes:
        pre = box.find(".//pre")
        is_input = has_class(box, "input")
        if pre is None:
            part = "input" if is_input else "output"
            raise ParseError(f"cannot parse {where}: missing the <pre> of a sample {part} of problem {index}")
        (inputs if is_input else outputs).append(read_pre(pre))
    if not inputs or len(inputs) != len(outputs):
        raise ParseError(
            f"cannot parse {where}: missing sample pairs of problem {index} "
            f"({len(inputs)} inputs, {len(outputs)} outputs)",
            hint=_HINT,
        )
    return [
        TestCase(input=i.text, output=o.text, origin="sample", name=f"sample-{n}", cases=i.cases)
        for n, (i, o) in enumerate(zip(inputs, outputs, strict=True), start=1)
    ]


def _statements(doc: HtmlElement) -> list[HtmlElement]:
    found = find_class(doc, "problem-statement", "div")
    if found:
        return found
    # Fragments captured from the DOM start at div.header, without the wrapper.
    headers = doc.xpath(f".//div[{class_xpath('header')}][div[{class_xpath('title')}]]")
    parents = []
    for h in headers:
        parent = h.getparent()
        if parent is not None and all(parent is not p for p in parents):
            parents.append(parent)
    return parents


def _outer_html(st: HtmlElement) -> str:
    holder = st.xpath(f"ancestor-or-self::div[{class_xpath('problemindexholder')}][1]")
    return lxml.html.tostring(holder[0] if holder else st, encoding="unicode")


def _saved_url(doc: HtmlElement, text: str) -> str | None:
    m = _SAVED_FROM.search(text[:4096])
    if m:
        return m.group(1)
    for xpath in ('//link[@rel="canonical"]/@href', '//meta[@property="og:url"]/@content'):
        found = doc.xpath(xpath)
        if found:
            return str(found[0])
    return None


def _ref_from(url: str | None) -> CodeforcesRef | None:
    if not url:
        return None
    try:
        return parse_codeforces_url(url)
    except ConfigError:
        return None


def _ref_from_links(doc: HtmlElement) -> CodeforcesRef | None:
    """The contest of a saved page without its URL, from the sidebar's contest link."""
    links = doc.xpath(
        f".//table[{class_xpath('rtable')}]//th//a[contains(@href, '/contest/') or contains(@href, '/gym/')]"
    )
    for a in links:
        href = urljoin("https://codeforces.com/", a.get("href") or "")
        if is_codeforces_host(urlsplit(href).hostname or ""):
            ref = _ref_from(href)
            if ref is not None:
                return ref
    return None


def _contest_name(doc: HtmlElement) -> str | None:
    caption = doc.xpath(f"(.//div[{class_xpath('caption')}])[1]")
    if caption and doc.xpath(f".//div[{class_xpath('problem-frames')}]"):
        return collapse(caption[0].text_content()) or None
    for xpath in (
        f".//table[{class_xpath('rtable')}]//th//a[contains(@href, '/contest/') or contains(@href, '/gym/')]",
        f".//div[{class_xpath('eduBreadcrumb')}]/a",
    ):
        found = doc.xpath(xpath)
        if found:
            return collapse(found[0].text_content()) or None
    return None


def _tags(doc: HtmlElement) -> tuple[list[str], str | None]:
    tags, rating = [], None
    for box in find_class(doc, "tag-box", "span"):
        text = collapse(box.text_content())
        if re.fullmatch(r"\*\d+", text):
            rating = text[1:]
        elif text:
            tags.append(text)
    return tags, rating
