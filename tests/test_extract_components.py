"""The default pipeline's faster components give what spaCy's and scispacy's stock ones
give: the AbbreviationDetector's Matcher drop-ins, the array sentencizer, exact phrase
lookups, windowed lexicon patterns, and clean_text. No timings are asserted here
(benchmarks/extraction.py measures them)."""

from __future__ import annotations

import html
import re
import unicodedata
import warnings
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from spacy.language import Language
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokens import Doc

from pipeline.extraction.cli import EI_DEV
from pipeline.extraction.evaluate import read_prompts
from pipeline.extraction.extractor import RuleExtractor
from pipeline.extraction.group_labels import GROUP_LABELS, LABEL_HINT, group_labels
from pipeline.extraction.lexicon import (
    COMPARE_PHRASES,
    DEFINITION_PHRASES,
    MAX_PATTERN_TOKENS,
    NULL_PATTERNS,
    NULL_PHRASES,
    PATTERN_TRIGGERS,
    WITHIN_PATTERNS,
)
from pipeline.extraction.locate import outcome_head
from pipeline.extraction.mentions import (
    _COMMON_SHORT,
    MAX_PHRASE_TOKENS,
    DocTokens,
    Mention,
    MentionFinder,
    Terms,
    _common_abbreviations,
    _keywords,
    _longest,
    _looks_like_abbreviation,
    _variants,
    american,
    reworded,
    stem,
    stem_positions,
)
from pipeline.extraction.nlp import (
    MAX_PARENTHESIS_TOKENS,
    ParenthesisMatcher,
    SequenceMatcher,
    SuffixSearch,
    _rule_ends,
    build_nlp,
    parse,
)
from pipeline.extraction.stats import _INTERVAL, _NUMBER, _P_VALUE
from pipeline.extraction.synonyms import COMMON_ABBREVIATIONS
from pipeline.extraction.text import (
    _EI_HEADER,
    _TAG,
    _UNPRINTABLE,
    _tag_break,
    clean_text,
)
from pipeline.model import Abstract, Entity, Query

TEXTS = [
    "Low-molecular-weight heparin (LMWH) was compared with unfractionated heparin (UFH). "
    "LMWH reduced recurrent venous thromboembolism (VTE) more than UFH did; VTE occurred "
    "in 4.3% (n = 96) vs 5.1% (P = 0.20). The LMWH arm (LMWH group (n=12)) did well.",
    "Percutaneous ethanol injection (PEI) and radiofrequency ablation (RFA) were compared "
    "(( nested ( parentheses ) here )). RFA ( radio frequency ablation ) is newer! Was it "
    "better?? Yes... \"Quoted.\" 'Single.' ok (OK) . . . end",
    "The median survival time (MST) of stage II non-small cell lung cancer (NSCLC) was "
    "longer. MST (95% CI 10 to 14 months) and NSCLC-related deaths (NSCLC deaths) fell. "
    "IL-6 (interleukin 6) and IL - 6 levels, (a) (b) (c) (d) (e) (f) (g) (h) (i) (j).",
    "(Abbreviations at the start) ABC (alpha beta gamma) ... alpha beta gamma (ABG) and "
    "ABG and A.B.G. were seen。Then ！ more text ？ and 。",
]


@pytest.fixture(scope="module")
def stock() -> Language:
    return build_nlp(stock=True)


@pytest.fixture(scope="module")
def fast() -> Language:
    return build_nlp()


@pytest.mark.parametrize("build", [build_nlp, lambda: build_nlp(stock=True)])
def test_a_unit_or_a_capital_letter_ends_its_sentence(build: Any) -> None:
    doc = parse(build(), "Infants weighing 2500 g. After 90 d. Three, e.g. one i.e. two in "
                "group B. Vitamin D. E. coli and U.S. data.")
    assert [s.text for s in doc.sents] == [
        "Infants weighing 2500 g.", "After 90 d.", "Three, e.g. one i.e. two in group B.",
        "Vitamin D.", "E. coli and U.S. data."]


def _abbreviations(doc: Doc) -> list[tuple[int, int, str, int, int, str]]:
    return [(s.start, s.end, s.text, s._.long_form.start, s._.long_form.end,
             s._.long_form.text) for s in doc._.abbreviations]


