"""Where cpbot keeps what happened: one way to open its SQLite files, and the transcript store.

- `bot.store.storage`: `Database`, private files in WAL mode, numbered migrations per store
- `bot.store.transcripts`: every run and everything that happened in it
- (secrets are removed by `cpbot.core.redact`, which the CLI's error printing uses too)
"""
