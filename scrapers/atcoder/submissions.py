"""AtCoder's submit form and submission list, parsed (pure functions, tested on recorded pages).

- `/contests/CONTEST/submit`: the `csrf_token`, the tasks (`data.TaskScreenName`), and the languages
  (`data.LanguageId`: one select per task in the 2023 form, one select in later forms); and whether the
  form carries a human check (Cloudflare Turnstile or reCAPTCHA), which AtCoder added in 2025.
- `/contests/CONTEST/submissions/me`: one row per submission: id (`data-id` of the score cell), task, time,
  language, status label (`WJ`, `3/12`, `AC`, `WA`, ...), exec time and memory.
The language ids are read from the served form; the ids of AtCoder's current judge (the 2024-25 language
update, live since October 2025) are kept in `CURRENT_JUDGE_IDS` for the fake site and the docs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from cpbot.core.errors import SubmitError
from cpbot.core.registry import Family, language_spec
from cpbot.judge.model import Verdict
from cpbot.scrapers.htmltools import collapse, load_html

# AtCoder's judge since the 2024-25 language update: the option text and id of what cpbot writes.
CURRENT_JUDGE_IDS = {
    "C++23 (GCC 15.2.0)": "6017",
    "Python (CPython 3.13.7)": "6082",
    "Python (PyPy 3.11-v7.3.20)": "6083",
}
# Option texts that run a cpbot language, best first (case-insensitive regexes): the current judge's
# names, then the 2023 judge's ("C++ 23 (gcc 12.2)", "Python (CPython 3.11.4)", "Python (PyPy 3.10-v7.3.12)"),
# then older ones ("C++ (GCC 9.2.1)", "Python (3.8.2)", "PyPy3 (7.3.0)").
PREFERENCES = {
    "cpp": [r"^C\+\+\s?2[03]\s*\(GCC", r"^C\+\+\s?2[03]\b", r"^C\+\+\s?17\b", r"^C\+\+\s*\(GCC", r"^C\+\+"],
    "cpython": [r"^Python \(CPython 3", r"^Python \(3\.", r"^Python3\b"],
    "pypy": [r"^Python \(PyPy 3", r"^PyPy3\b"],
}
# Status labels: final verdicts and what cpbot calls them; anything else ("WJ", "WR", "3/12", "Judging") runs.
VERDICTS: dict[str, Verdict | None] = {
    "AC": Verdict.AC,
    "WA": Verdict.WA,
    "TLE": Verdict.TLE,
    "MLE": Verdict.MLE,
    "RE": Verdict.RE,
    "CE": Verdict.CE,
    "OLE": Verdict.OLE,
    "IE": Verdict.IE,
    "QLE": Verdict.WA,  # query limit exceeded (interactive): a wrong protocol
}
_HUMAN_CHECK = ("cf-turnstile", "g-recaptcha", "h-captcha", "challenges.cloudflare.com/turnstile")
_SUBMISSION_HREF = re.compile(r"/contests/(?P<contest>[\w-]+)/submissions/(?P<id>\d+)")
_TASK_HREF = re.compile(r"/contests/[\w-]+/tasks/(?P<task>[\w-]+)")


@dataclass(frozen=True)
class SubmitForm:
    """What the submit page serves."""

    csrf_token: str
    tasks: list[str]
    languages: dict[str, list[tuple[str, str]]]  # task -> (LanguageId, option text); "" for a shared select
    human_check: bool

    def options(self, task: str) -> list[tuple[str, str]]:
        return self.languages.get(task) or self.languages.get("", [])


@dataclass(frozen=True)
class SubmissionRow:
    """One row of the submission list."""

    submission_id: str
    contest: str
    task: str
    created: datetime | None
    language: str
    status: str  # the label as shown: "AC", "WA", "WJ", "3/12"
    time_ms: int | None
    memory_kb: int | None

    @property
    def final(self) -> bool:
        return self.status in VERDICTS

    @property
    def verdict(self) -> Verdict | None:
        return VERDICTS.get(self.status)


def parse_submit_form(html: bytes | str, where: str = "the AtCoder submit page") -> SubmitForm:
    """The submit page -> csrf token, tasks, language options per task, and whether a human check is on it."""
    doc = load_html(html, where)
    token = doc.xpath('//form[contains(@action, "/submit")]//input[@name="csrf_token"]/@value') or doc.xpath(
        '//input[@name="csrf_token"]/@value'
    )
    if not token:
        raise SubmitError(f"cannot read {where}: missing csrf_token (not logged in?)")
    tasks = [str(v) for v in doc.xpath('//select[@name="data.TaskScreenName"]/option/@value') if v]
    tasks += [str(v) for v in doc.xpath('//input[@name="data.TaskScreenName"]/@value') if v]
    languages: dict[str, list[tuple[str, str]]] = {}
    for holder in doc.xpath('//div[starts-with(@id, "select-lang-")]'):
        task = str(holder.get("id")).removeprefix("select-lang-")
        languages[task] = _options(holder.xpath(".//option"))
    shared = doc.xpath('//select[@name="data.LanguageId"]')
    if shared:
        languages[""] = _options(shared[0].xpath(".//option"))
    text = html.decode("utf-8", errors="replace") if isinstance(html, bytes) else html
    return SubmitForm(str(token[0]), tasks, languages, any(m in text for m in _HUMAN_CHECK))


def _options(options: list) -> list[tuple[str, str]]:
    return [(str(o.get("value")), collapse(o.text_content())) for o in options if o.get("value")]


def choose_language(options: list[tuple[str, str]], language: str) -> tuple[str, str]:
    """The (LanguageId, text) that runs cpbot's `language` (C++ at the newest standard offered, CPython or
    PyPy as asked); `SubmitError` naming what the form offers when none does."""
    spec = language_spec(language)
    key = "cpp" if spec.family is Family.CPP else spec.runtime
    for pattern in PREFERENCES.get(key, []):
        found = [(v, t) for v, t in options if re.search(pattern, t, re.IGNORECASE)]
        if found:
            return found[0]
    offered = ", ".join(t for _, t in options[:12])
    raise SubmitError(f"the AtCoder submit form offers no language for {language}", hint=f"it lists: {offered}")


def parse_submissions(html: bytes | str, where: str = "the AtCoder submission list") -> list[SubmissionRow]:
    """The submission list -> rows, as listed (newest first)."""
    doc = load_html(html, where)
    rows = []
    for tr in doc.xpath("//table//tbody/tr"):
        link = next((m for m in (_SUBMISSION_HREF.search(str(h)) for h in tr.xpath(".//a/@href")) if m), None)
        task = next((m for m in (_TASK_HREF.search(str(h)) for h in tr.xpath(".//a/@href")) if m), None)
        label = tr.xpath('.//span[contains(concat(" ", @class, " "), " label ")]')
        if link is None or task is None or not label:
            continue
        cells = [collapse(td.text_content()) for td in tr.xpath("./td")]
        when = tr.xpath(".//time/text()")
        rows.append(
            SubmissionRow(
                submission_id=link.group("id"),
                contest=link.group("contest"),
                task=task.group("task"),
                created=_time(str(when[0])) if when else None,
                language=cells[3] if len(cells) > 3 else "",
                status=collapse(label[0].text_content()),
                time_ms=_number(cells, r"^(\d+)\s*ms$"),
                memory_kb=_number(cells, r"^(\d+)\s*(?:KB|KiB)$"),
            )
        )
    return rows


def _time(text: str) -> datetime | None:
    try:
        return datetime.strptime(text.strip(), "%Y-%m-%d %H:%M:%S%z").astimezone(UTC)
    except ValueError:
        return None


def _number(cells: list[str], pattern: str) -> int | None:
    for cell in cells:
        m = re.match(pattern, cell)
        if m:
            return int(m.group(1))
    return None
