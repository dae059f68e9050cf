"""hybrid.common.protections and its veto in the consistency pass: a right, remedy or protection the draft states
nowhere else never goes, and every removal says why (and, for a protection, where the draft states it)."""

import pytest

from hybrid.common.protections import protection_kind, protection_kinds, stated_elsewhere
from hybrid.draft.consistency import consistency_pass

# a term frame as the templates write it ("states only the term") and the precedents' termination rights, their
# numbers blanked as the edit's start leaves them: each was once removed as a "restated_sentence" of the frame
TERM_FRAME = (
    "This Agreement begins on the Effective Date and continues for 3 years unless terminated earlier under this "
    "Section."
)
SAAS = (
    "Either party may terminate this Agreement effective upon written notice if the other party (a) fails to cure a "
    "material breach of this Agreement within [___] days after notice, (b) ceases operation without a successor or "
    "(c) seeks protection under any bankruptcy, receivership, trust deed, creditors' arrangement, composition or "
    "comparable proceeding, or if any such proceeding is instituted against that party and not dismissed within "
    "[___] days."
)
NDA_FRAME = (
    "This Agreement remains in effect for 2 years from the Effective Date, and the Recipient's obligations of "
    "confidentiality continue for 3 years after it expires or is terminated."
)
NDA = (
    "Either party may terminate this Agreement at any time in the event that the other party is in default or breach "
    "of any material provision of this Agreement, and such default or breach continues unremedied for a period of "
    "[___] days after written notice thereof."
)
ORPHAN = (
    "In addition to the right to terminate this Agreement, the non-breaching party, shall have all rights and "
    "remedies available at law and in equity."
)
LOCKED = ["Effective Date", "Party", "Recipient", "Discloser"]


def _term(frame: str, *sentences: str, heading: str = "Term and Termination") -> dict:
    body = " ".join([frame, *sentences])
    return {"heading": heading, "clause": "term", "frame": frame, "locked": LOCKED, "body": body}


def _changes(report: dict) -> list[dict]:
    return [c for r in report["sections"] for c in r["changes"]]


@pytest.mark.parametrize(
    "sentence,kinds",
    [
        (SAAS, ("termination_for_breach", "termination_for_insolvency", "cure")),
        (NDA, ("termination_for_breach", "cure")),
        (ORPHAN, ("termination_for_breach", "remedies")),  # "non-breaching": a mention errs toward a protection
        ("NEITHER PARTY SHALL BE LIABLE FOR ANY CONSEQUENTIAL DAMAGES.", ("exclusion_of_liability",)),
        ("Each party's aggregate liability shall not exceed the fees paid.", ("limitation_of_liability",)),
        ("Supplier shall defend, indemnify and hold harmless Buyer from all claims.", ("indemnity",)),
        ("Sections 5 and 7 survive termination.", ("survival",)),
        ("A breach would cause irreparable harm, and the Discloser may seek injunctive relief.", ("equitable_relief",)),
        ('Confidential Information is provided "as is".', ("disclaimer",)),
        ("The Recipient shall hold the Confidential Information in strict confidence.", ("confidentiality",)),
        # no protection: a term, a law, an at-will right (the term section's), a mention of an indemnity
        (TERM_FRAME, ()),
        ("This Agreement is governed by the laws of the State of Delaware.", ()),
        ("Either party may terminate this Agreement by providing [___] month's written notice to the other.", ()),
        ("Obligations respecting indemnification survive the termination of this Agreement.", ("survival",)),
        ("This Agreement does not require either party to disclose or to receive Information.", ()),
    ],
)
def test_protection_kinds_name_the_rights_a_sentence_grants(sentence, kinds):
    assert protection_kinds(sentence) == kinds
    assert protection_kind(sentence) == (kinds[0] if kinds else None)