def test_default_pipeline_keeps_scispacy_detector(fast: Language) -> None:
    detector = fast.get_pipe("abbreviation_detector")
    assert type(detector).__module__ == "scispacy.abbreviation"
    assert isinstance(detector.matcher, ParenthesisMatcher)
    assert isinstance(detector.global_matcher, SequenceMatcher)
    assert fast.pipe_names == ["dacg_letter_stops", "sentencizer", "abbreviation_detector"]


@pytest.mark.parametrize("text", TEXTS)
def test_abbreviations_and_sentences_match_stock_pipeline(stock: Language, fast: Language,
                                                          text: str) -> None:
    # Both detectors run on the same Doc: scispacy keeps each long form's short forms in
    # a set of Spans, whose order depends on the Doc's hash.
    doc = stock.get_pipe("sentencizer")(stock.make_doc(text))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*\[W036\].*")
        before = _abbreviations(stock.get_pipe("abbreviation_detector")(doc))
    doc._.abbreviations = []
    after = _abbreviations(fast.get_pipe("abbreviation_detector")(doc))
    assert before == after
    assert before  # the texts define abbreviations
    fast_doc = fast(text)
    assert [s.start for s in fast_doc.sents] == [s.start for s in doc.sents]


def test_a_larger_tokenizer_cache_gives_the_same_tokens() -> None:
    # spaCy caches a chunk's tokens unless a special case ('e.g.', 'D.', ':)') came
    # earlier in the doc: the second pass reads the chunks the first one cached.
    small, large = build_nlp(stock=True).tokenizer, build_nlp().tokenizer
    small.max_cache_size = 3
    assert large.max_cache_size >= 100_000
    assert isinstance(large.suffix_search.__self__, SuffixSearch)
    assert not isinstance(small.suffix_search.__self__, SuffixSearch)
    texts = [*TEXTS, "Vitamin D. e.g. (i.e. n=3) vs. :) 5 mg/d, p<0.05), IL-6's level."]
    for text in [*texts, *texts]:
        assert [t.text for t in small(text)] == [t.text for t in large(text)]


