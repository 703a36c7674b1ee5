"""What people read: terminal text, `cpbot judge`'s streamed view, PNG plots and the HTML export.

- `bot.report.render`: reports, problems, contests, progress and outcomes as terminal lines
- `bot.report.event_view`: one event-to-view mapping, for the terminal and the HTML alike
- `bot.report.judge_view`: `cpbot judge` on the terminal, one line per test as it ends
- `bot.report.plots`: the PNG plots (profile, bench accuracy against tokens)
- `bot.report.export`: a run or a contest as the HTML page (and `--json`) for review
"""