def test_stated_elsewhere_needs_the_same_kind_on_the_same_subject():
    others = [("cap", "Each party's aggregate liability shall not exceed the fees paid."), ("copy", f"Notices. {SAAS}")]
    assert stated_elsewhere("termination_for_breach", SAAS, others) == ("copy", SAAS)
    exclusion = "Neither party shall be liable for lost profits."
    assert stated_elsewhere("exclusion_of_liability", exclusion, others) is None  # a cap is no exclusion
    indemnity = "Supplier shall indemnify Buyer against third-party claims."
    notice = [("n", "Supplier shall notify Buyer of third-party claims.")]  # the same subject, no protection
    assert stated_elsewhere("indemnity", indemnity, notice) is None
    assert stated_elsewhere("indemnity", indemnity, notice + [("i", "Supplier shall defend Buyer and indemnify Buyer "
                                                                   "against any third-party claims.")])[0] == "i"
    # the same right of another holder is another right: a reciprocal indemnity, a one-way termination right
    reverse = [("r", "Buyer shall indemnify Supplier against third-party claims.")]
    assert stated_elsewhere("indemnity", indemnity, reverse) is None
    condition = "If a claim is made, {} shall indemnify {} against third-party claims."
    assert stated_elsewhere("indemnity", condition.format("Supplier", "Buyer"),
                            [("r", condition.format("Buyer", "Supplier"))]) is None
    either = "Either party may terminate this Agreement if the other party fails to cure a material breach."
    one_way = "Licensor may terminate this Agreement if the other party fails to cure a material breach."
    assert stated_elsewhere("termination_for_breach", either, [("l", one_way)]) is None
    assert stated_elsewhere("termination_for_breach", one_way, [("e", either)]) == ("e", either)
    # the parties' names say little of a right's scope: a patent indemnity is no product liability one
    patent = "Supplier shall indemnify Buyer against patent infringement claims."
    product = [("p", "Supplier shall indemnify Buyer against product liability claims."), ("n", "Buyer pays Supplier.")]
    assert stated_elsewhere("indemnity", patent, product) is None
    # a catch-all states the survival of every provision at once
    catch_all = [("s", "Those provisions which by their nature extend beyond termination survive it.")]
    assert stated_elsewhere("survival", "Sections 5 and 7 survive termination.", catch_all)[0] == "s"


@pytest.mark.parametrize(
    "frame,sentences,kept",
    [
        (TERM_FRAME, [SAAS], SAAS),  # the SaaS draft's termination for breach and insolvency
        (NDA_FRAME, [NDA, ORPHAN], NDA),  # the one-way NDA's: its orphan "In addition to the right to terminate" stays
    ],
    ids=["saas", "one-way-nda"],
)
def test_a_termination_right_after_a_frame_that_states_only_the_term_stays(frame, sentences, kept):
    section = _term(frame, *sentences)
    bodies, report = consistency_pass([section], preamble="")
    assert bodies[0] == section["body"]
    (change,) = _changes(report)
    assert change["kind"] == "restated_sentence" and change["action"] == "kept" and change["old"] == kept
    assert change["reason"].startswith("protection: termination_for_breach")
    assert change["reason"].endswith(", stated nowhere else")
    assert report["totals"]["restated_sentences_removed"] == 0 and report["totals"]["protections_kept"] == 1


def test_a_sentence_that_only_restates_the_term_still_goes_with_its_reason():
    frame = "This Agreement begins on the Effective Date and continues for three years."
    again = "This Agreement shall commence on the Effective Date and continue for three years."
    section = {"heading": "Term", "clause": "term", "frame": frame, "body": f"{frame} {again} {SAAS}"}
    bodies, report = consistency_pass([section], preamble="")
    assert bodies[0] == f"{frame} {SAAS}"
    (change,) = _changes(report)
    assert (change["action"], change["old"], change["reason"]) == ("removed", again, "restates the section's frame")
    assert "where" not in change and report["totals"]["restated_sentences_removed"] == 1


