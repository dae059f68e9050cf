"""classify_heading: the heading -> clause type rule table."""

import pytest

from hybrid.data.clauses import CLAUSE_TYPES, classify_heading, stop_run_in_headings

CASES = [
    ("Definitions", "definitions"),
    ("Interpretation", "definitions"),
    ("RECITALS", "recitals"),
    ("Limitation of Liability", "limitation_of_liability"),
    ("Limitations on Liability", "limitation_of_liability"),
    ("Indemnification by Google", "indemnification"),
    ("Confidential Information", "confidentiality"),
    ("Non-Disclosure", "confidentiality"),
    ("Governing Law; Consent to Jurisdiction", "governing_law"),
    ("Law and jurisdiction", "governing_law"),
    ("Dispute Resolution", "dispute_resolution"),
    ("Waiver of Jury Trial", "dispute_resolution"),
    ("Term and Termination", "termination"),
    ("Events of Default", "termination"),
    ("Term", "term"),
    ("Term of the Agreement", "term"),
    ("Conditions Precedent", "term"),
    ("Fees; Payment", "payment"),
    ("Royalties and Service Fees", "payment"),
    ("Injunctive Relief; Attorneys Fees", "remedies"),
    ("Taxes", "taxes"),
    ("Records; Audits", "audit"),
    ("Ownership of Intellectual Property", "intellectual_property"),
    ("Use of Trademarks", "intellectual_property"),
    ("Grant of License", "license"),
    ("Source Code Escrow", "license"),
    ("Representations and Warranties", "warranties"),
    ("Power and Authority", "warranties"),
    ("Exclusivity", "exclusivity"),
    ("Non-Competition", "exclusivity"),
    ("Standstill", "exclusivity"),
    ("Insurance", "insurance"),
    ("Force Majeure", "force_majeure"),
    ("Excusable Delay", "force_majeure"),
    ("Notices", "notices"),
    ("Assignment", "assignment"),
    ("Transfer Restrictions", "assignment"),
    ("Publicity", "publicity"),
    ("Relationship of the Parties", "relationship"),
    ("Joint Steering Committee", "relationship"),
    ("Compliance with Laws", "compliance"),
    ("Regulatory Matters", "compliance"),
    ("Entire Agreement", "entire_agreement"),
    ("Integrated Agreement", "entire_agreement"),
    ("Amendment", "amendment"),
    ("Waiver", "amendment"),
    ("Severability", "severability"),
    ("Counterparts", "counterparts"),
    ("Survival", "survival"),
    ("Remedies", "remedies"),
    ("Obligations of Vendor", "obligations"),
    ("Support and Maintenance", "services"),
    ("Research Program", "services"),
    ("Supply of Products", "products"),
    ("Storage, Shipping and Inventory", "products"),
    ("Marketing and Promotion", "marketing"),
    ("Appointment", "appointment"),
    ("Territory", "appointment"),
    ("Miscellaneous", "general"),
    ("Time of the Essence", "general"),
    ("General Cap Amount", "limitation_of_liability"),
    ("Order Form", "general"),
    ("Garbled Qwxz", "other"),
]


@pytest.mark.parametrize("heading, expected", CASES)
def test_heading_maps_to_clause_type(heading, expected):
    assert classify_heading(heading) == expected


def test_every_rule_type_is_in_the_closed_vocabulary_and_other_is_last():
    assert CLAUSE_TYPES[-1] == "other"
    assert len(set(CLAUSE_TYPES)) == len(CLAUSE_TYPES)
    assert {expected for _, expected in CASES} <= set(CLAUSE_TYPES)


def test_classification_ignores_case_and_spacing():
    assert classify_heading("  GOVERNING   LAW ") == classify_heading("governing law") == "governing_law"


@pytest.mark.parametrize(
    "text, expected",
    [
        # the source's "4.1 Delivery Terms   BII shall": the numbering went, and the heading's stop was never there
        ("Delivery Terms [PARTY_B] shall (a) deliver", "Delivery Terms. [PARTY_B] shall (a) deliver"),
        ("It ends.\n\nAssignment Neither party may assign", "It ends.\n\nAssignment. Neither party may assign"),
        ("Term This Agreement shall begin", "Term. This Agreement shall begin"),
        ("Invoices; Payments The Suppliers shall invoice", "Invoices; Payments. The Suppliers shall invoice"),
        # sentences, not headings: left as written
        ("Upon Customer's request for services", "Upon Customer's request for services"),
        ("By [PARTY_A]. [PARTY_A] agrees", "By [PARTY_A]. [PARTY_A] agrees"),
        ("Software License [PARTY_A] and Maintenance", "Software License [PARTY_A] and Maintenance"),
        ("Payment Terms. Unless otherwise agreed", "Payment Terms. Unless otherwise agreed"),
        ("Survival of Rights Upon Termination. Sections 1", "Survival of Rights Upon Termination. Sections 1"),
        ("A party. Assignment Neither party may", "A party. Assignment Neither party may"),  # mid-paragraph: unsure
    ],
)
def test_a_run_in_heading_that_lost_its_stop_gets_it_back(text, expected):
    assert stop_run_in_headings(text) == expected