_TOKENS = st.lists(st.sampled_from(["(", ")", "x", "AB", "(", ")", "."]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(_TOKENS)
def test_parenthesis_matcher_is_the_scispacy_matcher(stock: Language,
                                                     words: list[str]) -> None:
    matcher = Matcher(stock.vocab)
    matcher.add("parenthesis", [[{"ORTH": "("}, {"OP": "+"}, {"ORTH": ")"}]])
    doc = Doc(stock.vocab, words=words)
    expected = [m for m in matcher(doc) if m[2] - m[1] - 2 <= MAX_PARENTHESIS_TOKENS]
    assert ParenthesisMatcher(stock.vocab)(doc) == expected


@settings(max_examples=200, deadline=None)
@given(_TOKENS, st.lists(st.lists(st.sampled_from(["x", "AB", "(", "."]), min_size=1,
                                  max_size=3), min_size=1, max_size=3))
def test_sequence_matcher_is_a_matcher_per_key(stock: Language, words: list[str],
                                               sequences: list[list[str]]) -> None:
    doc = Doc(stock.vocab, words=words)
    spacy_matcher, ours = Matcher(stock.vocab), SequenceMatcher(stock.vocab)
    for i, sequence in enumerate(sequences):
        pattern = [[{"ORTH": w} for w in sequence]]
        spacy_matcher.add(f"key{i}", pattern)
        ours.add(f"key{i}", pattern)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*\[W036\].*")
        expected = spacy_matcher(doc)
    got = ours(doc)
    for i in range(len(sequences)):  # scispacy reads each key's matches in order
        key = stock.vocab.strings[f"key{i}"]
        assert [m for m in got if m[0] == key] == [m for m in expected if m[0] == key]
    for i in range(len(sequences)):
        ours.remove(f"key{i}")
    assert ours(doc) == [] and len(ours) == 0


def test_exact_lookup_is_the_phrase_matcher(fast: Language) -> None:
    finder = MentionFinder(fast)
    doc = fast(TEXTS[0] + " " + TEXTS[2])
    entity = Entity.from_name("low-molecular-weight heparin (LMWH)",
                              aliases=("VTE", "venous thromboembolism", "NSCLC", "IL-6"))
    terms = Terms.of(entity, ["unfractionated heparin", "UFH", "MST", "median survival"])
    lower = PhraseMatcher(fast.vocab, attr="LOWER")
    cased = PhraseMatcher(fast.vocab, attr="ORTH")
    for phrase in terms.phrases:
        pattern = fast.make_doc(phrase)
        if 0 < len(pattern) <= 3 * MAX_PHRASE_TOKENS:
            (cased if _looks_like_abbreviation(phrase) else lower).add("T", [pattern])
    expected = _longest([Mention(s, e, 1.0) for _, s, e in (*lower(doc), *cased(doc))])
    assert len(expected) >= 6
    assert finder.exact(DocTokens(doc), terms) == expected
    assert finder.exact(doc, terms) == expected


@pytest.mark.parametrize("pattern", [*NULL_PATTERNS, *WITHIN_PATTERNS])
def test_windowed_patterns_fit_the_window(pattern: list[dict[str, Any]]) -> None:
    # Lexicon.patterns_in runs the Matcher from one token before the first trigger word to
    # MAX_PATTERN_TOKENS after the last: every pattern must start at or just before a
    # trigger and have no repeat operator that could make it longer.
    assert all(token.get("OP", "?") == "?" for token in pattern)
    assert len(pattern) <= MAX_PATTERN_TOKENS

    def trigger(token: dict[str, Any]) -> bool:
        lower = token.get("LOWER")
        words = set(lower["IN"]) if isinstance(lower, dict) else {lower}
        return "OP" not in token and lower is not None and words <= PATTERN_TRIGGERS

    assert trigger(pattern[0]) or (trigger(pattern[1]) and "OP" not in pattern[0])


def test_lexicon_patterns_in_a_window_match_the_whole_sentence() -> None:
    extractor = RuleExtractor()
    text = ("There was no statistically significant between-group difference in pain. "
            "Pain did not significantly differ and was similar in both treatment groups, "
            "and within - group changes were seen in all three groups; they were equally "
            "effective. Neither arm showed any effect on nausea.")
    doc = extractor.nlp(text)
    words = [t.lower_ for t in doc]
    matched = 0
    for sentence in doc.sents:
        assert any(words[i] in PATTERN_TRIGGERS for i in range(sentence.start, sentence.end))
        whole: dict[str, list[tuple[int, int]]] = {k: [] for k in extractor.lexicon.LABELS}
        for match in extractor.lexicon.patterns(sentence, as_spans=True):
            whole[match.label_].append((match.start, match.end))
        assert extractor.lexicon.patterns_in(sentence, words) == whole
        matched += sum(map(len, whole.values()))
    assert matched >= 5


@pytest.mark.parametrize("raw", [
    "A\u2013B \u2212 C\u00a0D\u2014E \u2010 F\u2011G\u2012H", "plain ascii  text\n\ttitle",
    "caf\u00e9 \ufb01rst\t\t line \r\n second\u3000line", "<p>x &amp; y</p>no stop",
])
def test_clean_text_folds_dashes_and_spaces(raw: str) -> None:
    text = clean_text(raw)
    assert not any(ch in text for ch in "\u2010\u2011\u2012\u2013\u2014\u2212\u00a0\t")
    assert "  " not in text


def test_group_labels_are_read_in_three_forms() -> None:
    text = ("Patients were randomized to receive amiodarone 5 mg/kg (group I) or normal saline "
            "(group II, control). Group B (ethanol injection, n = 29). Group 2 received "
            "placebo tablets daily.")
    assert list(group_labels(text)) == [
        ("group I", "amiodarone 5 mg/kg"), ("group II", "normal saline"),
        ("Group B", "ethanol injection"), ("Group 2", "placebo tablets daily")]


def test_every_group_label_holds_the_hint() -> None:
    """group_labels and the other arm's label are looked for only in texts LABEL_HINT
    finds in."""
    for label in ("group A", "Group K", "group I", "group III", "Group IV", "group 9"):
        assert GROUP_LABELS.fullmatch(label) and LABEL_HINT.search(label)
    assert not LABEL_HINT.search("the groups, group a, group 0, subgroup x")


def test_common_short_forms_are_found_as_whole_words() -> None:
    """_common_abbreviations looks its short forms up among the text's word runs: the
    whole-word matches of their alternation, as each is word characters only."""
    assert all(re.fullmatch(r"\w+", short) for short, _ in COMMON_ABBREVIATIONS)
    for text in ("CRP and LDL-C fell; HbA1c (not eGFRs) at the ICU.", "BMI-adjusted BP, MI",
                 "SBP/DBP and 6MWD; QoLs, xCRP, CRP1 and LOS_ICU", "no abbreviation"):
        used = {short for short, _ in _common_abbreviations(text)}
        assert used == set(_COMMON_SHORT.findall(text))


def test_a_group_label_names_its_arm_up_to_the_next_group() -> None:
    """'treated by' gives the arm as 'received' does, and it ends where the next group's
    clause begins; a label's values in parentheses are not its arm, a dose is."""
    text = ("57 patients in group A treated by endoscopy and 49 patients in group B treated by "
            "conventional therapy. Healing took 10.0 days in group C (10.0 ± 2.5 days) and "
            "less in group 1 (5% KNO3).")
    assert list(group_labels(text)) == [("group 1", "5% KNO3"), ("group A", "endoscopy"),
                                         ("group B", "conventional therapy")]


def test_group_labels_take_any_initial_a_long_arm_and_no_values() -> None:
    """'Group K' (ketamine) is a label as 'group A' is; an arm given after 'were treated
    with' may run past 60 characters (this one has 82); a value before a label ('98.3%
    (group A)', 'response was observed in 88.3% (group A)') is the group's result, not
    its arm."""
    arm = "a new technique using a flexible ureteroscope through the outer sheath of a sheath"
    text = (f"Group K received ketamine. Patients in Group 1 were treated with {arm} and "
            "patients in Group 2 were treated with open surgery. Lesions fell by 95.1% "
            "(group A); clearance was observed in 88.3% (group B) and in 10 (group C).")
    assert len(arm) == 82
    assert list(group_labels(text)) == [("Group K", "ketamine"), ("Group 1", arm),
                                         ("Group 2", "open surgery")]


def test_a_label_whose_arm_the_entity_covers_is_the_entitys_when_it_is_the_only_one(
        fast: Language) -> None:
    """A review's 'endoscopic debridement' takes in the trial's 'group A (endoscopy)' (it
    covers half of the name, below the 0.75 a label's arm must cover); when the arms of
    two labels are both inside the name (the parts of a combined arm), neither is taken."""
    finder = MentionFinder(fast)
    entity = Terms.of(Entity.from_name("endoscopic debridement"))
    one = finder.expand_abbreviations([("group A", "endoscopy"), ("group B", "surgery")], entity)
    assert "group A" in one.phrases and "group B" not in one.phrases
    combined = Terms.of(Entity.from_name("diode laser plus potassium nitrate"))
    both = finder.expand_abbreviations([("group 2", "diode laser"),
                                        ("group 3", "potassium nitrate")], combined)
    assert not {"group 2", "group 3"} & set(both.phrases)


def test_clean_text_keeps_comparisons_and_removes_tags() -> None:
    # 'P < 0.05 ... (P > 0.05)' within 200 characters once read as one tag and was cut
    kept = "Pain fell (P < 0.05), but stay did not differ (P > 0.05)."
    assert clean_text(kept) == kept
    assert clean_text("<p>HbA<sub>1c</sub> fell (P<0.01)</p><br/>") == "HbA1c fell (P<0.01)."


def test_an_em_dash_sets_a_phrase_apart() -> None:
    # a dash, not a hyphen: '(RFS)\u2014but' was one token, hiding 'but not' and '(RFS)'
    assert clean_text("survival (RFS)\u2014but not OS\u2014was longer") == (
        "survival (RFS) - but not OS - was longer.")


def test_clean_text_keeps_words_apart_across_tabs() -> None:
    assert clean_text("mean\tSD\x0bvalue\x00s\r\nnext") == "mean SD values. next."


def _plain_clean_text(raw: str) -> str:
    """clean_text written plainly: NFKC always, str.translate, blanks collapsed per line."""
    text = raw[:100_000]
    if "<" in text:
        text = _TAG.sub(_tag_break, text)
    if "&" in text:
        text = html.unescape(text)
    text = _EI_HEADER.sub(lambda m: f"{m['section']}: " if m["section"] else "", text)
    text = unicodedata.normalize("NFKC", text).translate(str.maketrans(
        {"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": " - ",
         "\u2015": " - ", "\u2212": "-", "\u00a0": " "}))
    text = _UNPRINTABLE.sub("", text)
    lines = []
    for line in text.split("\n"):
        line = re.sub(r"[ \t\r\f\v]+", " ", line).strip()
        if line:
            lines.append(line if line[-1] in ".!?:;" else line + ".")
    return " ".join(lines)[:50_000]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(list(" \t\r\f\v\n\u00a0\u2013\u2014\u3000\ufb01a.<>&;")
                                + ["&amp;", "<p>", "TITLE:", "ABSTRACT.AIMS:"]),
                max_size=40).map("".join))
