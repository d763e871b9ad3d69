"""The spaCy pipeline the extractor reads with, chosen by configuration.

The default needs no trained model: a blank English tokenizer, rule-based sentence
splitting and scispacy's AbbreviationDetector, so it runs offline anywhere. When a model
such as en_core_sci_sm is installed and named (argument or DACG_SPACY_MODEL), its parser
and NER are used as well; the blank pipeline stays the tested default.

The AbbreviationDetector is scispacy's own (its `__call__`, `filter_matches`,
`find_abbreviation` and `find_matches_for` run unchanged); only its two spaCy Matchers are
swapped for drop-ins that return the same matches in the same order (`fast_matchers`).
spaCy's Matcher builds a Python Token object for every token of the doc, twice per call,
which made the detector about a fifth of the extractor's time; the drop-ins read one
array of token ids. For the same reason the sentencizer is spaCy's, with its `predict`
reading token ids (`ArraySentencizer`: same boundaries). The tokenizer keeps more chunks
in its cache (TOKENIZER_CACHE_CHUNKS) and searches suffixes with only the rules that can
end in a word's last character (`SuffixSearch`: same matches).
"""

from __future__ import annotations

import bisect
import os
import re
import re._constants as re_constants  # re's own parser: the same reading of a rule
import re._parser as re_parser
import warnings
from collections.abc import Iterable
from typing import Any

import numpy
import scispacy.abbreviation  # noqa: F401  (registers the "abbreviation_detector" factory)
import spacy
from scispacy.abbreviation import AbbreviationDetector
from spacy.attrs import IS_PUNCT, ORTH
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.pipeline.senter import senter_score
from spacy.strings import get_string_id
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import compile_suffix_regex
from spacy.vocab import Vocab

MODEL_ENV = "DACG_SPACY_MODEL"
MAX_DOC_CHARS = 100_000
# scispacy's filter_matches skips a parenthesis with more than 8 tokens inside.
MAX_PARENTHESIS_TOKENS = 8
SENTENCIZER = "dacg_sentencizer"
# spaCy's tokenizer caches the tokens of up to 10,000 distinct whitespace-separated chunks
# and re-splits affixes for every other one; a few hundred abstracts fill that. 100,000
# chunks cost about 30 MB and keep most chunks of a large run cached (same tokens).
TOKENIZER_CACHE_CHUNKS = 100_000


class ArraySentencizer(Sentencizer):
    """spaCy's rule-based Sentencizer with its `predict` reading token ids instead of
    Token objects; the same rule: a sentence starts at the first token that is neither
    punctuation nor one of `punct_chars` after one of `punct_chars`."""

    _punct_ids: tuple[int, int, numpy.ndarray] = (0, 0, numpy.zeros(0, numpy.uint64))

    def predict(self, docs: list[Doc]) -> list[list[bool]]:
        punct_chars = self.punct_chars
        known, size, punct_ids = self._punct_ids
        if known != id(punct_chars) or size != len(punct_chars):  # from_bytes replaces it
            punct_ids = numpy.array(sorted({get_string_id(c) for c in punct_chars}),
                                    dtype=numpy.uint64)
            self._punct_ids = (id(punct_chars), len(punct_chars), punct_ids)
        guesses = []
        for doc in docs:
            doc_guesses = [False] * len(doc)
            if doc_guesses:
                doc_guesses[0] = True
                orth, is_punct = doc.to_array([ORTH, IS_PUNCT]).T
                # numpy.isin scans the doc once per mark; a sorted lookup does not
                nearest = numpy.searchsorted(punct_ids, orth).clip(0, len(punct_ids) - 1)
                is_final = punct_ids[nearest] == orth
                finals = numpy.flatnonzero(is_final)
                starts = numpy.flatnonzero(~is_final & (is_punct == 0))
                following = numpy.searchsorted(starts, finals, side="right")
                for i in starts[following[following < len(starts)]].tolist():
                    doc_guesses[i] = True
            guesses.append(doc_guesses)
        return guesses


@Language.factory(SENTENCIZER, default_config={"punct_chars": None, "overwrite": False})
def make_sentencizer(nlp: Language, name: str, punct_chars: list[str] | None,
                     overwrite: bool) -> ArraySentencizer:
    return ArraySentencizer(name, punct_chars=punct_chars, overwrite=overwrite,
                            scorer=senter_score)



_LETTER_STOP = re.compile(r"[a-zäöü]\.")


def split_unit_stops(tokenizer: Tokenizer) -> None:
    """'2500 g. After', 'within 90 d. Three': spaCy keeps a lower-case letter and its
    stop together (initials), so the sentence ran on; in abstracts the letter is a unit."""
    tokenizer.rules = {k: v for k, v in (tokenizer.rules or {}).items()
                       if not _LETTER_STOP.fullmatch(k)}


