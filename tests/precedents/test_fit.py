"""hybrid.precedents.fit: a section's source is the clause its heading asks for, standard forms first."""

from types import SimpleNamespace

import pytest

from hybrid.precedents.fit import FitContext, fit, heading_words, pick, ranked
from hybrid.precedents.library import Precedent


def choose(candidates, heading, clause, budget, n, *, seed=0, ctx=None, **rank_args):
    """The precedent each of n variants adapts, as hybrid.skeleton.from_precedents.variant_draws picks it."""
    return pick(ranked(candidates, heading, clause, budget, ctx or FitContext(), **rank_args), heading, clause, n,
                seed=seed)


def _p(id, heading, body, source="cuad", doc_type="SUPPLY AGREEMENT", facts=()):
    return Precedent(id, id.split("#")[0], source, "CC-BY-4.0", doc_type, "confidentiality", heading, body, list(facts))


BODY = (
    "Each party shall keep the other party's confidential information secret and use it only under this Agreement. " * 3
)


@pytest.mark.parametrize(
    "heading, better, worse",
    [
        ("Confidential Information", "Confidential Information", "Return or Destruction of Confidential Information"),
        ("Confidentiality", "Confidentiality", "Exceptions"),
        ("Term", "Term of Agreement", "Survival"),
    ],
)
def test_the_heading_the_section_asks_for_wins(heading, better, worse):
    good, bad = _p("a#1", better, BODY), _p("b#1", worse, BODY)
    assert fit(good, heading, "confidentiality", 128).total > fit(bad, heading, "confidentiality", 128).total
    assert choose([bad, good], heading, "confidentiality", 128, 3) == [good, good, good]  # the other is not good enough


def test_standard_forms_first_and_policies_last():
    cuad = _p("c#1", "Confidentiality", BODY)
    std = _p("s#1", "Confidentiality", BODY, source="bonterms")
    policy = _p("p#1", "Confidentiality", BODY, source="github-site-policy")
    scores = {
        p.source: fit(p, "Confidentiality", "confidentiality", 128, FitContext(["SUPPLY AGREEMENT"])).total
        for p in (cuad, std, policy)
    }
    assert scores["bonterms"] > scores["cuad"] > scores["github-site-policy"]


def test_deal_specific_text_and_capitals_cost_fit():
    plain = _p("a#1", "Confidentiality", BODY)
    laden = _p(
        "b#1", "Confidentiality", BODY + " See Section 4.2, Exhibit B and Schedule 3 [***] for Ebix.", facts=["Ebix"]
    )
    shout = _p("c#1", "Confidentiality", BODY.upper())
    f = {p.id: fit(p, "Confidentiality", "confidentiality", 128).total for p in (plain, laden, shout)}
    assert f["a#1"] > f["b#1"] and f["a#1"] > f["c#1"]
    # a clause type that conventionally shouts keeps its capitals
    assert (
        fit(shout, "Confidentiality", "limitation_of_liability", 128).quality
        == fit(plain, "Confidentiality", "limitation_of_liability", 128).quality
    )


def test_variants_differ_by_source_where_good_ones_exist():
    a, b = _p("a#1", "Confidentiality", BODY), _p("b#1", "Confidentiality", BODY)
    got = choose([a, b], "Confidentiality", "confidentiality", 128, 4, seed=3)
    assert (
        got[0] in (a, b)
        and {p.id for p in got} == {"a#1", "b#1"}
        and got == choose([a, b], "Confidentiality", "confidentiality", 128, 4, seed=3)
    )
    assert choose([], "Confidentiality", "confidentiality", 128, 2) == [None, None]


def test_heading_words_are_stemmed_content_words():
    assert heading_words("Term of the Agreements") == {"term", "agreement"}
    assert heading_words("Fees and Royalties") & heading_words("Continuing Fee") == {"fee"}


def test_a_precedent_headed_for_another_subject_of_the_type_loses_fit():
    # the clause classifier files non-solicitation under "exclusivity"; a lawyer does not
    exclusive = _p("a#1", "Exclusive Rights", BODY)
    other = _p("b#1", "Non-Solicitation of Employees", BODY)
    unheaded = _p("c#1", "", BODY)
    at = lambda p: fit(p, "Exclusivity", "exclusivity", 128)  # noqa: E731
    assert at(other).total == at(unheaded).total - 1.0
    assert at(other).quality == at(exclusive).quality - 1.0


