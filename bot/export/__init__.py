"""Exporting a run or a whole contest from the transcript store for people to review.

- `bot.export.model`: gathers a run (and its problem runs) into an `ExportReport` view model; `--json`.
- `bot.export.svg`: the inline SVG pictures (contest timeline, profile plots), drawn in Python.
- `bot.export.html`: renders an `ExportReport` with the jinja2 template in `templates/report/`.
"""

from __future__ import annotations

from cpbot.bot.export.html import render_html
from cpbot.bot.export.model import EXPORT_SCHEMA_VERSION, ExportReport, gather

__all__ = ["EXPORT_SCHEMA_VERSION", "ExportReport", "gather", "render_html"]
