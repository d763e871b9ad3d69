"""Arms named by a label the abstract defines ('amiodarone (group I)', 'group B (ethanol
injection, n = 29)', 'group 2 received saline'): the (label, arm) pairs, read like the
abstract's other short forms, so that a sentence about 'group B' is about its arm.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_LABEL = r"[Gg]roup (?:[A-Z]|I{1,3}|IV|[1-9])"
GROUP_LABEL = re.compile(rf"{_LABEL}$")
GROUP_LABELS = re.compile(rf"\b{_LABEL}\b")
# what every label holds: a search led by a literal finds it far faster than the labels'
# patterns, which begin with \b and a class and so are tried at every position
LABEL_HINT = re.compile(r"roup [A-Z1-9]")
_LABEL_AFTER = re.compile(rf"\((?P<short>{_LABEL})[,;)]")
LONG_FORM_CHARS = 120  # how far back before '(group I)' its arm may begin
# the arm is not the group's values ('group A (10.0 ± 2.5 days)'; a dose is: 'group 1 (5%
# KNO3)'), and it ends where the next group's clause begins ('group A treated by
# endoscopy and 49 patients in group B')
_LABEL_BEFORE = re.compile(rf"\b(?P<short>{_LABEL})\s*\("
                           rf"(?P<long>(?![^(),;]*±)[^(),;]{{2,80}})[,;)]")
_LABEL_GIVEN = re.compile(rf"\b(?P<short>{_LABEL}),?\s+(?:received|receiving|(?:was |were )?"
                          rf"given|(?:was |were )?(?:treated|managed) (?:with|by)|underwent)\s+"
                          rf"(?P<long>[^,;.()]{{2,90}}?)(?=\s+(?:and|or|while|whereas)\s+"
                          rf"(?:\d|the\b|group\b|patients\b|those\b)|[,;.()]|$)")
# a group's value, not its arm: 'excellent response was observed in 98.3% (group A)'
_A_VALUE_LAST = re.compile(r"(?<![\w.-])[-+]?\d+(?:[.,]\d+)?%?$")
# where a long form before its label begins: 'randomised to A (group I) or B (group II)'
_LONG_FORM_START = re.compile(r".*(?:[,;:.]|\b(?:or|and|to|versus|vs|either|receive|received|"
                              r"receiving|with|given))\s+", re.DOTALL)


def group_labels(text: str) -> Iterable[tuple[str, str]]:
    """(label, arm) pairs the abstract defines; `expand_abbreviations` keeps a label
    for an entity whose words the arm's mostly take in."""
    if not LABEL_HINT.search(text):
        return
    for match in _LABEL_AFTER.finditer(text):
        before = text[max(0, match.start() - LONG_FORM_CHARS):match.start()]
        long_form = _LONG_FORM_START.sub("", re.split(r"[()]", before)[-1]).strip()
        if len(long_form) >= 2 and not _A_VALUE_LAST.search(long_form):
            yield match["short"], long_form
    for pattern in (_LABEL_BEFORE, _LABEL_GIVEN):
        for match in pattern.finditer(text):
            yield match["short"], match["long"].strip()
