"""What an edit keeps of a precedent before any hole opens (hybrid.text.start.settle_facts): another
deal's common-word terms in lower case, sentences holding another deal's facts taken out, within limits."""

from hybrid.data.facts import DealFacts
from hybrid.text.settle import drop_fact_sentences, lower_common_names
from hybrid.text.start import fact_holes
from hybrid.text.start_passes import settle_facts

DEAL = DealFacts(party_a="Acme Robotics, Inc.", party_b="Borealis LLC", law="Delaware")
ALLOWED = "Acme Robotics, Inc. and Borealis LLC, governed by the laws of Delaware. Supplier. Buyer. Products."
WORDS = frozenset("the documentation facility addendum each supplier will comply with in using service".split())

TEXT = (
    "Supplier will supply the Products to Buyer. "
    "Each Facility Addendum signed by Zanzibar Quux Holdings shall govern the Quux Plant. "
    "Buyer shall pay every invoice within thirty days of receipt. "
    "Each party shall perform its obligations in a workmanlike manner."
)


def test_a_sentence_with_another_deals_names_is_taken_out():
    out = drop_fact_sentences(TEXT, DEAL, ALLOWED)
    assert "Zanzibar" not in out and "Quux" not in out
    assert out.startswith("Supplier will supply the Products to Buyer.")
    assert out.endswith("Each party shall perform its obligations in a workmanlike manner.")
    assert fact_holes(out, DEAL, ALLOWED) < fact_holes(TEXT, DEAL, ALLOWED)


def test_at_least_half_the_words_stay():
    text = ("Supplier shall deliver the goods to the plant of the buyer within sixty days of each order. "
            "Supplier will supply the Products to the buyer every month under this Agreement.")
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.9)
    assert out == text  # taking the first sentence out would leave less than 90% of the words (one figure: a blank)
    assert "sixty" not in drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.3)


def test_a_sentence_holding_another_deals_name_goes_whatever_share_is_left():
    """A name's hole is what the filler rewrites ("save harmless the claims" for "the Company"); a figure: a blank."""
    text = ("Zanzibar Quux Holdings shall deliver the goods to the plant of the buyer on time. "
            "Supplier will supply the Products to the buyer every month under this Agreement.")
    assert drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.9) == text.split(". ", 1)[1]
    import hybrid.text.settle as settle

    settle.NAME_HOLES_GO = False
    try:
        assert drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.9) == text  # as before: the share decides
    finally:
        settle.NAME_HOLES_GO = True


def test_the_last_sentence_is_never_taken_out():
    text = "Zanzibar Quux Holdings shall deliver the goods."
    assert drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.0) == text


def test_paragraph_breaks_are_kept():
    text = "Supplier will supply the Products.\n\nZanzibar Quux Holdings shall deliver.\n\nBuyer shall pay."
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.3)
    assert out == "Supplier will supply the Products.\n\nBuyer shall pay."


def test_common_word_terms_are_written_in_lower_case():
    text = "Supplier will comply with the Documentation in using each Facility Addendum."
    out = lower_common_names(text, DEAL, ALLOWED, (), WORDS)
    assert out == "Supplier will comply with the documentation in using each facility addendum."
    assert lower_common_names(text, DEAL, ALLOWED, (), None) == text  # no vocabulary: nothing changes
    # a term with a small word inside ("of") reads as plain words too; the filler had written "hereto as well" there
    sow = "Supplier will perform the services in the attached Statement of Work in a timely manner."
    words = WORDS | {"statement", "work"}
    assert lower_common_names(sow, DEAL, ALLOWED, (), words) == sow.replace("Statement of Work", "statement of work")


def test_names_quoted_terms_and_sentence_openers_keep_their_capitals():
    words = WORDS | {"quux"}
    text = 'Documentation will be kept. The ("Facility Addendum") binds Quux Zanzibar and (a) Documentation too.'
    out = lower_common_names(text, DEAL, ALLOWED, (), words)
    assert out.startswith("Documentation will")  # a sentence's first word
    assert '("Facility Addendum")' in out  # a quoted term is being defined
    assert "Zanzibar" in out  # not a word the library writes in lower case
    assert "(a) Documentation" in out  # a list item's first word
    plural = "Buyer answers for its Documentation Users' acts and the ('Facility Addendum')."
    assert lower_common_names(plural, DEAL, ALLOWED, (), words | {"users"}) == (
        "Buyer answers for its documentation users' acts and the ('Facility Addendum')."
    )  # a plural's apostrophe closes no quote


