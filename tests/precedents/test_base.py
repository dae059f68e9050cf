"""The base a variant starts from (hybrid.precedents.base) and its skeleton (hybrid.skeleton.from_base), on the
real train-split library (built into .cache on first use, as hybrid.draft does)."""

import re

import pytest

from hybrid.precedents.base import Base, choose_bases, kinds_of
from hybrid.precedents.checklist import market_check
from hybrid.precedents.fit import STANDARD_SOURCES
from hybrid.templates.template import load_template


@pytest.fixture(scope="module")
def library():
    from hybrid.precedents.library import load_library

    return load_library(progress=False)


def test_a_whole_standard_form_of_the_kind_comes_first(library):
    t = load_template("saas-agreement")
    bases = choose_bases(library, t, t.example)
    assert bases[0].kind == "form" and bases[0].source in STANDARD_SOURCES
    assert bases[0].doc_type.upper() in kinds_of(t)
    forms = [b for b in bases if b.kind == "form"]
    assert bases[: len(forms)] == forms  # every form before any contract


def test_a_cover_page_is_no_base(library):
    t = load_template("mutual-nda")
    bases = choose_bases(library, t, t.example)
    assert bases[0].doc_id.endswith("bonterms-mutual-nda.md")
    # the Common Paper and Bonterms cover pages (a few hundred words) hold no terms to start from
    assert not any(b.doc_id.endswith(("bonterms-mutual-nda.txt", "common-paper-mutual-nda.txt")) for b in bases)


def test_contracts_of_the_kind_are_ranked_by_fit_and_stay_of_the_kind(library):
    t = load_template("supply")
    bases = choose_bases(library, t, t.example)
    assert len(bases) >= 4
    assert all(b.kind == "precedent" and b.doc_type.upper() in kinds_of(t) for b in bases)
    assert [b.score for b in bases] == sorted((b.score for b in bases), reverse=True)
    assert set(bases[0].parts) == {"completeness", "subject", "meaning", "tied", "foreign", "length", "typical"}


def test_a_base_written_as_any_contract_of_its_kind_outranks_one_about_its_own_deals_goods(library):
    """Plastic containers: a master supply agreement whose goods sit in schedules (read B, session 35) before a
    vehicle maker's manufacturing agreement with road tests and homologation fees (read C): its sentences sit nearer
    the standard forms' (hybrid.precedents.typicality), and the vehicle maker's subject is no nearer the deal's than
    any other's (under MEANING_FLOOR)."""
    t = load_template("supply")
    bases = choose_bases(library, t, t.example)
    rank = {b.doc_id.rsplit("/", 1)[-1].split("_")[0].split(" ")[0]: i for i, b in enumerate(bases)}
    assert rank["ReynoldsConsumerProductsInc"] < rank["ELECTRAMECCANICA"]
    by = {b.doc_id: b for b in bases}
    reynolds = next(b for d, b in by.items() if "ReynoldsConsumerProductsInc_20191115" in d)
    electra = next(b for d, b in by.items() if "ELECTRAMECCANICA" in d)
    from hybrid.precedents.base import _embedder, documents
    from hybrid.precedents.typicality import typicality

    measured = [typicality(library, b.doc_id, b.sections, _embedder(library), documents(library))
                for b in (reynolds, electra)]
    assert measured[0] > measured[1] > 0 and reynolds.parts["typical"] > 0


def test_an_unrelated_subject_earns_no_meaning_however_near_it_is_among_the_rest(library):
    """Ultrasound scanners: the energy distributor's agreement sits at 0.27, the nearest of the split's distributors
    and no distributor of scanners; it had taken the distributor's first place on that (read C, against a medical
    device distributor's agreement, seed 457). Below MEANING_FLOOR a subject counts for nothing."""
    from hybrid.precedents.base import MEANING_FLOOR

    t = load_template("distributor")
    bases = choose_bases(library, t, t.example)
    assert all(b.parts["meaning"] == 0.0 for b in bases) and MEANING_FLOOR > 0.27
    assert "LIMEENERGY" not in bases[0].doc_id


def test_no_document_shares_a_subject_none_of_them_is_about(library):
    """A solar venture on mine land: every joint venture of the split is about something else (cosines 0.13 at
    most), so the deal's subject tells none of them apart; scaled against the pool, the nearest had taken all of
    W_MEANING (a nutraceutical joint venture)."""
    t = load_template("joint-venture")
    assert all(b.parts["meaning"] == 0.0 for b in choose_bases(library, t, t.example))


