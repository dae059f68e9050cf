"""The start of an edited precedent: its run-in heading dropped, cut at a sentence end within the budget."""

from hybrid.data.facts import DealFacts, adapt
from hybrid.skeleton.from_precedents import clause_deal, deal_from_template
from hybrid.text.start_passes import fit_text, strip_inline_heading


class _Tok:
    """Counts whitespace words as tokens (what fit_text measures with)."""

    class hf:  # noqa: N801
        @staticmethod
        def encode(text, add_special_tokens=False):
            from types import SimpleNamespace

            return SimpleNamespace(ids=text.split())


def test_a_precedent_longer_than_its_room_ends_at_a_whole_sentence():
    text = "Each party shall keep it secret. The parties will adjudicate any such action in the Courts of the State."
    assert fit_text(_Tok, text, 10) == "Each party shall keep it secret."
    assert fit_text(_Tok, text, 100) == text  # fits whole
    assert (
        fit_text(_Tok, "one long sentence without an end in sight here", 3)
        == "one long sentence without an end in sight here"
    )


def test_a_first_sentence_longer_than_its_room_closes_before_a_coordinated_clause_that_fits():
    text = (
        "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY INDIRECT DAMAGES, WHETHER OR NOT SUCH PARTY HAS BEEN "
        "WARNED OF THE POSSIBILITY OF SUCH DAMAGE, AND EVEN IF ANY LIMITED REMEDY FAILS OF ITS ESSENTIAL PURPOSE. "
        "The rest follows."
    )
    cut = fit_text(_Tok, text, 27)
    assert cut == (
        "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY INDIRECT DAMAGES, WHETHER OR NOT SUCH PARTY HAS BEEN "
        "WARNED OF THE POSSIBILITY OF SUCH DAMAGE."
    )
    assert fit_text(_Tok, text, 8) == text  # no break leaves a head that fits: the filler's budget cuts it


def test_a_run_in_heading_is_dropped_but_a_sentence_is_not():
    assert strip_inline_heading("Delivery; Shipment. (a) Each quantity shall ship.") == "(a) Each quantity shall ship."
    assert strip_inline_heading("Term. This Agreement starts today.") == "This Agreement starts today."
    # numbered: the source's own number goes with its heading (the lowercasing of foreign terms made this
    # "Section 1.1 defined terms." in a draft)
    assert strip_inline_heading('Section 1.1 Defined Terms. "Law" means any law.') == '"Law" means any law.'
    assert strip_inline_heading("2.3 Payment Terms. Buyer shall pay.") == "Buyer shall pay."
    kept = "Section 2 of the Supply Agreement applies."
    assert strip_inline_heading(kept) == kept
    assert strip_inline_heading("Supplier shall deliver. Then more.") == "Supplier shall deliver. Then more."
    # a company's abbreviation is no heading's stop (a strategic alliance's scope in the harness at 32aa977 read
    # "... retailers. shall manufacture and supply and Ginkgo Bioworks, Inc. shall purchase ...")
    named = "During the Term, Berkely Lights, Inc. shall manufacture and supply the Products."
    assert strip_inline_heading(named) == named
    assert strip_inline_heading("Acme Holdings Ltd. shall pay.") == "Acme Holdings Ltd. shall pay."



def test_a_run_in_heading_on_another_subject_than_the_sections_stays_as_the_head_of_its_part():
    whole = "Entire Agreement. This Agreement is the whole agreement."
    assert strip_inline_heading(whole, "General") == whole  # a part of General, headed as contracts head it
    assert strip_inline_heading(whole, "Entire Agreement") == "This Agreement is the whole agreement."
    assert strip_inline_heading("Term. It lasts a year.", "Term and Termination") == "It lasts a year."
    assert strip_inline_heading("2.3 Payment Terms. Buyer shall pay.", "General") == "Buyer shall pay."  # numbered
    # the first of a section's headed parts stays, parts that stand alone above their paragraphs counted too (the
    # professional services form's "Term." before "Termination." and "Survival.", seed 281; the software licence's
    # "Restrictions on Customer." before "Suspension.", which its other sections name, seed 287)
    parts = "Term. It lasts a year.\nTermination.\nEither party may end it for breach.\nSurvival.\nFees survive."
    assert strip_inline_heading(parts, "Term and Termination") == parts
    one = "Restrictions on Customer.\nCustomer will not copy it.\nSuspension. If Customer breaches, Provider suspends."
    assert strip_inline_heading(one, "Restrictions & Obligations") == one
    assert strip_inline_heading("Term. It lasts a year.\nEither party may end it.", "Term").startswith("It lasts")


def test_periods_and_sums_of_a_precedent_do_not_become_the_deals_term_and_fee():
    deal = DealFacts(party_a="Supplier", duration="5 years", amount="USD 250,000 per season")
    assert clause_deal(deal, "payment").duration is None and clause_deal(deal, "term").party_a == "Supplier"
    # the sponsorship fee at ad97373: "... an initial installment in the amount of USD 250,000 per season and ten
    # installments of USD 250,000 per season"
    fee = clause_deal(deal, "payment")
    assert fee.amount is None
    assert adapt("ten installments of [AMOUNT] each", fee) == "ten installments of [___] each"


