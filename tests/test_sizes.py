"""Size bars of hybrid/: no module over MAX_MODULE_LINES lines, no function over MAX_FUNCTION_LINES.

Every module under hybrid/ is read and parsed (nothing is imported). A function's length runs from
its `def` line to its last line, docstring and comments included (decorators not); nested functions
and methods are measured on their own too. A module or function over its bar fails, naming file,
name, line and length, unless ALLOWED lists it with exactly its current length or more; an entry
that no longer needs its room fails too, so that the list only ever shrinks.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "hybrid"

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80

# Offenders allowed for now (none left since the issue-28 splits); an entry's key is a module path
# relative to hybrid/, or "path:function" (methods as "path:Class.method"); its value the most lines
# it may have. Keep it empty: split instead.
ALLOWED: dict[str, int] = {}


def _functions(tree: ast.AST, prefix: str = ""):
    """(qualified name, def line, lines) of every function in `tree`, nested ones included."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + node.name
            yield name, node.lineno, node.end_lineno - node.lineno + 1
            yield from _functions(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + ".")
        else:
            yield from _functions(node, prefix)


def measure(package: Path = PACKAGE) -> dict[str, tuple[int, int]]:
    """Every module and function of `package` over its bar: key (as in ALLOWED) -> (line, length)."""
    over = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        source = path.read_text(encoding="utf-8")
        n = len(source.splitlines())
        if n > MAX_MODULE_LINES:
            over[rel] = (1, n)
        for name, line, length in _functions(ast.parse(source, filename=str(path))):
            if length > MAX_FUNCTION_LINES:
                over[f"{rel}:{name}"] = (line, length)
    return over


def test_no_module_or_function_over_its_bar():
    problems = []
    for key, (line, length) in measure().items():
        if length > ALLOWED.get(key, 0):
            bar = MAX_FUNCTION_LINES if ":" in key else MAX_MODULE_LINES
            allowed = f", allowed {ALLOWED[key]}" if key in ALLOWED else ""
            problems.append(f"hybrid/{key.split(':')[0]}:{line}: {key} has {length} lines (bar {bar}{allowed})")
    assert not problems, "split these (behaviour identical):\n" + "\n".join(problems)


def test_the_allowlist_only_shrinks():
    over = measure()
    stale = [key for key in ALLOWED if key not in over]
    assert not stale, f"no longer over the bar, remove from ALLOWED: {', '.join(stale)}"


def test_the_measure_finds_a_long_module_and_a_long_method(tmp_path):
    body = "\n".join(f"        x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "big.py").write_text("class A:\n    def long(self):\n" + body + "\n" + "\n" * MAX_MODULE_LINES)
    (tmp_path / "small.py").write_text("def short():\n    return 1\n")
    over = measure(tmp_path)
    assert over["big.py:A.long"] == (2, MAX_FUNCTION_LINES + 1)
    assert over["big.py"][1] > MAX_MODULE_LINES and not any(k.startswith("small.py") for k in over)


@pytest.mark.parametrize("key", sorted(ALLOWED))
def test_allowlist_names_only_the_leads_files(key):
    leads = {"draft/drafter.py", "draft/consistency.py", "cli/draft.py", "fidelity/foreign_facts.py"}
    assert key.split(":")[0] in leads


MAX_PARAMETERS = 8
"""Parameters of a function under hybrid/ (self and cls aside; *args and **kwargs count one each): more is plumbing
that a context object should carry (hybrid.text.context, hybrid.text.start.SpanEdits). The CLI's argument
plumbing (hybrid/cli/) is exempt."""

# Offenders allowed, as "path:function" -> its parameters; only ever shrinks, and empty since issue 49's plumbing
# (2026-12-07: the fillers' FillJob, the backbone's Attending, DrafterConfig, RerankConfig, FitContext, ...). Keep it
# empty: group what travels together into a small frozen dataclass instead.
PARAMETERS_ALLOWED: dict[str, int] = {}


def _parameters(tree: ast.AST, prefix: str = ""):
    """(qualified name, def line, parameters) of every function in `tree`, nested ones included."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            named = [x for x in a.posonlyargs + a.args + a.kwonlyargs if x.arg not in ("self", "cls")]
            yield prefix + node.name, node.lineno, len(named) + bool(a.vararg) + bool(a.kwarg)
            yield from _parameters(node, prefix + node.name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _parameters(node, prefix + node.name + ".")
        else:
            yield from _parameters(node, prefix)


def many_parameters(package: Path = PACKAGE) -> dict[str, tuple[int, int]]:
    """Every function of `package` (its cli/ aside) over MAX_PARAMETERS: "path:function" -> (line, parameters)."""
    over = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel.startswith("cli/"):
            continue
        for name, line, n in _parameters(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if n > MAX_PARAMETERS:
                over[f"{rel}:{name}"] = (line, n)
    return over


def test_no_function_takes_more_than_eight_parameters():
    over = many_parameters()
    problems = [f"hybrid/{k.split(':')[0]}:{line}: {k} takes {n} parameters (bar {MAX_PARAMETERS})"
                for k, (line, n) in over.items() if n > PARAMETERS_ALLOWED.get(k, 0)]
    assert not problems, "carry them in a context object:\n" + "\n".join(problems)
    stale = [k for k, allowed in PARAMETERS_ALLOWED.items() if over.get(k, (0, 0))[1] < allowed]
    assert not stale, f"fewer parameters now: lower or remove in PARAMETERS_ALLOWED: {', '.join(stale)}"


def test_the_parameter_count_finds_a_long_signature(tmp_path):
    (tmp_path / "m.py").write_text("class A:\n    def f(self, a, b, c, d, e, f, g, h, *rest, **kw):\n        pass\n"
                                   "def g(a, b):\n    pass\n")
    assert many_parameters(tmp_path) == {"m.py:A.f": (2, 10)}
