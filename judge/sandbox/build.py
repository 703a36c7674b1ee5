"""Builds the C launcher once per source version and C compiler, into the cache dir."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from cpbot.core.dirs import cache_dir
from cpbot.core.errors import JudgeError


def launcher_source() -> bytes:
    return resources.files("cpbot.judge.sandbox").joinpath("launcher.c").read_bytes()


def launcher_path() -> Path:
    """The path of a built launcher, building it (under a file lock) when it is missing."""
    return _built("launcher", [])


def launcher_library_path() -> Path:
    """The launcher built as a shared library, for a server inside a warm Python (warm_python.py)."""
    return _built("liblauncher", ["-shared", "-fPIC", "-DCPBOT_LAUNCHER_LIBRARY"], suffix=".so")


def _built(name: str, flags: list[str], suffix: str = "") -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise JudgeError("no C compiler found to build the sandbox launcher", hint="apt-get install gcc")
    source = launcher_source()
    key = hashlib.sha256(source + cc.encode()).hexdigest()[:16]
    target = cache_dir() / "launcher" / f"{name}-{key}{suffix}"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.exists():
            return target
        src = target.parent / f"launcher-{key}.c"
        src.write_bytes(source)
        tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
        proc = subprocess.run([cc, "-O2", *flags, "-o", str(tmp), str(src)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise JudgeError(
                f"could not build the sandbox launcher: {proc.stderr.strip()[:500]}",
                hint="check that gcc and the libc headers are installed (apt-get install build-essential)",
            )
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
    return target
