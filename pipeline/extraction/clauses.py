"""Which tokens a reading looks in: the clause that holds the outcome, where the next
clause ends, and what sits inside parentheses.

A sentence often says several things ('X fell with A, but Y did not differ'); the rules
read the outcome's clause, and every rule that looks past it finds the same boundaries.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pipeline.extraction.lexicon import CLAUSE_BREAKS, CONCESSIONS, ELLIPTIC_LEADS
from pipeline.extraction.mentions import Mention
from pipeline.extraction.sentence import Sentence

_BREAK_WORDS = CLAUSE_BREAKS | {"except"}  # the words `breaks` may find a boundary at


def clause(sentence: Sentence, tail: Mention) -> tuple[int, int]:
    """The tail's clause: bounded by ';', 'but', 'whereas', ', while', 'however'. A
    concession ('Although A did not differ, B improved'; '... revealed that, although A
    did not differ, B improved') puts a tail after its comma in the main clause."""
    words = sentence.words
    start = sentence.start
    depth = 0  # a ';' inside parentheses ('(52%; 95% CI 43.8-60.3)') ends no clause
    # brackets first, then `breaks` only at the words it may find a boundary at
    for i in range(tail.start - 1, sentence.start - 1, -1):
        word = words[i]
        if word in (")", "]"):
            depth += 1
        elif word in ("(", "["):
            depth = max(0, depth - 1)
        elif (not depth and word in _BREAK_WORDS and breaks(words, i)
              and (word != "although" or i > sentence.start)):
            start = i + 1
            break
    if (words[start] in CONCESSIONS if start == sentence.start
            else words[start - 1] in ("although", "though")):
        comma = next((i for i in range(start, tail.start) if words[i] == ","), None)
        if comma is not None:
            start = comma + 1
    end = sentence.end
    depth = 0
    for i in range(tail.end, sentence.end):
        word = words[i]
        if word in ("(", "["):
            depth += 1
        elif word in (")", "]"):
            depth = max(0, depth - 1)
        elif not depth and word in _BREAK_WORDS and breaks(words, i):
            end = i
            break
    return start, end


def contrast_end(words: Sequence[str], end: int, sentence_end: int) -> int:
    """'48% of the patients in the A group, whereas 10% of the B group', '9.4% in the A
    group but in only 1.0% of the B group': the contrast clause holds the other arm's
    value, so the arms' numbers are read up to its end (a 'but' with no verb of its own:
    a number, 'in' or 'only' follows it)."""
    if end >= sentence_end or not (words[end] in ("whereas", "while") or (
            words[end] == "but" and end + 1 < sentence_end
            and (words[end + 1] in ELLIPTIC_LEADS or words[end + 1][:1].isdigit()))):
        return end
    return next_break(words, end + 1, sentence_end)


def inside_parentheses(words: Sequence[str], start: int, end: int) -> set[int]:
    """Tokens from `start` to `end` inside parentheses opened after `start`."""
    inside: set[int] = set()
    depth = 0
    for i in range(start, end):
        if words[i] in ("(", "["):
            depth += 1
        elif words[i] in (")", "]"):
            depth = max(0, depth - 1)
        elif depth:
            inside.add(i)
    return inside


def outside_parentheses(words: Sequence[str], start: int, end: int) -> Iterator[int]:
    """The tokens from `start` to `end` that no parenthesis or bracket encloses (a
    closing one included)."""
    depth = 0
    for i in range(start, end):
        depth += (words[i] in ("(", "[")) - (words[i] in (")", "]"))
        if not depth:
            yield i


def breaks(words: Sequence[str], i: int) -> bool:
    """A clause boundary; 'X, but not Y, reduced Z' is one clause. 'No differences in
    any parameter except that X was lower in A' opens a clause of its own ('except for one
    case' does not)."""
    following = words[i + 1] if i + 1 < len(words) else ""
    return (words[i] in CLAUSE_BREAKS and not (words[i] == "but" and following == "not")
            or words[i] == "except" and following == "that")


def next_break(words: Sequence[str], first: int, end: int) -> int:
    """The end of the clause that begins at `first`: its next boundary, else `end`."""
    return next((i for i in range(first, end) if breaks(words, i)), end)
