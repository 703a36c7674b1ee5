"""The small helpers every layer shares: Retry-After and process liveness."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from email.utils import format_datetime

from cpbot.core.process import pid_alive, process_start
from cpbot.core.retry import retry_after_seconds


def test_retry_after_in_seconds_milliseconds_and_as_a_date():
    assert retry_after_seconds({"Retry-After": "7"}) == 7.0
    assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC).timestamp()
    date = format_datetime(datetime(2026, 1, 1, 12, 0, 30, tzinfo=UTC), usegmt=True)
    assert retry_after_seconds({"Retry-After": date}, now=now) == 30.0
    assert retry_after_seconds({"Retry-After": date}, now=now + 60) == 0.0, "a date in the past: no wait"


def test_retry_after_absent_or_unreadable_is_none():
    assert retry_after_seconds(None) is None
    assert retry_after_seconds({}) is None
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    assert retry_after_seconds({"Retry-After": "inf"}) is None
    assert retry_after_seconds({"retry-after-ms": "x", "Retry-After": "3"}) == 3.0


def test_pid_alive_and_start_time_name_one_process():
    assert pid_alive(os.getpid())
    assert process_start(os.getpid()) == process_start(os.getpid()) != ""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not pid_alive(child.pid)
    assert process_start(child.pid) == ""
