"""Text of the print sheet laid out in a column: headings, wrapped paragraphs, bullet lists and legend swatches.

Sizes are millimetres. SVG has no text wrapping, so lines are broken here from an estimate of the font's
average advance; the estimate errs wide, so a line ends short of the column rather than past it.
"""

from __future__ import annotations

import textwrap

from engine.export.safe_text import xml_chars, xml_text

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
EM_PER_CHAR = 0.53  # average advance of DejaVu Sans in mixed text (about 0.5 em), rounded up
BODY, HEAD = 3.2, 4.2


def text_element(x: float, y: float, s: str, size: float, bold: bool = False, anchor: str = "start") -> str:
    """One SVG text element; s is made safe for XML here."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.2f}" y="{y:.2f}" font-family="{FONT}" font-size="{size:.2f}"{weight} '
        f'text-anchor="{anchor}" fill="#111111">{xml_text(s)}</text>'
    )


def wrap(s: str, size: float, width: float) -> list[str]:
    """s broken into lines no wider than width at font size size (estimated); blank lines kept as paragraphs."""
    chars = max(8, int(width / (size * EM_PER_CHAR)))
    out: list[str] = []
    for para in xml_chars(s).splitlines() or [""]:
        out += textwrap.wrap(para, chars, break_long_words=True, break_on_hyphens=False) or [""]
    while out and not out[-1]:
        out.pop()
    return out


class Column:
    """Text stacked downwards from y = 0 in a column width wide; place() puts it on the page."""

    def __init__(self, width: float) -> None:
        self.width = width
        self.y = 0.0
        self.elements: list[tuple[float, str]] = []  # (the element's bottom, the element)
        self.cut = False  # whether fit_to() dropped lines

    def _add(self, bottom: float, element: str) -> None:
        self.elements.append((bottom, element))

    def gap(self, mm: float) -> None:
        self.y += mm

    def heading(self, s: str) -> None:
        self.gap(1.5)
        self.y += HEAD * 1.35
        self._add(self.y, text_element(0, self.y - HEAD * 0.55, s, HEAD, bold=True))

    def paragraph(self, s: str, size: float = BODY) -> None:
        for line in wrap(s, size, self.width):
            self.y += size * 1.35
            self._add(self.y, text_element(0, self.y - size * 0.55, line, size))

    def bullets(self, items: list[str], size: float = BODY) -> None:
        indent = size * 1.2
        for item in items:
            for i, line in enumerate(wrap(item, size, self.width - indent)):
                self.y += size * 1.35
                if i == 0:
                    self._add(self.y, text_element(0, self.y - size * 0.55, "\u2022", size))
                self._add(self.y, text_element(indent, self.y - size * 0.55, line, size))

    def swatches(self, items: list[tuple[str, str, bool]], col_w: float = 44.0) -> None:
        """Legend entries (name, colour, outline only) in columns of col_w millimetres."""
        cols = max(1, int(self.width // col_w))
        row_h = 6.0
        for i, (name, colour, outline) in enumerate(items):
            x, y = (i % cols) * col_w, self.y + (i // cols) * row_h
            fill, stroke, sw = ("#ffffff", colour, 0.8) if outline else (colour, "#000", 0.2)
            self._add(
                y + row_h,
                f'<rect x="{x + 0.4:.2f}" y="{y + 0.4:.2f}" width="3.7" height="3.7" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="{sw}"/>' + text_element(x + 6, y + 3.6, name, BODY),
            )
        self.y += ((len(items) + cols - 1) // cols) * row_h

    def fit_to(self, height: float) -> None:
        """Drop what lies below height, ending with a line that says so (a long text on a fixed page)."""
        if self.y <= height:
            return
        note = BODY * 1.35
        self.elements = [(b, e) for b, e in self.elements if b <= height - note]
        self._add(height, text_element(0, height - BODY * 0.55, "... (the rest is in the mission file)", BODY))
        self.y = height
        self.cut = True

    def place(self, x: float, y: float) -> str:
        """The column's elements moved to (x, y) on the page."""
        return f'<g transform="translate({x:.2f},{y:.2f})">' + "".join(e for _, e in self.elements) + "</g>"
