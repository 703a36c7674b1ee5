"""cpbot's user directories, each decided in one place.

`CPBOT_CONFIG_DIR`, `CPBOT_DATA_DIR` and `CPBOT_CACHE_DIR` override the platform's user dirs
(platformdirs). Config holds `config.toml` and credentials; data holds the transcripts, the watch state
and the submission ledger; cache holds the sandbox launcher, precompiled headers and compiled programs.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "cpbot"


def _platform_dir(kind: str) -> Path:
    """The platform's user dir of `kind` ("config", "data", "cache") for cpbot."""
    import platformdirs  # here, not at the top: every command reads config_dir() before parsing its options

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP))


def config_dir() -> Path:
    """The config dir: `CPBOT_CONFIG_DIR`, else the platform's user config dir (not created here)."""
    override = os.environ.get("CPBOT_CONFIG_DIR")
    return Path(override) if override else _platform_dir("config")


def data_dir() -> Path:
    """The data dir: `CPBOT_DATA_DIR`, else the platform's user data dir (not created here)."""
    override = os.environ.get("CPBOT_DATA_DIR")
    return Path(override) if override else _platform_dir("data")


def python_env_dir() -> Path:
    """Where `cpbot setup-python` makes the managed Python environment judged programs use."""
    return data_dir() / "python"


def cache_dir() -> Path:
    """The cache dir: `CPBOT_CACHE_DIR`, else the platform's user cache dir; created on first use."""
    override = os.environ.get("CPBOT_CACHE_DIR")
    path = Path(override) if override else _platform_dir("cache")
    path.mkdir(parents=True, exist_ok=True)
    return path


def private_dirs() -> list[Path]:
    """The config and data dirs, both the platform's and the overridden ones: credentials and transcripts
    live there, so judged programs never see them."""
    dirs = [_platform_dir("config"), _platform_dir("data")]
    for extra in (config_dir(), data_dir()):
        if extra not in dirs:
            dirs.append(extra)
    return dirs
