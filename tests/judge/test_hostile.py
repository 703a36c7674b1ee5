"""The hostile suite (tests/judge/hostile.py): every program is contained, as root and as a normal user.

Contained means: non-AC where it tried to cheat, the planted secret in no report (what goes into logs,
transcripts and prompts), and every test starting clean whatever the one before left behind.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.judge import hostile

REPO = Path(__file__).resolve().parents[2]
DEV = "dev:fd,null,random,shm,stderr,stdin,stdout,urandom,zero"  # shm: a fresh tmpfs per run


def without_expected(report_json: str) -> str:
    """The report minus each diff's expected text (the test's own answer, which the judge may show)."""
    report = json.loads(report_json)
    for result in report["results"]:
        if result.get("diff"):
            result["diff"].pop("expected", None)
    return json.dumps(report)


def check(outcomes: dict[str, dict], secret: str, user: str) -> None:
    for name, o in outcomes.items():
        assert secret not in without_expected(o["report_json"]), f"{name} leaked the secret ({user})"
        assert o["isolation"]["root"] == "allowlist"
        assert o["isolation"]["proc"] == "private"
        assert o["isolation"]["user"] == user
    for name in ("py-hunter", "cpp-hunter"):
        o = outcomes[name]
        assert "AC" not in o["verdicts"], name
        assert o["outputs"] == ["nothing"] * 3, (name, o["verdicts"], without_expected(o["report_json"])[:3000])
    for name in ("py-net-channel", "cpp-net-channel"):  # nothing crosses from test to test through the network
        o = outcomes[name]
        assert o["verdicts"] == ["AC"] * 3, (name, o["outputs"])
        assert o["isolation"]["network"] == "namespace-per-run(on-first-socket)"
    assert outcomes["py-net-use"]["verdicts"] == ["AC"], outcomes["py-net-use"]["outputs"]
    if outcomes["py-affinity"]["isolation"]["cpu"] != "any":  # pinned slots (a machine with 2 CPUs or more)
        assert outcomes["py-affinity"]["isolation"]["cpu"] == "one-per-slot(contained)"
        assert outcomes["py-affinity"]["outputs"] == ["kept Invalid argument"] * 2, outcomes["py-affinity"]["outputs"]
    assert outcomes["cpp-include-answer"]["verdicts"] == ["CE"]
    assert "No such file" in outcomes["cpp-include-answer"]["report_json"]
    traces = outcomes["py-traces"]
    assert traces["outputs"] == ["no-file no-shm"] * 4
    assert traces["verdicts"] == ["AC"] * 4
    fills = [int(x) for x in outcomes["cpp-fill-disk"]["outputs"]]
    assert all(200 <= mb <= 256 for mb in fills), fills  # capped, and the second test found the disk empty again
    escape = outcomes["py-escape"]["outputs"][0].split("|")
    assert "userns:Operation not permitted" in escape and "mountns:Operation not permitted" in escape
    assert "mount:ok" not in escape and "umount:ok" not in escape
    assert "sys:absent" in escape and DEV in escape
    procs = int(next(x for x in escape if x.startswith("procs:")).split(":")[1])
    assert procs <= 2  # the run's init and the program itself
    assert outcomes["cpp-escape"]["outputs"] == ["userns:Operation not permitted mount:Operation not permitted"]
    for name in ("py-group-attack", "cpp-group-attack"):  # signals and renicing reach no other run
        assert outcomes[name]["verdicts"] == ["AC"] * 6, (name, outcomes[name]["outputs"])
    assert outcomes["py-locks"]["outputs"] == ["No locks available"]
    for name in ("py-orphan-cpu", "cpp-orphan-cpu"):  # the child's CPU time counts, waited for or not
        assert outcomes[name]["verdicts"] == ["TLE"], (name, outcomes[name]["outputs"])
    check_memory(outcomes)
    storm = outcomes["cpp-fork-storm"]
    assert storm["verdicts"] == ["TLE"] and storm["outputs"][0].startswith("fork storm"), storm["outputs"]
    assert outcomes["cpp-locks"]["outputs"] == ["|".join(["No locks available"] * 3)]


def check_memory(outcomes: dict[str, dict]) -> None:
    """Each page of a run counted once: what children hold or copy counts, what they only share does not."""
    for name in ("py-children-memory", "cpp-children-memory"):  # 8 x 24 MB > 64 MB, each alone under it
        assert outcomes[name]["verdicts"] == ["MLE"], (name, outcomes[name]["outputs"])
    assert outcomes["py-shared-then-written"]["verdicts"] == ["MLE"], outcomes["py-shared-then-written"]["outputs"]
    # 101 processes sharing 64 MB: about 150 MB counted once, 6.5 GB summed per process
    assert outcomes["py-shared-children"]["verdicts"] == ["AC"], outcomes["py-shared-children"]["outputs"]


def host_shm_keys() -> set[int]:
    lines = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return {int(line.split()[0]) for line in lines}


def test_hostile_programs_are_contained_as_root(tmp_path: Path, monkeypatch):
    if os.geteuid() != 0:
        pytest.skip("the normal-user run below covers this user")
    os.chmod(tmp_path, 0o755)
    planted = hostile.plant(tmp_path / "planted")
    monkeypatch.chdir(planted.cookies.parent)
    from cpbot.judge.sandbox import Sandbox

    with Sandbox(2) as sandbox:
        outcomes = {o.name: o.__dict__ for o in hostile.scenarios(planted, sandbox)}
    check(outcomes, planted.secret, "nobody")
    assert 0x5EED not in host_shm_keys()
    assert os.getpriority(os.PRIO_PROCESS, 0) == 0


def test_memory_is_counted_once_when_sampled_as_root_without_cgroups(monkeypatch):
    """As root with `cgroups=False` the launcher samples the run's processes as it does for a normal user."""
    if os.geteuid() != 0:
        pytest.skip("the normal-user run below samples")
    from cpbot.judge.languages.python import default_warm_python
    from cpbot.judge.sandbox import Sandbox

    with Sandbox(1, cgroups=False, warm_python=default_warm_python()) as sandbox:
        assert sandbox.isolation["accounting"] == "sampled(pid-namespace,no-cgroup)"
        outcomes = {o.name: o.__dict__ for o in hostile.memory_scenarios(sandbox)}
    check_memory(outcomes)


