"""The user's layer: the `cpbot` command, its settings, storage, contest mode and submitters.

- `bot.cli.main`: the lazy click group (a command's module is imported when that command is used)
- `bot.commands.<name>`: one module per command, click declarations only; the work is imported
  inside the command's body from the modules below, so `cpbot --help` stays quick
- `bot.cli.options`: the options several commands share, declared once (model endpoint, strategy,
  language, cookies)
- `bot.app`: what commands do and share (problem sources and folders, strategy options, a recorded
  solve, a gated submission, judging a file)
- `bot.cli.config`: config.toml as click's default_map, and the model endpoint it completes
- output, one place per kind: `bot.report.render` (terminal text), `bot.watch.render` (the live table),
  `bot.report.plots` (PNG), `bot.report.export` (the HTML page and its SVG)
"""