def test_a_field_named_like_a_term_counts_only_when_its_value_reads_as_one():
    from types import SimpleNamespace

    t = SimpleNamespace(preamble="{party_a} and {party_b}")
    deal = deal_from_template(
        t,
        {
            "delivery_terms": "FCA Supplier's facility",
            "pricing": "per the price list",
            "term_length": "5 years",
            "fee": "$1,000",
        },
    )
    assert deal.duration == "5 years" and deal.amount == "$1,000"


def test_a_start_left_opening_on_a_connective_loses_it():
    from hybrid.text.start_passes import strip_leaning_opening

    assert strip_leaning_opening("In addition, Licensor may use it.") == "Licensor may use it."
    assert strip_leaning_opening("Further, the party shall pay.") == "The party shall pay."
    kept = "Further to Section 2, the party shall pay."
    assert strip_leaning_opening(kept) == kept
    assert strip_leaning_opening("") == "" and strip_leaning_opening(None) is None


def test_an_edit_drops_the_parts_another_section_holds_before_its_budget():
    # the sponsorship's General at 677867e was "a) Notice." alone: its Assignment and Governing Law parts took the
    # budget and the consistency pass dropped them after the fill
    from hybrid.precedents.library import Precedent
    from hybrid.skeleton.from_precedents import other_clauses
    from hybrid.text.context import StartContext
    from hybrid.text.start import settled_start

    body = (
        "a) Assignment. Neither party may assign this Agreement without consent.\n\n"
        "b) Governing Law. This Agreement is governed by the laws of the state where it was signed.\n\n"
        "c) Notice. Any notice under this Agreement will be in writing.\n\n"
        "d) Counterparts. This Agreement may be executed in counterparts."
    )
    p = Precedent("x.txt#15", "x.txt", "cuad", "CC-BY-4.0", "SPONSORSHIP AGREEMENT", "general", "General", body)
    others = frozenset({"assignment", "governing_law", "term"})
    out = settled_start(p, StartContext(DealFacts(), "", heading="General", others=others))
    assert out == "c) Notice. Any notice under this Agreement will be in writing.\n\n" \
        "d) Counterparts. This Agreement may be executed in counterparts."
    # no others named: every part stays
    assert settled_start(p, StartContext(DealFacts(), "", heading="General")) == body
    spans = [type("S", (), {"clause": c})() for c in ("assignment", "general", "assignment")]
    assert other_clauses(spans) == [frozenset({"general"}), frozenset({"assignment"}), frozenset({"general"})]


def test_a_pages_furniture_goes_at_library_build_and_the_sentence_it_split_is_joined():
    from hybrid.data.clauses import join_page_breaks

    # N2K's sponsorship General: a footer inside a sentence, a signature block and an address block at its end
    body = (
        "e) Force Majeure. Any delay is excused including,\n\n16 17 CONFIDENTIAL\n\nbut not limited to, acts of God."
        "\n\n[PARTY_B] Inc. [PARTY_A] By: /s/ J. Diamond By: /s/ G. Bell Name: J. Diamond Title: Vice Chairman\n\n"
        "55 Broad Street, 26th Floor 555 Broadway [LAW], 10004 Redwood City 415.568.6000 (voice)"
    )
    assert join_page_breaks(body) == "e) Force Majeure. Any delay is excused including, but not limited to, acts of " \
        "God."
    glued = "This Agreement is the whole agreement of the parties and supersedes all others. By: /s/ A Name: A Title: B"
    assert join_page_breaks(f"{glued}\n\nNext.") == f"{glued}\n\nNext."  # a sentence before the block: it stays
    prices = "Payment is due in 30 days.\n\n(a) 100 units; (b) 200 units"
    assert join_page_breaks(prices) == prices
    # a reseller's General Provisions at 18852ac: the signature page's lead-in
    signing = "PUBLICITY. No releases.\n\n[SIGNATURE PAGE FOLLOWS]\n\nIN WITNESS OF THE FOREGOING, the parties sign."
    assert join_page_breaks(signing) == "PUBLICITY. No releases."


def test_where_only_the_run_in_heading_fits_its_sentence_is_closed_before_a_clause():
    # the distributor's General Provisions at 18852ac was "Distributor REPRESENTATION, WARRANTY AND UNDERTAKING." alone
    text = (
        "Distributor REPRESENTATION, WARRANTY AND UNDERTAKING. Distributor represents and warrants to Supplier that it "
        "holds every licence and permit it needs in the Territory, and that it will keep each of them in force during "
        "the whole term of this Agreement and for a year after it."
    )
    assert fit_text(_Tok, text, 28) == (
        "Distributor REPRESENTATION, WARRANTY AND UNDERTAKING. Distributor represents and warrants to Supplier that it "
        "holds every licence and permit it needs in the Territory."
    )
    assert fit_text(_Tok, "Term. It lasts a year. It renews.", 6) == "Term. It lasts a year."


def test_a_part_defining_its_sections_terms_stays_beside_a_definitions_section():
    """Bonterms' 17.3 "Indemnification Definitions" defines the Covered Claims 17.1 and 17.2 use: dropped as a second
    Definitions section, the SaaS draft at seed 43 used both terms undefined."""
    from hybrid.text.repeated_parts import drop_repeated_parts

    body = ("Provider will defend Customer from any Provider-Covered Claims.\n\nIndemnification Definitions. The "
            "following definitions apply.\n\n\"Provider-Covered Claim\" means a third-party infringement claim.")
    assert drop_repeated_parts(body, "indemnification", {"definitions", "governing_law"}) == (body, [])
