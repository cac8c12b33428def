"""Message types the scanned tree defines (``msg/ClusterList.msg``): those with a ``Header header`` field are
stamped data, checked like the stamped types of the common packages wherever the code builds them."""

from __future__ import annotations

import os
import re
from functools import lru_cache

from .context import ScanContext

MAX_MSG_BYTES = 64 << 10
# a field line, not a comment: `std_msgs/Header header`, `Header header` (ROS 1 resolves it to std_msgs)
_HEADER_FIELD = re.compile(r"^[ \t]*(?:std_msgs/)?Header[ \t]+header\b", re.M)


@lru_cache(maxsize=8)
def stamped_message_types(ctx: ScanContext) -> frozenset[str]:
    """``package/Type`` for every message of a package in the tree whose definition has a header."""
    out: set[str] = set()
    for name, rel in ctx.packages.items():
        msg_dir = f"{rel}/msg" if rel else "msg"
        try:
            with os.scandir(ctx.abs_str(msg_dir)) as entries:
                files = [e.name for e in entries if e.name.endswith(".msg") and e.is_file(follow_symlinks=False)]
        except OSError:
            continue  # no msg directory
        for fname in files:
            try:
                text = ctx.read_bytes(f"{msg_dir}/{fname}", MAX_MSG_BYTES).decode("utf-8", "replace")
            except OSError:
                continue  # outside the tree or too large: its fields stay unknown
            if _HEADER_FIELD.search(text):
                out.add(f"{name}/{fname[:-4]}")
    return frozenset(out)