def test_settle_facts_lowers_first_so_fewer_sentences_go():
    text = "Supplier will comply with the Documentation. Buyer shall pay every invoice. Supplier will ship goods."
    out = settle_facts(text, DEAL, ALLOWED, (), WORDS)
    assert out == text.replace("Documentation", "documentation")


def test_the_deals_role_words_keep_their_capitals_the_rest_of_the_term_is_lowered():
    words = WORDS | {"covered", "claims"}
    text = "Supplier will defend Buyer against all Supplier Covered Claims made by a third party."
    out = lower_common_names(text, DEAL, ALLOWED, (), words)
    assert out == "Supplier will defend Buyer against all Supplier covered claims made by a third party."
    other = "Supplier will defend Buyer against all Licensor Covered Claims made by a third party."
    assert lower_common_names(other, DEAL, ALLOWED, (), words) == other  # another side's role: left to the edit

    # where the deal's parties are their roles (each clause's deal: "Supplier", "Buyer"), the role is a kept fact too
    roles = DealFacts(party_a="Supplier", party_b="Buyer", law="Delaware")
    text = "Buyer shall test all Buyer Materials supplied to Supplier."
    assert lower_common_names(text, roles, ALLOWED, (), words | {"materials"}) == text.replace("Materials", "materials")


def test_only_words_contracts_write_in_lower_case_may_lower_a_term():
    from types import SimpleNamespace

    from hybrid.precedents.fit import common_words

    bodies = ["the documentation is provided"] * 6 + ["courts located in San Francisco"] * 9 + ["the Addendum"] * 30
    bodies += ["an addendum"] * 5
    class Lib:  # weakly referable, as a Library is
        precedents = [SimpleNamespace(body=b) for b in bodies]

    lib = Lib()
    words = common_words(lib)
    assert "documentation" in words and "located" in words
    assert "san" not in words and "francisco" not in words  # only ever capitalized: a place's name
    assert "addendum" not in words  # 5 in lower case against 30 with a capital
    text = "Venue shall be in courts located in San Francisco under the Documentation."
    assert lower_common_names(text, DEAL, ALLOWED, (), words) == text.replace("Documentation", "documentation")


def test_a_run_in_heading_goes_with_the_sentence_it_heads():
    text = ("Supplier will supply the Products to Buyer. Buyer shall pay every invoice on receipt. (c) Quality "
            "Plans. Zanzibar Quux Holdings shall approve each plan.")
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.3)
    assert out == "Supplier will supply the Products to Buyer. Buyer shall pay every invoice on receipt."


def test_a_cut_that_ends_on_a_heading_drops_it():
    from hybrid.text.settle import trim_headings

    assert trim_headings("Buyer shall pay every invoice. (c) Confidential Information.") == (
        "Buyer shall pay every invoice.")
    assert trim_headings("Buyer shall pay every invoice. Fixtures and tooling.") == "Buyer shall pay every invoice."
    assert trim_headings("Buyer shall pay every invoice.\n\n(c) Confidential information.") == (
        "Buyer shall pay every invoice.")
    assert trim_headings("Buyer shall pay every invoice. 6.2 Warranty of Title.") == "Buyer shall pay every invoice."
    assert trim_headings("Buyer shall pay every invoice.") == "Buyer shall pay every invoice."
    assert trim_headings("Buyer shall pay. Supplier will ship.") == "Buyer shall pay. Supplier will ship."
    # a longer verbless heading as its own paragraph (the supply draft's "Supply of Products" at ad97373 ended
    # "... under this Agreement.\n\nUse of Facility, equipment, molds and tooling."); a sentence with an article stays
    assert trim_headings("Buyer shall pay.\n\nUse of Facility, equipment, molds and tooling.") == "Buyer shall pay."
    assert trim_headings("Buyer shall pay. Use of Facility, equipment, molds and tooling.") == (
        "Buyer shall pay. Use of Facility, equipment, molds and tooling.")
    kept = "Buyer shall pay.\n\nThe Buyer pays all taxes on the Products."
    assert trim_headings(kept) == kept


