"""The user's layer: the `cpbot` command, its settings, storage, contest mode and submitters.

A package per job; imports point down this list (tests/test_import_order.py checks it):
- `bot.commands.<name>`: one module per command, click declarations only; the work is imported
  inside the command's body from the packages below, so `cpbot --help` stays quick
- `bot.app`: the one-problem work the commands share (problem sources and folders, strategy options,
  a recorded solve, a gated submission, judging a file)
- `bot.bench`, `bot.lab`: research (benchmarks, grading, the strategy lab)
- `bot.report`: what people read (terminal text, `cpbot judge`'s view, plots, the HTML export)
- `bot.watch`: contest mode (scheduler, loop, crash-safe state, standings, the live table)
- `bot.submit`: the submission ledger, the gate and its checks, credentials
- `bot.cli`: the lazy click group, the options commands share, config.toml
- `bot.store`: the SQLite files, the transcript store, redaction
"""
