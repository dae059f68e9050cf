"""Documents built from real excerpts: segments join to .text, renumbering, outline."""

from pathlib import Path

import pytest

from hybrid.data.clauses import CLAUSE_TYPES
from hybrid.data.corpus import build_document
from hybrid.data.document import heading_line

EXCERPTS = Path(__file__).parent / "excerpts"
ENTRY = {"source": "cuad", "doc_type": "AGENCY AGREEMENT", "split": "train", "group": "cuad:X"}


@pytest.fixture(params=["cuad_numbered_2themart.txt", "cuad_article_sandridge.txt", "policy_basecamp_privacy.md"])
def doc(request):
    name = request.param
    return build_document({**ENTRY, "path": f"excerpts/{name}"}, (EXCERPTS / name).read_text(encoding="utf-8"),
                          {"party_a": "Acme"})


def test_segments_join_to_text_in_canonical_layout(doc):
    segs = doc.segments()
    assert "".join(s.text for s in segs) == doc.text
    assert doc.text.startswith(f"{doc.title}\n\n{doc.preamble}\n\n")
    headings = [s for s in segs if s.kind == "heading"]
    bodies = [s for s in segs if s.kind == "body"]
    assert len(headings) == len(bodies) == len(doc.sections) >= 3
    for i, (h, b) in enumerate(zip(headings, bodies)):
        assert h.section == b.section == i
        assert h.text == heading_line(str(i + 1), doc.sections[i].heading)
        assert b.text == doc.sections[i].body and b.text == b.text.strip()


def test_sections_are_renumbered_and_typed(doc):
    assert [s.number for s in doc.sections] == [str(i) for i in range(1, len(doc.sections) + 1)]
    assert all(s.clause_type in CLAUSE_TYPES for s in doc.sections)
    assert doc.outline()["sections"][0] == {"heading": doc.sections[0].heading, "clause": doc.sections[0].clause_type}
    assert doc.fields == {"party_a": "Acme"}


def test_no_blank_line_runs_or_trailing_spaces_in_document_text(doc):
    assert "\n\n\n" not in doc.text
    assert all(line == line.rstrip() for line in doc.text.split("\n"))