def test_a_sentence_restating_the_frame_is_taken_out_and_glued_numbers_go():
    from hybrid.text.settle import drop_restated

    frame = "This Agreement is governed by and construed in accordance with the laws of the State of Ohio."
    text = ("This Agreement shall be governed by and construed in accordance with the laws of the State of Ohio. "
            "The Parties submit to the courts of that state.")
    assert drop_restated(text, frame) == "The Parties submit to the courts of that state."
    # a precedent that says nothing but the frame leaves nothing: the frame is the whole clause
    assert drop_restated("This Agreement shall be governed by the laws of Ohio.", frame) == ""
    # a restating first part before ", and" goes, the rest stays
    assert drop_restated("This Agreement shall be governed by and construed in accordance with the laws of the State "
                         "of Ohio, and the parties submit to the courts of that state for every dispute.", frame) == (
        "The parties submit to the courts of that state for every dispute.")
    short = "This Agreement is governed by the laws of the State of Oregon."  # a composed frame: fewer words
    assert drop_restated("This Agreement shall be governed by and construed in accordance with the laws of the State "
                         "of Oregon, excluding its choice of law rules, and the parties submit to the courts of Oregon "
                         "for every dispute.", short) == "The parties submit to the courts of Oregon for every dispute."
    assert drop_restated("Each party waives a jury, and it shall pay all fees of counsel.", frame) == (
        "Each party waives a jury, and it shall pay all fees of counsel.")
    out = settle_facts("4.1Buyer shall pay every invoice. Supplier will ship goods.", DEAL, ALLOWED, (), WORDS)
    assert out == "Buyer shall pay every invoice. Supplier will ship goods."
    # a sentence dense with another deal's facts goes whatever is left; with a frame before it, all may go
    schedule = "Buyer shall pay CERES $10 on May 1, $20 on June 1 and $30 on July 1 to Ceres Bank."
    assert drop_fact_sentences("Buyer shall pay every invoice. " + schedule, DEAL, ALLOWED, ("CERES",),
                               keep_share=0.99) == "Buyer shall pay every invoice."
    assert drop_fact_sentences(schedule, DEAL, ALLOWED, ("CERES",)) == schedule  # no frame: one sentence stays
    assert drop_fact_sentences(schedule, DEAL, ALLOWED, ("CERES",), may_empty=True) == ""
    out = settle_facts("Buyer shall pay every invoice. 6.2 Supplier will ship goods,including spares.", DEAL, ALLOWED,
                       (), WORDS)
    assert out == "Buyer shall pay every invoice. Supplier will ship goods, including spares."
    stated = ALLOWED + " It orders 1,000 units within 2.5 days."  # figures the deal states stay as written
    assert settle_facts("Buyer shall pay 1,000 units within 2.5 days.", DEAL, stated, (), WORDS) == (
        "Buyer shall pay 1,000 units within 2.5 days.")
    assert settle_facts("Buyer shall pay 1,000 units within 2.5 days.", DEAL, ALLOWED, (), WORDS) == (
        "Buyer shall pay [___] units within [___].")  # another deal's: blanks, "2.5" whole


def test_another_deals_figures_left_standing_are_blanks_to_complete_not_holes():
    from hybrid.data.facts import BLANK, DealFacts
    from hybrid.text.settle import blank_values
    from hybrid.text.start_passes import settle_facts

    allowed = "This Agreement lasts 5 years; fees of USD 4,750."
    text = "A breach unremedied for sixty days ends it. Fees are $99,000 for 3000 pagers. It lasts 5 years."
    out = blank_values(text, allowed)
    assert out == f"A breach unremedied for {BLANK} ends it. Fees are {BLANK} for {BLANK} pagers. It lasts 5 years."
    # settle_facts writes them so before any hole opens (a sentence of other figures may go whole instead)
    settled = settle_facts("Notice must come sixty days before renewal.", DealFacts(), allowed)
    assert settled == f"Notice must come {BLANK} before renewal."


