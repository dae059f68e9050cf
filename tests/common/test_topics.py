"""hybrid.common.topics: a sentence that leans on a clause the draft does not have."""

import pytest

from hybrid.common.topics import absent_mentions, absent_types, convenience_termination

SURVIVAL = (
    "Any and all rights and obligations of the Parties, including obligations respecting confidentiality and "
    "indemnification, shall survive the termination of this Agreement."
)


def test_a_type_is_absent_only_where_no_section_holds_it_and_the_deal_does_not_write_it():
    assert absent_types(["definitions", "term", "general"]) == {"indemnification", "license", "confidentiality"}
    assert "indemnification" not in absent_types(["indemnification"])
    assert "license" not in absent_types(["intellectual_property"])  # a licence may stand under IP
    # the deal's own words: a software licence whose parties are Licensor and Licensee
    assert "license" not in absent_types(["term"], 'Acme (the "Licensor") and Beta (the "Licensee")')


def test_mentions_name_the_type_they_presuppose():
    nda = absent_types(["confidentiality", "term", "survival"])
    assert [t for _, _, t in absent_mentions(SURVIVAL, nda)] == ["indemnification"]
    assert [t for _, _, t in absent_mentions("Lessor shall hold harmless the Lessee.", nda)] == ["indemnification"]
    lease = absent_types(["term", "payment", "general"])
    found = absent_mentions(
        "The license hereby granted shall be exclusive. This Agreement does not require either party to disclose "
        "or to receive Information. Lessee shall pay all royalties.", lease
    )
    assert [t for _, _, t in found] == ["license", "confidentiality", "license"]
    assert absent_mentions("Lessee shall pay the rent when due and keep the Equipment insured.", lease) == []


@pytest.mark.parametrize(
    "sentence, at_will",
    [
        ("Either party may terminate this Agreement by providing [___] month's written notice to the other.", True),
        ("Either Party may terminate this Agreement for any or no reason upon notice to the other Party.", True),
        ("Lessee may terminate this Agreement upon thirty (30) days prior written notice.", True),
        ("Either party may terminate this Agreement upon written notice if the other party is in material breach.",
         False),
        ("Either party may terminate this Agreement on notice if a force majeure event lasts 90 days.", False),
        ("Lessee shall give notice of any loss of the Equipment.", False),
    ],
)
def test_a_right_to_end_the_agreement_at_will_is_told_from_one_for_cause(sentence, at_will):
    assert convenience_termination(sentence) is at_will


def test_a_licence_granted_is_found_in_any_case():
    """"the License granted under this Agreement" in a hosting clause: the undefined-term pass writes it "license",
    so the rule has to see it as the source writes it, where the fit and the pass look."""
    from hybrid.common.topics import absent_mentions

    text = "Customer may use the platform in accordance with the License granted under this Agreement."
    assert [t for _, _, t in absent_mentions(text, {"license"})] == ["license"]
