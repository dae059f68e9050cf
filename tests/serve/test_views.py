"""What the page shows of a variant beside its sections (hybrid.serve.views): the blanks [___] left to complete as a
to-do list (where each is and the sentence around it), the market check in a few numbers and the document it was
drafted from."""

from hybrid.draft.result import Draft
from hybrid.serve.views import draft_view


def _draft(**kw) -> Draft:
    sections = [
        {"number": "1", "heading": "Fees", "clause": "payment", "body": "The fee is [___] a month.\nPaid in arrears."},
        {"number": "2", "heading": "Caps", "clause": "limitation_of_liability",
         "body": "General Cap Amount: [___]. Special Cap Amount: [___]."},
        {"number": "3", "heading": "Law", "clause": "governing_law", "body": "Delaware law governs."},
    ]
    return Draft(1, "", "AGREEMENT", "Made on [___] between A and B.", sections, "Signed.", {}, 0.0, {}, **kw)


def test_the_blanks_are_listed_in_document_order_with_their_sentence():
    view = draft_view(_draft())
    assert [(b["number"], b["where"]) for b in view["blanks"]] == [(None, "Preamble"), ("1", "Fees"), ("2", "Caps"),
                                                                  ("2", "Caps")]
    assert view["blanks"][1]["text"] == "The fee is [___] a month."  # its own line, not the next
    assert view["blanks"][2]["text"] == "General Cap Amount: [___]. Special Cap Amount: [___]."


def test_a_long_sentence_around_a_blank_is_cut_on_both_sides():
    d = _draft()
    d.sections[2]["body"] = "x" * 300 + " [___] " + "y" * 300
    (b,) = [b for b in draft_view(d)["blanks"] if b["number"] == "3"]
    assert b["text"].startswith("…x") and b["text"].endswith("y…") and len(b["text"]) < 200


def test_the_market_check_and_the_base_are_shown_in_words():
    checks = {"market_check": {"items": [], "held": 8, "total": 9, "coverage": 0.89, "lacking": ["Non-solicitation"]}}
    base = {"doc_id": "standard-agreements/bonterms-mutual-nda.md", "source": "bonterms", "kind": "form"}
    view = draft_view(_draft(checks=checks, base=base))
    assert view["market"] == {"held": 8, "total": 9, "lacking": ["Non-solicitation"]}
    assert view["base"] == "standard-agreements/bonterms-mutual-nda.md (bonterms, a standard form of the kind)"
    bare = draft_view(_draft())
    assert bare["market"] is None and bare["base"] is None
