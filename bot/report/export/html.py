"""Rendering an `ExportReport` as one self-contained HTML page (inline CSS and SVG, no requests, no JS).

The template lives in `templates/report/` and is read with `importlib.resources`. Autoescaping is on
for everything: statements, prompts and replies are untrusted text. Only the SVGs drawn by
`bot.report.export.svg` and the statements rendered by `bot.report.export.statement` (both escape their own
text; statements render with raw HTML off) are inserted as markup.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

from cpbot.bot.report.export.code import style_rules
from cpbot.bot.report.export.model import ExportReport
from cpbot.bot.report.export.statement import statement_html
from cpbot.bot.watch.standing import Standing
from cpbot.core.errors import CpbotError
from cpbot.scrapers.ranklist import Scoring

TEMPLATE_PACKAGE = "cpbot.templates"  # installed under cpbot (see pyproject.toml)
TEMPLATE_DIR = "report"
PAGE = "report.html.j2"


class ExportError(CpbotError):
    """The report template cannot be found or rendered."""


def _load(name: str) -> str:
    resource = resources.files(TEMPLATE_PACKAGE).joinpath(TEMPLATE_DIR, name)
    try:
        return resource.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError) as e:
        raise jinja2.TemplateNotFound(name) from e


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f} ms" if value >= 10 else f"{value:.1f} ms"


def _kb(value: int | None) -> str:
    if value is None:
        return "-"
    return f"{value / 1024:,.1f} MB" if value >= 1024 else f"{value} KB"


def _clock(seconds: float) -> str:
    sign = "-" if seconds < 0 else "+"
    s = abs(seconds)
    return f"{sign}{int(s // 3600)}:{int(s % 3600 // 60):02d}:{s % 60:04.1f}"


def _contest_clock(seconds: float | None) -> str:
    """Time since the contest started, as a contest's clock shows it: 00:42:13."""
    if seconds is None:
        return "-"
    s = max(0, int(seconds))
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _points(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _yes_no(value: object) -> object:
    """JSON booleans as words (a table of checks reads "yes"/"no", not "True"/"False")."""
    return ("yes" if value else "no") if isinstance(value, bool) else value


def _score_line(standing: Standing) -> str:
    """What the rank was decided by, in the contest's own measure."""
    solved = sum(p.solved for p in standing.problems)
    if standing.scoring is Scoring.ICPC:
        return f"{solved} solved, penalty {standing.penalty:,.0f} min (ICPC rules)"
    if standing.scoring is Scoring.SCORE_TIME:
        return f"score {_points(standing.points)}, finish time {_contest_clock(standing.penalty)} ({solved} solved)"
    return f"{_points(standing.points)} points ({solved} solved)"


def environment() -> jinja2.Environment:
    """The jinja2 environment of the report templates."""
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        pretty=_pretty,
        ms=_ms,
        kb=_kb,
        clock=_clock,
        contest_clock=_contest_clock,
        points=_points,
        score_line=_score_line,
        yes_no=_yes_no,
        svg=Markup,
        statement=statement_html,
    )
    env.globals["code_css"] = Markup(style_rules())  # Pygments' token colours, generated CSS only
    return env


def render_html(report: ExportReport) -> str:
    """The page for `report`."""
    try:
        return environment().get_template(PAGE).render(r=report)
    except jinja2.TemplateNotFound as e:
        raise ExportError(
            f"the report template {TEMPLATE_DIR}/{e.name} is missing", hint="reinstall cpbot (pip install -e .)"
        ) from e
