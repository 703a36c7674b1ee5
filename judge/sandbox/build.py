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
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise JudgeError("no C compiler found to build the sandbox launcher", hint="apt-get install gcc")
    source = launcher_source()
    key = hashlib.sha256(source + cc.encode()).hexdigest()[:16]
    target = cache_dir() / "launcher" / f"launcher-{key}"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.exists():
            return target
        src = target.parent / f"launcher-{key}.c"
        src.write_bytes(source)
        tmp = target.with_suffix(f".tmp{os.getpid()}")
        proc = subprocess.run([cc, "-O2", "-o", str(tmp), str(src)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise JudgeError(
                f"could not build the sandbox launcher: {proc.stderr.strip()[:500]}",
                hint="check that gcc and the libc headers are installed (apt-get install build-essential)",
            )
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
    return target