def test_a_deals_subject_one_phrase_of_many_still_chooses_the_contract_about_it(library):
    """A bakery cafe: no franchise's whole profile reaches MEANING_FLOOR (the fast-food restaurant's 0.26, the air
    purifiers' 0.15), and the air-purifier reseller franchise had been the base on word matches (read C at seeds 733,
    947). Phrase by phrase ("franchised restaurant": PHRASE_FLOOR) the restaurant franchises are about the deal's
    subject; the longest of them (18,000 words, no exhibits) is within the kind's own lengths (_longest)."""
    from hybrid.precedents.base import MAX_BASE_WORDS

    t = load_template("franchise")
    bases = choose_bases(library, t, t.example)
    meant = {b.doc_id.rsplit("/", 1)[-1].split("_")[0] for b in bases if b.parts["meaning"] > 0}
    assert meant == {"BUFFALOWILDWINGSINC", "INTERNATIONALFASTFOODCORP"}
    assert "BUFFALOWILDWINGS" in bases[0].doc_id and bases[0].words > MAX_BASE_WORDS
    assert "AIRTECH" not in bases[0].doc_id


@pytest.mark.parametrize("products,doc", [
    ("cryptocurrency mining rigs", "ImineCorp_20180725_S-1_EX-10.5"),
    ("linear accelerators for radiation oncology", "ACCURAYINC_09_01_2010-EX-10.31"),
])
def test_the_deals_subject_chooses_the_contract_about_it(library, products, doc):
    # the same distributor template and deal but for what is distributed: the contract about it comes first
    # (its subject phrases, hybrid.precedents.base.subject_profile), not one whose words merely match the deal's
    t = load_template("distributor")
    bases = choose_bases(library, t, {**t.example, "products": products})
    assert doc in bases[0].doc_id and bases[0].parts["meaning"] == 1.0


def test_a_base_that_is_mostly_another_deals_subject_loses_fit(library, monkeypatch):
    import hybrid.precedents.base as base_module

    t = load_template("supply")
    before = {b.doc_id: b.score for b in choose_bases(library, t, t.example)}
    foreign = {b.doc_id: b.parts["foreign"] for b in choose_bases(library, t, t.example)}
    monkeypatch.setattr(base_module, "W_FOREIGN", 0.0)
    after = {b.doc_id: b.score for b in choose_bases(library, t, t.example)}
    worst = max(foreign, key=foreign.get)
    assert foreign[worst] > 0 and after[worst] - before[worst] == pytest.approx(1.5 * foreign[worst])


def test_a_kind_the_corpus_lacks_takes_the_nearest_and_says_so(library):
    t = load_template("supply")
    from dataclasses import replace

    odd = replace(t, doc_type="SHIP CHARTER PARTY", grounding={"doc_types": []})
    bases = choose_bases(library, odd, t.example)
    assert bases and all(b.kind == "nearest" for b in bases)


def test_a_base_summary_names_its_document_and_why(library):
    t = load_template("one-way-nda")
    b = choose_bases(library, t, t.example)[0]
    s = b.summary()
    assert isinstance(b, Base) and s["doc_id"] == b.doc_id and s["kind"] == "form" and s["words"] > 900
    assert s["license"] and 0 <= s["parts"]["completeness"] <= 1


@pytest.mark.parametrize("tid,lacks", [("sponsorship", True), ("distributor", False), ("saas-agreement", False)])
def test_a_variant_holds_what_its_base_lacks_from_a_same_kind_source(library, tid, lacks):
    from hybrid.skeleton.from_base import base_variants

    t = load_template(tid)
    index = {p.id: p for p in library.precedents}
    gained = inserted = 0
    for bv in base_variants(library, t, t.example, 2):
        rows = [{"heading": p.heading, "clause": p.clause_type, "body": p.body} for p in bv.base.sections]
        before = market_check(t, rows)
        after = market_check(t, [{"heading": s.heading, "clause": s.clause,
                                  "body": (getattr(d, "body", "") or "") + " " + s.frame}
                                 for s, d in zip(bv.skeleton.spans, bv.draws)])
        assert after["held"] >= before["held"] + len(bv.inserted)
        gained += after["held"] - before["held"]
        inserted += len(bv.inserted)
        for rec in bv.inserted:
            p = index[rec["source"]]
            assert rec["for"] not in after["lacking"]
            # never from another kind while the kind has one; another kind's standard form only for boilerplate
            assert p.doc_type.upper() in kinds_of(t) or p.source in STANDARD_SOURCES
            assert bv.skeleton.spans[rec["section"]].clause == rec["clause"]
    if lacks:  # the best sponsorship bases lack a clause real sponsorships hold (a cap), and the draft has it
        assert inserted and gained >= inserted


def test_a_variant_keeps_its_bases_sections_in_order(library):
    from hybrid.skeleton.from_base import base_variants, form_leftovers_out

    t = load_template("mutual-nda")
    bv = base_variants(library, t, t.example, 1)[0]
    own = [d.id for d in bv.draws if d and d.doc_id == bv.base.doc_id]
    assert own == [p.id for p in bv.base.sections if p.id in own]
    # what goes is a form's section that says nothing once its words about itself and its cover page go (Bonterms'
    # Introduction); every other section stays
    gone = [p for p in bv.base.sections if p.id not in own]
    assert len(gone) <= 1 and all(not form_leftovers_out(p.body).strip() for p in gone)
    # the deal's frames open the base's own sections of their clause type
    framed = [s for s in bv.skeleton.spans if s.frame]
    assert framed and all(s.clause in {"confidentiality", "termination", "term", "governing_law", "remedies"}
                          for s in framed)


