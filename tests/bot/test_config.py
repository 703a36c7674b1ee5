"""config.toml: command line > CPBOT_* environment > config.toml > defaults, and clear errors for a bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli.config import load_settings, resolve_llm
from cpbot.bot.cli.main import main
from cpbot.core.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "aplusb"
# right tokens, wrong layout: AC for the tokens checker, PE for the exact one
SPACED = "a, b = map(int, input().split())\nprint(a + b, end='  \\n')\n"


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "config"
    d.mkdir()
    monkeypatch.setenv("CPBOT_CONFIG_DIR", str(d))
    for name in ("CPBOT_BASE_URL", "CPBOT_API_KEY", "CPBOT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return d


def _judge(tmp_path: Path, *extra: str) -> int:
    solution = tmp_path / "spaced.py"
    solution.write_text(SPACED)
    return main(["judge", str(solution), "--tests", str(EXAMPLE / "tests"), "--json", *extra])


def test_command_defaults_from_the_file_rank_below_the_environment_and_the_command_line(
    config_dir, tmp_path, monkeypatch, capsys
):
    assert _judge(tmp_path) == 0, "built-in default: the tokens checker"
    capsys.readouterr()
    (config_dir / "config.toml").write_text('[judge]\nchecker = "exact"\n')
    assert _judge(tmp_path) == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == "PE", "the file's default is used"
    assert _judge(tmp_path, "--checker", "tokens") == 0, "the command line beats the file"
    capsys.readouterr()
    monkeypatch.setenv("CPBOT_JUDGE_CHECKER", "tokens")
    assert _judge(tmp_path) == 0, "the environment beats the file"


def test_llm_endpoint_from_the_file_below_the_environment(config_dir, monkeypatch):
    path = config_dir / "config.toml"
    path.write_text(
        '[llm]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "file-model"\napi_key = "file-key-123456"\n'
        '[llm.roles]\nplanner = "big-model"\n'
    )
    path.chmod(0o600)
    cfg = resolve_llm(base_url=None, api_key=None, model=None)
    assert (cfg.base_url, cfg.model, cfg.api_key.get_secret_value()) == (
        "http://127.0.0.1:9/v1",
        "file-model",
        "file-key-123456",
    )
    assert cfg.model_for("planner") == "big-model" and cfg.model_for("coder") == "file-model"
    monkeypatch.setenv("CPBOT_MODEL", "env-model")
    monkeypatch.setenv("CPBOT_MODEL_PLANNER", "env-planner")
    cfg = resolve_llm(base_url=None, api_key=None, model=None)
    assert cfg.model == "env-model" and cfg.model_for("planner") == "env-planner"
    assert resolve_llm(base_url=None, api_key=None, model="cli-model").model == "cli-model"


def test_cpbot_config_shows_sources_and_hides_the_key(config_dir, monkeypatch, capsys):
    path = config_dir / "config.toml"
    path.write_text('[llm]\nmodel = "file-model"\napi_key = "file-key-123456"\n[solve]\nlang = "python3"\n')
    path.chmod(0o600)
    monkeypatch.setenv("CPBOT_BASE_URL", "http://127.0.0.1:8/v1")
    assert main(["config", "--json"]) == 0
    out = capsys.readouterr().out
    info = json.loads(out)
    assert info["path"] == str(path) and info["exists"]
    assert info["llm"]["base_url"] == {"value": "http://127.0.0.1:8/v1", "source": "env CPBOT_BASE_URL"}
    assert info["llm"]["model"] == {"value": "file-model", "source": "config.toml"}
    assert info["llm"]["api_key"]["source"] == "config.toml" and "file-key" not in out
    assert info["commands"] == {"solve": {"lang": "python3"}}
    assert main(["config", "--path"]) == 0
    assert capsys.readouterr().out.strip() == str(path)


def test_cpbot_config_shows_openai_api_key_only_where_it_would_be_sent(config_dir, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-only-123456")
    monkeypatch.setenv("CPBOT_BASE_URL", "http://127.0.0.1:8/v1")
    monkeypatch.setenv("CPBOT_MODEL", "local-model")
    assert main(["config", "--json"]) == 0
    local = json.loads(capsys.readouterr().out)["llm"]
    assert local["api_key"] == {"value": "", "source": "not set"}  # a local server never gets OpenAI's key
    monkeypatch.delenv("CPBOT_BASE_URL")
    assert main(["config", "--json"]) == 0
    openai = json.loads(capsys.readouterr().out)["llm"]
    assert openai["api_key"] == {"value": "set (hidden)", "source": "env OPENAI_API_KEY"}
    assert openai["base_url"]["source"] == "default" and "sk-openai" not in json.dumps(openai)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[judge\n", "is not valid TOML"),
        ("[nosuch]\nx = 1\n", "no command `nosuch`"),
        ("[judge]\nnosuch = 1\n", "`judge` has no option `nosuch`"),
        ('[llm]\nbase = "x"\n', "[llm] base"),
        ("[llm]\nmodel = 3\n", "[llm] model must be a string"),
        ("[llm.roles]\nplanner = 3\n", "[llm.roles] planner must be a model name"),
        ('[llm]\napi_key = "sk-readable-by-all"\n', "holds an API key but others can read it"),
        ('[solve]\nlang = "java"\n', "[solve] lang = 'java': 'java' is not one of"),
        ('[judge]\ntl = "abc"\n', "[judge] tl = 'abc'"),
    ],
)
def test_a_bad_file_is_one_clear_error(config_dir, capsys, text, message):
    path = config_dir / "config.toml"
    path.write_text(text)
    path.chmod(0o644)
    assert main(["config"]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err
    assert "sk-readable-by-all" not in err


def test_no_file_is_no_settings(config_dir):
    settings = load_settings()
    assert settings.path is None and settings.commands == {} and settings.llm_fallback() == {}
    with pytest.raises(ConfigError, match=r"no language model configured"):
        resolve_llm(base_url=None, api_key=None, model=None)


def test_a_broken_file_stops_model_commands_but_not_local_tools(config_dir, tmp_path, capsys):
    (config_dir / "config.toml").write_text("[llm\n")
    assert _judge(tmp_path) == 0, "the local judge runs on built-in defaults"
    assert "warning: settings ignored" in capsys.readouterr().err
    assert main(["solve", str(tmp_path / "problem.json")]) == 2
    assert "is not valid TOML" in capsys.readouterr().err


def test_the_hint_names_options_as_they_are_typed(config_dir, capsys):
    (config_dir / "config.toml").write_text("[solve]\nfoo = 1\n")
    assert main(["config"]) == 2
    err = capsys.readouterr().err
    assert "lang" in err and "output" in err and "language" not in err and "out_dir" not in err
