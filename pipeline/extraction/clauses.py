"""Which tokens a reading looks in: the clause that holds the outcome, where the next
clause ends, and what sits inside parentheses.

A sentence often says several things ('X fell with A, but Y did not differ'); the rules
read the outcome's clause, and every rule that looks past it finds the same boundaries.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pipeline.extraction.lexicon import CLAUSE_BREAKS, CONCESSIONS, COPULAS, ELLIPTIC_LEADS
from pipeline.extraction.mentions import Mention
from pipeline.extraction.sentence import Sentence

# Words that open a clause's own subject after ', and'.
SUBJECT_LEADS = frozenset({"the", "a", "an", "this", "these", "its", "their"})
DEFINITION_REACH = 15  # tokens after 'defined as' in which its closing comma comes
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


def defined_as(words: Sequence[str], start: int, end: int) -> set[int]:
    """'Response, defined as at least 50% reduction in HAM-D score, was observed in ...':
    the words from 'defined as' to the comma that closes them say what the outcome means,
    not what happened to it."""
    defined: set[int] = set()
    for i in range(start, end - 1):
        if words[i] == "defined" and words[i + 1] == "as":
            close = next((j for j in range(i + 2, min(end, i + 2 + DEFINITION_REACH))
                          if words[j] in (",", ";", ")")), None)
            defined.update(range(i, close) if close is not None else ())
    return defined


def conjoined_after(words: Sequence[str], start: int, after: int, end: int) -> set[int]:
    """'... requested supplementary analgesic, compared with 27 patients (77.1%) in the
    control group, and the time to first request was longer': from ', and' with a subject
    of its own ('the', 'a') after `after` to `end`, another clause, once the clause from
    `start` has had its verb (else ', and the E/A ratio decreased' ends a list of
    subjects)."""
    joint = next((i for i in range(after, end - 2) if words[i] == "," and words[i + 1] == "and"
                  and words[i + 2] in SUBJECT_LEADS), None)
    if joint is None or not any(w in COPULAS or w.endswith("ed") for w in words[start:joint]):
        return set()
    return set(range(joint, end))


def asides(words: Sequence[str], start: int, end: int, tail: Mention) -> set[int]:
    """Tokens that say nothing of the tail: inside parentheses (definitions, statistics)
    or a 'defined as' phrase, unless the tail is there too, and a clause of another
    subject after it (', and the time to first request was longer')."""
    inside = inside_parentheses(words, start, end) | defined_as(words, start, end)
    return (set() if tail.start in inside else inside) | conjoined_after(
        words, start, tail.end, end)


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
