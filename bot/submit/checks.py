"""The gate's checks, named once, in the order the gate reports them.

Kept apart from `gate.py` (pydantic, the judge's models) because the CLI's options read the names at
start (`cpbot watch --gate`, `cpbot submit --skip`), which must stay light.
"""

from __future__ import annotations

from enum import StrEnum


class Check(StrEnum):
    """One of the gate's checks; `GateConfig.require_<check>` says whether it is required."""

    SAMPLES = "samples"  # the problem's samples judged AC
    GENERATED = "generated"  # generated (or given) tests judged AC
    STRESS = "stress"  # no difference with a brute force on small random inputs
    PROFILE = "profile"  # the predicted time at the largest n fits the limit


CHECKS: tuple[str, ...] = tuple(c.value for c in Check)