def test_a_sentence_naming_a_document_the_deal_lacks_goes_whatever_share_is_left():
    text = (
        "This Agreement begins on the Effective Date and continues until terminated. "
        "This Agreement shall automatically terminate in case the License Agreement is terminated for any reason. "
        "Either party may terminate this Agreement for material breach on notice."
    )
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.9)
    assert "License Agreement" not in out and out.startswith("This Agreement begins") and out.endswith("on notice.")
    # one hole, and taking it out leaves under 90% of the words: another deal's figure alone would stay (a blank)
    figure = text.replace("in case the License Agreement is terminated", "sixty days after notice")
    assert drop_fact_sentences(figure, DEAL, ALLOWED, keep_share=0.9) == figure


def test_a_named_document_goes_even_where_each_of_its_words_is_the_deals():
    text = (
        "This Agreement begins on the Effective Date and continues until terminated. "
        "This Agreement shall automatically terminate in case the License Agreement is terminated for any reason. "
        "Either party may terminate this Agreement for material breach on notice."
    )
    allowed = ALLOWED + " The Supplier holds every license the Products need under this Supply Agreement."
    out = drop_fact_sentences(text, DEAL, allowed, keep_share=0.9)
    assert "License Agreement" not in out and out.endswith("on notice.")
    # the deal's own agreement, named as the deal names it, stays
    own = text.replace("the License Agreement", "the Supply Agreement")
    assert drop_fact_sentences(own, DEAL, allowed, keep_share=0.9) == own


def test_a_list_its_source_flattened_into_one_line_reads_as_a_run_in_list():
    from hybrid.text.settle import dash_lists

    text = "Buyer will provide the following: - Technical specifications - Drawings - Quality requirements. Then more."
    assert dash_lists(text) == (
        "Buyer will provide the following: (a) Technical specifications; (b) Drawings; and (c) Quality requirements."
        " Then more."
    )
    # two items, or a dash inside a sentence, are no list
    assert dash_lists("Note: - one - two") == "Note: - one - two"
    assert dash_lists("The fee is USD 5 - 10 per unit.") == "The fee is USD 5 - 10 per unit."
    assert "(a)" in settle_facts(text, DEAL, ALLOWED)


def test_a_line_holding_only_the_sources_article_number_goes():
    text = "The Parties form the venture.\n\nArticle 27\n\nThe venture is to make widgets under Article 3."
    out = settle_facts(text, DEAL, ALLOWED)
    assert "Article 27" not in out and out.endswith("under Article 3.") and out.startswith("The Parties form")
    assert settle_facts("The venture ends.\n\nSECTION IV", DEAL, ALLOWED).strip() == "The venture ends."


def test_a_sub_clause_number_where_the_source_lost_its_stop_becomes_one():
    text = "Supplier reports the Products ready for delivery 12.2 Buyer will notify Supplier of destinations."
    assert settle_facts(text, DEAL, ALLOWED) == (
        "Supplier reports the Products ready for delivery. Buyer will notify Supplier of destinations."
    )
    kept = "Buyer may terminate under Section 12.2 Buyer shall pay the fees."
    assert settle_facts(kept, DEAL, ALLOWED) == kept


def test_a_sentence_ending_in_what_its_source_redacted_goes():
    text = (
        "Supplier will supply the Products to Buyer. "
        "If the Products delivered are short of an order, or if Buyer otherwise reasonably requests, [***]. "
        "Each party shall perform its obligations in a workmanlike manner."
    )
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.9)
    assert "[***]" not in out and out.startswith("Supplier will") and out.endswith("workmanlike manner.")
    # a redacted figure is a blank to complete: its sentence stays where too little would be left
    figure = text.replace("reasonably requests, [***].", "requests, Supplier credits [***] percent of the price.")
    assert drop_fact_sentences(figure, DEAL, ALLOWED, keep_share=0.9) == figure


