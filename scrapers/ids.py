"""Problem ids for content whose origin is unknown (a fragment or a payload without a slug)."""

from __future__ import annotations

import hashlib


def local_id(content: bytes | str) -> str:
    """`local:<hash>`: a stable id derived from the content itself."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    return "local:" + hashlib.sha256(data).hexdigest()[:12]
