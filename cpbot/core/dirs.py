"""cpbot's user directories, each decided in one place.

`CPBOT_CONFIG_DIR`, `CPBOT_DATA_DIR` and `CPBOT_CACHE_DIR` override the platform's user dirs
(platformdirs). Config holds `config.toml` and credentials; data holds the transcripts, the watch state
and the submission ledger; cache holds the sandbox launcher, precompiled headers and compiled programs.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "cpbot"


def config_dir() -> Path:
    """The config dir: `CPBOT_CONFIG_DIR`, else the platform's user config dir (not created here)."""
    override = os.environ.get("CPBOT_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP))


def data_dir() -> Path:
    """The data dir: `CPBOT_DATA_DIR`, else the platform's user data dir (not created here)."""
    override = os.environ.get("CPBOT_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP))


def cache_dir() -> Path:
    """The cache dir: `CPBOT_CACHE_DIR`, else the platform's user cache dir; created on first use."""
    override = os.environ.get("CPBOT_CACHE_DIR")
    path = Path(override) if override else Path(platformdirs.user_cache_dir(APP))
    path.mkdir(parents=True, exist_ok=True)
    return path


def private_dirs() -> list[Path]:
    """The config and data dirs, both the platform's and the overridden ones: credentials and transcripts
    live there, so judged programs never see them."""
    dirs = [Path(platformdirs.user_config_dir(APP)), Path(platformdirs.user_data_dir(APP))]
    for extra in (config_dir(), data_dir()):
        if extra not in dirs:
            dirs.append(extra)
    return dirs
