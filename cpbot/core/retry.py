"""How long a server asks us to wait before trying again (HTTP `Retry-After`), for sites and models alike."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime


def retry_after_seconds(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """The wait a response asks for, if any: `retry-after-ms` (OpenAI's servers), else `retry-after` in
    seconds or as an HTTP date (relative to `now`, a Unix time, default the clock). Never negative."""
    if not headers:
        return None
    lowered = {k.lower(): v.strip() for k, v in headers.items()}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = lowered.get(name)
        if not value:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            if scale != 1.0:
                continue  # retry-after-ms is a number or nothing
            try:
                seconds = parsedate_to_datetime(value).timestamp() - (time.time() if now is None else now)
            except (TypeError, ValueError):
                return None
        return max(0.0, seconds) if math.isfinite(seconds) else None
    return None