def test_repeated_bases_still_differ(library):
    from hybrid.skeleton.from_base import base_variants

    t = load_template("mutual-nda")
    vs = base_variants(library, t, t.example, 3)
    assert len({v.base.doc_id for v in vs}) == 1  # one whole NDA form of its kind in the corpus
    texts = [tuple(getattr(d, "id", d) for d in v.draws) for v in vs]
    assert len(set(texts)) == 3 and vs[1].alternatives and vs[2].alternatives


def test_a_whole_bases_protection_is_never_settled_away():
    from hybrid.fidelity.foreign_facts import allowed_text
    from hybrid.skeleton.deal import deal_from_template
    from hybrid.text.settle import drop_fact_sentences

    t = load_template("supply")
    deal, allowed = deal_from_template(t, t.example), allowed_text(t, t.example)
    breach = ("Either party may terminate this Agreement if the other party fails to cure a material breach within "
              "thirty days after notice from Zanzibar Quux Holdings.")
    text = ("Supplier shall deliver the Products to Buyer on time and in good condition at all times during the Term. "
            f"{breach} Buyer shall pay each invoice of Supplier within the period stated in this Agreement.")
    own = ("Zanzibar Quux Holdings",)
    assert breach not in drop_fact_sentences(text, deal, allowed, own)  # a section's precedent: its sentence goes
    assert breach in drop_fact_sentences(text, deal, allowed, own, whole=True)  # a base's: the right stays, a hole


def test_a_form_written_around_a_cover_page_points_at_the_drafts_key_terms(library):
    from hybrid.skeleton.from_base import base_variants

    t = load_template("one-way-nda")
    bv = base_variants(library, t, t.example, 1)[0]
    first = bv.skeleton.spans[0]
    assert first.heading == "Key Terms" and "Governing Law: the State of New York." in first.frame
    assert "NDA Term: 1 year." in first.frame and "Party A" not in first.frame
    bodies = [d.body for d in bv.draws if d]
    assert not any("cover page" in b.lower() or "State of Governing Law" in b for b in bodies)
    assert any("the Key Terms" in b for b in bodies) or any("the State of New York" in b for b in bodies)


def test_another_deals_term_in_a_whole_base_is_a_blank_not_a_hole():
    from hybrid.data.facts import BLANK
    from hybrid.fidelity.foreign_facts import allowed_text
    from hybrid.skeleton.deal import deal_from_template
    from hybrid.text.settle import blank_holes

    t = load_template("supply")
    deal, allowed = deal_from_template(t, t.example), allowed_text(t, t.example)
    text = "Supplier shall deliver to Zanzibar Quux Holdings the Products ordered by Buyer under this Agreement."
    out = blank_holes(text, deal, allowed, ("Zanzibar Quux Holdings",))
    assert out == f"Supplier shall deliver to {BLANK} the Products ordered by Buyer under this Agreement."
    assert blank_holes(out, deal, allowed) == out  # nothing of another deal left: unchanged


def test_a_cover_page_forms_variables_are_key_terms_with_blanks_and_the_deals_terms_take_the_forms_names(library):
    from hybrid.data.facts import BLANK
    from hybrid.skeleton.from_base import base_variants

    t = load_template("saas-agreement")
    variants = base_variants(library, t, t.example, 4)
    bv = next(v for v in variants if v.base.doc_id.endswith("cloud-service-agreement.txt"))
    frame = bv.skeleton.spans[0].frame
    # the liability cap's amount is the form's Variable, defined on a cover page the draft does not carry: the
    # Key Terms state what the forms' cover pages propose (hybrid.data.form_defaults)
    assert "General Cap Amount: 1x the fees paid or payable by Customer to Provider" in frame
    assert f"Provider Covered Claims: {BLANK}." not in frame
    # the deal's "Subscription Term" is the form's "Subscription Period", stated once under the form's name
    assert "Subscription Period: 12 months." in frame and "Subscription Term" not in frame
    assert f"Subscription Period: {BLANK}" not in frame and "Subscription Periods" not in frame
    # a term the form defines is no Variable
    assert "Applicable Laws:" not in frame and "Confidential Information:" not in frame
    assert "Sale of Goods" not in frame  # the tail of a statute's name ("Contracts for the International Sale ...")
    t = load_template("one-way-nda")
    frame = base_variants(library, t, t.example, 1)[0].skeleton.spans[0].frame
    assert "Term of Confidentiality: 3 years." in frame and "Confidentiality Term" not in frame


