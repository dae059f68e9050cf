from hybrid.data.facts import DealFacts, adapt
from hybrid.data.roles import apply_roles, deal_roles, family_of


def test_families_sort_role_words_by_side():
    assert family_of("Licensee") == "customer"
    assert family_of("Rights Holder") == "provider"
    assert family_of("Recipient") == "recipient"
    assert family_of("Acme") is None


def test_a_supply_deal_writes_its_own_roles_for_the_precedents():
    pairs = deal_roles("Supplier", "Buyer", ["Agreement", "Supplier", "Buyer"])
    text = "Vendor shall ship to Customer. THE SELLER WARRANTS. A supplier of parts is no party."
    want = "Supplier shall ship to Buyer. THE SUPPLIER WARRANTS. A supplier of parts is no party."
    assert apply_roles(text, pairs) == want


def test_a_mutual_nda_maps_discloser_and_recipient_only_when_it_defines_them():
    defined = ["Agreement", "Party", "Disclosing Party", "Receiving Party"]
    pairs = deal_roles(None, None, defined)
    out = apply_roles("Discloser's rights survive; this NDA binds Recipient, not Recipients.", pairs)
    assert out == "Disclosing Party's rights survive; this Agreement binds Receiving Party, not Recipients."
    bare = deal_roles(None, None, ["Agreement", "Party"])  # no side of its own: a Supplier stays a Supplier
    assert apply_roles("Supplier and Recipient", bare) == "Supplier and Recipient"


def test_an_acronym_self_name_keeps_its_case_class():
    pairs = deal_roles(None, None, ["Agreement"])
    assert apply_roles("THIS NDA; this MNDA", pairs) == "THIS Agreement; this Agreement"


def test_adapt_maps_roles_before_the_markers_so_a_fact_is_never_rewritten():
    deal = DealFacts(party_a="Vendor Holdings LLC", roles=deal_roles("Supplier", "Buyer", ["Agreement"]))
    assert adapt("[PARTY_A] and Vendor", deal) == "Vendor Holdings LLC and Supplier"


def test_a_one_word_defined_role_is_a_party_only_as_written_or_in_capitals():
    from hybrid.data.facts import normalize

    n = normalize(
        'Acme Corp. ("Supplier") sells parts. The Supplier is a supplier of parts; SUPPLIER SHALL.',
        {"party_a": "Acme Corp."},
        'Acme Corp. ("Supplier")',
    )
    assert n.text == '[PARTY_A] ("[PARTY_A]") sells parts. [PARTY_A] is a supplier of parts; [PARTY_A] SHALL.'
    assert n.sides == ("provider", None)


def test_a_standard_forms_cover_page_terms_become_the_deals_words():
    from hybrid.data.facts import normalize

    n = normalize("The Governing Law governs; either party may sue in the Courts, per the Cover Page.", {}, "")
    assert n.text == "The law of [LAW] governs; either party may sue in the courts of [LAW], per this Agreement."
    # "This NDA (which includes the Cover Page)": the parenthesis goes, not "(which includes this Agreement)"
    n = normalize("This NDA (which includes the Cover Page) is the parties' entire agreement.", {}, "")
    assert n.text == "This NDA is the parties' entire agreement."
    n = normalize("The Key Terms may include details about Covered Claims, set the Governing Law, or contain other "
                  "legal details. The Governing Law governs.", {}, "")
    assert n.text.startswith("The Key Terms may include details about Covered Claims, set the governing law, or")
    assert n.text.endswith("The law of [LAW] governs.")
    n = normalize("The Governing Law identified in the SOW will govern. The parties will sue in the Chosen Courts "
                  "identified in the SOW and submit to the exclusive jurisdiction of such Chosen Courts.", {}, "")
    assert n.text == ("The law of [LAW] will govern. The parties will sue in the courts of [LAW] and submit to the "
                      "exclusive jurisdiction of the courts of [LAW].")
    # seed 331: a short name replaced inside the full name takes the rest of the name with it
    pre = 'between Tate & Lyle Ltd. ("T&L") and Igene Biotechnology, Inc., a Maryland corporation ("Igene")'
    n = normalize("styled Archer Daniels Midland Corporation v. Igene Biotechnology, Inc., in Maryland.", {}, pre)
    assert "v. [PARTY_B], in" in n.text and "Biotechnology" not in n.text
    assert normalize("Igene Products shall ship.", {}, pre).text == "[PARTY_B] Products shall ship."
    # seed 331: "the meanings given in this Agreement or below", "given herein or in this Agreement"
    for text in ("capitalized terms have the meanings given on the Cover Page or below.",
                 "capitalized terms have the meanings given herein or on the Cover Page."):
        assert normalize(text, {}, "").text == "capitalized terms have the meanings given in this Agreement."


