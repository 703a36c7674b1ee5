"""A Ray cluster cpbot cannot join (it wants a token, or nothing listens) ends `cpbot grade`/`cpbot bench` with
one line and a hint, and the run they opened as an error, not left running to be found stale. Ray itself is
faked: its `init` raises what a real one raises."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cpbot.bot.bench.executors import RayExecutor, cluster_error
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.core.errors import ConfigError
from tests.bot.bench.lcb_programs import RIGHT
from tests.paths import DATASETS

SAMPLE = DATASETS / "livecodebench" / "sample.jsonl"
ADDRESS = "10.0.0.5:6379"
# what Ray 2.5x prints when the cluster runs with RAY_AUTH_MODE=token and the client has no token
AUTH_REFUSED = ConnectionError(
    "Failed to connect to GCS at address 10.0.0.5:6379 within 5 seconds.\nStatus: InvalidAuthToken: "
    "Authentication failed"
)
NOTHING_THERE = ConnectionError("Could not find any running Ray instance. Please specify the one to connect to")


class FakeRay:
    """The part of the `ray` module the executor uses before any task; `init` fails with `error`."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.inits: list[dict[str, Any]] = []
        self.shutdowns = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: Any) -> None:
        self.inits.append(options)
        raise self.error

    def shutdown(self) -> None:
        self.shutdowns += 1


@pytest.fixture
def fake_ray(monkeypatch):
    def install(error: BaseException) -> FakeRay:
        ray = FakeRay(error)
        monkeypatch.setattr("cpbot.bot.bench.executors._import_ray", lambda: ray)
        return ray

    return install


def test_a_refused_token_is_a_config_error_naming_the_token_settings(fake_ray):
    ray = fake_ray(AUTH_REFUSED)
    with pytest.raises(ConfigError) as e:
        RayExecutor(ADDRESS)
    assert ADDRESS in e.value.message and "authentication" in e.value.message
    assert "\n" not in e.value.message and "InvalidAuthToken" in e.value.message
    assert "RAY_AUTH_MODE=token" in e.value.hint and "RAY_AUTH_TOKEN" in e.value.hint
    assert ray.inits[0]["address"] == ADDRESS and ray.shutdowns == 1  # what init left half-made is undone


def test_no_cluster_at_the_address_is_a_config_error_naming_the_address(fake_ray):
    fake_ray(NOTHING_THERE)
    with pytest.raises(ConfigError) as e:
        RayExecutor(ADDRESS)
    assert e.value.message.startswith(f"cannot join the Ray cluster at {ADDRESS}")
    assert "--address" in e.value.hint and "RAY_AUTH_TOKEN" not in e.value.hint


def test_ray_s_own_authentication_error_is_read_as_one():
    class AuthenticationError(Exception):  # as ray.exceptions names it
        pass

    error = cluster_error(ADDRESS, AuthenticationError("Token mismatch"))
    assert "RAY_AUTH_TOKEN" in (error.hint or "")


def test_cpbot_grade_on_a_cluster_refusing_it_ends_in_one_line_and_a_failed_run(
    tmp_path, monkeypatch, capsys, fake_ray
):
    fake_ray(AUTH_REFUSED)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    gens = tmp_path / "run.json"
    gens.write_text(json.dumps([{"question_id": k, "code_list": [v]} for k, v in RIGHT.items()]), encoding="utf-8")
    code = main(["grade", str(SAMPLE), str(gens), "--executor", "ray", "--address", ADDRESS])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err and "RAY_AUTH_TOKEN" in err
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        (run,) = store.list_runs(kind="grade")
    assert run.status == "error" and "refused cpbot's authentication" in run.reason


def test_cpbot_bench_on_a_cluster_refusing_it_ends_in_one_line_and_a_failed_run(
    tmp_path, monkeypatch, capsys, fake_ray
):
    fake_ray(AUTH_REFUSED)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CPBOT_BASE_URL", "http://127.0.0.1:9/v1")  # never asked: the cluster refuses first
    argv = ["bench", str(SAMPLE), "--strategy", "direct", "--lang", "python3", "--model", "m"]
    assert main([*argv, "--executor", "ray", "--address", ADDRESS]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "RAY_AUTH_TOKEN" in err
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        (run,) = store.list_runs(kind="bench")
    assert run.status == "error" and "refused cpbot's authentication" in run.reason