def test_a_termination_right_in_two_sections_goes_once_and_names_where_the_other_stands():
    termination = {"heading": "Termination", "clause": "termination", "body": f"{SAAS} Fees paid are not refunded."}
    bodies, report = consistency_pass([_term(TERM_FRAME, SAAS), termination], preamble="")
    assert bodies == [TERM_FRAME, termination["body"]]
    (change,) = _changes(report)
    assert change["action"] == "removed" and change["old"] == SAAS
    assert {(w["kind"], w["index"], w["section"], w["heading"], w["sentence"]) for w in change["where"]} == {
        (kind, 1, "2", "Termination", SAAS) for kind in protection_kinds(SAAS)
    }
    assert change["reason"].startswith("restates the section's frame; protection: termination_for_breach")
    assert change["reason"].endswith("stated in section 2 (Termination)")


def test_of_copies_each_removal_would_take_one_stays_and_every_where_names_it():
    # three term sections with the same frame and the same right: the first two go, each naming the last, which the
    # final draft holds (the second's removal re-points the first's "where")
    sections = [_term(TERM_FRAME, SAAS, heading=h) for h in ("Term", "Renewal", "Termination")]
    bodies, report = consistency_pass(sections, preamble="")
    assert bodies == [TERM_FRAME, TERM_FRAME, sections[2]["body"]]
    removed = [c for c in _changes(report) if c["action"] == "removed"]
    assert len(removed) == 2 and all({w["index"] for w in c["where"]} == {2} for c in removed)
    assert [c["action"] for c in report["sections"][2]["changes"]] == ["kept"]


GENERAL_LIABILITY = (
    "Limitation of Liability. In no event shall either party be liable for lost profits or consequential damages."
)
GENERAL = {"heading": "General", "clause": "general", "body": f"{GENERAL_LIABILITY}\n\nNotices. Notices go by mail."}
CAP = {"heading": "Limitation of Liability", "clause": "limitation_of_liability",
       "body": "Each party's aggregate liability shall not exceed the fees paid in the prior twelve months."}
PATHS = [  # (path, sections, the change kind, the protective text each path would have removed)
    ("restated", [_term(TERM_FRAME, SAAS)], "restated_sentence", SAAS),
    ("absent clause", [
        {"heading": "Term", "clause": "term", "body": "The lease term is 36 months."},
        {"heading": "General", "clause": "general",
         "body": "Lessor may terminate this Agreement if Lessee breaches its indemnification obligations. "
                 "Neither party may assign this Agreement."},
    ], "absent_clause", "Lessor may terminate this Agreement if Lessee breaches its indemnification obligations."),
    ("conflicting", [
        {"heading": "Delivery", "clause": "delivery", "frame": "Supplier delivers FCA Supplier's facility.",
         "body": "Supplier delivers FCA Supplier's facility. Goods ship FOB Supplier's office, and Buyer shall not be "
                 "liable for loss in transit. Risk passes on delivery."},
    ], "conflicting_term", "Goods ship FOB Supplier's office, and Buyer shall not be liable for loss in transit."),
    ("repeated part", [CAP, GENERAL], "repeated_clause", GENERAL_LIABILITY),
    ("restated law", [
        {"heading": "Governing Law", "clause": "governing_law", "body": "The laws of the State of Illinois govern."},
        {"heading": "Miscellaneous", "clause": "general",
         "body": "This Agreement is governed by the laws of Illinois, and either party may seek injunctive relief. "
                 "Notices go by mail."},
    ], "repeated_clause", "This Agreement is governed by the laws of Illinois, and either party may seek injunctive "
                          "relief."),
]


@pytest.mark.parametrize("path,sections,kind,text", PATHS, ids=[p[0] for p in PATHS])
def test_no_removal_path_takes_a_protection_stated_nowhere_else(path, sections, kind, text):
    bodies, report = consistency_pass(sections, preamble="")
    assert any(text in b for b in bodies)
    kept = [c for c in _changes(report) if c["action"] == "kept"]
    assert [(c["kind"], c["old"]) for c in kept] == [(kind, text)]
    assert all(c["reason"].startswith("protection: ") for c in kept)
    assert report["totals"]["protections_kept"] == 1