def test_a_sentence_taken_out_of_a_paragraph_leaves_one_space_between_its_neighbours():
    from hybrid.skeleton.from_base import _COVER_USE, _between

    text = ("and know-how. To use this NDA, the parties must complete and sign a Cover Page incorporating these NDA "
            "Terms. Discloser and Recipient are each identified.")
    assert _COVER_USE.sub(_between, text) == "and know-how. Discloser and Recipient are each identified."
    assert _COVER_USE.sub(_between, "To use it, the parties complete and sign a Cover Page.\nNext.") == "Next."


@pytest.mark.parametrize("template,words", [
    ("saas-agreement", "The Bonterms Cloud Terms are standardized terms"),
    ("mutual-nda", "is designed to allow each"),
])
def test_a_forms_words_about_itself_as_a_form_are_no_drafts(library, template, words):
    # a signed agreement does not describe itself as standardized terms or say what it is designed to allow (the
    # seed-283 readers' "leftover form introduction"); the rest of the form's opening section stays
    from hybrid.skeleton.from_base import base_variants

    t = load_template(template)
    bv = next(v for v in base_variants(library, t, t.example, 4) if v.base.doc_id.startswith("standard-agreements/bon"))
    bodies = [d.body for d in bv.draws if d]
    assert not any(words in b for b in bodies)
    # the rest of the opening section stays; Bonterms NDA's says only where the parties are identified, and goes
    assert any(b.startswith("Collectively, the Bonterms") for b in bodies) == (template == "saas-agreement")


def test_a_kind_without_a_form_of_its_own_starts_from_the_neighbouring_form_its_template_names(library):
    from hybrid.skeleton.from_base import base_variants

    t = load_template("hosting")
    assert "CSA WITH SLA" in t.grounding["forms"] and "CSA WITH SLA" in kinds_of(t)
    bases = choose_bases(library, t, t.example)
    assert bases[0].kind == "form" and bases[0].doc_id.endswith("common-paper-csa-with-sla.txt")
    variants = base_variants(library, t, t.example, 4)
    # one form, four variants: each repeat takes another clause, never a sister form's copy of the same text, or,
    # every alternative taken, says which variant it repeats
    texts = [tuple(" ".join(d.body.split()) if d else "" for d in v.draws) for v in variants]
    fresh = [x for x, v in zip(texts, variants) if v.repeats is None]
    assert len(set(fresh)) == len(fresh) >= 3
    assert all(texts[v.repeats] == x for x, v in zip(texts, variants) if v.repeats is not None)
    # the Key Terms state the governing law: no section of its own after the form's General Terms
    spans = variants[0].skeleton.spans
    assert "Governing Law" not in [s.heading for s in spans]
    assert "Governing Law: the State of Virginia." in spans[0].frame


def test_a_repeated_forms_alternative_is_of_the_kind_or_a_clause_whose_words_do_not_depend_on_the_deal(library):
    from hybrid.skeleton.from_base import base_variants
    from hybrid.skeleton.insertions import GENERIC_CLAUSES

    by_id = {p.id: p for p in library.precedents}
    for tid in ("consulting-services", "hosting", "one-way-nda"):
        t = load_template(tid)
        for bv in base_variants(library, t, t.example, 6):
            for alt in bv.alternatives:
                p = by_id[alt["source"]]
                assert p.doc_type.upper() in kinds_of(t) or p.clause_type in GENERIC_CLAUSES, (tid, alt)


