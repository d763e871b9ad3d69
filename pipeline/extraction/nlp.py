"""The spaCy pipeline the extractor reads with, chosen by configuration.

The default needs no trained model: a blank English tokenizer, rule-based sentence
splitting and scispacy's AbbreviationDetector, so it runs offline anywhere. When a model
such as en_core_sci_sm is installed and named (argument or DACG_SPACY_MODEL), its parser
and NER are used as well; the blank pipeline stays the tested default.
"""

from __future__ import annotations

import os
import warnings

import scispacy.abbreviation  # noqa: F401  (registers the "abbreviation_detector" factory)
import spacy
from spacy.language import Language
from spacy.tokens import Doc

MODEL_ENV = "DACG_SPACY_MODEL"
MAX_DOC_CHARS = 100_000



class ModelUnavailable(RuntimeError):
    """A configured spaCy model that is not installed; the message says how to get it."""


def configured_model() -> str | None:
    """The spaCy model named by $DACG_SPACY_MODEL (None: the blank default)."""
    return os.environ.get(MODEL_ENV) or None


def build_nlp(model: str | None = None) -> Language:
    """Blank English + sentencizer + abbreviations, or the named installed model."""
    if model:
        try:
            nlp = spacy.load(model)
        except OSError:
            raise ModelUnavailable(
                f"spaCy model {model!r} is not installed (pip install it, or unset "
                f"{MODEL_ENV} to use the blank pipeline)") from None
        if not (nlp.has_pipe("parser") or nlp.has_pipe("senter")):
            nlp.add_pipe("sentencizer", first=True)
    else:
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
    nlp.add_pipe("abbreviation_detector")
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
