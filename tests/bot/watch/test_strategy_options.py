"""`--strategy-option KEY=VALUE` on `cpbot watch` and `cpbot solve`: values take the type of the strategy's
own field, unknown keys and badly typed values stop the command with one line and the options to use."""

from __future__ import annotations

import pytest

from cpbot.bot.app.strategy_options import parse_strategy_options
from cpbot.bot.cli.main import main
from cpbot.core.errors import ConfigError


def test_values_take_the_type_of_the_strategys_field() -> None:
    options = parse_strategy_options(
        "cpbot", ["max_n=24", "count=false", "stress_seconds=2.5", "debugs=0", "verify=yes", "stress-size=4"]
    )
    assert options == {
        "max_n": 24,
        "count": False,
        "stress_seconds": 2.5,
        "debugs": 0,
        "verify": True,
        "stress_size": 4,
    }
    assert [type(v) for v in options.values()] == [int, bool, float, int, bool, int]
    assert parse_strategy_options("cpbot", ["max_n=none"]) == {"max_n": None}
    assert parse_strategy_options("macs", ["plans=3"]) == {"plans": 3}
    assert parse_strategy_options("direct", []) == {}


@pytest.mark.parametrize(
    ("strategy", "item", "message"),
    [
        ("cpbot", "nope=1", "strategy cpbot has no option 'nope'"),
        ("cpbot", "name=x", "strategy cpbot has no option 'name'"),
        ("cpbot", "max_n=big", "--strategy-option max_n=big: expected int | None"),
        ("cpbot", "count=maybe", "--strategy-option count=maybe: expected true or false"),
        ("cpbot", "debugs", "--strategy-option 'debugs' is not key=value"),
        ("direct", "plans=2", "strategy direct has no option 'plans'"),
    ],
)
def test_a_wrong_option_is_a_config_error_naming_the_valid_ones(strategy: str, item: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_strategy_options(strategy, [item])
    assert caught.value.message == message
    if strategy == "cpbot":
        assert caught.value.hint.startswith("cpbot takes: aimed, brutes, candidates, count, debugs")
    else:
        assert caught.value.hint == "direct takes: rounds"  # conc gave direct its one option


@pytest.mark.parametrize("command", [["watch", "--site", "cf", "--once"], ["solve", "problem.json"]])
def test_the_commands_stop_at_once_on_a_wrong_option(
    command: list[str], tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)  # no problem.json here: the option is refused before anything is read
    endpoint = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "k"]
    rc = main([*command, *endpoint, "--strategy-option", "max_n=big"])
    err = capsys.readouterr().err
    assert rc != 0
    assert err.splitlines()[0] == "error: --strategy-option max_n=big: expected int | None"
    assert err.splitlines()[1].startswith("hint: cpbot takes: ")


def test_every_gate_parameter_is_an_option_that_reaches_the_strategys_gate() -> None:
    # GateParams (agents/verification.py) is the gate's one home: a field added there is an option of `cpbot` too
    from cpbot.agents.strategies import get_strategy
    from cpbot.agents.verification import GateParams

    default = GateParams()
    for name, info in GateParams.model_fields.items():
        value = getattr(default, name)
        if info.annotation is bool:
            changed: object = not value
        elif value is None:
            changed = 7
        else:
            changed = value + 3
        options = parse_strategy_options("cpbot", [f"{name}={changed}"])
        assert options == {name: changed}
        gate = get_strategy("cpbot", **options).gate
        assert getattr(gate, name) == changed and gate == default.model_copy(update={name: changed})
    with pytest.raises(ConfigError, match="stress_runs"):
        parse_strategy_options("cpbot", ["stress_runs=0"])  # GateParams' own bounds hold for the option