def test_an_alliance_starts_from_the_partnership_form_and_its_scope_opens_the_draft(library):
    """No strategic alliance form is in the corpus: the template names Common Paper's partnership agreement, whose
    every section (Cooperation, Payment & Taxes, Trademark License first) the base holds; the deal's scope, a framed
    clause the form lacks, goes before the form's first section of a clause the template puts after it, not after
    the Definitions the form ends with."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("strategic-alliance")
    bases = choose_bases(library, t, t.example)
    assert bases[0].kind == "form" and bases[0].doc_id.endswith("common-paper-partnership-agreement.txt")
    assert [p.heading for p in bases[0].sections][:3] == ["Cooperation", "Payment & Taxes", "Trademark License"]
    headings = [s.heading for s in base_variants(library, t, t.example, 1)[0].skeleton.spans]
    scope = headings.index(t.clauses["appointment"]["heading"])
    assert scope < headings.index("Payment & Taxes") < headings.index("Definitions")


def test_a_repeat_no_alternative_fits_says_which_variant_it_repeats(library):
    """Started from Igene's joint venture (named), every other joint venture's clause brings that deal's own terms:
    variants past the first repeat it and say so (the seed-83 reading found a gaming centre's trademark clause in a
    franchise's variant 2); a repeat with an alternative clause says nothing of the kind."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("joint-venture")
    vs = base_variants(library, t, t.example, 3, base_doc="IGENEBIOTECHNOLOGY")
    assert vs[0].repeats is None and "repeats" not in vs[0].summary()
    for v in vs[1:]:
        assert v.alternatives or v.summary()["repeats"] == 0
    assert any(v.repeats == 0 for v in vs[1:])
    t = load_template("mutual-nda")
    assert all(v.repeats is None for v in base_variants(library, t, t.example, 3))


def test_the_deals_term_opens_the_term_section_not_an_earlier_one_of_its_type(library):
    """Bonterms' Cloud Terms type both "Suspension" (13) and "Term and Termination" (14) as termination: the SaaS
    deal's "The subscription term is 12 months ..." had opened Suspension (seed-83 reading). The frame opens the
    section of its type whose heading shares a word with the template's heading for it."""
    from hybrid.skeleton.from_base import _frame_row, base_variants

    t = load_template("saas-agreement")
    spans = base_variants(library, t, t.example, 1)[0].skeleton.spans
    termed = [s.heading for s in spans if "subscription term is" in s.frame]
    assert termed == ["Term and Termination"]
    rows = [{"clause": "termination", "heading": "Suspension"}, {"clause": "termination", "heading": "Expiry"}]
    assert _frame_row(rows, "term", "Term and Termination") == 0  # no heading shares a word: the first
    assert _frame_row(rows, "payment", "Fees") is None


def test_the_deals_term_opens_the_section_that_states_the_bases_term_under_its_own_heading():
    """The IFFC franchise states its term under "TERM." inside "Franchise Grant", after "GRANT."; its first
    termination-typed section is "Default and Effects of Termination", which the deal's term had opened (seed-313
    reader: two term statements, one in section 18). A part headed as the clause wherever it stands wins over the
    first section of the type; a part headed only with words every clause uses ("Party") does not."""
    from types import SimpleNamespace as D

    from hybrid.skeleton.from_base import _frame_row

    grant = D(body="GRANT. Franchisor grants Franchisee the right to operate.\nTERM. The term is ten years.")
    rows = [{"clause": "license_grant", "heading": "Franchise Grant", "draw": grant},
            {"clause": "termination", "heading": "Default and Effects of Termination", "draw": D(body="Default.")}]
    assert _frame_row(rows, "term", "Term and Renewal") == 0
    rows[0]["draw"] = D(body="GRANT. Franchisor grants Franchisee the right to operate.\nParty. Each party agrees.")
    assert _frame_row(rows, "term", "Term and Renewal") == 1


def test_the_instruction_to_complete_a_cover_page_goes_in_bonterms_words_too(library):
    """Bonterms' Cloud Terms: "To use the Bonterms Cloud Terms, Customer and Provider complete and execute a Cover
    Page that specifies Key Terms ..." had read "complete and execute the Key Terms that specifies Key Terms" in the
    SaaS draft, whose Key Terms are its own first section (seed-131 reading)."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("saas-agreement")
    bodies = [getattr(d, "body", "") for d in base_variants(library, t, t.example, 1)[0].draws]
    assert not any("complete and execute" in b for b in bodies)
    assert any("the Bonterms Cloud Terms, the Key Terms and any Orders form the parties" in b for b in bodies)


def test_a_variable_named_for_a_party_is_a_key_term_in_the_deals_words(library):
    """Common Paper's cover page states "Provider Covered Claims" and "Customer Covered Claims"; the software
    licence, hosting and alliance drafts used them undefined (seed-131 reading: "the indemnities are empty"). The
    Key Terms list each as a blank to complete, in the deal's role words, as the body has them."""
    from dataclasses import replace

    from hybrid.skeleton.from_base import base_variants

    shipped = load_template("software-license")
    t = replace(shipped, positions={}, roles={})  # no position of its own, no roles to read a default by
    frame = base_variants(library, t, t.example, 1)[0].skeleton.spans[0].frame
    assert "Licensor Covered Claims: [___]." in frame and "Licensee Covered Claims: [___]." in frame
    assert "Provider Covered Claims" not in frame


def test_covered_claims_no_template_or_cover_page_states_are_each_sides_third_party_ip_claims(library):
    """A user's contractor template on the professional services form read "Contractor Covered Claims: [___]." (a
    cold reader: no IP indemnity). With roles and no position of its own, the side that delivers covers claims
    against what it delivers, the other against the materials it provides; drafts.json lists both to confirm."""
    from dataclasses import replace

    from hybrid.skeleton.from_base import base_variants
    from hybrid.skeleton.positions import DEFAULT_SOURCE

    t = replace(load_template("software-license"), positions={})
    v = base_variants(library, t, t.example, 1)[0]
    frame = v.skeleton.spans[0].frame
    assert ("Licensor Covered Claims: Any claim by a third party that what Licensor delivers under this Agreement, "
            "used as this Agreement permits, infringes") in frame
    assert ("Licensee Covered Claims: Any claim by a third party that materials Licensee provides under this "
            "Agreement, used as this Agreement permits, infringe or misappropriate") in frame
    assert {p["term"] for p in v.proposed if p["from"] == DEFAULT_SOURCE} == {"Licensor Covered Claims",
                                                                              "Licensee Covered Claims"}


def test_every_form_based_template_states_who_covers_which_claims(library):
    """Seed 331: the software licence's, consulting's and alliance's "Licensor Covered Claims: [___].", which the
    form's own rule reads as none (no IP indemnity under an indemnity clause the Key Terms exempt from the cap). Each
    shipped template whose form indemnifies "Covered Claims" states them: its own positions, or what the corpus's
    cover pages propose (hosting)."""
    from hybrid.skeleton.from_base import base_variants

    for tid in ("software-license", "consulting-services", "strategic-alliance", "hosting", "saas-agreement"):
        t = load_template(tid)
        frame = base_variants(library, t, t.example, 1)[0].skeleton.spans[0].frame
        assert "Covered Claims: [___]" not in frame, tid
        if "Covered Claims" in frame:
            assert re.search(r"Covered Claims: Any (?:claim|action)", frame), tid


def test_a_definition_of_the_cover_page_points_at_the_key_terms_section_not_at_itself(library):
    """Common Paper's '"Key Terms" means the cover page that includes the key legal details ...' had read '"Key
    Terms" means the Key Terms that includes ...', and "Order Form" the same (seed-131 reading: circular)."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("software-license")
    bodies = [getattr(d, "body", "") for d in base_variants(library, t, t.example, 1)[0].draws]
    assert not any("means the Key Terms that" in b for b in bodies)
    assert any('"Key Terms" means the Key Terms section of this Agreement, which includes' in b.replace("“", '"')
               .replace("”", '"') for b in bodies)


def test_a_form_written_for_a_person_is_no_base_between_companies(library):
    """Common Paper's contractor form defines "Contractor" as "the individual providing Services" (payroll taxes,
    employee benefits): a consulting firm's deal with a company starts from the professional services form; an
    individual consultant's deal still may start from it."""
    from hybrid.precedents.base import for_a_person, is_entity

    assert is_entity("Lumen Advisory Partners LLC") and is_entity("Cobalt Manufacturing Co.")
    assert not is_entity("Dana Whitfield")
    t = load_template("consulting-services")
    firms = choose_bases(library, t, t.example)
    assert firms and not any(for_a_person(b.sections) for b in firms)
    person = choose_bases(library, t, {**t.example, "party_a": "Dana Whitfield"})
    assert any(b.doc_id.endswith("common-paper-independent-contractor-agreement.txt") for b in person)
    assert for_a_person(next(b for b in person if b.doc_id.endswith("contractor-agreement.txt")).sections)


