"""The literature simulator: determinism, the benchmark's splits, publication-bias
statistics, text that reads like an abstract, and the source interface."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.model import Abstract, Entity, Label, Query
from pipeline.retrieval.source import EmptyResult, SearchConstraints
from pipeline.simulation.benchmark import (
    PAPER_SIZES,
    build_benchmark,
    load_benchmark,
    write_benchmark,
)
from pipeline.simulation.literature import SimulatedLiterature
from pipeline.simulation.vocabulary import SimulationError
from pipeline.simulation.world import SimConfig, SimQuery, plan_query

ROOT = Path(__file__).resolve().parents[1]
SMALL = (30, 10, 20)


@pytest.fixture(scope="module")
def benchmark() -> list[SimQuery]:
    return build_benchmark(seed=0)


def test_paper_scale_splits(benchmark: list[SimQuery]) -> None:
    counts = Counter((q.split, q.label) for q in benchmark)
    assert [sum(q.split == s for q in benchmark) for s in ("train", "validation", "test")] == [
        *PAPER_SIZES]
    assert (counts["test", Label.BENEFICIAL], counts["test", Label.NO_EFFECT],
            counts["test", Label.HARMFUL]) == (70, 70, 33)
    splits_of_pair: dict[tuple[str, str], set[str]] = {}
    splits_of_review: dict[str, set[str]] = {}
    for q in benchmark:
        splits_of_pair.setdefault((q.intervention.name, q.outcome.name), set()).add(q.split)
        splits_of_review.setdefault(q.review, set()).add(q.split)
    assert len(splits_of_pair) == 969  # no pair repeats, so none is shared across splits
    assert all(len(s) == 1 for s in splits_of_review.values())
    assert len({q.id for q in benchmark}) == 969


def test_favourable_share_of_null_queries_is_half_plus_b(benchmark: list[SimQuery]) -> None:
    for bias in (0.1, 0.2):
        config = SimConfig(bias=bias)
        reports = [key.reported == q.outcome.desired
                   for q in benchmark if q.label is Label.NO_EFFECT
                   for key in (s.key for s in plan_query(dataclasses.replace(q, bias=bias),
                                                         0, config))
                   if key.reported is not None]
        share = sum(reports) / len(reports)
        expected = 0.5 + bias
        standard_error = math.sqrt(expected * (1 - expected) / len(reports))
        assert len(reports) > 3000
        assert abs(share - expected) < 4 * standard_error, (bias, share)


def test_later_studies_are_more_biased(benchmark: list[SimQuery]) -> None:
    early, late = [], []
    for q in benchmark:
        if q.label is not Label.NO_EFFECT:
            continue
        reports = [s.key for s in plan_query(q, 0, SimConfig()) if s.key.reported is not None]
        third = len(reports) // 3
        early += [k.reported == q.outcome.desired for k in reports[:third]]
        late += [k.reported == q.outcome.desired for k in reports[len(reports) - third:]]
        assert [k.sample_size for k in reports] == sorted(
            (k.sample_size for k in reports), reverse=True)
    assert sum(early) / len(early) + 0.15 < sum(late) / len(late)


def test_literature_sizes_vary_and_some_run_dry(benchmark: list[SimQuery]) -> None:
    sizes = [len(plan_query(q, 0, SimConfig())) for q in benchmark]
    assert min(sizes) < 5 and max(sizes) > 30
    assert 0.3 < sum(size < 20 for size in sizes) / len(sizes) < 0.95


def test_benchmark_files_are_identical_for_a_seed_across_processes(tmp_path: Path) -> None:
    here = write_benchmark(tmp_path / "a", seed=3, sizes=SMALL)
    code = ("import json, sys; from pathlib import Path; "
            "from pipeline.simulation.benchmark import write_benchmark; "
            f"print(write_benchmark(Path(sys.argv[1]), seed=3, sizes={SMALL})['checksum'])")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = subprocess.run([sys.executable, "-c", code, str(tmp_path / "b")], cwd=ROOT,
                           env=env, capture_output=True, text=True, check=True)
    assert there.stdout.strip() == here["checksum"]
    for name in ("queries.jsonl", "abstracts.jsonl", "answer_key.jsonl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    other = write_benchmark(tmp_path / "c", seed=4, sizes=SMALL)
    assert other["checksum"] != here["checksum"]


def test_written_benchmark_loads_back_to_the_same_literature(tmp_path: Path) -> None:
    write_benchmark(tmp_path, seed=5, sizes=SMALL)
    queries, source = load_benchmark(tmp_path)
    rows = [json.loads(line) for line in (tmp_path / "abstracts.jsonl").open(encoding="utf-8")]
    first = queries[0]
    written = [r["pmid"] for r in rows if r["topic"] == first.id]
    cursor = source.search(first.query(), SearchConstraints(max_results=1000))
    assert [a.pmid for a in cursor.next_batch() for _ in [0]] == written[:1]
    assert cursor.total == len(written)
    keys = {json.loads(line)["pmid"] for line in (tmp_path / "answer_key.jsonl").open()}
    assert keys == {r["pmid"] for r in rows}


@pytest.fixture(scope="module")
def simulated() -> SimulatedLiterature:
    return SimulatedLiterature(build_benchmark(11, sizes=(20, 20, 20)), seed=11)


def test_abstracts_carry_no_ground_truth(simulated: SimulatedLiterature) -> None:
    assert [f.name for f in dataclasses.fields(Abstract)] == [
        "pmid", "title", "text", "year", "publication_types", "mesh"]
    for topic in simulated.topic_ids:
        for abstract, _ in simulated.literature(topic):
            shown = " ".join((abstract.title, abstract.text, *abstract.mesh))
            assert not re.search(r"Beneficial|NoEffect|Harmful|answer key|bias", shown)


def test_abstracts_read_like_abstracts(simulated: SimulatedLiterature) -> None:
    hedges = ("no significant", "did not", "similar", "not reach statistical significance",
              "no evidence", "not associated")
    seen_structured = seen_plain = 0
    for q in simulated.queries:
        for abstract, key in simulated.literature(q.id):
            assert len(re.findall(r"\.(?:\s|$)", abstract.text)) >= 4
            assert abstract.title.endswith(".")
            assert 2010 <= (abstract.year or 0) <= 2025
            if key.kind == "review":
                assert "95% CI" not in abstract.text
                continue
            assert re.search(r"95% CI", abstract.text)
            assert re.search(r"[Pp] ?[=<] ?0?\.\d+", abstract.text)
            if key.reported == 0:
                assert any(h in abstract.text for h in hedges)
            for term in (q.intervention, q.outcome):
                abbreviation = term.abbreviation
                if abbreviation and abbreviation in abstract.text.replace(
                        f"({abbreviation})", ""):
                    first = abstract.text.index(abbreviation)
                    assert abstract.text[first - 1] == "(", (abbreviation, abstract.text)
            if abstract.text.startswith(("BACKGROUND:", "OBJECTIVE:", "INTRODUCTION:")):
                seen_structured += 1
            else:
                seen_plain += 1
    assert seen_structured and seen_plain


def test_search_by_any_surface_form_and_mechanism_hops(simulated: SimulatedLiterature) -> None:
    q = next(q for q in simulated.queries if q.mechanism is not None
             and (q.intervention.abbreviation or q.intervention.synonyms))
    cursor = simulated.search(q.query())
    assert [a.pmid for a in cursor.next_batch()] == [simulated.answer_key(q.id)[0].pmid]
    alias = q.intervention.abbreviation or q.intervention.synonyms[0]
    by_alias = simulated.search(Query(Entity.from_name(alias), Entity.from_name(q.outcome.name)))
    assert by_alias.total == cursor.total
    assert q.mechanism is not None
    hop = simulated.search(Query(Entity.from_name(q.intervention.name),
                                 Entity.from_name(q.mechanism.term.name)),
                           SearchConstraints(batch_size=10))
    assert all(a.pmid.startswith("8") for a in hop.next_batch())
    with pytest.raises(EmptyResult):
        simulated.search(Query(Entity.from_name("unobtainium"), Entity.from_name("stroke")))


def test_same_seed_same_text_other_seed_other_text() -> None:
    queries = build_benchmark(2, sizes=(2, 2, 2))
    first = SimulatedLiterature(queries, seed=2).literature(queries[0].id)
    again = SimulatedLiterature(build_benchmark(2, sizes=(2, 2, 2)),
                                seed=2).literature(queries[0].id)
    other = SimulatedLiterature(queries, seed=3).literature(queries[0].id)
    assert first == again
    assert [a.text for a, _ in first] != [a.text for a, _ in other]


@pytest.mark.parametrize("settings", [{"bias": 0.25}, {"bias": -0.1}, {"bias_sd": -1.0},
                                      {"min_reports": 5, "max_reports": 2}])
def test_impossible_settings_are_refused(settings: dict[str, float]) -> None:
    with pytest.raises(SimulationError):
        SimConfig(**settings)  # type: ignore[arg-type]


def test_cli_writes_the_benchmark(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", "corpus", "--out", str(tmp_path), "--seed", "1",
                                      "--train", "6", "--validation", "3", "--test", "5",
                                      "--bias", "0.15"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["config"]["bias"] == 0.15 and manifest["sizes"]["test"] == 5
    assert manifest["checksum"] in result.output


@pytest.mark.parametrize(("options", "message"), [
    (["--bias", "0.4"], "bias must be in"),
    (["--test", "0"], "three positive split sizes"),
    (["--train", "5000"], "at most 1680 queries"),
])
def test_cli_refuses_bad_options_in_one_line(tmp_path: Path, options: list[str],
                                             message: str) -> None:
    result = CliRunner().invoke(app, ["simulate", "corpus", "--out", str(tmp_path), *options])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "manifest.json").exists()


def test_the_source_names_its_vocabulary_as_aliases(simulated: SimulatedLiterature) -> None:
    from pipeline.retrieval.source import with_source_aliases

    asked = Query(Entity.from_name("vitamin D3 supplementation"), Entity.from_name("UACR"))
    known = with_source_aliases(simulated, asked)
    assert known.intervention.name == "cholecalciferol"
    assert "vitamin D3 supplementation" in known.intervention.aliases
    assert known.outcome.name == "urinary albumin-to-creatinine ratio"
    unknown = Query(Entity.from_name("unobtainium"), Entity.from_name("stroke"))
    assert with_source_aliases(simulated, unknown).intervention == unknown.intervention
    assert with_source_aliases(object(), asked) is asked  # type: ignore[arg-type]
