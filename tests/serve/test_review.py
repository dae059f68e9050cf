"""A section under review (hybrid.serve.review) and its precedent in context (hybrid.serve.context): the lawyer's
edit laid over the engine's changes (never a new diff of the whole), rejecting puts the precedent's words back,
accepting untracks, the DOCX's tracked changes name their author; a shipped clause shown in its corpus document and a
user clause in its file, the passage marked, the neighbours around it."""

import pytest

from hybrid.serve.context import source_context
from hybrid.serve.review import REVIEWER, Review, section_state, tracked
from tests.sample_contract import firm_library

SOURCE = ("Consultant shall keep the Confidential Information secret for two years. Consultant shall return it on "
          "request.\n\nNothing here grants a licence.")
BODY = ("Borealis shall keep the Confidential Information secret for three years. Borealis shall return it on "
        "request.\n\nNothing here grants a licence.")
SECTION = {"source_text": SOURCE, "body": BODY}


def _changes(state) -> list[tuple]:
    return [(s["delete"], s["insert"], s["by"], s["state"]) for s in state["review"] if "change" in s]


def test_the_engines_changes_are_each_a_change_to_review():
    state = section_state(SECTION)
    assert _changes(state) == [("Consultant", "Borealis", "engine", "pending"), ("two", "three", "engine", "pending"),
                               ("Consultant", "Borealis", "engine", "pending")]
    joined = "".join(s.get("text", s.get("insert", "")) for s in state["review"])
    assert joined == BODY and not state["edited"]


def test_an_edit_is_the_lawyers_change_laid_over_the_engines():
    text = BODY + "\n\nThe Recipient shall notify any loss within five days."
    state = section_state(SECTION, text)
    assert _changes(state)[:3] == _changes(section_state(SECTION))  # the engine's keep their place and author
    assert _changes(state)[3][1:3] == ("\n\nThe Recipient shall notify any loss within five days.", "you")
    assert "".join(t for op, t in state["redline"] if op != "delete") == text
    assert "".join(t for op, t in state["redline"] if op != "insert") == SOURCE


def test_a_lawyers_word_inside_an_engines_change_makes_it_the_lawyers():
    state = section_state(SECTION, BODY.replace("three years", "four years", 1))
    assert ("two", "four", "you", "pending") in _changes(state)
    struck_out = section_state(SECTION, BODY[len("Borealis"):])  # the engine's word deleted, nothing put instead
    assert _changes(struck_out)[0] == ("Consultant", "", "you", "pending")


def test_rejecting_restores_the_precedents_words_and_accepting_leaves_plain_text():
    review = Review()
    first, second, third = [s for s in review.state(SECTION, 1, 0)["review"] if "change" in s]
    after = review.decide(SECTION, 1, 0, second["change"], "reject")
    assert after["body"] == BODY.replace("three", "two") and len(_changes(after)) == 2
    after = review.decide(SECTION, 1, 0, first["change"], "accept")
    assert _changes(after)[0][3] == "accepted"
    ops = tracked(SECTION, *review.get(1, 0))
    assert ("equal", "Borealis") in ops and ("delete", "two", "hybrid") not in ops
    assert [op for op in ops if op[0] != "equal"] == [("delete", "Consultant", "hybrid"),
                                                      ("insert", "Borealis", "hybrid")]
    review.edit(SECTION, 1, 0, after["body"] + " Signed.")
    assert ("insert", " Signed.", REVIEWER) in tracked(SECTION, *review.get(1, 0))
    assert review.edit(SECTION, 1, 0, None)["body"] == BODY and review.get(1, 0) == (None, frozenset())


def test_a_composed_section_shows_only_the_lawyers_edit():
    composed = {"body": "The terms defined elsewhere.", "origin": "Composed by the engine"}
    assert section_state(composed)["review"] is None and tracked(composed) is None
    state = section_state(composed, "The terms defined in Section 1.")
    assert [c[2] for c in _changes(state)] == ["you"] and state["redline"] is None


FIRM = """MUTUAL NONDISCLOSURE AGREEMENT

1. Definitions. Confidential Information means every document Pelican Bay Holdings LLC marks as such when it
discloses it to Osprey Partners Inc. under this Agreement in writing.

2. Confidentiality. Pelican shall hold Osprey's confidential information in strict confidence, as agreed at the
offsite, and use it only to evaluate the proposed collaboration between the parties.

3. Term. This Agreement lasts for three years from the date it is signed by both parties, and its obligations
survive for two further years after it ends for any reason whatsoever.
"""


def test_a_user_clause_is_shown_in_its_file_between_its_neighbours(tmp_path, monkeypatch):
    library = firm_library(tmp_path, monkeypatch, FIRM)
    clause = next(p for p in library.precedents if p.clause_type == "confidentiality")
    ctx = source_context(library, clause.provenance(), "use it only to evaluate the proposed collaboration")
    assert ctx["clause"]["passage"] == "use it only to evaluate the proposed collaboration"
    assert ctx["clause"]["before"].startswith("Pelican shall hold Osprey's") and ctx["note"] is None
    assert [b["text"][:26] for b in ctx["before"]] == ["Confidential Information m"]
    assert [a["text"][:24] for a in ctx["after"]] == ["This Agreement lasts for"]
    gone = source_context(library, {**clause.provenance(), "id": "nda.txt#9"})
    assert gone["clause"] is None and "add its folder again (`hybrid library add DIR --name mine`)" in gone["note"]
    shipped = source_context(library, {**clause.provenance(), "source": "cuad"})  # no corpus behind it here
    assert shipped["clause"] is None and "not on this machine" in shipped["note"]


@pytest.mark.parametrize("part", [None, "kept"])
def test_a_shipped_clause_is_shown_in_its_corpus_document(cuad_corpus, part):
    from hybrid.precedents.library import build_library
    from hybrid.precedents.originals import original_text
    from tests.conftest import cuad_entry

    library = build_library(cuad_corpus({}, [cuad_entry("g")]), progress=False)
    p = library.precedents[len(library.precedents) // 2]
    own = original_text(library, p.provenance())
    words = own.split()
    passage = " ".join(words[len(words) // 4: len(words) // 2]) if part else None
    ctx = source_context(library, p.provenance(), passage)
    clause = ctx["clause"]
    assert clause["passage"] == (passage or clause["passage"]) and clause["passage"] in own
    assert ctx["document"] == p.doc_id and ctx["before"] + ctx["after"]
    assert "[PARTY_A]" not in clause["before"] + clause["passage"] + clause["after"]


def test_a_change_rejected_after_an_edit_leaves_the_other_changes_as_they_were():
    # a paragraph added at the end: the edit is found where it was made, never by pairing the section's sentences
    # from its end, so rejecting the engine's first change touches no other
    review = Review()
    edited = review.edit(SECTION, 1, 0, BODY + "\n\nEach party shall tell the other of any loss within five days.")
    first, *others = [s for s in edited["review"] if "change" in s]
    after = review.decide(SECTION, 1, 0, first["change"], "reject")
    assert [(s["change"], s["by"]) for s in after["review"] if "change" in s] == [(s["change"], s["by"])
                                                                                 for s in others]
    assert after["body"].startswith("Consultant shall keep") and [s["by"] for s in others] == ["engine"] * 2 + ["you"]
