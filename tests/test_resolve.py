"""Entity resolution: stable ids (MeSH UI when grounded, else the normalised name),
abbreviation expansion, and query resolution shared with the extractor."""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest

from pipeline.extraction.extractor import RuleExtractor, default_extractor
from pipeline.extraction.mesh import MeshIndex
from pipeline.extraction.nlp import ModelUnavailable, build_nlp
from pipeline.extraction.resolve import EntityResolver
from pipeline.model import _CONTROL, Abstract, Entity, InvalidEvidence, Polarity, Query

SMALL_TSV = Path(__file__).parent / "fixtures" / "extraction" / "mesh_small.tsv"


@pytest.fixture(scope="module")
def mesh(tmp_path_factory: pytest.TempPathFactory) -> MeshIndex:
    return MeshIndex.load(SMALL_TSV, cache_dir=tmp_path_factory.mktemp("cache"))


def test_without_mesh_the_id_is_the_normalised_name() -> None:
    entity = EntityResolver().resolve("  Common  COLD ")
    assert entity == Entity("common cold", "Common  COLD", grounded=False)


def test_grounded_names_share_the_descriptor_ui(mesh: MeshIndex) -> None:
    resolver = EntityResolver(mesh)
    attack, infarction = resolver.resolve("heart attack"), resolver.resolve(
        "Myocardial infarction")
    assert attack.id == infarction.id == "D009203"
    assert attack.grounded and attack.name == "heart attack"
    assert resolver.resolve("heart attack") is attack  # remembered


def test_unknown_names_stay_surface_forms(mesh: MeshIndex) -> None:
    entity = EntityResolver(mesh).resolve("Transcatheter Device Closure (TDC)")
    assert entity == Entity("transcatheter device closure (tdc)",
                            "Transcatheter Device Closure (TDC)")


def test_abbreviations_are_expanded_before_grounding(mesh: MeshIndex) -> None:
    resolver = EntityResolver(mesh, {"MI": "myocardial infarction"})
    assert resolver.resolve("MI").id == "D009203"
    assert "myocardial infarction" in resolver.aliases(Entity("mi", "MI"))


def test_aliases_of_a_grounded_entity_are_its_entry_terms(mesh: MeshIndex) -> None:
    resolver = EntityResolver(mesh)
    aliases = list(resolver.aliases(resolver.resolve("heart attack")))
    assert "Myocardial Infarction" in aliases and "Heart Attacks" in aliases
    assert not any("," in a for a in aliases)  # inverted forms never occur in text


def test_resolve_query_grounds_once_and_keeps_the_rest(mesh: MeshIndex) -> None:
    resolver = EntityResolver(mesh)
    kept = Entity("D015032", "zinc", grounded=True)
    query = Query(kept, Entity.from_name("heart attack"), None, Polarity.DECREASES,
                  {"k": "v"})
    resolved = resolver.resolve_query(query)
    assert resolved.intervention is kept
    assert resolved.outcome.id == "D009203"
    assert (resolved.comparator, resolved.direction, resolved.constraints) == (
        None, Polarity.DECREASES, {"k": "v"})


@pytest.mark.parametrize("name", ["", "   ", "x" * 301, "bad\x00name", "tab\tname",
                                  "c1\x85control"])
def test_unusable_names_are_rejected(name: str) -> None:
    with pytest.raises(InvalidEvidence):
        EntityResolver().resolve(name)


def test_control_characters_are_unicode_category_cc() -> None:
    assert [c for c in map(chr, range(sys.maxunicode + 1))
            if bool(_CONTROL.match(c)) != (unicodedata.category(c) == "Cc")] == []


def test_the_extractor_matches_a_grounded_entity_by_its_synonyms(mesh: MeshIndex) -> None:
    resolver = EntityResolver(mesh)
    query = resolver.resolve_query(Query(Entity.from_name("aspirin"),
                                         Entity.from_name("heart attack")))
    text = ("Acetylsalicylic acid lowered the incidence of myocardial infarction compared "
            "with placebo (RR 0.70, 95% CI 0.58 to 0.85).")
    rows = default_extractor(mesh).extract(Abstract("99", "", text), query)
    assert [(r.head.id, r.tail.id, int(r.polarity)) for r in rows] == [
        ("D001241", "D009203", -1)]


def test_a_pipeline_with_entities_links_discovered_mediators(mesh: MeshIndex) -> None:
    nlp = build_nlp()
    nlp.add_pipe("entity_ruler", before="abbreviation_detector").add_patterns(
        [{"label": "CHEMICAL", "pattern": "interleukin-6"}])
    extractor = RuleExtractor(nlp=nlp, resolver=EntityResolver(mesh))
    query = Query(Entity.from_name("zinc"), Entity.from_name("common cold duration"))
    text = ("Zinc shortened common cold duration (P = 0.01). Zinc also reduced serum "
            "interleukin-6 levels (P = 0.003).")
    rows = extractor.extract(Abstract("8", "", text), query)
    mediators = [(r.tail.id, r.tail.name, int(r.polarity)) for r in rows
                 if r.tail.id != query.outcome.id]
    assert mediators == [("D015850", "interleukin-6", -1)]


def test_the_spacy_model_is_chosen_by_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DACG_SPACY_MODEL", "en_core_sci_not_installed")
    with pytest.raises(ModelUnavailable, match="DACG_SPACY_MODEL"):
        default_extractor()


def test_the_callers_aliases_are_surface_forms_of_the_entity(mesh: MeshIndex) -> None:
    resolver = EntityResolver(mesh)
    pessary = Entity.from_name("cervical pessary", aliases=("Arabin pessary",))
    query = resolver.resolve_query(Query(pessary, Entity.from_name(
        "heart attack", aliases=("MI",))))
    assert query.intervention.aliases == ("Arabin pessary",)
    assert (query.outcome.id, query.outcome.aliases) == ("D009203", ("MI",))
    text = "Arabin pessary did not reduce MI compared with expectant management (P = 0.6)."
    rows = RuleExtractor(resolver=resolver).extract(Abstract("3", "", text), query)
    assert [(r.head.id, r.tail.id, int(r.polarity)) for r in rows] == [
        ("cervical pessary", "D009203", 0)]


def test_an_alias_that_grounds_grounds_the_entity(mesh: MeshIndex) -> None:
    entity = EntityResolver(mesh).resolve("ASA", aliases=("acetylsalicylic acid",))
    assert (entity.id, entity.grounded) == ("D001241", True)