def test_clean_text_is_the_plain_definition(raw: str) -> None:
    assert clean_text(raw) == _plain_clean_text(raw)


def test_extractor_reuses_word_strings() -> None:
    extractor = RuleExtractor()
    abstract = Abstract("1", "", "Zinc reduced the duration of the common cold (P = 0.01).")
    query_entities = (Entity.from_name("zinc"), Entity.from_name("common cold duration"))
    first = extractor.extract(abstract, Query(*query_entities))
    second = extractor.extract(abstract, Query(*query_entities))
    assert first == second and first and first[0].polarity == -1


# The statistics patterns as first written: case-insensitive throughout, each branch
# opening with its lookbehind (stats.py spells them so that re can skip ahead).
_PLAIN_P_VALUE = re.compile(
    r"(?<![a-z])p\s*(?:-?\s*values?)?\s*(?:for\s+\w+\s*)?(?P<op>[=<>≤≥]=?|<\s*or\s*=|was|of)\s*"
    rf"(?P<value>{_NUMBER})(?:\s*[x×]\s*10\s*\^?\s*(?P<exp>[-+]?\d+))?"
    r"|(?<![a-z])(?P<ns>n\.?\s?s\.?)(?![a-z])", re.IGNORECASE)
_PLAIN_INTERVAL = re.compile(
    r"(?:\d{2}\s*%\s*(?:CI|CrI|confidence\s+interval|credible\s+interval)|\bCI\b)"
    rf"[^\d+.-]{{0,12}}(?P<low>{_NUMBER})\s*%?\s*(?:-|to|,)\s*(?P<high>{_NUMBER})", re.IGNORECASE)
