"""Where cpbot keeps what happened: one way to open its SQLite files, the transcript store, redaction.

- `bot.store.storage`: `Database`, private files in WAL mode, numbered migrations per store
- `bot.store.transcripts`: every run and everything that happened in it
- `bot.store.redact`: secrets removed from anything before it is written
"""
