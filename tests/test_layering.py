"""The package layering of hybrid/: each stage imports only the packages below it in ORDER.

Every module under hybrid/ is parsed (nothing is imported), and every import of hybrid.X, at
module level or inside a function, and every importlib.import_module("hybrid.X...") is mapped
to its package: an import from a package to one later in ORDER fails, naming file, line and
import. A lazy import is still an import; moving the function to where it belongs is the mend.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "hybrid"

ORDER = ["common", "data", "tokenizer", "model", "fidelity", "templates", "plan", "precedents", "text", "skeleton",
         "fill", "rank", "train", "draft", "serve", "cli"]
# text above precedents: its passes read a precedent's fact spans (hybrid.precedents.fact_spans) and library words.
"""Bottom to top: the shared pieces, then the stages in pipeline order, then the entry points."""

MAX_TOP_LEVEL_MODULES = 15


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, dotted name) of every hybrid import in `source`, wherever it stands; `from hybrid
    import x` gives hybrid.x, a relative import is resolved against `module`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: len(module.split(".")) - node.level + is_package]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found += [(node.lineno, f"{target}.{a.name}") for a in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return [(line, name) for line, name in found if name == "hybrid" or name.startswith("hybrid.")]


def package_of(dotted: str) -> str | None:
    """The hybrid package a dotted name lives in (hybrid.fill.diffusion.sampler -> fill); None for
    hybrid itself or a module directly in hybrid/."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else None


def upward_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of `module` (in a package of ORDER) that reach a package above its own, or a
    module directly in hybrid/ (whose lazy names can hide any package)."""
    own = ORDER.index(module.split(".")[1])
    bad = []
    for line, name in imported_names(source, module, is_package):
        target = package_of(name)
        if target is None:
            bad.append(f"{module}:{line} imports {name}, which is not in a package of ORDER")
        elif target not in ORDER or ORDER.index(target) > own:
            bad.append(f"{module}:{line} imports {name} ({module.split('.')[1]} -> {target}: upward)")
    return bad


def _package_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


def test_every_package_has_a_place_in_the_order():
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert sorted(ORDER) == packages, (
        f"ORDER must list each package of hybrid/ once: packages {packages}, ORDER {ORDER}"
    )


def test_no_package_imports_a_package_above_it():
    bad = []
    for path in _package_modules():
        bad += upward_imports(path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py")
    assert not bad, "imports against the layering (ORDER, bottom to top: " + " < ".join(ORDER) + "):\n" + "\n".join(bad)


def test_at_most_15_modules_directly_in_hybrid():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, (
        f"hybrid/ holds {len(top)} modules directly (at most {MAX_TOP_LEVEL_MODULES}): {top}"
    )


@pytest.mark.parametrize("module, source, upward", [
    ("hybrid.rank.pmi", "from hybrid.model.objective import q_xt", False),
    ("hybrid.rank.pmi", "from hybrid.draft.drafter import Drafter", True),
    # lazy: still an import
    ("hybrid.common.config", "def f():\n    from hybrid.data.precedent_pairs import PairMix\n", True),
    ("hybrid.model.resolve", "import hybrid.cli.main", True),
    ("hybrid.model.resolve", "from hybrid import Drafter", True),  # through hybrid/__init__'s lazy names
    ("hybrid.model.resolve", "from hybrid import model", False),
    ("hybrid.model.resolve", "from . import checkpoint", False),
    ("hybrid.model.resolve", "from ..rank import rerank", True),
    ("hybrid.plan.planner", "importlib.import_module('hybrid.rank.rerank')", True),
    ("hybrid.rank.rerank", "import importlib\nimportlib.import_module('hybrid.plan.planner')", False),
])
def test_upward_imports_are_found_wherever_they_stand(module, source, upward):
    assert bool(upward_imports(source, module)) == upward


SIBLINGS = {"rank": {"fill"}, "train": {"fill"}}
"""Stages that sit above another in ORDER yet must not read it: the ranker and the trainer share the diffusion
objective and schedules with the filler (hybrid.model.objective, hybrid.model.schedule), not the filler itself."""


def sibling_imports(source: str, module: str) -> list[str]:
    own = module.split(".")[1]
    return [f"{module}:{line} imports {name} ({own} -> {package_of(name)})"
            for line, name in imported_names(source, module) if package_of(name) in SIBLINGS.get(own, ())]


def test_the_ranker_and_the_trainer_do_not_import_the_filler():
    bad = []
    for path in _package_modules():
        bad += sibling_imports(path.read_text(encoding="utf-8"), _module_name(path))
    assert not bad, "\n".join(bad)
    assert sibling_imports("from hybrid.fill.diffusion.sampler import fill", "hybrid.rank.pmi")  # the rule can fail


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round in a circle (strongly connected, more than one module),
    wherever the imports stand (a lazy import that closes a circle is still a circle)."""
    order, low, stack, on, cycles, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        order[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            group = []
            while not group or group[-1] != v:
                group.append(stack.pop())
                on.discard(group[-1])
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in order:
            visit(v)
    return cycles


def module_graph() -> dict[str, set[str]]:
    """Each module of hybrid/ -> the modules of hybrid/ it imports (a name imported from a module: that module)."""
    paths = {_module_name(p): p for p in _package_modules()}
    graph = {}
    for module, path in paths.items():
        deps = set()
        for _, name in imported_names(path.read_text(encoding="utf-8"), module, path.name == "__init__.py"):
            parts = name.split(".")
            found = next((".".join(parts[:k]) for k in range(len(parts), 1, -1) if ".".join(parts[:k]) in paths), None)
            if found and found != module:
                deps.add(found)
        graph[module] = deps
    return graph


def test_no_import_cycles():
    assert import_cycles(module_graph()) == []
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]  # the rule can fail