_CAPITAL_STOPS = numpy.array(sorted(get_string_id(f"{c}.") for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                             dtype=numpy.uint64)


@Language.component("dacg_letter_stops")
def split_letter_stops(doc: Doc) -> Doc:
    """'in group B. Patients', 'vitamin D. We': a capital letter's stop before a capital
    ends the sentence (spaCy keeps 'B.' whole, as an initial; 'E. coli' stays)."""
    ids = doc.to_array(ORTH)[:-1]
    nearest = numpy.searchsorted(_CAPITAL_STOPS, ids).clip(0, len(_CAPITAL_STOPS) - 1)
    hits = [i for i in numpy.flatnonzero(_CAPITAL_STOPS[nearest] == ids).tolist()
            if doc[i + 1].text[:1].isupper()]
    if hits:
        with doc.retokenize() as retokenizer:
            for i in hits:
                token = doc[i]
                retokenizer.split(token, [token.text[0], "."], heads=[(token, 0), (token, 0)])
    return doc


class ModelUnavailable(RuntimeError):
    """A configured spaCy model that is not installed; the message says how to get it."""


def configured_model() -> str | None:
    """The spaCy model named by $DACG_SPACY_MODEL (None: the blank default)."""
    return os.environ.get(MODEL_ENV) or None


def build_nlp(model: str | None = None, stock: bool = False) -> Language:
    """Blank English + sentencizer + abbreviations, or the named installed model.
    `stock=True` uses spaCy's Sentencizer, tokenizer cache size and scispacy's Matchers as
    shipped (the same output, slower: the benchmark's baseline)."""
    sentencizer = "sentencizer" if stock else SENTENCIZER
    if model:
        try:
            nlp = spacy.load(model)
        except OSError:
            raise ModelUnavailable(
                f"spaCy model {model!r} is not installed (pip install it, or unset "
                f"{MODEL_ENV} to use the blank pipeline)") from None
        if not (nlp.has_pipe("parser") or nlp.has_pipe("senter")):
            nlp.add_pipe(sentencizer, name="sentencizer", first=True)
    else:
        nlp = spacy.blank("en")
        nlp.add_pipe("dacg_letter_stops")
        nlp.add_pipe(sentencizer, name="sentencizer")
        split_unit_stops(nlp.tokenizer)
    detector = nlp.add_pipe("abbreviation_detector")
    if not stock:
        fast_matchers(detector)
        if isinstance(nlp.tokenizer, Tokenizer):  # a model may bring its own
            nlp.tokenizer.max_cache_size = max(nlp.tokenizer.max_cache_size,
                                               TOKENIZER_CACHE_CHUNKS)
            fast_suffixes(nlp.tokenizer, nlp.Defaults.suffixes or ())
    nlp.max_length = MAX_DOC_CHARS
    return nlp


def has_entities(nlp: Language) -> bool:
    """Whether the pipeline proposes entity spans of its own (a trained NER, a ruler)."""
    return nlp.has_pipe("ner") or nlp.has_pipe("entity_ruler")


def parse(nlp: Language, text: str) -> Doc:
    """Run the pipeline. The abbreviation detector's global matcher starts empty by
    design and spaCy warns about that on every doc; the warning says nothing here."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*\[W036\].*")
        return nlp(text)


class SuffixSearch:
    """spaCy's suffix regex (each rule followed by "$", all rules in one alternation),
    searched with only the rules that can end in the string's last character: a match
    must end there, so the others cannot match (strings holding a newline, where "$"
    also matches before it, go to the whole regex). The same matches; eight times faster
    on abstracts' words, which matters for every word the tokenizer has not cached.
    `pattern` is the whole regex's, for spaCy's serialisation."""

    def __init__(self, rules: list[str]) -> None:
        self.rules = [(rule, _rule_ends(rule)) for rule in rules]
        self.whole = compile_suffix_regex(rules)
        self.pattern = self.whole.pattern
        self._by_last: dict[str, re.Pattern[str] | None] = {}

    def search(self, text: str) -> re.Match[str] | None:
        if not text or "\n" in text:
            return self.whole.search(text)
        last = text[-1]
        if last not in self._by_last:
            kept = [rule + "$" for rule, ends in self.rules if ends is None or last in ends]
            self._by_last[last] = re.compile("|".join(kept)) if kept else None
        pattern = self._by_last[last]
        return pattern.search(text) if pattern is not None else None


def _rule_ends(rule: str) -> frozenset[str] | None:
    """The characters a match of `rule + "$"` can end with, or None when that is not
    plain. A rule with its own top-level "|" anchors only its last branch."""
    items = list(re_parser.parse(rule + "$").data)
    if not items or items[-1] != (re_constants.AT, re_constants.AT_END):
        return None
    return _last_characters(items[:-1])


def _last_characters(items: list[Any]) -> frozenset[str] | None:
    """The characters a parsed regex's match can end with, or None when that is not
    plain (a lookaround, a class by category, an optional last element, ...)."""
    if not items:
        return None
    op, value = items[-1]
    if op is re_constants.LITERAL:
        return frozenset(chr(value))
    if op is re_constants.IN:
        chars: set[str] = set()
        for member, argument in value:
            if member is re_constants.LITERAL:
                chars.add(chr(argument))
            elif member is re_constants.RANGE and argument[1] - argument[0] < 1000:
                chars.update(chr(c) for c in range(argument[0], argument[1] + 1))
            else:
                return None
        return frozenset(chars)
    if op in (re_constants.MAX_REPEAT, re_constants.MIN_REPEAT):
        least, _, body = value
        return _last_characters(body.data) if least >= 1 else None
    if op is re_constants.SUBPATTERN:
        return _last_characters(value[-1].data)
    if op is re_constants.BRANCH:
        found: set[str] = set()
        for branch in value[1]:
            ends = _last_characters(branch.data)
            if ends is None:
                return None
            found |= ends
        return frozenset(found)
    return None


class ParenthesisMatcher:
    """scispacy's `[{"ORTH": "("}, {"OP": "+"}, {"ORTH": ")"}]` Matcher: every "(" token
    followed, after at least one token, by a ")" token, as (key, start, end), ordered as
    spaCy's Matcher orders them (by end, then by start from the right). Parentheses with
    more than MAX_PARENTHESIS_TOKENS tokens inside are left out: scispacy's
    filter_matches skips them anyway."""

    def __init__(self, vocab: Vocab, key: str = "parenthesis") -> None:
        self.key = vocab.strings.add(key)
        self.open = numpy.uint64(vocab.strings.add("("))
        self.close = numpy.uint64(vocab.strings.add(")"))

    def __call__(self, doc: Doc) -> list[tuple[int, int, int]]:
        orth = doc.to_array(ORTH)
        opens = numpy.flatnonzero(orth == self.open).tolist()
        if not opens:
            return []
        matches: list[tuple[int, int, int]] = []
        for close in numpy.flatnonzero(orth == self.close).tolist():
            for start in reversed(opens[:bisect.bisect_left(opens, close - 1)]):
                if close - start - 1 > MAX_PARENTHESIS_TOKENS:
                    break
                matches.append((self.key, start, close + 1))
        return matches


class SequenceMatcher:
    """scispacy's global Matcher, which holds only exact token sequences
    (`[{"ORTH": w} for w in short_form]`): the same add/remove/call interface, each key's
    matches in document order."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab
        self._sequences: dict[int, list[tuple[int, ...]]] = {}

    def __len__(self) -> int:
        return len(self._sequences)

    def add(self, key: str, patterns: list[list[dict[str, Any]]]) -> None:
        sequences = self._sequences.setdefault(self.vocab.strings.add(key), [])
        for pattern in patterns:
            if not pattern or any(set(token) != {"ORTH"} for token in pattern):
                raise ValueError(f"SequenceMatcher takes exact ORTH sequences, not {pattern!r}")
            sequences.append(tuple(self.vocab.strings.add(t["ORTH"]) for t in pattern))

    def remove(self, key: str) -> None:
        del self._sequences[self.vocab.strings[key]]

    def __call__(self, doc: Doc) -> list[tuple[int, int, int]]:
        if not self._sequences:
            return []
        orth = doc.to_array(ORTH)
        matches: list[tuple[int, int, int]] = []
        for key, sequences in self._sequences.items():
            found: set[tuple[int, int]] = set()
            for sequence in sequences:
                size = len(sequence)
                first = numpy.flatnonzero(orth == numpy.uint64(sequence[0])).tolist()
                for start in first:
                    if start + size <= len(orth) and all(
                            int(orth[start + k]) == sequence[k] for k in range(1, size)):
                        found.add((start, start + size))
            matches += [(key, start, end) for start, end in sorted(found)]
        return matches


def fast_suffixes(tokenizer: Tokenizer, suffixes: Iterable[Any]) -> None:
    """Swap the tokenizer's suffix search for SuffixSearch (same matches) when it is the
    language's own rule set."""
    rules = [rule for rule in suffixes if isinstance(rule, str) and rule.strip()]
    whole = getattr(tokenizer.suffix_search, "__self__", None)
    if rules and isinstance(whole, re.Pattern) and (
            whole.pattern == compile_suffix_regex(rules).pattern):
        tokenizer.suffix_search = SuffixSearch(rules).search


def fast_matchers(detector: AbbreviationDetector) -> None:
    """Swap the detector's two Matchers for the drop-ins above (same matches)."""
    vocab = detector.matcher.vocab
    detector.matcher = ParenthesisMatcher(vocab)
    detector.global_matcher = SequenceMatcher(vocab)
