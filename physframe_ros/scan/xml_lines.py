"""A small XML tree that remembers the line of every element (findings must name file:line).

``xml.etree`` drops positions; expat reports them, so elements are built here from expat events.
"""

from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass, field
from typing import Iterator


@dataclass
class XmlNode:
    tag: str
    attrib: dict[str, str]
    line: int
    children: list[XmlNode] = field(default_factory=list)
    text: str = ""
    text_line: int = 0  # where the text starts (an inline <rosparam> body's keys are reported at their own lines)
    source: list[str] = field(default_factory=list, repr=False, compare=False)  # the document's lines, shared

    def attr_line(self, name: str) -> int:
        """The line of attribute ``name`` in this start tag (expat reports only where the tag starts)."""
        needle = re.compile(rf"(^|\s){re.escape(name)}\s*=")
        for i in range(self.line - 1, min(self.line + 40, len(self.source))):
            line = self.source[i] if i != self.line - 1 else self.source[i].split("<" + self.tag, 1)[-1]
            if needle.search(line):
                return i + 1
            if ">" in line:
                break
        return self.line

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(key, default)

    def find(self, tag: str) -> XmlNode | None:
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str) -> list[XmlNode]:
        return [c for c in self.children if c.tag == tag]

    def iter(self, tag: str | None = None) -> Iterator[XmlNode]:
        stack = [self]
        while stack:
            n = stack.pop()
            if tag is None or n.tag == tag:
                yield n
            stack.extend(reversed(n.children))

    def child_text(self, tag: str) -> str | None:
        c = self.find(tag)
        return c.text.strip() if c is not None else None


class XmlError(ValueError):
    """Not well-formed XML; ``line`` is where expat stopped."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


# `<!------ banner ------>`: a comment holding "--", which XML forbids and TinyXML (urdfdom, SDFormat) accepts
_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)


def _comments_repaired(text: str) -> str:
    """``text`` with the dashes inside each comment blanked, lines and columns kept."""
    return _COMMENT.sub(lambda m: "<!--" + m.group(1).replace("-", " ") + "-->", text)


def parse_xml(text: str | bytes, lenient_comments: bool = False) -> XmlNode:
    """Parse a document; namespaces prefixes are kept in tag names (``xacro:macro``). ``lenient_comments``: a
    document that only a comment holding "--" makes ill-formed is read as the C++ readers of robot descriptions
    read it (old Gazebo models draw banners with dashes)."""
    if lenient_comments:
        try:
            return parse_xml(text)
        except XmlError:
            decoded = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
            repaired = _comments_repaired(decoded)
            if repaired == decoded:
                raise
            return parse_xml(repaired)
    parser = xml.parsers.expat.ParserCreate()
    stack: list[XmlNode] = []
    root: list[XmlNode] = []
    lines = (text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text).splitlines()

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = XmlNode(tag, attrs, parser.CurrentLineNumber, source=lines)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            if not stack[-1].text:
                stack[-1].text_line = parser.CurrentLineNumber
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as exc:
        raise XmlError(f"not well-formed XML: {xml.parsers.expat.ErrorString(exc.code)}", exc.lineno) from None
    if not root:
        raise XmlError("empty XML document", 1)
    return root[0]
