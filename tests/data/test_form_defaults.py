"""What a standard form's cover page proposes for its Variables (hybrid.data.form_defaults); the Key Terms a draft
states with it: tests/precedents/test_base.py."""

from hybrid.data.corpus import corpus_root
from hybrid.data.form_defaults import cover_defaults, form_defaults, proposals_for, row_requires

COVER = """Key Terms
General Cap Amount
Limitation of liability amount for most claims
[Drafting note: Select one option and delete the others.]

[ x ]{cap_multiplier}x the Fees paid or payable by Customer to Provider in the 12 month period before the claim
[    ]${general_cap_amount}
Covered Claims
[ x ]Provider Covered Claims: [Any action, proceeding, or claim that the Software infringes anyone's rights.]
{IF has_security}Security Policy
[ x ]Provider will use commercially reasonable efforts to secure the Software.
[    ]Provider will comply with the Security Policy available at {dpa_reference}.
Increased Claims
[ x ]Breach of Section 3 (Privacy & Security)
[ x ]Breach of Section 10 (Confidentiality)
Order Date
( x )Date of last signature on this Order Form
Auto-renewal
( x )Non-Renewal Notice Date: At least {payment_terms_days} days before the end of the current Subscription Period
End Date
( x ){term_number} {term_unit} after the Effective Date
**Increased Cap Amount:** [[ 5x the fees paid or payable by Customer to Provider in the 12 months before the claim. ]]
Payment. All amounts are due within 30 days after the invoice date (the “**Payment Period**”).
"""


def test_a_cover_page_proposes_its_ticked_options_and_its_filled_in_values():
    found = cover_defaults(COVER)
    claims = "Any action, proceeding, or claim that the Software infringes anyone's rights"
    assert found["Provider Covered Claims"] == claims
    assert found["Security Policy"] == "Provider will use commercially reasonable efforts to secure the Software"
    both = "Breach of Section 3 (Privacy & Security); Breach of Section 10 (Confidentiality)"
    assert found["Increased Claims"] == both
    assert found["Increased Cap Amount"].startswith("5x the fees paid or payable by Customer to Provider")
    assert found["Payment Period"] == "30 days after the invoice date"  # the terms' own default, where they name it
    # a generator's field in a ticked option is a blank in its proposal (a hyphenated Variable under its own name:
    # the hosting draft's Key Terms had no "Non-Renewal Notice Date", its notice period unstated, session 38); two
    # blanks, another kind of blank or the cover page's own mechanics propose nothing
    assert found["General Cap Amount"] == "[___]x the Fees paid or payable by Customer to Provider in the 12 month " \
        "period before the claim"
    assert found["Non-Renewal Notice Date"] == "At least [___] days before the end of the current Subscription Period"
    assert "End Date" not in found and "Auto-renewal" not in found
    assert found["Order Date"] == "the Effective Date"  # signing the cover page: the draft's own date


def test_the_corpus_forms_propose_a_liability_cap_and_another_forms_proposal_must_be_in_the_bases_terms():
    per_form, merged, requires = form_defaults(str(corpus_root()))
    assert requires["Increased Cap Amount"] == "Increased Claims"
    assert merged["General Cap Amount"].startswith("1x the fees paid or payable by Customer to Provider")  # no blank
    assert merged["Non-Renewal Notice Date"].startswith("At least [___] days before the end")
    assert all(path.startswith("standard-agreements/") for path in per_form)
    cloud = "Provider shall make the Cloud Service available to Customer. Customer pays the fees."
    services = "Provider will perform the Services for Customer. Customer pays the fees and Applicable Laws apply."
    on_cloud = proposals_for("mine.txt", [cloud])
    on_services = proposals_for("mine.txt", [services])
    assert on_cloud["General Cap Amount"][0].startswith("1x the fees") and on_cloud["General Cap Amount"][1].endswith(
        "common-paper-csa-click-through.txt")
    # "secure the Cloud Service": no proposal for a form that has no Cloud Service; a section number neither
    assert "Security Policy" in on_cloud and "Security Policy" not in on_services
    assert "Increased Claims" not in on_cloud
    assert "Increased Cap Amount" not in on_cloud  # a supercap for no claims: its drafting note ties it to them
    assert "General Cap Amount" not in proposals_for("mine.txt", ["Company and Partner will cooperate."])
    # a listed proposal keeps the items whose sections the base heads so (renumbered by that heading in the draft)
    headed = proposals_for("mine.txt", [cloud], headings={"Confidentiality", "Payment"})
    assert headed["Increased Claims"][0] == ("Breach of Section 10 (Confidentiality) (however, excluding any data or "
                                             "security breaches)")
    assert headed["Increased Cap Amount"][0].startswith("5x the fees")  # its tie now holds
    both = proposals_for("mine.txt", [cloud], headings={"Confidentiality", "Privacy & Security"})
    assert both["Increased Claims"][0].startswith("Breach of Section 3 (Privacy & Security); Breach of Section 10")
    assert "Increased Claims" not in proposals_for("mine.txt", [cloud], headings={"Payment"})



def test_a_drafting_note_ties_a_row_to_another():
    note = ("[Drafting note: This is an optional Variable. If no Increased Claims are included, delete the entire row "
            "and the row for Increased Cap Amount.] [Drafting note: If no Unlimited Claims are included, delete this "
            "entire row.] If no Increased Claims are included, delete this entire row and the Increased Cap Amount "
            "row.")
    assert row_requires(note) == {"Increased Cap Amount": "Increased Claims"}
