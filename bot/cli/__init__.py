"""The command line's frame: the lazy `cpbot` group, the options commands share, the settings file.

- `bot.cli.main`: the lazy click group (a command's module is imported when that command is used)
- `bot.cli.options`, `bot.cli.site_option`, `bot.cli.browser`: options several commands take, declared once
- `bot.cli.config`: config.toml as click's default_map, and the model endpoint it completes
- `bot.cli.browser_login`: `cpbot login --browser`, signing in once in a browser window
"""