def test_a_redaction_already_a_blank_goes_too_and_a_marker_holding_only_a_blank():
    # the supply draft at fcdc3f3: "(a) ... or if Buyer otherwise reasonably requests, [___]." and "c) [___]"
    text = (
        "Supplier will supply the Products to Buyer.\n\nc) [___]\n\n"
        "d) If the Products delivered are short of an order, or if Buyer otherwise reasonably requests, [___].\n\n"
        "Each party shall perform its obligations in a workmanlike manner."
    )
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.9)
    assert out == "Supplier will supply the Products to Buyer.\n\nEach party shall perform its obligations in a " \
        "workmanlike manner."


def test_a_lead_in_whose_list_went_and_a_fragment_after_a_cut_go_with_it():
    # the supply warranties at bc929b4: "Supplier represents and warrants to Buyer that:" with every item cut, then
    # " as set forth under Section 2.1 and 2.1." (the source's own broken sentence) after a cut one
    text = (
        "The following definitions apply unless modified in this Agreement.\n\n"
        '(a) "Quux Claim" means a claim by Zanzibar Quux Holdings.\n\n'
        "Supplier represents and warrants to Buyer that:\n\n"
        "(a) the Zanzibar Quux plant of Zanzibar Quux Holdings complies with Zanzibar Quux rules;\n\n"
        "Buyer represents and warrants to Supplier that it will purchase from Zanzibar Quux Holdings. "
        "as set forth under Section 2.1.\n\n"
        "Zanzibar Quux Holdings pays the Quux taxes. For avoidance of doubt, no increase is paid by Buyer.\n\n"
        "Zanzibar Quux Holdings is not in default for a Quux strike. Nor shall Supplier be liable for damages.\n\n"
        # the hosting fees at 32aa977: an attorney-fees clause whose statute sentence went
        "The prevailing party recovers its fees under Zanzibar Quux Civil Code section 1717. The provisions of the "
        "preceding sentence shall be severable from the provisions of this Agreement.\n\n"
        "Each party represents and warrants that it has full power to enter into this Agreement."
    )
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.1)
    assert out == "Each party represents and warrants that it has full power to enter into this Agreement."


def test_a_pages_confidentiality_legend_goes():
    text = "Buyer shall indemnify Supplier.\n\nCONFIDENTIAL Page 12 of Supplier shall indemnify Buyer."
    assert settle_facts(text, DEAL, ALLOWED) == "Buyer shall indemnify Supplier.\n\nSupplier shall indemnify Buyer."
    assert "CONFIDENTIAL" not in settle_facts("Buyer shall pay. CONFIDENTIAL 13.2 Taxes. Buyer pays taxes.", DEAL,
                                              ALLOWED)
    marked = 'Information marked "CONFIDENTIAL" is Confidential Information.'
    assert settle_facts(marked, DEAL, ALLOWED) == marked


def test_a_list_numbered_by_the_sources_sub_clauses_is_lettered():
    from hybrid.text.settle import sub_numbers_as_markers

    # the mutual NDA's draft 3 at 9c19f3d kept "can show:\n\n5.3.1 that such information ...; 5.3.2 it is ..."
    text = ("Information is not Confidential Information if the Receiving Party can show:\n\n5.3.1 that it entered "
            "the public domain; 5.3.2 it is rightfully known to the receiving Party; and, 5.3.3 it is independently "
            "developed.")
    assert sub_numbers_as_markers(text) == (
        "Information is not Confidential Information if the Receiving Party can show:\n\n(a) that it entered the "
        "public domain; (b) it is rightfully known to the receiving Party; and, (c) it is independently developed."
    )
    assert "(a)" in settle_facts(text, DEAL, ALLOWED)
    # one item, items of two parents, or numbers out of order: left as written
    for odd in ("show: 5.3.1 that it is public.", "show: 5.3.1 that it is; 6.1.2 it is.", "show: 5.3.2 a; 5.3.1 b."):
        assert sub_numbers_as_markers(odd) == odd


