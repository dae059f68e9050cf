"""hybrid.text.paragraphs: paragraphs inside a clause that stop without a full stop, list markers out of sequence."""

import pytest

from hybrid.draft.consistency import consistency_pass
from hybrid.text.paragraphs import paragraph_faults, repair_paragraphs
from hybrid.text.start_passes import strip_inline_heading

# (body, the faults' kinds, the repaired body) from drafts of the supply template (seed 7) before the repair
CASES = [
    (  # a sub-heading of the precedent left after the frame sentence
        "The Supplier shall supply the Products to the Buyer under this Agreement. Manufacturing services\n\n"
        "Supplier will make available its labor and facilities.",
        ["unterminated"],
        "The Supplier shall supply the Products to the Buyer under this Agreement.\n\nManufacturing services\n\n"
        "Supplier will make available its labor and facilities.",
    ),
    (  # the source wrote the sentence without its stop
        "Supplier agrees to ship units as close as possible to the schedule, unless Supplier otherwise indicates in"
        " writing\n\nShipment. Shipping dates are approximate.",
        ["unterminated"],
        "Supplier agrees to ship units as close as possible to the schedule, unless Supplier otherwise indicates in"
        " writing.\n\nShipment. Shipping dates are approximate.",
    ),
    (  # a sentence cut where a page broke: it goes, the sentence before it stays
        "Buyer shall issue purchase orders. Buyer shall pay the\n\nPayment is due on receipt.",
        ["unterminated"],
        "Buyer shall issue purchase orders.\n\nPayment is due on receipt.",
    ),
    (  # ... and a run-in heading left alone goes with it
        "Shipment. Buyer shall pay the\n\nPayment is due on receipt.",
        ["unterminated"],
        "Payment is due on receipt.",
    ),
    (  # a form's row of blanks under a list item: the row goes, the item stays
        "Consultant shall assist with the business plan; and\n ____ ____\n\nConsultant shall report monthly.",
        ["unterminated"],
        "Consultant shall assist with the business plan; and\n\nConsultant shall report monthly.",
    ),
    (  # a sentence that stops on a dash is cut, not closed ("resell the -." is no sentence)
        "Supplier grants only a license to resell the -\n\nPrices are set by Supplier.",
        ["unterminated"],
        "Prices are set by Supplier.",
    ),
    (  # the start dropped item A
        "During the term, Supplier shall:\n\nB. Update the back-up files daily;\n\nC. Store the records safely.",
        ["enumeration", "enumeration"],
        "During the term, Supplier shall:\n\nA. Update the back-up files daily;\n\nB. Store the records safely.",
    ),
    (  # a roman list that opens on its second item, and a letter list on its second
        "Supplier will make available its labor.\n\nii. Supplier shall test all materials.\n\nb) Buyer.\n\n"
        "i. Buyer shall supply its materials.",
        ["enumeration", "enumeration"],
        "Supplier will make available its labor.\n\ni. Supplier shall test all materials.\n\na) Buyer.\n\n"
        "i. Buyer shall supply its materials.",
    ),
    (  # a hole's end left a stop opening the next paragraph (supply, seed 7: "Taxes." then ". For avoidance ...")
        "Taxes.\n\n. For avoidance of doubt, no increase is paid.\n\nBuyer pays the rest.",
        ["stray_opening"],
        "Taxes.\n\nFor avoidance of doubt, no increase is paid.\n\nBuyer pays the rest.",
    ),
    (  # a list opening after the frame sentence, its second item marked (a) again
        "The Supplier shall supply the Products. (a) Facility addenda. Either party may enter into them.\n\n"
        "(a) Clinical supply. Buyer may request supply.",
        ["enumeration"],
        "The Supplier shall supply the Products.\n\n(a) Facility addenda. Either party may enter into them.\n\n"
        "(b) Clinical supply. Buyer may request supply.",
    ),
]

WHOLE = [
    "Shipment\n\nShipping dates are approximate.",  # a heading paragraph heads the next
    "Supplier shall:\n\n(a) keep records; and\n\n(b) allow audits.",  # list items
    "a) Materials\n\ni. Supplier buys.\n\nii. Supplier tests.\n\nb) Buyer Material\n\ni. Buyer supplies.",  # nested
    "Supplier shall:\n\n(a) ship;\n\n(b) invoice.\n\nBuyer shall:\n\n(a) pay;\n\n(b) accept.",  # two lists
    "(a) First item.\n\nA paragraph that continues item (a).\n\n(b) Second item.",
    # the list's first item stands inside the paragraph above
    "Lessor shall indemnify Lessee for losses caused by: (a) any breach of this Agreement; and\n\n(b) any negligence.",
    "Buyer shall pay within thirty days.",
    "The fee is set out in Exhibit A. Payment is due on receipt.",
]


