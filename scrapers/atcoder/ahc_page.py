"""What an AtCoder Heuristic Contest's task page says of its scoring, read into a `HeuristicSpec`.

An AHC task page is a task page (`parse.py` reads it) whose statement has no right answer: a score per
input, summed. The page states whether larger or smaller is better, whether scores are relative to the best
entry per input ("relative score", `round(10^9 x ...)`), how many inputs the system test has ("System test:
1000", "システムテスト 1000個") and links the contest's tools (the generator and the visualiser that scores,
a zip of a Rust package) in its "Tools" section. The tools themselves are fetched by `ahc_tools.py`.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml.html import HtmlElement

from cpbot.judge.model import HeuristicSpec
from cpbot.scrapers.htmltools import collapse

_SMALLER = re.compile(r"\b(minimi[sz]e|as small as possible|lower (?:is|the) better|smaller (?:is|the) better)", re.I)
_LARGER = re.compile(r"\b(maximi[sz]e|as large as possible|higher (?:is|the) better|larger (?:is|the) better)", re.I)
_RELATIVE = re.compile(r"relative score|相対評価", re.I)
_SYSTEM = re.compile(r"(?:System test|システムテスト)\s*[:：]?\s*(?P<n>\d[\d,]*)", re.I)
_TOOLS_HEADINGS = ("tools", "ツール")


def ahc_spec(body: HtmlElement, base: str) -> HeuristicSpec:
    """The scoring an AHC statement (`body`: its English or Japanese span) states."""
    text = collapse(body.text_content())
    smaller, larger = _SMALLER.search(text), _LARGER.search(text)
    objective = "minimize" if smaller and (not larger or smaller.start() < larger.start()) else "maximize"
    relative = bool(_RELATIVE.search(text))
    system = _SYSTEM.search(text)
    inputs = int(system.group("n").replace(",", "")) if system else None
    return HeuristicSpec(
        objective=objective,
        scoring="relative" if relative else "absolute",
        generator_style="ahc",
        # where smaller is better a failed input must count worse than any output (the page's own penalty, when
        # it states one, is for the user to set in problem.json)
        failure_score=0.0 if objective == "maximize" else 1e9,
        system_inputs=inputs,
        tools_url=_tools_link(body, base),
    )


def _tools_link(body: HtmlElement, base: str) -> str | None:
    """The zip the "Tools" section links (the generator and visualiser), made absolute."""
    for heading in body.iter("h3"):
        if collapse(heading.text_content()).lower() not in _TOOLS_HEADINGS:
            continue
        section = heading.getparent()
        for a in section.iter("a") if section is not None else ():
            href = (a.get("href") or "").strip()
            if href.lower().endswith(".zip"):
                return urljoin(base, href)
    return None
