"""Text from scanned files, bags and the network made safe for a terminal.

Frame ids, file names and messages can hold anything; printed raw, an escape sequence in a frame
id can clear or fake the screen, retitle the window or hide text (bidi overrides). Every text
report and log line passes such text through :func:`printable`, which shows those characters as
visible escapes instead. Data formats (JSON, SARIF, YAML) keep the text as it is; they escape it.
"""

from __future__ import annotations

_CONTROLS = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_TABLE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _CONTROLS}


def printable(text: str) -> str:
    """``text`` with control characters (C0, DEL, C1, bidi controls; newline and tab too) as ``\\xNN``/``\\uNNNN``."""
    return text if text.isprintable() else text.translate(_TABLE)
