"""Bytes of a scanned file as text, in the encoding the file declares.

A byte order mark wins (UTF-8, UTF-16, UTF-32); then Python's PEP 263 coding cookie for Python
files, the XML declaration's ``encoding`` for XML files; else UTF-8. Undecodable bytes become
U+FFFD, so a wrong declaration costs characters, never the file. Windows line ends (CRLF) become
plain ones: the parsers that read lines would keep the CR in the last value of each (DukeRobotics'
``frame_id: base_link\r``); the lines keep their numbers.
"""

from __future__ import annotations

import codecs
import io
import re
import tokenize

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_XML_DECL = re.compile(rb"""^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
PYTHON_KINDS = frozenset({"python", "launch_py"})
XML_KINDS = frozenset({"urdf", "xacro", "sdf", "launch_xml"})


def source_encoding(data: bytes, kind: str) -> str:
    """The codec name ``data`` declares for a file of this kind (see the module docstring)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    if kind in PYTHON_KINDS and b"coding" in data[:400]:
        try:
            name, _ = tokenize.detect_encoding(io.BytesIO(data[:400]).readline)
            return name
        except SyntaxError:  # an unknown codec named in the cookie
            return "utf-8"
    if kind in XML_KINDS:
        m = _XML_DECL.match(data[:200])
        if m:
            return _known(m.group(1).decode("ascii"))
    return "utf-8"


def decode_source(data: bytes, kind: str) -> str:
    """``data`` as text (see the module docstring)."""
    return data.decode(source_encoding(data, kind), errors="replace").replace("\r\n", "\n")


def _known(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"
