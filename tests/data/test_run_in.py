"""A firm's contract split at its run-in headed paragraphs (hybrid.data.run_in): each paragraph a section of its own,
typed by its heading or, where that says little, by the line heading above its parts."""

import pytest

from hybrid.data.document import Document, Section
from hybrid.data.run_in import split_run_in

PARTS = (
    "Exceptions. The Recipient's obligations do not apply to public information.\n"
    "Mutual. Each party represents that it may enter into this Agreement.\n"
    "Notices. Any notice must be in writing and sent to the address on the Cover Page.\n"
    "Assignment. Neither party may assign this Agreement without the other's written consent.\n"
)


def _doc(sections, preamble="") -> Document:
    return Document("f.txt", "library:x", "", "user", "x", "AGREEMENT", preamble,
                    [Section(str(i), h, t, b) for i, (h, t, b) in enumerate(sections, 1)])


def test_each_run_in_paragraph_becomes_its_own_section_typed_by_its_heading():
    doc = split_run_in(_doc([("Representations & Warranties", "warranties", PARTS)]))
    got = [(s.number, s.heading, s.clause_type, s.body.split()[0]) for s in doc.sections]
    assert got == [("1.1", "Exceptions", "confidentiality", "The"), ("1.2", "Mutual", "warranties", "Each"),
                   ("1.3", "Notices", "notices", "Any"), ("1.4", "Assignment", "assignment", "Neither")]


def test_a_section_with_its_own_lead_text_keeps_it_and_lends_its_type_to_none():
    lead = "The parties agree as follows on the matters below, which bind them both from the start."
    doc = split_run_in(_doc([("Terms", "amendment", lead + "\n" + PARTS)]))
    assert [(s.number, s.heading, s.clause_type) for s in doc.sections][:3] == [
        ("1", "Terms", "amendment"), ("1.1", "Exceptions", "confidentiality"), ("1.2", "Mutual", "general")]
    assert doc.sections[0].body == lead


def test_a_document_of_run_in_paragraphs_only_splits_its_preamble():
    doc = split_run_in(_doc([], preamble="This NDA is made by the parties below.\n" + PARTS))
    assert doc.preamble == "This NDA is made by the parties below."
    assert [s.heading for s in doc.sections] == ["Exceptions", "Mutual", "Notices", "Assignment"]


@pytest.mark.parametrize("body", [
    "\n".join(PARTS.splitlines()[:3]),  # three run-in headings: emphasis, not sections
    "The Supplier shall deliver. Company. The Company shall pay within thirty days of each invoice.",  # mid-line
])
def test_fewer_than_four_or_mid_line_headings_leave_the_document_as_it_was(body):
    doc = _doc([("General", "general", body)])
    assert split_run_in(doc) == doc