@pytest.mark.parametrize("body,kinds,repaired", CASES)
def test_broken_paragraphs_are_found_and_repaired(body, kinds, repaired):
    assert [f["kind"] for f in paragraph_faults(body)] == kinds
    new, changes = repair_paragraphs(body)
    assert new == repaired
    assert changes and paragraph_faults(new) == []


@pytest.mark.parametrize("body", WHOLE)
def test_whole_paragraphs_are_no_fault_and_come_back_byte_identical(body):
    assert paragraph_faults(body) == []
    assert repair_paragraphs(body) == (body, [])


def test_the_consistency_pass_repairs_paragraphs_and_reports_them():
    sections = [{"heading": "Obligations", "clause": "obligations", "body": CASES[6][0]}]
    bodies, report = consistency_pass(sections, preamble="")
    assert bodies == [CASES[6][2]]
    assert report["totals"]["paragraphs_repaired"] == 2
    assert [(c["kind"], c["old"], c["new"]) for c in report["sections"][0]["changes"]] == [
        ("paragraph", "B.", "A."),
        ("paragraph", "C.", "B."),
    ]


def test_a_noun_before_its_own_plural_is_a_doubled_word_the_pass_removes():
    body = "It meets the requirements of the Product Products."
    sections = [{"heading": "Supply", "clause": "products", "body": body}]
    bodies, report = consistency_pass(sections, preamble='Acme supplies containers (the "Products").')
    assert bodies == ["It meets the requirements of the Products."]
    assert [(c["kind"], c["old"], c["new"]) for c in report["sections"][0]["changes"]] == [
        ("doubled_word", "Product Products", "Products")
    ]


@pytest.mark.parametrize("body", ["The initial term starts today.\n\nRenewal.", "The term starts today.\n\nRenewal"])
def test_a_heading_left_alone_at_the_end_of_a_body_goes(body):
    assert [f["kind"] for f in paragraph_faults(body)] == ["heading_alone"]
    assert repair_paragraphs(body)[0] == body.split("\n\n")[0]


def test_a_body_that_is_only_a_heading_is_a_fault_the_repair_cannot_empty():
    # seen in the harness: an indemnification section reading "Indemnification by Adaptimmune LLC." and nothing
    # else ("by" is a heading's word: the start now strips such a run-in heading before the sentence cut)
    body = "Indemnification by Adaptimmune LLC."
    assert [f["kind"] for f in paragraph_faults(body)] == ["heading_alone"]
    assert repair_paragraphs(body)[0] == body
    assert strip_inline_heading("Indemnification by Supplier. Supplier shall indemnify Buyer.") == (
        "Supplier shall indemnify Buyer."
    )


def test_a_marker_or_heading_that_numbers_or_heads_nothing_is_a_fault_and_goes():
    body = (
        "The Buyer shall pay the prices. Invoices and Payment.\n\nTaxes.\n\n(a) The price includes all taxes.\n\n"
        "All risk shall be borne by the Buyer.\n\nA..\n\nUpon delivery, Buyer will sign the bill of lading."
    )
    kinds = [f["kind"] for f in paragraph_faults(body)]
    assert kinds == ["heads_nothing", "heads_nothing"]
    out, changes = repair_paragraphs(body)
    assert out == (
        "The Buyer shall pay the prices.\n\nTaxes.\n\n(a) The price includes all taxes.\n\n"
        "All risk shall be borne by the Buyer.\n\nUpon delivery, Buyer will sign the bill of lading."
    )
    assert [c["action"] for c in changes] == ["removed", "removed"] and paragraph_faults(out) == []
    # a heading above its own text is whole
    assert paragraph_faults("Shipment\n\nSupplier ships.\n\nTaxes.\n\n(a) Buyer pays taxes.") == []


def test_a_section_number_left_alone_at_the_end_heads_nothing():
    # a licence clause in the harness at 32aa977 ended "... with the aid of a machine or device.\n\n2A."
    body = "The license grant shall apply to all material objects of the property.\n\n2A."
    assert [f["kind"] for f in paragraph_faults(body)] == ["heads_nothing"]
    assert repair_paragraphs(body)[0] == "The license grant shall apply to all material objects of the property."
    numbered = "Supplier ships the goods.\n\n4.1.\n\nBuyer pays on receipt."
    assert repair_paragraphs(numbered)[0] == "Supplier ships the goods.\n\nBuyer pays on receipt."