def test_a_term_around_the_deals_own_fact_is_still_a_hole_and_its_sentence_goes():
    """start_tokens masks what a foreign term holds beside the deal's kept fact ("Buyer Ex-Factory": " Ex-Factory");
    the filler had written it as ". This Agreement"."""
    roles = DealFacts(party_a="Supplier", party_b="Buyer", law="Delaware")
    text = ("Supplier will deliver the Products to the carrier. All risk of loss is borne by the Buyer Ex-Factory. "
            "Buyer will sign the bill of lading on delivery.")
    out = drop_fact_sentences(text, roles, ALLOWED)
    assert out == "Supplier will deliver the Products to the carrier. Buyer will sign the bill of lading on delivery."


def test_a_clause_whose_every_sentence_names_another_deal_is_not_emptied():
    """An unframed clause the rule would empty (a run-in heading, a lead-in, list items naming another deal's terms)
    keeps its sentences, holes and all: an empty start had the filler write the whole clause from scratch."""
    text = ("Protection by Supplier. Supplier will indemnify Buyer against any claim that is based on:\n"
            "a claim that any Zanzibar Service infringes a third party's rights;\n"
            "a breach by Supplier of the Quux Covenants.")
    out = drop_fact_sentences(text, DEAL, ALLOWED)
    assert "Supplier will indemnify Buyer against any claim that is based on:" in out and "infringes" in out
    assert drop_fact_sentences(text, DEAL, ALLOWED, may_empty=True) == ""  # a frame sentence stands before it


def test_the_sentence_on_the_sections_subject_is_left_to_the_share_rule():
    """Under "Indemnification" the indemnity itself stays, its hole and all, where the name rule took it out and
    left the definitions and procedures around it."""
    text = ("Supplier will defend Buyer against any Zanzibar Covered Claims and will indemnify Buyer for them. "
            "Notice of each claim is due promptly. The indemnifying party controls the defense.")
    assert drop_fact_sentences(text, DEAL, ALLOWED, heading="Indemnification") == text
    assert "Zanzibar" not in drop_fact_sentences(text, DEAL, ALLOWED, heading="Payment")


def test_a_sentence_whose_source_lost_its_end_goes():
    text = ("Supplier will supply the Products to Buyer. Supplier shall receive the ISO13488 standard for the "
            "facility by no later than . Buyer shall pay every invoice on receipt.")
    out = drop_fact_sentences(text, DEAL, ALLOWED)
    assert out == "Supplier will supply the Products to Buyer. Buyer shall pay every invoice on receipt."
    whole = "Supplier will supply the Products to Buyer. Buyer shall pay more than the list price."
    assert drop_fact_sentences(whole, DEAL, ALLOWED) == whole


def test_a_run_in_heading_bared_by_the_number_cleanup_goes_after_a_frame():
    text = "4.1Product Prices. Prices change only by a written amendment. Supplier will ship goods weekly."
    out = settle_facts(text, DEAL, ALLOWED, (), WORDS, frame="The Buyer shall pay USD 5 for each container.")
    assert out.startswith("Prices change only")


def test_paragraphs_cut_between_kept_ones_leave_one_paragraph_break():
    # the lease's Bonterms indemnity at 6ac599c: its cut definitions left "\n\n\n\n", where the fill wrote a lone "."
    text = (
        "Buyer shall pay the price.\n\nIndemnification Definitions. The following definitions apply.\n\n"
        '"Quux Claim" means a claim by Zanzibar Quux Holdings. \n\n"Zanzibar Claim" means a Zanzibar Quux Holdings '
        "claim.\n\nSupplier shall deliver the Products."
    )
    out = drop_fact_sentences(text, DEAL, ALLOWED, keep_share=0.1)
    assert out == "Buyer shall pay the price.\n\nSupplier shall deliver the Products."