def test_the_subject_is_what_the_template_marks_so_or_else_every_free_text_field():
    """Supply's pricing and delivery terms ("FCA Supplier's facility") had drowned its products in the meaning of a
    deal: an electronics manufacturer's "contract price" came nearest to plastic containers. A template marks its
    subject fields (x-subject); a user's template that marks none has all its free-text fields taken."""
    from dataclasses import replace

    from hybrid.precedents.base import _subject_fields

    t = load_template("supply")
    assert _subject_fields(t.example, t) == [t.example["products"]]
    props = {k: {kk: vv for kk, vv in spec.items() if kk != "x-subject"} for k, spec in t.fields["properties"].items()}
    unmarked = replace(t, fields={**t.fields, "properties": props})
    assert _subject_fields(t.example, unmarked) == [t.example[k] for k in ("products", "pricing", "delivery_terms")]


@pytest.mark.parametrize("tid,line,gone", [
    ("software-license", "Subscription Period: perpetual.", "License Term:"),
    ("hosting", "Subscription Period: 24 months.", "Term Length:"),
])
def test_the_deals_term_is_the_forms_term_variable_by_another_name(library, tid, line, gone):
    """Seed 149 and 211 readings: "The term of the license is perpetual" beside "Subscription Period: [___]" (the
    grant runs "During the Subscription Period"); hosting's "continues for 24 months" beside the same blank. The
    deal's one term names the form's one Variable for how long the agreement runs ("Warranty Period" is no such)."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template(tid)
    keys = next(s.frame for s in base_variants(library, t, t.example, 1)[0].skeleton.spans if s.heading == "Key Terms")
    assert line in keys.splitlines() and gone not in keys
    assert "Subscription Period: [___]." not in keys


def test_a_term_the_key_terms_state_is_not_defined_by_an_order_alone(library):
    """Seed 149 and 211 readings: '"Subscription Term" means the term ... as identified in an Order', with no Order;
    the Key Terms state it, so it is identified there or in an Order. A term the Key Terms do not state keeps the
    form's words."""
    import re

    from hybrid.skeleton.from_base import base_variants

    t = load_template("saas-agreement")
    bodies = "\n".join(d.body for d in base_variants(library, t, t.example, 1)[0].draws if d)
    assert re.search(r'"Subscription Term" means [^.]* in the Key Terms or an Order\.', bodies)
    assert not re.search(r'"Subscription Term" means [^.]* in an Order\.', bodies)