class _Library:  # what topic_counter reads of a library (weak-referenced for its caches)
    def __init__(self, precedents):
        self.precedents = precedents


def test_a_clause_in_words_the_templates_doc_type_never_writes_loses_fit():
    from hybrid.precedents import fit as fit_module
    from hybrid.precedents.fit import topic_counter

    supply = [_p(f"s{i}#1", "Supply", "Supplier shall deliver the goods to Buyer each month under the channel plan.")
              for i in range(3)]
    other = [_p(f"o{i}#1", "Exclusivity", "Buyer is the exclusive cooperator of the real estate channel.",
                doc_type="COOPERATION AGREEMENT") for i in range(3)]
    lib = _Library(supply + other)
    text = "Buyer is the exclusive cooperator of the real estate channel."
    old, fit_module.VOCABULARY_MIN = fit_module.VOCABULARY_MIN, 3
    try:
        by_type = topic_counter(lib, "Keystone supplies containers.", ["SUPPLY AGREEMENT"])
        assert by_type(text) == 6  # is, exclusive, cooperator, of, real, estate: the supply clauses never write them
        assert by_type("Supplier shall deliver the goods to Buyer.") == 0
        deal = "is of real estate cooperator exclusive"  # words the deal writes count for nothing
        assert topic_counter(lib, deal, ["SUPPLY AGREEMENT"])(text) == 0
        # too few clauses of the doc type to judge by: only the library's rare words count
        fit_module.VOCABULARY_MIN = 10
        fit_module._VOCAB.clear()
        assert topic_counter(lib, "", ["SUPPLY AGREEMENT"])(text) == topic_counter(lib, "")(text)
    finally:
        fit_module.VOCABULARY_MIN = old
        fit_module._VOCAB.clear()
    f = fit(other[0], "Exclusivity", "exclusivity", 64, FitContext(topic=lambda t: 6))
    g = fit(other[0], "Exclusivity", "exclusivity", 64, FitContext(topic=lambda t: 0))
    assert f.total < g.total and f.topic > 0


def test_a_precedent_whose_parties_stand_the_wrong_way_round_is_flipped_or_loses_fit():
    from hybrid.data.facts import DealFacts
    from hybrid.precedents.fit import reversed_roles
    from hybrid.skeleton.from_precedents import _Adapted

    assert reversed_roles("Buyer shall invoice Supplier. Supplier shall pay each invoice.", "Supplier", "Buyer") == 2
    assert reversed_roles("Supplier shall invoice Buyer. The Buyer shall pay each invoice.", "Supplier", "Buyer") == 0
    assert reversed_roles("Lessor agrees to pay Lessee the rent.", "Lessor", "Lessee") == 1
    assert reversed_roles("Buyer shall pay.", "", "Buyer") == 0
    # who ships and who examines what was shipped (a collaboration agreement's "Delivery Terms" under a supply
    # agreement's "Delivery and Acceptance"); a buyer delivering a forecast is no reversal
    shipped = ("Buyer shall (a) deliver the Product to Supplier. Buyer shall package the Product for shipment. "
               "Supplier shall diligently examine all Product delivered.")
    assert reversed_roles(shipped, "Supplier", "Buyer") == 3
    right = ("Supplier shall deliver the Products to Buyer. Buyer shall inspect each shipment. "
             "Buyer shall send a forecast.")
    assert reversed_roles(right, "Supplier", "Buyer") == 0
    sent = "Products shall be shipped to Supplier's address. Title and risk of loss shall pass to Supplier."
    assert reversed_roles(sent, "Supplier", "Buyer") == 2
    # who performs the services, and who is appointed as what (distributor and hosting drafts at 32aa977)
    hosted = "Customer shall provide, directly or through a vendor satisfactory to Host, the Online Hosting Services."
    assert reversed_roles(hosted, "Host", "Customer") == 1
    assert reversed_roles("Host shall perform the Services.", "Host", "Customer") == 0
    appointed = "Distributor hereby appoints Supplier as an independent, exclusive distributor to assist Distributor."
    assert reversed_roles(appointed, "Supplier", "Distributor") == 1
    assert reversed_roles("Supplier appoints Distributor as its exclusive distributor.", "Supplier", "Distributor") == 0
    assert reversed_roles("Client appoints Consultant as an independent consultant.", "Consultant", "Client") == 0
    deal = DealFacts(party_a="Supplier", party_b="Buyer", sides=("provider", "customer"))
    p = _p("x#1", "Payment", "[PARTY_B] shall invoice [PARTY_A] monthly and [PARTY_A] shall pay each invoice.")
    a = _Adapted(p, deal)
    assert a.body == "Supplier shall invoice Buyer monthly and Buyer shall pay each invoice." and a.reversed == 0
    assert a.precedent.id == p.id and a.precedent.body.startswith("[PARTY_A] shall invoice")
    right = _Adapted(_p("y#1", "Payment", "[PARTY_B] shall pay each invoice of [PARTY_A]."), deal)
    assert right.precedent.body == "[PARTY_B] shall pay each invoice of [PARTY_A]."
    # fit reads the flag: a precedent left reversed loses to the same text the right way round
    flagged = _Adapted(p, deal)
    flagged.reversed = 1
    assert fit(flagged, "Payment", "payment", 64).total < fit(a, "Payment", "payment", 64).total


