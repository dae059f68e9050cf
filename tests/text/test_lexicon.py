"""One lexicon (hybrid.common.lexicon): what a leaning sentence is, defined once. The fit penalizes the openings the
start strips, and no module of hybrid/ writes a rival pattern."""

import ast
from pathlib import Path

import pytest

from hybrid.common.lexicon import CONNECTIVE_OPENING, LEANING

PACKAGE = Path(__file__).resolve().parents[2] / "hybrid"
MARKS = ("Furthermore", "Moreover", "Notwithstanding the foregoing", "avoidance of doubt", "In such (?:case")


def rival_patterns(source: str) -> list[str]:
    """String constants of `source` that write an alternation of leaning openings: a second definition."""
    return [n.value[:60] for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and "|" in n.value and any(m in n.value for m in MARKS)]


def test_no_rival_leaning_pattern_in_hybrid():
    rivals = {str(p.relative_to(PACKAGE)): found for p in PACKAGE.rglob("*.py")
              if p.name != "lexicon.py" and (found := rival_patterns(p.read_text(encoding="utf-8")))}
    assert rivals == {}
    assert rival_patterns('X = r"In addition|Furthermore|Also"')  # the search can find one


@pytest.mark.parametrize("text", ["In addition, Licensor may audit.", "However, the fee is due.",
                                  "FURTHERMORE, THE FEE IS DUE.", "Accordingly, Buyer pays."])
def test_what_the_start_strips_the_fit_counts_as_leaning(text):
    assert CONNECTIVE_OPENING.match(text) and LEANING.match(text)


@pytest.mark.parametrize("text, leans", [
    ("Such notice shall be in writing.", True), ("Notwithstanding the foregoing, Buyer may audit.", True),
    ("For avoidance of doubt, fees are net.", True), ("The preceding sentence applies to Buyer.", True),
    ("Buyer shall pay the fees.", False), ("Suchlike goods are excluded.", False),
])
def test_leaning(text, leans):
    assert bool(LEANING.match(text)) == leans


def test_no_module_but_the_lexicon_defines_a_trailing_heading_or_leaning_pattern():
    defined = {}
    for p in PACKAGE.rglob("*.py"):
        if p.name == "lexicon.py":
            continue
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.Assign):
                names = [t.id for t in n.targets if isinstance(t, ast.Name)]
                bad = [x for x in names if "TRAILING_HEADING" in x or "LEANING" in x or x == "_LEANS"]
                if bad:
                    defined[str(p.relative_to(PACKAGE))] = bad
    assert defined == {}
