"""cpbot: a competitive-programming contest bot.

The one import name of the distribution. The repository's top-level folders install beneath it:
`cpbot.judge` (bottom layer: the domain and the local judge), `cpbot.scrapers` and `cpbot.agents`
(above the judge, never importing each other), `cpbot.bot` (the user: CLI, config, storage, contest
mode) and `cpbot.templates` (data only). `cpbot.core` holds what every layer shares.
"""

__version__ = "0.1.0"
