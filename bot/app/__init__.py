"""What the commands do, apart from click: plain functions several commands (and tests, scripts or
another front-end) call.

`bot/commands/*` declare the options and import these inside their bodies, so that listing or
helping a command never pays for what running it needs; modules here may import any lower layer.

- `bot.app.sources`: the problem(s) at a URL, in a saved page, a Competitive Companion JSON or a problem.json
- `bot.app.problem_folder`: a problem's folder on disk (problem.json and tests/), written and read back
- `bot.app.strategy_options`: `--strategy-option KEY=VALUE` turned into a strategy's typed options
- `bot.app.solving`: one recorded solve (transcript, model client, progress)
- `bot.app.submission`: the local evidence, the gate and one recorded submission
- `bot.app.judging`: a solution file judged on a tests folder or a problem file's samples
"""
