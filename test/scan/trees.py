"""Small source trees written for a scan test, from dedented text."""

from __future__ import annotations

import textwrap
from pathlib import Path


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write each relative path's text (dedented, leading blank lines dropped) under ``root``."""
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip())
    return root
