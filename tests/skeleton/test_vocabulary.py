"""Whether another document's clause reads as part of a base (hybrid.skeleton.vocabulary), and that drafting from a
base takes no clause that does not (hybrid.skeleton.from_base): the seed-83 reading found an SLA's service credits
replaced by an NDA's equitable relief, and a software licence's damages-waiver exceptions by a cloud agreement's
that drop the licensee's breach of its licence."""

import pytest

from hybrid.skeleton.vocabulary import Vocabulary
from hybrid.templates.template import load_template

UPTIME = ("Uptime. Provider will make the Cloud Service available at least the Target Uptime each month.\n"
          "Credits. If Provider misses the Target Uptime, Customer receives the Uptime Credit.")
REMEDIES = ("Service Credits. Customer will receive the Uptime Credit for each month in which Provider misses the "
            "Target Uptime, and may terminate if Provider misses the Target Uptime in two of three months.")
EQUITABLE = ("Upon a breach of this Agreement, the non-breaching party is entitled to seek equitable relief, "
             "including an injunction, in addition to its other remedies.")
WAIVER = ("Section 7.2 (Damages Waiver) does not apply to any breach of Section 9 (Confidentiality), or Customer's "
          "breach of Section 1.1 (License).")
SISTER = "Section 7.2 (Damages Waiver) does not apply to any breach of Section 9 (Confidentiality)."


def test_a_replacement_keeps_the_terms_its_section_shares_with_the_base():
    v = Vocabulary([UPTIME, REMEDIES], "Hosting Agreement between Acme Corp and Beta LLC")
    assert not v.keeps(REMEDIES, EQUITABLE)
    assert v.keeps(REMEDIES, "Customer will receive the Uptime Credit whenever Provider misses the Target Uptime.")


def test_a_replacement_keeps_every_section_its_section_cites_by_title():
    v = Vocabulary([WAIVER, "License. Provider grants Customer a licence.", "Damages Waiver. No party is liable."],
                   "Software licence", headings=["Confidentiality"])
    assert not v.keeps(WAIVER, SISTER)
    assert v.keeps(SISTER, WAIVER)


def test_a_clause_citing_a_title_the_base_has_no_heading_for_is_told():
    v = Vocabulary(["Damages Waiver. No party is liable."], "deal", headings=["Confidentiality"])
    assert v.unheaded(WAIVER) == ["License"]
    assert v.unheaded(SISTER) == []
    # a clause's own parts are no other section: "Section 8.4 (Exceptions)" inside a cap clause with an Exceptions part
    assert v.unheaded("Caps. Except as provided in Section 8.4 (Exceptions), no more.\nExceptions. None.") == []


def test_the_terms_a_clause_brings_are_those_neither_the_base_nor_the_deal_uses():
    v = Vocabulary(["Each party's liability is limited to the Fees paid under this Agreement."], "Franchise deal")
    brought = v.imports("Each party's liability will not be more than the General Cap Amount, except for the Fees.")
    assert brought == ["General Cap Amount"]
    assert v.imports("Each party's liability is limited to the Fees paid.") == []


def test_an_acronym_the_base_never_uses_is_a_term_brought():
    """Seed 211: a franchise lacking a liability cap took a data processing agreement's ("arising out of or related
    to this DPA"): an acronym neither the base nor the deal writes reads as another document's."""
    v = Vocabulary(["Franchisee shall pay the royalty. The USD amounts are fixed."], "Franchise deal in the USA")
    assert v.imports("Each party's total liability arising out of or related to this DPA is limited.") == ["DPA"]
    assert v.imports("All amounts are in USD and the royalty is paid monthly.") == []


@pytest.fixture(scope="module")
def library():
    from hybrid.precedents.library import load_library

    return load_library(progress=False)


@pytest.mark.parametrize("tid", ["hosting", "software-license"])
def test_no_alternative_drops_what_the_section_it_replaces_does(library, tid):
    from hybrid.skeleton.from_base import base_variants
    from hybrid.skeleton.vocabulary import _TITLED

    t = load_template(tid)
    variants = base_variants(library, t, t.example, 6)
    by_id = {p.id: p for p in library.precedents}
    own = {i: p for i, p in enumerate(variants[0].draws)}
    assert any(v.alternatives for v in variants)  # a repeated form still varies
    for v in variants:
        for alt in v.alternatives:
            replaced, p = own[alt["section"]], by_id[alt["source"]]
            assert set(_TITLED.findall(replaced.body)) <= set(_TITLED.findall(p.body)), (tid, alt)
            if "Uptime Credit" in replaced.body:
                assert "Uptime Credit" in p.body, (tid, alt)


@pytest.mark.parametrize("tid", ["sponsorship", "hosting", "software-license"])
def test_an_alternative_is_headed_on_the_subject_of_the_section_it_replaces(library, tid):
    """The seed-347 sponsorship's "Advertising and Other Benefits" (the list of what the sponsor gets) took another
    contract's "Refund or Reduction of Sponsorship Fee" as its alternative: the top draft listed no benefits."""
    from hybrid.skeleton.from_base import base_variants
    from hybrid.skeleton.insertions import ALT_MIN_SHARE, same_subject

    assert not same_subject("Refund or Reduction of Sponsorship Fee", "Advertising and Other Benefits")
    assert same_subject("Sponsorship Benefits", "Advertising and Other Benefits")
    assert same_subject("Confidential Information", "CONFIDENTIALITY")
    t = load_template(tid)
    variants = base_variants(library, t, t.example, 6)
    by_id = {p.id: p for p in library.precedents}
    for v in variants:
        for alt in v.alternatives:
            replaced, p = variants[0].draws[alt["section"]], by_id[alt["source"]]
            assert same_subject(p.heading, replaced.heading), (tid, alt)
            # and does its work: not a one-sentence clause for a list of benefits
            assert len(p.body.split()) >= ALT_MIN_SHARE * len(replaced.body.split()), (tid, alt)