_STAT_PIECES = st.sampled_from([
    "p", "P", "n", "N", "s", "S", ".", " ", "  ", "=", "<", ">", "≤", "≥", "<=", "-", ",", "%",
    "0", "05", "0.05", "1", "95", "95%", "0·2", "×", "x", "10", "^", "-3", "+", "value",
    "values", "for", "age", "was", "of", "or", "to", "CI", "ci", "CrI", "confidence",
    "interval", "credible", "İ", "ı", "ſ", "K", "a", "Z", "١٢", "(", ")", "\n", "ns", "NS",
    "n.s.", "OR", "HR", "mean difference"])


def _statistics_found(text: str) -> tuple[list[Any], list[Any]]:
    return ([(m.span(), m["op"], m["value"], m["exp"], m["ns"] is not None)
             for m in _P_VALUE.finditer(text)],
            [(m.span(), m["low"], m["high"]) for m in _INTERVAL.finditer(text)])


def _plain_statistics_found(text: str) -> tuple[list[Any], list[Any]]:
    return ([(m.span(), m["op"], m["value"], m["exp"], m["ns"] is not None)
             for m in _PLAIN_P_VALUE.finditer(text)],
            [(m.span(), m["low"], m["high"]) for m in _PLAIN_INTERVAL.finditer(text)])