def test_a_precedent_whose_first_sentence_overruns_the_budget_loses_fit():
    long = "Supplier shall deliver " + "the goods and " * 60 + "the spares."
    short = "Supplier shall deliver the goods. " * 4
    assert fit(_p("a#1", "Delivery", long), "Delivery", "delivery", 64).quality < (
        fit(_p("b#1", "Delivery", short), "Delivery", "delivery", 64).quality - 1.5)


def test_an_overrunning_first_sentence_that_closes_before_a_coordinated_clause_loses_less():
    opening = "Neither party shall be liable to the other for any indirect damages of any kind whatsoever"
    closes = opening + ", and " + "even if advised of the possibility of such damages in any event " * 10 + "."
    never = opening + " " + "even if advised of the possibility of such damages in any event " * 10 + "."
    f_closes = fit(_p("a#1", "Liability", closes), "Liability", "limitation_of_liability", 32)
    f_never = fit(_p("b#1", "Liability", never), "Liability", "limitation_of_liability", 32)
    assert f_never.quality <= f_closes.quality - 2.5  # one is cut whole, the other would stop mid-sentence


def test_a_first_sentence_in_capitals_counts_the_tokens_capitals_take():
    words = "NEITHER PARTY SHALL BE LIABLE FOR ANY INDIRECT DAMAGES WHATSOEVER ARISING HEREUNDER IN ANY EVENT"
    caps = " ".join([words] * 6) + "."  # 90 words: fits a 140-token room as lower case, not in capitals
    lower = caps.lower().capitalize()
    budget = 140
    assert fit(_p("a#1", "Liability", caps), "Liability", "limitation_of_liability", budget).quality <= (
        fit(_p("b#1", "Liability", lower), "Liability", "limitation_of_liability", budget).quality - 3.5)


def test_a_precedent_that_opens_on_text_before_it_loses_fit():
    leaning = "In addition, Licensor may use and disclose Licensee's information as necessary to provide the services."
    whole = "Licensor may use and disclose Licensee's information only as necessary to provide the services."
    f_leaning = fit(_p("a#1", "Confidentiality", leaning), "Confidentiality", "confidentiality", 64)
    f_whole = fit(_p("b#1", "Confidentiality", whole), "Confidentiality", "confidentiality", 64)
    assert f_leaning.quality <= f_whole.quality - 1.5


