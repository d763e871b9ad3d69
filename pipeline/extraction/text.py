"""Input hygiene: whatever arrives (bytes, markup, megabytes) becomes bounded plain text.

The extractor must never raise on bad input, so every abstract passes through here first.
"""

from __future__ import annotations

import html
import re
import unicodedata

MAX_TEXT_CHARS = 50_000  # ~10x the longest real abstract; beyond it we only read the start

# A tag names itself right after '<' or '</': 'P < 0.05 ... P > 0.05' is not one.
_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)(?:\s[^<>]{0,200})?/?>")
# Tags that end a block of text (a paragraph, a heading, a table cell); others are inline.
_BLOCK_TAGS = frozenset({"p", "div", "br", "li", "ul", "ol", "tr", "td", "th", "table",
                         "h1", "h2", "h3", "h4", "h5", "h6", "title", "sec", "abstracttext",
                         "section", "article", "body", "head", "html", "caption", "label"})
_EI_HEADER = re.compile(
    r"^\s*(?:TITLE\s*:+|ABSTRACT\.\s*(?P<section>[A-Z][A-Z /&]*?)\.?\s*:+)", re.MULTILINE)
_SPACE = re.compile(r"[ \t\r\f\v]+")  # blanks but newlines
_ODD_BLANKS = ("  ", "\t", "\r", "\f", "\v")
# An em dash or a horizontal bar sets a phrase apart ('RFS\u2014but not OS\u2014was
# prolonged'): spaced, so that it stands as a token of its own, not a hyphen joining words.
_DASH_CHARS = {"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": " - ",
               "\u2015": " - ", "\u2212": "-", "\u00a0": " "}
_TERMINAL = ".!?:;"
# Control characters (but blanks: tab, newline, ...), lone surrogates and private-use code
# points.
_UNPRINTABLE = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\ud800-\udfff\ue000-\uf8ff]")


def decode(raw: str | bytes) -> str:
    """Bytes from a file or a socket are decoded leniently: a bad byte costs one char."""
    if isinstance(raw, bytes):
        return raw.decode("utf-8", errors="replace")
    return raw


def _tag_break(match: re.Match[str]) -> str:
    name = (match.group(2) or "").lower()
    return "\n" if name in _BLOCK_TAGS else ""


def clean_text(raw: str | bytes, limit: int = MAX_TEXT_CHARS) -> str:
    """Plain text: markup and entities removed, controls and surrogates dropped, unicode
    dashes folded to '-', at most `limit` characters. A line without final punctuation
    (a title, a heading) gets a full stop so the sentence splitter sees its end."""
    return " ".join(clean_paragraphs(raw, limit))[:limit]


def clean_paragraphs(raw: str | bytes, limit: int = MAX_TEXT_CHARS) -> list[str]:
    """The lines of `clean_text` before they are joined: an abstract whose section labels
    were stripped keeps its sections as paragraphs."""
    text = decode(raw)[: limit * 2]
    if "<" in text:
        text = _TAG.sub(_tag_break, text)
    if "&" in text:
        text = html.unescape(text)
    if "TITLE" in text or "ABSTRACT." in text:  # what _EI_HEADER needs
        text = _EI_HEADER.sub(lambda m: f"{m['section']}: " if m["section"] else "", text)
    text = _fold_dashes(_nfkc(text))
    text = _UNPRINTABLE.sub("", text)
    if any(blank in text for blank in _ODD_BLANKS):  # most abstracts have none
        text = _SPACE.sub(" ", text)  # a tab separates words too
    lines = []
    for line in text.split("\n"):
        line = line.strip()
        if line:
            lines.append(line if line[-1] in _TERMINAL else line + ".")
    return lines


def _nfkc(text: str) -> str:
    """NFKC form; the quick check first, as most abstracts are already in it."""
    return text if unicodedata.is_normalized("NFKC", text) else unicodedata.normalize(
        "NFKC", text)


def _fold_dashes(text: str) -> str:
    """Unicode dashes to '-' (an em dash to ' - '), no-break spaces to ' ' (str.translate
    would look up every character of a non-ASCII text; abstracts hold few dashes)."""
    if text.isascii():
        return text
    for char, replacement in _DASH_CHARS.items():
        if char in text:
            text = text.replace(char, replacement)
    return text


def clean_name(name: str) -> str:
    """An entity name as text would spell it: entities unescaped ('48&nbsp;h'), unicode
    dashes folded, whitespace collapsed; no sentence punctuation added."""
    text = _fold_dashes(_nfkc(html.unescape(name)))
    return " ".join(_UNPRINTABLE.sub("", text).split())