def test_a_precedent_whose_parties_stand_the_other_way_round_is_swapped():
    from hybrid.data.facts import normalize

    n = normalize(
        "[Distributor] buys from Maker.", {}, 'Big Distro LLC ("Distributor") and Maker Inc. ("Manufacturer")'
    )
    assert n.sides == ("customer", "provider")
    supply = DealFacts(party_a="Supplier", party_b="Buyer", sides=("provider", "customer"))
    body = "[PARTY_A] shall buy the Products from [PARTY_B]."
    assert adapt(body, supply, n.sides) == "Buyer shall buy the Products from Supplier."
    assert adapt(body, supply, ("provider", "customer")) == "Supplier shall buy the Products from Buyer."
    assert adapt(body, supply, ()) == "Supplier shall buy the Products from Buyer."  # unknown: as it stands


def test_company_takes_the_side_its_counterpart_leaves_open():
    supply = deal_roles("Supplier", "Buyer", ["Agreement"])
    assert apply_roles("Company shall sell to Distributor.", supply) == "Supplier shall sell to Buyer."
    assert apply_roles("Company shall pay Consultant.", deal_roles("Consultant", "Client", [])) == (
        "Client shall pay Consultant."
    )
    assert apply_roles("Company shall pay Vendor and Customer.", supply) == "Company shall pay Supplier and Buyer."
    assert apply_roles("Company shall sell.", supply) == "Company shall sell."  # no counterpart: no side
    assert apply_roles("Company and Recipient", deal_roles(None, None, ["Agreement"])) == "Company and Recipient"


def test_company_beside_one_party_marker_is_the_other_party():
    """The source's normalization replaced its defined party by its marker; "the Company" it left is the other."""
    lease = DealFacts(party_a="Lessor", party_b="Lessee", roles=deal_roles("Lessor", "Lessee", ["Agreement"]))
    body = "[PARTY_B] shall indemnify and save harmless the Company for losses incurred by the Company."
    out = adapt(body, lease)
    assert out == "Lessee shall indemnify and save harmless the Lessor for losses incurred by the Lessor."
    named = DealFacts(party_a="Acme Robotics, Inc.", party_b="Borealis LLC")
    assert adapt("The Company shall pay [PARTY_B].", named) == "Acme Robotics, Inc. shall pay Borealis LLC."
    # both markers, or a role word beside it: which side the Company is stays open here
    assert adapt("[PARTY_A] and [PARTY_B] shall tell the Company.", named) == (
        "Acme Robotics, Inc. and Borealis LLC shall tell the Company."
    )
    assert adapt("[PARTY_B] shall pay the Company and the Vendor.", named) == (
        "Borealis LLC shall pay the Company and the Vendor."
    )
    # the last word of another name is no party (seed 331: "the Operating SolarReach Energy Ltd.")
    assert adapt("[PARTY_B] shall fund the Operating Company and pay the Company in full.", named) == (
        "Borealis LLC shall fund the Operating Company and pay Acme Robotics, Inc. in full."
    )
    assert adapt("[PARTY_B] shall fund the Operating Company.", named) == (
        "Borealis LLC shall fund the Operating Company."
    )


def test_a_fact_written_into_a_run_of_capitals_is_written_in_capitals():
    deal = DealFacts(party_a="Supplier", party_b="Buyer", law="Ohio")
    assert adapt("[PARTY_A] AND ALL [PARTY_A] SUPPLIERS DISCLAIM ALL WARRANTIES", deal) == (
        "SUPPLIER AND ALL SUPPLIER SUPPLIERS DISCLAIM ALL WARRANTIES")
    assert adapt("THE SERVICES WILL MEET [PARTY_B]'S OR END USER REQUIREMENTS", deal) == (
        "THE SERVICES WILL MEET BUYER'S OR END USER REQUIREMENTS")
    # in ordinary text, or beside a lone acronym, the fact stands as the deal writes it
    assert adapt("[PARTY_A] shall deliver the goods to [PARTY_B] under the laws of [LAW].", deal) == (
        "Supplier shall deliver the goods to Buyer under the laws of Ohio.")
    assert adapt("the USD price [PARTY_B] pays", deal) == "the USD price Buyer pays"
    assert adapt("GOVERNED BY THE LAWS OF [LAW] ONLY", deal) == "GOVERNED BY THE LAWS OF Ohio ONLY"  # parties only


