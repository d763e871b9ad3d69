"""The package's layering, read from the source: top-level subpackages import each other
without cycles, `pipeline.sources` and `pipeline.benchmarks` (which open the simulator's
sources) sit above them all, and `pipeline.inference` stays pure (model, itself and the
standard library), so a newcomer cannot tangle the layers unnoticed. Function-level and
TYPE_CHECKING imports count too: they are the ones that hide cycles."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pipeline

PACKAGE = Path(pipeline.__file__).resolve().parent
SUBPACKAGES = ("retrieval", "extraction", "graph", "inference", "stopping", "evaluation",
               "simulation")

# Top-level modules above every subpackage: only the command lines (`cli` modules) import
# them, so no cycle can run through them unseen.
ABOVE_SUBPACKAGES = ("pipeline.sources", "pipeline.benchmarks")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Every module `path` imports anywhere in its body, relative imports resolved; for
    `from a import b`, both `a` and `a.b` (b may be a module or a name)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def import_graph() -> dict[str, set[str]]:
    return {module_name(path): imported(path) for path in PACKAGE.rglob("*.py")}


def subpackage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "pipeline" and len(parts) > 2 and parts[1] in SUBPACKAGES \
        else None


def test_the_source_walk_sees_function_level_imports() -> None:
    """The simulator is opened by function-level imports: if the walk missed those, the
    tests below would pass vacuously."""
    graph = import_graph()
    assert "pipeline.simulation.benchmark" in graph["pipeline.benchmarks"]
    assert "pipeline.retrieval.source" in graph["pipeline.simulation.literature"]
    assert len(graph) > 50


def test_no_cycle_between_subpackages() -> None:
    layers: dict[str, set[str]] = defaultdict(set)
    for module, targets in import_graph().items():
        for target in targets:
            a, b = subpackage(module), subpackage(target)
            if a and b and a != b:
                layers[a].add(b)
    try:
        order = list(TopologicalSorter(layers).static_order())
    except CycleError as error:
        raise AssertionError(f"import cycle between subpackages: {error.args[1]}") from None
    assert order.index("inference") < order.index("graph") < order.index("evaluation")


def test_only_command_lines_import_the_modules_above_the_subpackages() -> None:
    below = {(module, target)
             for module, targets in import_graph().items()
             if subpackage(module) and not module.endswith(".cli")
             for target in targets
             if target.startswith(ABOVE_SUBPACKAGES)}
    assert below == set()


def test_inference_imports_only_the_model_itself_and_the_standard_library() -> None:
    foreign = {(module, target)
               for module, targets in import_graph().items()
               if module.startswith("pipeline.inference")
               for target in targets
               if target not in ("pipeline", "pipeline.model")
               and not target.startswith(("pipeline.model.", "pipeline.inference"))
               and target.split(".")[0] not in sys.stdlib_module_names}
    assert foreign == set()
