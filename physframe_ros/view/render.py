"""A drawing to SVG, DOT or PDF bytes; PDF through cairosvg when it is installed (no graphviz binary needed)."""

from __future__ import annotations

from ..report.dot import tree_dot
from ..report.svg import tree_svg
from .sources import Drawing, ViewError

FORMATS = ("svg", "dot", "pdf")
PDF_HELP = (
    "PDF output needs the Python package cairosvg and the system library libcairo2 "
    "(pip install cairosvg; apt-get install libcairo2); .svg and .dot need nothing"
)


def render(drawing: Drawing, fmt: str) -> bytes:
    if fmt == "dot":
        return tree_dot(drawing.edges, drawing.findings, drawing.labels, drawing.title).encode()
    svg = tree_svg(drawing.edges, drawing.findings, drawing.labels, drawing.title)
    if fmt == "svg":
        return svg.encode()
    if fmt == "pdf":
        try:
            import cairosvg
        except (ImportError, OSError) as exc:  # OSError: the package is there but libcairo is not
            raise ViewError(f"{PDF_HELP} ({exc})") from None
        return bytes(cairosvg.svg2pdf(bytestring=svg.encode()))
    raise ViewError(f"unknown output format {fmt!r}: use one of {', '.join(FORMATS)}")