def test_a_clause_that_reads_as_another_kind_of_deal_loses_to_one_of_the_templates_own_kind():
    """Library.deal_kind: the cosine to the centroid of the template's doc types' clauses of the type; fit weighs
    it by KIND_WEIGHT. Seen: a supply agreement's "Term and Termination" from a mutual NDA ("Recipient's obligations
    relating to Confidential Information will survive")."""
    import numpy as np

    from hybrid.precedents.fit import KIND_WEIGHT
    from hybrid.precedents.library import Library

    def embed(texts):  # a toy encoder: supply words on one axis, confidentiality words on the other
        return np.array([[t.count("Products") + 0.1, t.count("Confidential") + 0.1] for t in texts], dtype=np.float32)

    own = [_p(f"s{i}.txt#8", "Term", "Supplier ships Products. Buyer pays for Products.") for i in range(3)]
    nda = _p("nda.md#6", "Term and Termination", "Confidential Information stays Confidential. " * 20,
             doc_type="MUTUAL NDA")
    supply = _p("s9.txt#8", "Term and Termination", "Either party may end the supply of Products on notice.")
    lib = Library([*own, nda, supply], "x")
    assert lib.deal_kind("confidentiality", ["Supply Agreement"], [nda, supply]) == {}  # no relevance scorer: off
    lib.relevance = SimpleNamespace(embed=embed)
    kinds = lib.deal_kind("confidentiality", ["Supply Agreement"], [nda, supply])
    assert kinds[supply.id] > 0.9 > 0.2 > kinds[nda.id]
    plain = choose([nda, supply], "Term and Termination", "confidentiality", 256, 1)
    weighed = choose([nda, supply], "Term and Termination", "confidentiality", 256, 1, kinds=kinds)
    assert plain == [nda] and weighed == [supply]  # without kinds the NDA's longer body fits the budget better
    f = fit(supply, "Term and Termination", "confidentiality", 256, kind=kinds[supply.id])
    plain_fit = fit(supply, "Term and Termination", "confidentiality", 256)
    assert f.kind == kinds[supply.id] and f.total == plain_fit.total + KIND_WEIGHT * kinds[supply.id]
    # a doc type with too few clauses of the type: its clauses of any type make the centroid; none at all: off
    assert lib.deal_kind("confidentiality", ["Mutual NDA"], [nda, supply])[nda.id] > 0.9
    assert lib.deal_kind("confidentiality", ["Equipment Lease"], [nda, supply]) == {}


def test_a_variant_that_would_repeat_another_whole_adapts_a_fair_precedent_in_one_section():
    # the README's mutual NDA printed drafts 2 and 3 the same: every section had one or two good precedents, and
    # variants cycled through them in step
    from types import SimpleNamespace as NS

    from hybrid.precedents.fit import FAIR_MARGIN
    from hybrid.skeleton.from_precedents import _vary_repeats

    def cand(name):  # a fit candidate (hybrid.skeleton.from_precedents._Adapted) and its precedent
        return NS(id=name, precedent=NS(id=name))

    def rows(chosen):
        return [tuple(p.id for p in row) for row in zip(*chosen)]

    def fits(*pairs):
        return [(NS(total=t, heading=1.0), cand(name)) for name, t in pairs]

    spans = [NS(clause="confidentiality", heading="Confidentiality"), NS(clause="general", heading="General")]
    scored = [fits(("A", 5.0), ("B", 4.8)), fits(("C", 5.0), ("D", 3.5), ("E", 5.0 - FAIR_MARGIN - 0.1))]
    chosen = [[c.precedent for c in pick(sc, sp.heading, sp.clause, 3)] for sc, sp in zip(scored, spans)]
    assert rows(chosen) == [("A", "C"), ("B", "C"), ("A", "C")]  # variant 3 repeats variant 1 whole
    _vary_repeats(chosen, scored, spans)
    # variant 3 takes D (fair: within FAIR_MARGIN); E is not fair, A and B are taken
    assert rows(chosen) == [("A", "C"), ("B", "C"), ("A", "D")]
    # where no section has a fair precedent left, the repeat stays (nothing worse is taken)
    scored = [fits(("A", 5.0)), fits(("C", 5.0), ("E", 2.0))]
    chosen = [[c.precedent for c in pick(sc, sp.heading, sp.clause, 2)] for sc, sp in zip(scored, spans)]
    _vary_repeats(chosen, scored, spans)
    assert rows(chosen) == [("A", "C"), ("A", "C")]