@settings(max_examples=2000, deadline=None)
@given(st.lists(_STAT_PIECES, max_size=30).map("".join))
@example("١٢% CI 0.5 to 2 (P n.s.; p-value for age < 0.01; pn = 3)")
def test_statistics_patterns_are_the_plain_patterns(text: str) -> None:
    assert _statistics_found(text) == _plain_statistics_found(text)


def test_statistics_patterns_are_the_plain_patterns_on_real_abstracts() -> None:
    if not EI_DEV.is_file():
        pytest.skip("../shared/data is absent")
    texts = {prompt.abstract for prompt in read_prompts(EI_DEV)}
    found = [_statistics_found(text) for text in texts]
    assert found == [_plain_statistics_found(text) for text in texts]
    assert sum(len(p) + len(i) for p, i in found) > 1000  # the abstracts report many


_SUFFIX_PIECES = st.sampled_from([
    "a", "Z", "1", "42", ".", "..", "...", ",", ":", ";", "!", "?", "'", "'s", "’s", "'S",
    "n't", '"', ")", "]", "}", "(", "%", "°", "°C", "°F", "km", "mg", "kg", "ml", "g", "h",
    "$", "€", "£", "+", "-", "–", "—", "/", "…", "。", "·", "‰", "x", "’", "”", "»", "\n",
    " ", "é", "ß", "İ", "١٢"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(_SUFFIX_PIECES, max_size=8).map("".join))
def test_suffix_search_is_the_suffix_regex(fast: Language, text: str) -> None:
    search = fast.tokenizer.suffix_search
    assert isinstance(search.__self__, SuffixSearch)
    found, expected = search(text), search.__self__.whole.search(text)
    assert (found and found.span()) == (expected and expected.span())


def test_suffix_search_is_the_suffix_regex_on_real_words(fast: Language) -> None:
    if not EI_DEV.is_file():
        pytest.skip("../shared/data is absent")
    search = fast.tokenizer.suffix_search
    words = {w for prompt in read_prompts(EI_DEV) for w in prompt.abstract.split()}
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    found = [(m and m.span()) for m in map(search, prefixes)]
    assert found == [(m and m.span()) for m in map(search.__self__.whole.search, prefixes)]
    assert sum(1 for span in found if span) > 5_000


_RULES = ["[a-c]", "x?", "(ab)", "q|rs", "(?:q|rs)", "(?<=1)z", r"\d+", "(?:y(?:zz|c))",
          "[^a]b", "é+"]


@pytest.mark.parametrize(("rule", "ends"), [
    ("[a-c]", {"a", "b", "c"}), ("(?:ab)", {"b"}), ("(?:q|rs)", {"q", "s"}),
    ("(?<=1)z", {"z"}), ("(?:y(?:zz|c))", {"z", "c"}), ("é+", {"é"}), ("x?", None),
    (r"\d+", None), ("[^a]b", {"b"}), ("a(?=b)", None),
    ("(ab)", {"b"}), ("q|rs", None),  # unanchored "q": it matches anywhere
    ("b\\", None)])  # "b\\$" is the text "b$", anywhere
def test_characters_a_rule_ends_with(rule: str, ends: set[str] | None) -> None:
    assert _rule_ends(rule) == (frozenset(ends) if ends is not None else None)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(list("abcxqrsyz1é\n")), max_size=8).map("".join))
def test_suffix_search_of_any_rules_is_their_regex(text: str) -> None:
    search = SuffixSearch(_RULES)
    found, expected = search.search(text), search.whole.search(text)
    assert (found and found.span()) == (expected and expected.span())


def test_no_lexicon_phrase_crosses_a_sentence_end(fast: Language) -> None:
    # Lexicon.phrases_in runs per sentence; a phrase holding a sentence-final mark before
    # its last token could start in one sentence and end in the next.
    marks = set(fast.get_pipe("sentencizer").punct_chars)
    for phrase in (*NULL_PHRASES, *COMPARE_PHRASES, *DEFINITION_PHRASES):
        assert not marks & {t.text for t in fast.make_doc(phrase)[:-1]}, phrase
    extractor = RuleExtractor(nlp=fast)
    doc = fast("Pain was similar. There was no significant difference in pain (n.s.). "
               "Compared with placebo, it was not different.")
    whole = extractor.lexicon.phrases_in(doc)
    for sentence in doc.sents:
        found = extractor.lexicon.phrases_in(sentence)
        assert found == {label: [s for s in spans if sentence.start <= s[0] < sentence.end]
                         for label, spans in whole.items()}
    assert sum(map(len, whole.values())) == 6


