"""Text from a mission made safe for the files the exporters write.

A mission reached through a Tiled import or built by a program may hold characters no XML file can carry (NUL,
ESC, U+FFFF) or lone surrogates no UTF-8 file can carry. Writers drop them rather than write a file that does not
parse: the characters mean nothing on a printed sheet or in another client.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

# Everything outside XML 1.0's Char production: C0 controls but tab, LF and CR; surrogates; U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# For one-line text: every C0/C1 control (tabs and line breaks become spaces first) and what XML refuses.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def xml_chars(s: str) -> str:
    """s without the characters XML 1.0 cannot hold."""
    return _NOT_XML.sub("", s)


def xml_text(s: str) -> str:
    """s as XML character data or an attribute value: unusable characters dropped, markup escaped."""
    return escape(xml_chars(s), {'"': "&quot;"})


def one_line(s: str) -> str:
    """s on one line: runs of white space become one space, control characters and lone surrogates go."""
    return _CONTROL.sub("", " ".join(s.split()))
