"""Where the judge keeps its caches (launcher, precompiled headers, compiled programs)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def cache_dir() -> Path:
    """The judge's cache directory: `CPBOT_CACHE_DIR` if set, else the user cache dir."""
    override = os.environ.get("CPBOT_CACHE_DIR")
    path = Path(override) if override else Path(platformdirs.user_cache_dir("cpbot"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def private_dirs() -> list[Path]:
    """cpbot's own config and data dirs (the platform's, and `CPBOT_CONFIG_DIR`/`CPBOT_DATA_DIR` when set):
    credentials and transcripts live there, so programs never see them."""
    dirs = [Path(platformdirs.user_config_dir("cpbot")), Path(platformdirs.user_data_dir("cpbot"))]
    for name in ("CPBOT_CONFIG_DIR", "CPBOT_DATA_DIR"):
        override = os.environ.get(name)
        if override and Path(override) not in dirs:
            dirs.append(Path(override))
    return dirs
