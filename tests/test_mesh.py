"""MeSH tables (TSV and XML), the grounding tiers, and the cached linker index."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.extraction.mesh import (
    SHARED_MESH,
    MeshError,
    MeshIndex,
    MeshTable,
    normalise_term,
    uninvert,
)

FIXTURES = Path(__file__).parent / "fixtures" / "extraction"
SMALL_TSV = FIXTURES / "mesh_small.tsv"
SMALL_XML = FIXTURES / "mesh_small.xml"


@pytest.fixture(scope="module")
def mesh(tmp_path_factory: pytest.TempPathFactory) -> MeshIndex:
    cache = tmp_path_factory.mktemp("cache")
    return MeshIndex.load(SMALL_TSV, cache_dir=cache)


def test_tsv_and_xml_give_the_same_descriptors() -> None:
    tsv, xml = MeshTable.read(SMALL_TSV), MeshTable.read(SMALL_XML)
    assert xml.descriptors["D003139"].terms == ("Common Cold", "Cold, Common")
    assert tsv.descriptors["D003139"].name == xml.descriptors["D003139"].name
    assert xml.exact("Zinc") is not None and xml.exact("Zinc").ui == "D015032"


@pytest.mark.parametrize(("text", "normalised"), [
    ("Transcatheter Device Closure (TDC)", "transcatheter device closure"),
    ("long-term rate of overall lymphocyst formation", "long-term rate of overall lymphocyst "
                                                       "formation"),
    ("rate of major complications", "major complications"),
    ("Mean  consultation time", "consultation time"),
    ("weight gain at 12 months", "weight gain"),
    ("global cognitive function at the end of intervention", "global cognitive function"),
    ("Diabetes Mellitus/drug therapy", "diabetes mellitus"),
    ("non\u2010pyrethroid\u2010like spraying", "non-pyrethroid-like spraying"),
])
def test_light_normalisation(text: str, normalised: str) -> None:
    assert normalise_term(text) == normalised


def test_uninvert() -> None:
    assert uninvert("Cold, Common") == "Common Cold"
    assert uninvert("Zinc") is None


@pytest.mark.parametrize(("text", "method", "ui"), [
    ("Zinc", "exact", "D015032"),
    ("zinc", "folded", "D015032"),
    ("heart attack", "folded", "D009203"),
    ("common colds", "folded", "D003139"),
    ("the mortality rate at 30 days", "normalised", "D009026"),
    ("Stroke (CVA)", "normalised", "D020521"),
    ("risk of necrotising enterocolitis", "linker", "D020345"),  # British spelling
    ("anaemia prevalence", "linker", "D000740"),
    ("number of deaths", "linker", "D003643"),  # singular form
    ("restrictive fluid treatment", "linker", "D005440"),  # 'treatment' ~ 'therapy'
    ("risk of seizure recurrence", "linker", "D012640"),  # head word, measure word skipped
    ("Interleukin-6 (IL-6)", "normalised", "D015850"),
    ("interleukin 6 levels", "linker", "D015850"),
])
def test_grounding_tiers(mesh: MeshIndex, text: str, method: str, ui: str) -> None:
    found = mesh.ground(text)
    assert found is not None, text
    assert (found.method, found.ui) == (method, ui)


@pytest.mark.parametrize("text", [
    "insecticide-treated nets",  # 'NETs' is an acronym entry term, not the word 'nets'
    "head circumference gain",  # 'head' modifies; it is not what is measured
    "rapid ART",
    "",
])
def test_no_grounding_for_modifiers_acronyms_and_unknowns(mesh: MeshIndex, text: str) -> None:
    assert mesh.ground(text) is None


def test_the_linker_uses_scispacy_and_is_cached_on_disk(mesh: MeshIndex,
                                                       tmp_path: Path) -> None:
    assert mesh.linker is not None and mesh.linker.directory is not None
    directory = mesh.linker.directory
    assert (directory / "complete").is_file()
    before = (directory / "nmslib_index.bin").stat().st_mtime_ns
    again = MeshIndex.load(SMALL_TSV, cache_dir=directory.parent)
    assert again.linker is not None and again.linker.directory == directory
    assert (directory / "nmslib_index.bin").stat().st_mtime_ns == before
    candidates = again.linker.candidates(["myocardial infarctions"])[0]
    assert max(candidates, key=lambda c: c.score).ui == "D009203"
    linker = again.linker.entity_linker(threshold=0.8)
    assert linker.kb.cui_to_entity["D015032"].canonical_name == "Zinc"


def test_cache_location_follows_dacg_cache(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    monkeypatch.setenv("DACG_CACHE", str(tmp_path))
    index = MeshIndex.load(SMALL_XML)
    assert index.linker is not None and index.linker.directory is not None
    assert index.linker.directory.is_relative_to(tmp_path / "mesh-index")


@pytest.mark.parametrize(("content", "message"), [
    (None, "does not exist"),
    ("a\tb\n1\t2\n", "missing columns"),
    ("DescriptorUI\tDescriptorName\tTermName\n", "no MeSH descriptors"),
])
def test_bad_mesh_files_are_one_line_errors(tmp_path: Path, content: str | None,
                                            message: str) -> None:
    path = tmp_path / "mesh.tsv"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(MeshError, match=message):
        MeshTable.read(path)


def test_a_broken_xml_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "desc.xml"
    path.write_text("<DescriptorRecordSet><DescriptorRecord>", encoding="utf-8")
    with pytest.raises(MeshError):
        MeshTable.read(path)


@pytest.mark.skipif(not SHARED_MESH.is_file(), reason="../shared/data is absent")
def test_the_real_table_grounds_common_entities() -> None:
    table = MeshTable.read(SHARED_MESH)
    assert len(table.descriptors) > 30_000
    assert table.folded("myocardial infarction").ui == "D009203"
    assert table.normalised("length of hospital stay") is None
    assert table.normalised("Mortality (all-cause)").ui == "D009026"
