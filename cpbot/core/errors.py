"""The one error tree of cpbot.

Every error a user can meet is a `CpbotError`: a message that says what went wrong, a hint that says
what to do, and the exit code the CLI uses. Verdicts are data, not exceptions: a wrong or crashing
solution is a `JudgeReport`, never one of these.
"""


class CpbotError(Exception):
    """Base of every user-facing error."""

    exit_code = 2

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


class ConfigError(CpbotError):
    """Missing or invalid configuration or command-line input."""


class FetchError(CpbotError):
    """A site could not be reached, refused us, or answered with a block page."""


class ParseError(CpbotError):
    """A page or payload did not have the shape we know; names the URL and the missing part."""


class JudgeError(CpbotError):
    """The judge itself cannot work (no compiler, no sandbox); never a verdict on a solution."""


class ModelError(CpbotError):
    """The language model endpoint failed or answered with nothing usable."""


class SubmitError(CpbotError):
    """A submission could not be posted or its verdict not followed."""


def first_problem(error: Exception) -> str:
    """The first complaint of a pydantic `ValidationError`, as "where: what" (e.g. "llm.timeout_s: Input
    should be greater than 0"), or "what" alone when it is about the whole value, for a `ConfigError`
    message. Duck-typed: core imports no pydantic."""
    first = error.errors()[0]  # type: ignore[attr-defined]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])
