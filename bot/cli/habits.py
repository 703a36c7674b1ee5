"""What a contestant used to online-judge-tools (`oj`), cf-tool or atcoder-cli types first, and the
cpbot way to say it: command names the group does not know, and `oj test`'s options on `cpbot judge`."""

from __future__ import annotations

from typing import ClassVar

import click

# another tool's command -> the cpbot command that does its job
COMMAND_HABITS: dict[str, str] = {
    "test": "judge",  # oj test, cf test, acc test
    "t": "judge",  # oj t
    "t/r": "judge --interactor PATH",  # oj test-reactive
    "test-reactive": "judge --interactor PATH",
    "download": "fetch",  # oj download
    "d": "fetch",
    "dl": "fetch",
    "parse": "fetch",  # cf parse
    "new": "fetch -o DIR",  # acc new
    "s": "submit",  # oj s
}

# `oj test`'s options -> what `cpbot judge` takes instead
JUDGE_OPTION_HABITS: dict[str, str] = {
    "-t": "--tl SECONDS",
    "--tle": "--tl SECONDS",
    "--mle": "--ml MB",
    "-e": "--checker float:EPS",
    "--error": "--checker float:EPS",
    "-d": "--tests DIR",
    "--directory": "--tests DIR",
    "--judge-command": "--checker PATH (a testlib checker, source or binary)",
    "-c": "the source file itself (cpbot judge SOLUTION compiles it)",
    "--command": "the source file itself (cpbot judge SOLUTION compiles it)",
}


def command_habit(name: str) -> str | None:
    """The cpbot command for another tool's command name, if it is one cpbot does not have."""
    return COMMAND_HABITS.get(name)


class HabitCommand(click.Command):
    """A command that answers another tool's option with the cpbot option doing the same job."""

    habits: ClassVar[dict[str, str]] = {}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as e:
            suggestion = self.habits.get(e.option_name)
            if suggestion is None:
                raise
            raise click.UsageError(f"No such option: {e.option_name}. Did you mean {suggestion}?", ctx) from None


class JudgeCommand(HabitCommand):
    """`cpbot judge`, which knows `oj test`'s options."""

    habits = JUDGE_OPTION_HABITS