@pytest.mark.parametrize(("name", "keywords"), [
    # the tokenizer splits at hyphens, so the keywords do too; a lone letter ('C') and a
    # linking word ('related') name nothing; amounts ('6', 'five') and measure words
    # weigh 0.25; an analyte with digits ('A1C') is a name and weighs 1
    ("LDL-C at 6-month", {"ldl": 1.0, "6": 0.25, "month": 0.25}),
    ("SARS-CoV-2-related mortality", {"sars": 1.0, "cov": 1.0, "2": 0.25, "death": 1.0}),
    ("risk of cholera at five-year follow-up",
     {"risk": 0.25, "choler": 1.0, "five": 0.25, "year": 0.25, "follow": 0.25}),
    ("A1C level", {"a1c": 1.0, "level": 0.25}),
    ("in-hospital mortality", {"hospit": 1.0, "death": 1.0}),
])
def test_outcome_keywords_and_their_weights(name: str, keywords: dict[str, float]) -> None:
    assert Terms.of(Entity.from_name(name)).keywords == (keywords,)


@pytest.mark.parametrize(("name", "head"), [
    ("retention in care at 12 months", "retention in care"),
    ("weight by 30 days of age", "weight"),
    ("tear volume for murine experimental dry eye", "tear volume"),
    ("risk of necrotising enterocolitis (NEC)", "risk of necrotising enterocolitis"),
    ("speed of processing at the end of intervention", "speed of processing"),
    ("pain", None),  # nothing to cut
    ("time to first relapse", None),  # 'to' joins the name, it qualifies nothing
    ("(NEC) risk", None),  # never cut down to nothing
])
def test_an_outcome_head_drops_the_qualifier_the_question_adds(name: str,
                                                               head: str | None) -> None:
    assert outcome_head(name) == head


@pytest.mark.parametrize(("name", "variants"), [
    ("percutaneous ethanol injection (PEI)",
     ["percutaneous ethanol injection (PEI)", "percutaneous ethanol injection", "PEI"]),
    # a capitalised name of two or three words in brackets is the measure's own
    ("functional autonomy (Barthel index)",
     ["functional autonomy (Barthel index)", "functional autonomy", "Barthel index"]),
    # not a time or a qualifier
    ("death (at 6 months)", ["death (at 6 months)", "death"]),
    # an arm's label is the abstract's name for the arm ('reduced in group A compared
    # with group B')
    ("irsogladine (Group I)", ["irsogladine (Group I)", "irsogladine", "Group I"]),
    ("endoscopy group (group A; n = 57)",
     ["endoscopy group (group A; n = 57)", "endoscopy group", "group A"]),
    ("pain (Visual analogue scale score)",
     ["pain (Visual analogue scale score)", "pain"]),  # four words: a description
])
def test_name_variants(name: str, variants: list[str]) -> None:
    assert _variants(name) == variants


@pytest.mark.parametrize(("british", "american_form"), [
    ("oedema", "edema"), ("tumour", "tumor"), ("anaemia", "anemia"),
    ("haemorrhage", "hemorrhage"), ("caesarean", "cesarean"), ("anaesthesia", "anesthesia"),
    ("paediatric", "pediatric"), ("oesophageal", "esophageal"), ("foetal", "fetal"),
    ("diarrhoea", "diarrhea"), ("dyspnoea", "dyspnea"), ("labour", "labor"),
    ("centre", "center"), ("analysed", "analyzed"), ("hypoglycaemia", "hypoglycemia"),
    # short words and words that only look British stay as they are
    ("hour", "hour"), ("four", "four"), ("your", "your"), ("aerobic", "aerobic"),
    ("more", "more"), ("before", "before"),
])
def test_british_spellings_become_american(british: str, american_form: str) -> None:
    assert american(british) == american_form
    assert stem(british) == stem(american_form)