def test_a_fallback_phrase_that_opens_a_sentence_is_capitalized():
    deal = DealFacts(party_a="Supplier", party_b="Buyer")
    assert adapt("Pay on time. [PARTY_A] pays.", DealFacts()).split(". ")[1] == "The first Party pays."
    assert adapt("[PARTY_B] pays.", DealFacts()) == "The other Party pays."
    assert adapt("Buyer pays [PERCENT] of the price.", deal) == "Buyer pays [___] of the price."


def test_a_term_the_deal_does_not_state_is_a_blank_to_complete():
    deal = DealFacts(party_a="Supplier", party_b="Buyer")
    assert adapt("cured within [DURATION] of receipt of notice", deal) == "cured within [___] of receipt of notice"
    assert adapt("renewed for successive [DURATION] periods", deal) == "renewed for successive [___] periods"
    assert adapt("[AMOUNT] is due on [DATE].", deal) == "[___] is due on [___]."


def test_a_blank_for_a_period_takes_no_plural_ending():
    # seen in the equipment lease: "will continue in effect until [___](s) from such date"
    deal = DealFacts(party_a="Acme", party_b="Beta")
    assert adapt("until [DURATION](s) from such date", deal) == "until [___] from such date"


def test_a_possessive_of_capitals_follows_the_name_written_in():
    # a sponsorship's products clause in the harness at 32aa977: "sufficient quantities ... for Rights Holder'S use"
    deal = DealFacts(party_a="Sponsor", party_b="Rights Holder")
    assert adapt("for [PARTY_B]'S use and [PARTY_A]'s family", deal) == "for Rights Holder's use and Sponsor's family"
    assert adapt("NOTHING LIMITS [PARTY_A]'S LIABILITY", deal) == "NOTHING LIMITS SPONSOR'S LIABILITY"


def test_a_company_suffix_after_a_party_marker_goes_with_the_name():
    """The library's marker took "GAINSCO" and left its "Inc.": the seed-347 sponsorship read '"Sponsor Inc. and all
    related entities" as additional insureds'."""
    from hybrid.data.facts import DealFacts, adapt

    deal = DealFacts(party_a="Rights Holder", party_b="Sponsor")
    assert adapt('evidencing "[PARTY_B] Inc. and all related entities"', deal) == (
        'evidencing "Sponsor and all related entities"')
    assert adapt("[PARTY_A], LLC shall pay [PARTY_B] Inc.", deal) == "Rights Holder shall pay Sponsor."
    assert adapt("[PARTY_B] Incentive Plan", deal) == "Sponsor Incentive Plan"  # a word, not a suffix


def test_an_article_before_a_fact_agrees_with_what_is_written_in():
    """A franchise base's "an AIRSOPURE Center" had read "an Franchisor Center"; a blank keeps its article."""
    deal = DealFacts(party_a="Franchisor", party_b="Alder Foods LLC")
    assert adapt("to operate an [PARTY_A] Center", deal) == "to operate a Franchisor Center"
    assert adapt("A [PARTY_B] store and an [PARTY_A] store", deal) == "An Alder Foods LLC store and a Franchisor store"
    assert adapt("for a [DURATION] term, Dan [PARTY_A]", deal) == "for a [___] term, Dan Franchisor"


def test_a_period_in_words_is_one_marker_with_its_hundreds():
    """A distributor's inserted renewal clause read "notifies the other ... at least one hundred [___] prior to the
    expiration": the library's masking had read "twenty (120) days" and left the hundreds (session 38). A word before
    a number that is not its hundreds stays out, as before."""
    from hybrid.data.facts import normalize

    n = normalize("notify at least one hundred twenty (120) days prior, for one (1) year periods; within two hundred "
                  "and ten (210) days, one hundred (100) days or no later than six (6) months.", {})
    assert n.text == ("notify at least [DURATION] prior, for [DURATION] periods; within [DURATION], [DURATION] or no "
                      "later than [DURATION].")
    assert n.facts[0] == "one hundred twenty (120) days" and "one hundred (100) days" in n.facts
