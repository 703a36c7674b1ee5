"""`python -m cpbot`: the same as the `cpbot` command."""

import sys

from cpbot.bot.cli.main import main

sys.exit(main())
