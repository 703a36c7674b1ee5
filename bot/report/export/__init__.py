"""Exporting a run or a whole contest from the transcript store for people to review.

- `bot.report.export.model`: gathers a run (and its problem runs) into an `ExportReport` view model; `--json`.
- `bot.report.export.svg`: the inline SVG pictures (contest timeline, profile plots), drawn in Python.
- `bot.report.export.html`: renders an `ExportReport` with the jinja2 template in `templates/report/`.
"""

from __future__ import annotations

from cpbot.bot.report.export.html import render_html
from cpbot.bot.report.export.model import EXPORT_SCHEMA_VERSION, ExportReport, gather

__all__ = ["EXPORT_SCHEMA_VERSION", "ExportReport", "gather", "render_html"]