@pytest.fixture
def world_dir():
    """A directory the normal user can write (pytest's tmp_path sits under a root-only dir)."""
    path = Path(tempfile.mkdtemp(prefix="cpbot-hostile-"))
    os.chmod(path, 0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to become a normal user")
def test_hostile_programs_are_contained_as_a_normal_user(world_dir: Path):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(world_dir / "planted" / "home"),
        "XDG_CONFIG_HOME": str(world_dir / "config"),
        "XDG_DATA_HOME": str(world_dir / "data"),
        "XDG_STATE_HOME": str(world_dir / "state"),
        "CPBOT_CACHE_DIR": str(world_dir / "cache"),
        "PYTHONPATH": str(REPO),
    }
    probe = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c", "import cpbot.judge"],
        capture_output=True,
        env=env,
        cwd=world_dir,
    )
    if probe.returncode != 0:
        pytest.skip(f"the normal user cannot run this interpreter: {probe.stderr.decode()[-200:]}")
    proc = subprocess.run(
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            sys.executable,
            "-m",
            "tests.judge.hostile",
            str(world_dir),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    secret = lines[0]["secret"]
    assert lines[-1] == {"judge_priority": 0}  # no program reniced the judge's group
    outcomes = {o["name"]: o for o in lines[1:-1]}
    check(outcomes, secret, "self")
    assert secret not in proc.stderr
    assert 0x5EED not in host_shm_keys()
