"""The scripted model server the tests use; it lives in `cpbot.testing` so examples and scripts share it."""

from cpbot.testing.scripted_server import (
    Delay,
    HTTPFailure,
    RawReply,
    RecordedRequest,
    Reply,
    ScriptedServer,
    Step,
    Stream,
    rate_limited,
)

__all__ = [
    "Delay",
    "HTTPFailure",
    "RawReply",
    "RecordedRequest",
    "Reply",
    "ScriptedServer",
    "Step",
    "Stream",
    "rate_limited",
]