def test_a_frame_opens_the_section_whose_opening_part_is_its_clause(library):
    """Seed 211 and 223 readings: Common Paper's licence grant sits in "Software" (typed services), which opens
    "License. During the Subscription Period ... Licensor grants"; the deal's grant had opened "Restrictions &
    Obligations" as a second, unqualified grant. A part headed only with words of any heading ("THIRD PARTIES.")
    draws no frame (the joint venture's contributions stay in a section of their own)."""
    from hybrid.skeleton.from_base import base_variants

    def framed(tid):
        t = load_template(tid)
        return {s.heading: s.frame for s in base_variants(library, t, t.example, 1)[0].skeleton.spans if s.frame}

    assert "the Licensee is licensed to use" in framed("software-license")["Software"]
    jv = framed("joint-venture")
    assert "Miscellaneous Provisions" not in jv and "shall contribute" in jv["Obligations of the Parties"]


def test_a_deal_term_names_the_form_variable_whose_head_word_is_its_own(library):
    """Readings at seeds 131, 149, 211, 223: hosting's "at least 99.9 percent" beside "Target Uptime: [___]", which
    under "Defining Variables" switched the SLA off. The deal's "Uptime Percent" is the SLA's "Target Uptime" (its
    head word "uptime"), not its "Uptime Credit"; a percent is written as one."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("hosting")
    keys = next(s.frame for s in base_variants(library, t, t.example, 1)[0].skeleton.spans if s.heading == "Key Terms")
    lines = keys.splitlines()
    assert "Target Uptime: 99.9 percent." in lines and "Uptime Credit: [___]." in lines
    assert not any(line.startswith(("Uptime Percent:", "Target Uptime: [___]")) for line in lines)


def test_a_forms_own_ip_assignment_is_held_and_none_is_inserted_beside_it(library):
    """Seed 223: the professional services form's "Consultant assigns all right, title, and interest in the
    Deliverables ... to Client" was not seen as an IP assignment, so the contractor form's ("works made for hire",
    no carve-out) was inserted as a second IP section."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("consulting-services")
    v = base_variants(library, t, t.example, 1)[0]
    assert not [i for i in v.inserted if i["for"] == "ip_ownership_assignment"]
    rows = [{"heading": "IP", "clause": "intellectual_property",
             "body": "Consultant assigns all right, title, and interest in the Deliverables to Client."}]
    item = next(i for i in market_check(t, rows)["items"] if i["key"] == "ip_ownership_assignment")
    assert item["held"]


def test_the_key_terms_section_is_not_defined_by_what_it_does_not_hold(library):
    """Seed 223: '"SOW" means the Key Terms section of this Agreement, which includes the key business details ...
    that are not defined in the Key Terms or Standard Terms' (Common Paper's "a Cover Page that includes ...")."""
    import re

    from hybrid.skeleton.from_base import base_variants

    t = load_template("consulting-services")
    bodies = "\n".join(d.body for d in base_variants(library, t, t.example, 1)[0].draws if d)
    sow = re.search(r'"SOW" means the Key Terms section of this Agreement[^.]*\.', bodies)
    assert sow and "not defined in the Key Terms" not in sow[0]


def test_a_drafts_key_terms_state_what_the_form_proposes_in_the_deals_role_words_and_say_so(library):
    """Common Paper gives a Variable its cover page omits the meaning "none": "General Cap Amount: [___]." left the
    draft without a limitation of liability (every seed's reading of the Common Paper drafts quoted the blanks
    first)."""
    from hybrid.data.facts import BLANK
    from hybrid.skeleton.from_base import base_variants

    t = load_template("consulting-services")
    bv = base_variants(library, t, t.example, 1)[0]
    frame = bv.skeleton.spans[0].frame
    line = "General Cap Amount: 1x the fees paid or payable by Client to Consultant in the 12 month period"
    assert line in frame and f"General Cap Amount: {BLANK}" not in frame
    # the cloud form's proposal is about a Cloud Service: none proposed; the form provides for none ("if any")
    assert "Security Policy: none identified." in frame
    # the agreement's own parts are no Variables to complete (seed-257 and 263 readers: "meaningless entries")
    assert "Standard Terms: the terms of this Agreement other than the Key Terms." in frame
    assert "Key Terms and Standard Terms:" not in frame
    said = {p["term"]: p for p in bv.summary()["proposed_terms"]}
    assert said["General Cap Amount"]["from"].endswith("common-paper-csa-click-through.txt")
    assert "Security Policy" not in said


def test_a_document_that_speaks_of_a_party_as_she_or_he_is_written_for_a_person():
    from types import SimpleNamespace as S

    from hybrid.precedents.base import for_a_person

    golfer = [S(body="Athlete represents that she is a bona fide user of the Products and that her opinions are her "
                     "own. " + "Company shall pay the fee when due. " * 20)]
    firms = [S(body="Each employee shall perform his or her duties, and he or she shall keep records. "
                    + "Company shall pay the fee when due. " * 20)]
    assert for_a_person(golfer) and not for_a_person(firms)