def test_a_clause_far_below_the_best_kind_is_left_out_however_well_its_heading_fits():
    """ranked leaves out a candidate whose deal kind is KIND_GAP below the best kind among heading-matching ones
    (seen: a supply agreement's "Obligations of the Parties" from a strategic alliance's covenants on "the purchase
    and sale of the shares"), but keeps a standard form of the template's own kind, and anything where kinds are
    not known."""
    from hybrid.precedents.fit import KIND_GAP

    alliance = _p("a#1", "Obligations of the Parties", BODY, doc_type="STRATEGIC ALLIANCE AGREEMENT")
    maker = _p("m#1", "Contractor's Obligations", BODY * 2, doc_type="MANUFACTURING AGREEMENT")
    form = _p("f#1", "Obligations", BODY, source="commonpaper", doc_type="SUPPLY AGREEMENT")
    kinds = {alliance.id: 0.6, maker.id: 0.6 + KIND_GAP + 0.05, form.id: 0.2}
    supply = FitContext(doc_types=["SUPPLY AGREEMENT"])
    assert [p.id for _, p in ranked([alliance, maker], "Obligations of the Parties", "obligations", 256, supply)][
        0
    ] == "a#1"  # the heading alone would choose the alliance's
    got = [p.id for _, p in ranked([alliance, maker, form], "Obligations of the Parties", "obligations", 256,
                                   supply, kinds=kinds)]
    assert "a#1" not in got and set(got) == {"m#1", "f#1"}
    # within the gap it stays, and fit's KIND_WEIGHT orders them
    near = dict(kinds, **{alliance.id: 0.6 + 0.1})
    assert "a#1" in [p.id for _, p in ranked([alliance, maker], "Obligations of the Parties", "obligations", 256,
                                             supply, kinds=near)]


def test_a_clause_leaning_on_a_clause_the_draft_lacks_or_written_to_you_loses_fit():
    """absent (hybrid.common.topics): the supply draft at fcdc3f3 took an endorsement agreement's "The license
    hereby granted shall be exclusive" for its Exclusivity; the lease's General said "signed by both of us"."""
    from hybrid.common.topics import absent_mentions, absent_types

    lacks = absent_types(["exclusivity", "products", "payment"])
    absent = lambda text: len(absent_mentions(text, lacks))  # noqa: E731
    plain = _p("a#1", "Exclusivity", "Buyer shall buy the Products only from Supplier during the Term. " * 3)
    licence = _p("b#1", "Exclusivity", "The license hereby granted shall be exclusive as to the Products. " * 3)
    ours = _p("c#1", "Exclusivity", "Buyer shall buy the Products only from us during the Term. " * 3)
    leaning = FitContext(absent=absent)
    got = {p.id: fit(p, "Exclusivity", "exclusivity", 128, leaning).total for p in (plain, licence, ours)}
    assert got["a#1"] > got["b#1"] and got["a#1"] > got["c#1"]
    assert fit(licence, "Exclusivity", "exclusivity", 128).total == fit(plain, "Exclusivity", "exclusivity", 128).total
    assert choose([licence, plain], "Exclusivity", "exclusivity", 128, 1, ctx=leaning) == [plain]
    # left out where a clause without such a phrase fits the heading; kept where none does
    assert [p.id for _, p in ranked([licence, plain], "Exclusivity", "exclusivity", 128, leaning)] == ["a#1"]
    assert [p.id for _, p in ranked([licence], "Exclusivity", "exclusivity", 128, leaning)] == ["b#1"]


def test_a_clause_about_another_deals_topic_is_left_out_where_another_fits():
    """TOPIC_LIMIT: "the exclusive cooperator of Supplier's real estate and home furnishing cooperation channel"."""
    topic_words = {"cooperator", "furnishing", "estate", "channel", "cooperation"}
    topic = lambda text: sum(w.strip(".,'s") in topic_words for w in text.lower().split())  # noqa: E731
    channel = _p("a#1", "Exclusivity", "Buyer is the exclusive cooperator of the real estate and home furnishing "
                 "cooperation channel. " * 3)
    plain = _p("b#1", "Non-Exclusivity", "Nothing herein requires Buyer to purchase any quantity of Products. " * 3)
    got = [p.id for _, p in ranked([channel, plain], "Exclusivity", "exclusivity", 128, FitContext(topic=topic))]
    assert got == ["b#1"]
    assert [p.id for _, p in ranked([channel], "Exclusivity", "exclusivity", 128, FitContext(topic=topic))] == ["a#1"]


