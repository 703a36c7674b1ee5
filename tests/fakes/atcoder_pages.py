"""AtCoder's page shells around real statements, as atcoder.jp serves them, for the fake site and the tests.

The statements come from `tests/fixtures/atcoder/statements/` (real markup, see SOURCES.md); the shell
follows the site's real task pages: the title in `span.h2` (with its Editorial button), the limits line
after it, `#task-statement` holding `span.lang > span.lang-ja + span.lang-en`, the contest's name and times
in the page's script. `old_task_page` is the layout of the pre-2018 `CONTEST.contest.atcoder.jp` pages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

STATEMENTS = Path(__file__).resolve().parents[1] / "fixtures" / "atcoder" / "statements"


@dataclass(frozen=True)
class Statement:
    """One recorded statement: its task, contest, title, limits and the HTML per language."""

    task: str
    contest: str
    title: str
    time_s: float
    memory_mb: int
    html: dict[str, str]


def statement(task: str) -> Statement:
    """The recorded statement of `task` (e.g. "abc300_a")."""
    data = json.loads((STATEMENTS / f"{task}.html.json").read_text(encoding="utf-8"))
    config = json.loads((STATEMENTS / f"{task}.config.json").read_text(encoding="utf-8"))
    contest = data["endpoint"].split("/contests/", 1)[1].split("/", 1)[0]
    return Statement(task, contest, config["title"], config["time"], config["memory"], data["html"])


def _seconds(value: float) -> str:
    return f"{value:g}"


def task_page(
    s: Statement,
    letter: str,
    *,
    ui: str = "en",
    memory_unit: str = "MiB",
    start: str = "2023-04-29T21:00:00+09:00",
    end: str = "2023-04-29T22:40:00+09:00",
) -> str:
    """The task page as atcoder.jp serves it (UI language `ui`: "en" or "ja")."""
    limits = (
        f"Time Limit: {_seconds(s.time_s)} sec / Memory Limit: {s.memory_mb} {memory_unit}"
        if ui == "en"
        else f"実行時間制限: {_seconds(s.time_s)} sec / メモリ制限: {s.memory_mb} {memory_unit}"
    )
    editorial = "Editorial" if ui == "en" else "解説"
    url = f"https://atcoder.jp/contests/{s.contest}/tasks/{s.task}"
    langs = "\n".join(s.html.get(lang, "") for lang in ("ja", "en"))
    return f"""<!DOCTYPE html>
<html>
<head>
\t<title>{letter} - {s.title}</title>
\t<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
\t<meta property="og:site_name" content="AtCoder">
\t<meta property="og:title" content="{letter} - {s.title}" />
\t<meta property="og:url" content="{url}" />
\t<script>
\t\tvar LANG = "{ui}";
\t\tvar userScreenName = "";
\t\tvar csrfToken = "3m9FM7MKOqLiFOeynotiDo6HUsga56SK2jzBqz1MiD4="
\t</script>
\t\t<script>
\t\t\tvar contestScreenName = "{s.contest}";
\t\t\tvar startTime = moment("{start}");
\t\t\tvar endTime = moment("{end}");
\t\t</script>
</head>
<body>
<div id="main-div" class="float-container">
\t<nav class="navbar navbar-inverse navbar-fixed-top"><div class="container-fluid">
\t\t<ul class="dropdown-menu">
\t\t\t<li><a href="/contests/{s.contest}/tasks/{s.task}?lang=ja">日本語</a></li>
\t\t\t<li><a href="/contests/{s.contest}/tasks/{s.task}?lang=en">English</a></li>
\t\t</ul>
\t</div></nav>
\t<div id="main-container" class="container" style="padding-top:50px;">
<div class="row">
\t<div class="col-sm-12">
\t\t<span class="h2">
\t\t\t{letter} - {s.title}
\t\t\t<a class="btn btn-default btn-sm" href="/contests/{s.contest}/tasks/{s.task}/editorial">{editorial}</a>
\t\t</span>
\t\t<span id="task-lang-btn" class="pull-right"><span data-lang="ja">ja</span> / <span data-lang="en">en</span></span>
\t\t<hr/>
\t\t<p>
\t\t\t{limits}
\t\t\t
\t\t</p>

\t\t<div id="task-statement">
\t\t\t<span class="lang">
{langs}
\t\t\t</span>
\t\t</div>
\t</div>
</div>
\t</div>
</div>
</body>
</html>
"""


def old_task_page(s: Statement, letter: str, statement_html: str) -> str:
    """A task page of the old `CONTEST.contest.atcoder.jp` site: the title in `h2`, "Time limit : 2sec /
    Memory limit : 64MB", the statement straight in `#task-statement`."""
    return f"""<!DOCTYPE html>
<html>
<head><title>{letter} - {s.title} - {s.contest}</title></head>
<body>
<div id="outer-inner">
<div class="row"><div class="span12">
<h2>{letter} - {s.title}</h2>
<p>Time limit : {_seconds(s.time_s)}sec / Memory limit : {s.memory_mb}MB</p>
<div id="task-statement">
{statement_html}
</div>
</div></div>
</div>
</body>
</html>
"""