def test_between_companies_no_clause_comes_from_a_document_written_for_a_person(library):
    """A sponsorship between two companies had the endorsement agreements' "Rights Holder represents that she is a
    bona fide user of Sponsor products" inserted as its warranty and "the name, likeness, image and personal
    identification of Rights Holder" as its licence (seed-211 to 241 readings)."""
    from hybrid.precedents.base import person_document
    from hybrid.skeleton.from_base import base_variants

    t = load_template("sponsorship")
    variants = base_variants(library, t, t.example, 4)
    sources = [r["source"] for v in variants for r in v.inserted + v.alternatives]
    assert sources, "nothing inserted: the test reads nothing"
    assert not any(person_document(library, s.split("#")[0]) for s in sources)
    bodies = " ".join(getattr(d, "body", "") for v in variants for d in v.draws)
    assert "bona fide user" not in bodies and "honest opinions" not in bodies
    # a person's deal may still take them: the filter is for companies only
    person = {**t.example, "party_b": "Jordan Avery"}
    assert any(person_document(library, r["source"].split("#")[0])
               for v in base_variants(library, t, person, 4) for r in v.inserted + v.alternatives)


def test_a_clause_inserted_beside_a_base_section_of_its_type_brings_only_the_paragraphs_that_hold_the_item():
    """A distributor base lacking only post-termination obligations had a whole second "Term and Termination"
    inserted: "shall remain in full force and effect for a period of [___] (2)" and a termination for convenience
    beside the base's own term (seed-241 distributor draft)."""
    from hybrid.precedents.library import Precedent
    from hybrid.skeleton.insertions import holding_part

    t = load_template("distributor")
    body = ("This Agreement shall remain in full force and effect for a period of [DURATION], unless earlier "
            "terminated.\n\nTermination for convenience. This Agreement may be terminated by either party for any "
            "reason by giving the other party written notice [DURATION] in advance.\n\nEffect of Termination. Upon "
            "termination of this Agreement, Distributor shall return all price lists and materials furnished by "
            "Supplier and shall cease to use Supplier's Trademarks.")
    p = Precedent("d#11", "d", "cuad", "", "DISTRIBUTOR AGREEMENT", "termination", "Term and Termination", body)
    part = holding_part(t, "post_termination", p)
    assert part.body.startswith("Effect of Termination.") and "full force and effect for a period" not in part.body
    assert part.id == p.id  # it cites its source
    whole = Precedent("d#12", "d", "cuad", "", "DISTRIBUTOR AGREEMENT", "termination", "Term", body.split("\n\n")[0])
    assert holding_part(t, "post_termination", whole) is whole  # nothing holds it alone: the clause as it is


def test_a_forms_ordering_document_includes_the_drafts_key_terms(library):
    """Bonterms' remedies hang on an Order ("terminate the affected Order and refund ... pre-paid, unused fees"), and
    the draft is the parties' only document: its Key Terms are an Order (seed-257 reading: "No Order exists")."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("saas-agreement")
    bv = next(v for v in base_variants(library, t, t.example, 4) if v.base.doc_id.endswith("bonterms-cloud-terms.md"))
    bodies = " ".join(getattr(d, "body", "") for d in bv.draws)
    assert ('"Order" means an order for Customer\'s access to the Cloud Service, Support, Professional Services or '
            'related services that is executed by the parties and references this Agreement. The Key Terms section '
            'of this Agreement is an Order.') in bodies


def test_a_templates_own_positions_fill_the_key_terms_no_cover_page_proposes(library):
    """Seed-283 and 287 readers: "Permitted Uses: [___]" and "Warranty Period: [___]" under Common Paper's "none"
    default made a licence for no use and a warranty for no period; the template's `positions` state them, listed
    among the proposed terms as the template's."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("software-license")
    bv = base_variants(library, t, t.example, 1)[0]
    frame = bv.skeleton.spans[0].frame
    assert "Permitted Uses: the Licensee's internal business purposes." in frame
    assert "Warranty Period: 90 days after the Software is first delivered to the Licensee." in frame
    said = {p["term"]: p for p in bv.summary()["proposed_terms"]}
    assert said["Permitted Uses"]["from"] == "template software-license"
    assert said["General Cap Amount"]["from"].startswith("standard-agreements/")  # the corpus's where none is given


def test_a_clause_inserted_for_the_term_goes_beside_the_section_the_deals_term_opens(library):
    """Fuse Medical's distributor agreement states its term in "Duration and termination" (a termination section):
    the renewal clause it lacks came as a second "Term" section before the closing provisions, read as two
    statements of the term (seed-947 and 1013 readers). It goes right after that section, headed as what it adds."""
    from hybrid.skeleton.from_base import base_variants

    t = load_template("distributor")
    bv = base_variants(library, t, t.example, 1)[0]
    assert "FuseMedical" in bv.base.doc_id, "the base changed: the test reads another case"
    rec = next(r for r in bv.inserted if r["for"] == "renewal_term")
    spans = bv.skeleton.spans
    assert "initial term of" in spans[rec["section"] - 1].frame
    assert spans[rec["section"]].heading == "Renewal Term"