def test_pointers_into_another_contracts_exhibits_go_and_the_grant_stays():
    # the distributor's License Grant at 89893b5 lost its grant: three pointers made the one operative sentence
    # dense with holes, and the clause kept only "a. Supplier retains the right ... to modify the Products"
    text = (
        "Supplier grants Buyer the exclusive right to sell the Products identified in Exhibit A to the customers "
        "specified in Exhibit B attached hereto and only within the Territory, as set forth in Schedule 2.\n\n"
        "Supplier retains the right to modify the Products from time to time."
    )
    out = settle_facts(text, DEAL, ALLOWED, heading="License Grant")
    assert out == (
        "Supplier grants Buyer the exclusive right to sell the Products to the customers and only within the "
        "Territory.\n\nSupplier retains the right to modify the Products from time to time."
    )
    # an attachment the deal itself names stays pointed to
    kept = "Buyer pays the prices set forth in Exhibit A."
    assert settle_facts(kept, DEAL, ALLOWED + " Prices: see Exhibit A.") == kept


def test_a_sentence_a_page_break_split_is_joined_again():
    from hybrid.data.clauses import join_page_breaks

    # the distributor's appointment at 32aa977: "... only a license to resell the -\n\n[PARTY_A] Products to ..."
    text = "[PARTY_B] may resell the -\n\n[PARTY_A] Products in the Territory, and in this -\n\nAgreement only."
    assert join_page_breaks(text) == "[PARTY_B] may resell the [PARTY_A] Products in the Territory, and in this " \
        "Agreement only."
    footer = "[PARTY_A] Confidential - 2 -\n\n[PARTY_A] will train staff.\n\nThe parties agree as follows -\n\n(a) x"
    assert join_page_breaks(footer) == footer  # a page number, and a list after a lead-in, stay


BUY_SELL = (
    "The Board meets quarterly. If a Board Dispute is not resolved, either Party, in the thirty day period after the "
    "twenty day period, may provide a written notice (the \"Offer Notice\") setting forth a price (the \"Offer "
    "Price\") and three closing dates not less than ninety days after the twenty-one day period. The other Party "
    "must then sell or buy at the Offer Price."
)


def test_a_whole_bases_mechanism_written_in_periods_and_its_own_terms_stays_with_blanks():
    """A joint venture's buy-sell trigger went as a sentence dense with another deal's facts: its periods and the
    terms it defines itself ("Offer Notice") counted as holes, and the deadlock exit with it (seed-347 reader)."""
    from hybrid.data.facts import BLANK
    from hybrid.text.blanks import blank_holes, blank_values

    out = drop_fact_sentences(BUY_SELL, DEAL, ALLOWED, whole=True)
    assert "(the \"Offer Notice\")" in out
    blanked = blank_holes(blank_values(out, ALLOWED), DEAL, ALLOWED)
    assert "(the \"Offer Notice\")" in blanked and "at the Offer Price" in blanked  # its own terms as written
    assert "twenty-" not in blanked and f"after the {BLANK} period" in blanked  # "twenty-one day" one blank
    assert "twenty-" not in blank_values(out, ALLOWED) and "twenty-" not in blank_holes(out, DEAL, ALLOWED)
    # sums and another deal's names still make a sentence another deal's
    other = "Quux Holdings shall pay Zorbex Trading USD 90,000 and USD 40,000 to Vantor Mills."
    kept = drop_fact_sentences(f"The Board meets quarterly. Each party pays its own costs. {other}", DEAL, ALLOWED,
                               whole=True)
    assert kept == "The Board meets quarterly. Each party pays its own costs."


def test_a_whole_bases_list_keeps_its_lead_in_with_blanks():
    """The seed-347 sponsorship's benefits list began "(i) displaying prominent identification ..." once its
    lead-in, dense with another deal's names and years, had gone."""
    lead = ("During the term Zorbex Racing shall provide the benefits of a Quux Prototype Series team as in 2005 "
            "- 2009 at Vantor Mills, including the following:")
    text = f"The Board meets quarterly. {lead}\n\n(i) signage on the car;\n\n(ii) use of the garage."
    out = drop_fact_sentences(text, DEAL, ALLOWED, whole=True)
    assert "including the following:" in out and "(i) signage" in out
    # a dense sentence that opens no list still goes
    plain = lead.replace(", including the following:", ".")
    assert "Quux" not in drop_fact_sentences(f"The Board meets quarterly. Each party pays its own costs. {plain}", DEAL,
                                             ALLOWED, whole=True)