def test_variants_that_differ_only_in_their_definitions_sources_count_as_repeats():
    # the README's mutual NDA at 585a6d9 printed drafts 1 and 2 the same but for a footnote: their Definitions
    # sources differed, and every entry went (the index of the draft's own terms stood in both)
    from types import SimpleNamespace as NS

    from hybrid.skeleton.from_precedents import _vary_repeats

    def cand(name):
        return NS(id=name, precedent=NS(id=name))

    spans = [NS(clause="definitions", heading="Definitions"), NS(clause="general", heading="General")]
    scored = [[(NS(total=5.0, heading=1.0), cand(x)) for x in "XY"],
              [(NS(total=5.0, heading=1.0), cand("C")), (NS(total=4.5, heading=1.0), cand("D"))]]
    chosen = [[NS(id="X"), NS(id="Y")], [NS(id="C"), NS(id="C")]]
    _vary_repeats(chosen, scored, spans)
    assert [p.id for p in chosen[1]] == ["C", "D"] and [p.id for p in chosen[0]] == ["X", "Y"]


def test_a_repeat_is_told_by_text_not_by_id():
    # the corpus holds "CONSULTING AGREEMENT.txt" and "CONSULTING AGREEMENT(1).txt": the README's NDA at 585a6d9
    # printed drafts 3 and 4 the same text from the two files
    from types import SimpleNamespace as NS

    from hybrid.skeleton.from_precedents import _vary_repeats

    def prec(id, body):
        return NS(id=id, body=body)

    twin_a, twin_b = prec("a.txt#4", "Same words."), prec("a(1).txt#4", "Same words.")
    other = prec("b.txt#4", "Other words.")
    spans = [NS(clause="confidentiality", heading="Confidential Information")]
    scored = [[(NS(total=5.0, heading=1.0), NS(id=p.id, precedent=p)) for p in (twin_a, twin_b, other)]]
    chosen = [[twin_a, twin_b]]
    _vary_repeats(chosen, scored, spans)
    assert [p.id for p in chosen[0]] == ["a.txt#4", "b.txt#4"]


def test_a_fair_candidate_whose_edit_keeps_little_of_it_is_left_out():
    from hybrid.precedents.fit import FitScore, without_hollow

    body = " ".join(["word"] * 100)
    committee = _p("c#1", "Dispute Resolution", body)  # its sentences all lean on another deal's committee
    amicable = _p("a#1", "Dispute Resolution", body)
    far = _p("f#1", "Dispute Resolution", body)  # fits far worse: never asked
    scored = [(FitScore(1, 0, 0, 0, 5.0), committee), (FitScore(1, 0, 0, 0, 4.5), amicable),
              (FitScore(1, 0, 0, 0, 1.0), far)]
    asked = []

    def kept(p):
        asked.append(p.id)
        return 20 if p in (committee, far) else 90

    assert [p.id for _, p in without_hollow(scored, kept, room=180)] == ["a#1", "f#1"]
    assert asked == ["c#1", "a#1"]
    # the share is of what the section holds: 20 of a room of 50 words is not hollow
    assert [p.id for _, p in without_hollow(scored, kept, room=50)] == ["c#1", "a#1", "f#1"]
    # where every candidate asked is hollow, the list stays as it was
    assert without_hollow(scored, lambda p: 0, room=180) == scored


def test_a_governing_law_clause_that_names_only_the_forum_loses_fit():
    # the equipment lease's "Governing Law" at 32aa977 held only "The parties hereby agree to submit to the
    # jurisdiction and venue of the State and Federal courts of the State of Oregon ..."
    forum = _p("a#1", "Governing Law", "The parties submit to the jurisdiction of the courts of Oregon. " * 2)
    law = _p("b#1", "Governing Law", "This Agreement is governed by the laws of the State of Oregon. " * 2)
    inverted = _p("c#1", "Governing Law", "The law of the State of Oregon governs this Agreement. " * 2)
    f_forum, f_law, f_inv = (fit(p, "Governing Law", "governing_law", 64) for p in (forum, law, inverted))
    assert f_forum.quality <= f_law.quality - 2.0 and f_inv.quality == f_law.quality
    assert fit(forum, "Jurisdiction", "dispute_resolution", 64).quality > f_forum.quality  # other types: no cost
