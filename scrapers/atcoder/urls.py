"""AtCoder URLs: task, task-list and contest pages on atcoder.jp and the old `CONTEST.contest.atcoder.jp` hosts.

A task is named by its screen name (`abc300_a`); its contest by the contest's screen name (`abc300`). The
two need not agree: ABC 107's task C is `arc101_a`, and old contests number tasks `abc001_1`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError

ROOT = "https://atcoder.jp"
_HOST = re.compile(r"^(?:(?:www|beta)\.)?atcoder\.jp$", re.IGNORECASE)
# Contests before 2018 lived on their own subdomain: abc001.contest.atcoder.jp/tasks/abc001_1
_OLD_HOST = re.compile(r"^(?P<contest>[\w-]+)\.contest\.atcoder\.jp$", re.IGNORECASE)
_NAME = r"[\w-]+"
_TASK_PATH = re.compile(rf"^/contests/(?P<contest>{_NAME})/tasks/(?P<task>{_NAME})/?$")
_CONTEST_PATH = re.compile(rf"^/contests/(?P<contest>{_NAME})(?:/(?P<rest>tasks|tasks_print|standings|submit))?/?$")
_OLD_TASK_PATH = re.compile(rf"^/tasks/(?P<task>{_NAME})/?$")
_OLD_CONTEST_PATH = re.compile(r"^/(?:tasks|assignments)?/?$")


@dataclass(frozen=True)
class AtCoderRef:
    """What an AtCoder URL points at: one task (`task` set) or a whole contest."""

    contest: str
    task: str | None = None

    def task_url(self, task: str | None = None) -> str:
        """The task's page on atcoder.jp."""
        name = task or self.task
        if not name:
            raise ConfigError(f"{self.contest_url()} names no task")
        return f"{ROOT}/contests/{self.contest}/tasks/{name}"

    def contest_url(self) -> str:
        """The contest's top page."""
        return f"{ROOT}/contests/{self.contest}"

    def tasks_url(self) -> str:
        """The contest's task list."""
        return f"{ROOT}/contests/{self.contest}/tasks"


def is_atcoder_host(host: str) -> bool:
    """True for atcoder.jp and the old per-contest hosts."""
    return bool(_HOST.match(host) or _OLD_HOST.match(host))


def parse_atcoder_url(url: str) -> AtCoderRef:
    """The contest (and task) an AtCoder URL names; `ConfigError` for any other URL."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    host = parts.hostname or ""
    path = parts.path or "/"
    old = _OLD_HOST.match(host)
    if old:
        contest = old.group("contest").lower()
        m = _OLD_TASK_PATH.match(path)
        if m:
            return AtCoderRef(contest, m.group("task"))
        if _OLD_CONTEST_PATH.match(path):
            return AtCoderRef(contest)
    elif _HOST.match(host):
        m = _TASK_PATH.match(path)
        if m:
            return AtCoderRef(m.group("contest"), m.group("task"))
        m = _CONTEST_PATH.match(path)
        if m:
            return AtCoderRef(m.group("contest"))
    raise ConfigError(
        f"not an AtCoder task or contest URL: {url}",
        hint="use https://atcoder.jp/contests/CONTEST/tasks/TASK or https://atcoder.jp/contests/CONTEST",
    )


def task_letter(task: str) -> str:
    """The letter a task id suggests (`abc300_a` -> "A", `abc001_1` -> "A"); the task list's own letter
    wins when known (ABC 107's `arc101_a` is "C")."""
    suffix = task.rsplit("_", 1)[-1]
    if suffix.isdigit() and 1 <= int(suffix) <= 26:
        return chr(ord("A") + int(suffix) - 1)
    return suffix.upper()