def test_a_repeated_part_goes_where_the_other_section_states_its_protection():
    both = {**CAP, "body": CAP["body"] + " Neither party shall be liable for consequential damages or lost profits."}
    bodies, report = consistency_pass([both, GENERAL], preamble="")
    assert bodies[1] == "Notices. Notices go by mail."
    (change,) = _changes(report)
    assert change["kind"] == "repeated_clause" and change["old"] == "Limitation of Liability."
    assert [(w["kind"], w["sentence"]) for w in change["where"]] == [
        ("exclusion_of_liability", "Neither party shall be liable for consequential damages or lost profits.")
    ]  # the part's heading grants nothing


PREAMBLE = 'Acme Robotics, Inc. and Borealis Analytics LLC (each a "Party") agree.'
REMOVALS = [  # a draft per removal path of the pass, each removing something
    ("reference and doubled word", [
        {"heading": "Use", "clause": "obligations", "body": "Each Party shall comply with with Section 8 (Notices)."},
    ]),
    ("paragraph", [
        {"heading": "Supply", "clause": "products",
         "body": "Supplier shall supply the Products.\n\nB.\n\nBuyer shall pay within ten days."},
    ]),
    ("restated and the frame a fuller sentence states", [
        {"heading": "Governing Law", "clause": "governing_law",
         "frame": "This Agreement is governed by the laws of the State of Delaware.",
         "body": "This Agreement is governed by the laws of the State of Delaware. The law of the State of Delaware "
                 "governs this Agreement and any action arising out of or relating to this Agreement, without "
                 "reference to conflict of law rules. All matters relating to this Agreement shall be governed by "
                 "the laws of the State of Delaware."},
    ]),
    ("absent clause, at will and survival", [
        {"heading": "Lease Term", "clause": "term", "body": "The lease term is 36 months."},
        {"heading": "Survival", "clause": "survival",
         "body": "Obligations respecting confidentiality and indemnification survive the termination of this "
                 "Agreement. Those provisions which by their nature extend beyond termination survive it."},
        {"heading": "General", "clause": "general",
         "body": "Either party may terminate this Agreement by providing [___] month's written notice to the other."
                 "\n\nNeither party may assign this Agreement without consent."},
    ]),
    ("conflicting", [
        {"heading": "Delivery", "clause": "delivery", "frame": "Supplier delivers FCA Supplier's facility.",
         "body": "Supplier delivers FCA Supplier's facility. Shipment. All shipments of goods shall be made F.O.B. "
                 "Supplier's office. Risk passes on delivery."},
    ]),
    ("repeated part and law", [
        {"heading": "Governing Law", "clause": "governing_law", "body": "The laws of Texas govern."},
        {"heading": "Entire Agreement", "clause": "entire_agreement", "body": "This Agreement is the whole deal."},
        {"heading": "General", "clause": "general",
         "body": "a) Entire Agreement. This Agreement supersedes all prior agreements.\n\nb) Notices. Notices go by "
                 "mail. This Agreement is governed by the laws of Texas."},
    ]),
    ("definitions", [
        {"heading": "Definitions", "clause": "definitions",
         "body": '"Business Day" means a weekday.\n\n"Law" means law.'},
        {"heading": "Use", "clause": "obligations", "body": "Each Party shall comply with any Law."},
    ]),
]


@pytest.mark.parametrize("name,sections", REMOVALS, ids=[r[0] for r in REMOVALS])
def test_every_removal_says_why(name, sections):
    _, report = consistency_pass(sections, preamble=PREAMBLE)
    removals = [c for c in _changes(report) if c["action"] in ("removed", "dropped")]
    assert removals, "the example removes nothing"
    assert all(isinstance(c.get("reason"), str) and c["reason"].strip() for c in removals), removals


def test_the_survival_of_absent_obligations_goes_naming_the_catch_all():
    _, report = consistency_pass(REMOVALS[3][1], preamble="")
    survival = report["sections"][1]["changes"]
    assert [c["action"] for c in survival] == ["removed"]
    assert survival[0]["reason"].startswith("leans on a clause the draft lacks (")
    assert survival[0]["where"][0]["sentence"].startswith("Those provisions which by their nature")
    at_will = report["sections"][2]["changes"][0]
    assert at_will["reason"].startswith("a right to end the agreement at will") and "where" not in at_will