def test_a_list_under_a_part_heading_starts_its_own_lettering():
    """Seed 331: Bonterms' "Effect of Termination." list read "(d) Customer's right to use the Cloud Service ..."
    after the Data Export part's (a)-(c); a part's heading starts its list again, as a paragraph ending ':' does."""
    body = ("Data Export.\n\n(a) Customer may export.\n\n(b) Provider will delete.\n\n(c) Nonetheless, the recipient"
            " may retain.\n\nEffect of Termination.\n\n(a) Customer's right to use the Cloud Service will cease.\n\n"
            "(b) The following Sections will survive.")
    assert repair_paragraphs(body) == (body, [])
    continued = body.replace("(a) Customer's", "(d) Customer's").replace("(b) The following", "(e) The following")
    assert repair_paragraphs(continued)[0] == body
    assert paragraph_faults(body) == []


def test_a_first_marker_after_a_paragraph_of_prose_starts_a_list_of_its_own():
    """Seed 457: a franchise's curable defaults ("A. You fail to pay promptly ...") after the sentence granting a cure
    had been lettered K. to P., on from the incurable defaults above it, which put them among those without a cure
    (the reader). A list that goes on after prose keeps its letters."""
    body = ("Franchisor may terminate, without a cure, upon any of the following:\n\n"
            "A. You become insolvent or make an assignment for the benefit of creditors.\n\n"
            "B. You abandon the Franchise for five days in a row.\n\n"
            "Except for the defaults listed above, you shall have 30 days to remedy any default.\n\n"
            "A. You fail to pay promptly any monies owing to Franchisor when due.\n\n"
            "B. You fail to keep the standards of the operations manual.")
    assert repair_paragraphs(body) == (body, [])
    assert not [f for f in paragraph_faults(body) if f["kind"] == "enumeration"]
    gone_on = body.replace("A. You fail", "C. You fail").replace("B. You fail", "D. You fail")
    assert repair_paragraphs(gone_on) == (gone_on, [])


def test_what_follows_termination_is_no_statement_of_the_term():
    """Seed 457: the franchise's "Upon termination or expiration of this Agreement, this Agreement and all rights
    granted hereunder to you shall immediately terminate, and:" had gone as a second term, and its list of
    post-termination duties read with no lead-in."""
    from hybrid.text.term import states_term
    from hybrid.text.wording import drop_second_term

    lead = ("Upon termination or expiration of this Agreement, this Agreement and all rights granted hereunder to you "
            "shall immediately terminate, and:")
    frame = "The term of this Agreement is 10 years from the Effective Date."
    assert not states_term(lead)
    assert drop_second_term(f"{lead}\n\nA. You shall cease to operate the Franchise.", frame)[1] == []


def test_a_notice_clauses_address_lines_are_no_unterminated_sentences():
    """The notice_addresses pass writes one blank address line per party ("If to Sponsor: [___]"); the reading check
    had counted each as a paragraph stopping without a full stop (12 in this session's sponsorship drafts)."""
    body = "Notices go as follows:\n\nIf to Sponsor: [___]\n\nIf to Rights Holder: [___]\n\nEither party may change it."
    assert paragraph_faults(body) == []
    assert paragraph_faults(body.replace("\n\nEither party may change it.", "")) == []  # nor heads nothing
    two = "Notices go as follows:\n\nIf to Supplier: [___]\n\nIf to Distributor: [___]"
    assert paragraph_faults(two) == [] and paragraph_faults(two + "\n\nEither party may change it.") == []
    assert [f["kind"] for f in paragraph_faults("Buyer shall pay the\n\nSupplier ships.")] == ["unterminated"]


def test_a_termination_triggers_items_are_kept_whatever_their_source_wrote_between_them():
    """A distributor base's insolvency triggers ended on ": or" (its typo for "; or") and had gone as sentences cut
    mid-way, and a list item whose next item went ended on its comma and went too; a cold reader found the
    termination right's "unable to pay its debts" and "winding up" removed. The items stay, the last one stopped."""
    body = ("Either party may terminate this Agreement by notice if:\n\n"
            "(a) the other party is unable to pay its debts as they fall due: or\n\n"
            "(b) a petition is filed for the winding up of that other party: or\n\n"
            "(c) a receiver is appointed over the assets of the other party.")
    assert repair_paragraphs(body) == (body, [])
    body = ("The Distributor shall notify the Supplier of:\n\n(a) any infringement of the trade marks; and\n\n"
            "(b) any claim that any Product infringes the rights of any third party,\n\n"
            "The Supplier shall have sole control of any action.")
    out, changes = repair_paragraphs(body)
    assert "(b) any claim that any Product infringes the rights of any third party.\n\nThe Supplier" in out
    assert [c["action"] for c in changes] == ["terminated"]