def test_plural_british_spellings_meet_the_american_singular() -> None:
    assert stem("tumours") == stem("tumor") == "tumor"
    assert stem("hours") != stem("hors")


def test_short_form_stands_for_the_part_of_an_outcome_it_names(fast: Language) -> None:
    """'allogenic blood transfusions (ABTs)' names part of 'rate of postoperative
    allogeneic blood transfusion': a keyword set with 'ABTs' in that part's place, weighing
    what it replaces (by hand: allogeneic 1 + blood 0.25 + transfusion 1 = 2.25)."""
    entity = Entity.from_name("rate of postoperative allogeneic blood transfusion")
    terms = MentionFinder(fast).expand_abbreviations(
        [("ABTs", "allogenic blood transfusions")], Terms.of(entity))
    assert {"rate": 0.25, "postop": 1.0, "abts": 2.25} in terms.keywords
    # a long form that is the whole outcome adds the short form as a phrase instead
    whole = MentionFinder(fast).expand_abbreviations(
        [("ABT", "allogeneic blood transfusion")],
        Terms.of(Entity.from_name("allogeneic blood transfusion")))
    assert "ABT" in whole.phrases and len(whole.keywords) == 1
    # one that names something the outcome does not hold adds nothing
    other = MentionFinder(fast).expand_abbreviations(
        [("WSB", "washed shed blood")], Terms.of(entity))
    assert other.keywords == Terms.of(entity).keywords


def test_an_outcome_named_by_a_common_abbreviation_is_also_reworded() -> None:
    """A review's 'LVEF at 12 weeks' meets an abstract that only writes 'left ventricular
    ejection fraction'; 'PaO2' has two long forms; a name without one is left alone."""
    terms = reworded(Terms.of(Entity.from_name("LVEF at 12 weeks")))
    assert "left ventricular ejection fraction at 12 weeks" in terms.phrases
    assert {"left": 1.0, "ventri": 1.0, "ejecti": 1.0, "fracti": 1.0, "12": 0.25,
            "week": 0.25} in terms.keywords
    oxygen = reworded(Terms.of(Entity.from_name("PaO2")))
    assert {"arterial partial pressure of oxygen", "arterial oxygen tension"} <= set(
        oxygen.phrases)
    plain = Terms.of(Entity.from_name("pain intensity"))
    assert reworded(plain) == plain
    # a short form inside a longer word is no abbreviation ('TGF' is not 'TG')
    assert reworded(Terms.of(Entity.from_name("TGF-beta"))).phrases == ("TGF-beta",)


def test_an_outcome_named_the_review_way_is_also_looked_for_the_trial_way() -> None:
    """'serious adverse events' is what an abstract may call 'severe side effects', and
    back; 'adrenaline' is 'epinephrine'; each variant keeps the rest of the name."""
    terms = reworded(Terms.of(Entity.from_name("Serious adverse events at 6 months")))
    assert "severe side effects at 6 months" in terms.phrases
    back = reworded(Terms.of(Entity.from_name("side effects")))
    assert {"adverse effects", "adverse events"} <= set(back.phrases)
    assert "plasma epinephrine" in reworded(Terms.of(Entity.from_name("plasma adrenaline"))).phrases


def test_a_prefix_compound_meets_itself_hyphenated_or_whole() -> None:
    """'post-extubation' (split by the tokenizer) also counts as 'postextubation' at its
    first token, and a question's 'anti-arrhythmic' keyword is the whole word; 'non'
    stays apart ('non apoptotic' is often written as two words)."""
    words = ["no", "post", "-", "extubation", "stridor"]
    positions = stem_positions([stem(w) for w in words], words)
    assert positions[stem("postextubation")] == [1]
    assert positions["post"] == [1] and positions["extuba"] == [3]
    assert _keywords("anti-arrhythmic drugs") == {stem("antiarrhythmic"): 1.0, "drug": 1.0}
    assert stem("antiarrhythmic") in _keywords("antiarrhythmic drugs")
    assert "apopto" in _keywords("non-apoptotic cells")
