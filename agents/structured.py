"""Structured output read from a reply: the first JSON object in it that fits the requested shape."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from cpbot.agents.chat import LLMReply
from cpbot.agents.extract import ExtractionError, json_candidates


class StructuredOutputError(ExtractionError):
    """The reply holds no JSON object of the requested shape; `reply` is what came back."""

    def __init__(self, message: str, reply: LLMReply) -> None:
        super().__init__("no_json", message, hint="try a model that follows instructions better, or retry")
        self.reply = reply


def schema_of(fmt: type[BaseModel] | dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
    """The JSON schema a response format asks for (None for a raw dict without one), and its name."""
    if fmt is None:
        return None, ""
    if isinstance(fmt, dict):
        inner = fmt.get("json_schema") if fmt.get("type") == "json_schema" else None
        if isinstance(inner, dict):
            return inner.get("schema"), str(inner.get("name") or "answer")
        return fmt.get("schema"), "answer"
    return fmt.model_json_schema(), fmt.__name__


def read_structured(
    reply: LLMReply, response_format: type[BaseModel] | dict[str, Any], *, sent_natively: bool = False
) -> LLMReply:
    """`reply` with its structured answer in `parsed`: the first JSON candidate (see `json_candidates`)
    that fits `response_format`; raises `StructuredOutputError` when none does."""
    schema = response_format if isinstance(response_format, type) else None
    problems: list[str] = []
    for where, candidate in json_candidates(reply.text, reply.reasoning):
        for value in _as_objects(candidate, schema):
            if schema is None:
                parsed: Any = value
            else:
                parsed = _validate(schema, value, problems)
                if parsed is None:
                    continue
            # the whole reply being the object means the server honoured the format
            native = sent_natively and where == "whole" and value is candidate
            mode: Literal["native", "fallback"] = "native" if native else "fallback"
            return reply.model_copy(update={"parsed": parsed, "structured": mode})
    what = f"{schema.__name__} JSON object" if schema is not None else "JSON object"
    if problems:
        what = f"valid {what}"
    detail = f" (closest: {problems[0]})" if problems else ""
    raise StructuredOutputError(f"the model's reply has no {what}{detail}", reply)


def _as_objects(candidate: Any, schema: type[BaseModel] | None) -> list[Any]:
    """The objects a JSON value offers for a schema: itself when an object; for a top-level array, the
    array under the schema's only list field, else its objects, last first."""
    if isinstance(candidate, dict):
        return [candidate]
    if not isinstance(candidate, list):
        return []
    options: list[Any] = []
    if schema is not None:
        lists = [name for name, f in schema.model_fields.items() if "list" in str(f.annotation).lower()]
        if len(lists) == 1:
            options.append({lists[0]: candidate})
    options += [item for item in reversed(candidate) if isinstance(item, dict)]
    return options


_NUMBER_IN_TEXT = re.compile(r"-?\d+(?:\.\d+)?")


def _validate(schema: type[BaseModel], value: dict[str, Any], problems: list[str]) -> BaseModel | None:
    """`value` as a `schema` instance, reading numbers written as text ("95%", "about 80") where a number
    is expected; None (and the first problem noted) when it does not fit."""
    try:
        return schema.model_validate(value)
    except ValidationError as e:
        errors = e.errors()
    fixed = json.loads(json.dumps(value))
    changed = False
    for error in errors:
        if error["type"] not in ("int_parsing", "float_parsing", "int_from_float"):
            continue
        # the location may end in a union member's name ("int", "float"): stop at the last real key
        target: Any = fixed
        last: Any = None
        for part in error["loc"]:
            inside = target if last is None else target[last]
            if (isinstance(inside, dict) and part in inside) or (isinstance(inside, list) and isinstance(part, int)):
                target, last = inside, part
            else:
                break
        if last is None:
            continue
        raw = target[last]
        if not isinstance(raw, str):
            continue
        match = _NUMBER_IN_TEXT.search(str(raw))
        if match is None:
            continue
        number = float(match.group())
        target[last] = round(number) if error["type"] != "float_parsing" else number
        changed = True
    if changed:
        try:
            return schema.model_validate(fixed)
        except ValidationError as e:
            errors = e.errors()
    first = errors[0]
    problems.append(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}")
    return None
