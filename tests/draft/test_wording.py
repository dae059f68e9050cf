"""hybrid.text.wording: a precedent's sentence restating the frame, and "party" where the preamble defines "Party"."""

from types import SimpleNamespace

from hybrid.draft.consistency import consistency_pass
from hybrid.draft.revise import revise
from hybrid.text.wording import capitalize_defined_party, defines_party, drop_restated

FRAME = "This Agreement is governed by and construed in accordance with the laws of the State of Delaware."
LAW = (
    f"{FRAME} The Parties hereby submit to the jurisdiction of that state for such purposes. All matters relating "
    "to this Agreement, the rights of the Parties hereunder and the construction of the terms hereof shall be "
    "governed by the laws of the State of Delaware, without regard to conflicts of laws principles."
)


def test_a_sentence_that_states_the_frame_again_goes_and_the_others_stay():
    out, removed = drop_restated(LAW, FRAME, locked=["Acme Robotics, Inc.", "Party", "Parties"])
    assert out == f"{FRAME} The Parties hereby submit to the jurisdiction of that state for such purposes."
    assert removed[0].startswith("All matters relating to this Agreement") and len(removed) == 1


def test_no_restatement_without_a_value_of_the_deal_or_without_the_frame():
    # a later sentence that lacks the frame's value ("30") is another term, not the same one again
    frame = "Either Party may terminate this Agreement on 30 days' written notice to the other Party."
    body = f"{frame} Either Party may terminate this Agreement on written notice to the other Party for breach."
    assert drop_restated(body, frame, ["Party"]) == (body, [])
    # a frame naming only defined terms states no value
    frame = "The Supplier shall manufacture and supply the Products to the Buyer."
    body = f"{frame} The Supplier shall supply the Products to the Buyer in the quantities ordered."
    assert drop_restated(body, frame, ["Supplier", "Buyer", "Products"]) == (body, [])
    assert drop_restated(LAW, "", ()) == (LAW, [])  # no frame: nothing to restate


def test_a_sentence_naming_the_frames_values_for_another_purpose_is_no_restatement():
    # the equipment lease's Governing Law at c421357: the forum sentence counted as a fuller restatement of the frame
    # and replaced it, so the draft never said which law governs
    frame = "This Agreement is governed by the laws of the State of Oregon."
    body = (f"{frame} The parties hereby agree to submit to the jurisdiction and venue of the State and Federal courts "
            "of the State of Oregon, and agree that those courts shall be the exclusive forum for the resolution of "
            "all disputes arising out of this Agreement.")
    assert drop_restated(body, frame, ["Party"], ["the State of Oregon"]) == (body, [])


def test_party_is_written_as_the_preamble_defines_it_but_a_third_party_stays():
    assert defines_party('between A and B (each a "Party")') and not defines_party("between A and B")
    text = ("Either party may disclose to third parties, and each party's obligations bind the parties' "
            "successors; no non-party or third-party beneficiary, nor a party to any action, gains a right.")
    out, changed = capitalize_defined_party(text)
    assert out == ("Either Party may disclose to third parties, and each Party's obligations bind the Parties' "
                   "successors; no non-party or third-party beneficiary, nor a party to any action, gains a right.")
    assert changed == ["party", "party", "parties"]


def test_the_pass_reports_both_and_the_drafting_path_uses_the_spans_frame():
    sections = [{"heading": "Governing Law", "clause": "governing_law", "body": LAW, "frame": FRAME, "locked": []},
                {"heading": "General", "clause": "general", "body": "Neither party may assign this Agreement."}]
    bodies, report = consistency_pass(sections, preamble='A and B (each a "Party")')
    assert "All matters" not in bodies[0] and bodies[1] == "Neither Party may assign this Agreement."
    assert report["totals"]["restated_sentences_removed"] == 1 and report["totals"]["defined_terms_capitalized"] == 1
    untouched, _ = consistency_pass(sections, preamble="A and B")  # no "Party" defined: "party" stays
    assert untouched[1] == "Neither party may assign this Agreement."
    span = SimpleNamespace(clause="governing_law", heading="Governing Law", budget=128, frame=FRAME, locked=[])
    out, _ = revise([[LAW]], [span], "")
    assert out[0][0].endswith("for such purposes.")


def test_a_fuller_restatement_right_after_the_frame_replaces_the_frame():
    # "governs" restates "governed" and "law" "laws" (stems); the sentence says more than the frame, so it stays
    fuller = (
        "The law of the State of Delaware governs this Agreement and any action arising out of or relating to this "
        "Agreement, without reference to conflict of law rules."
    )
    courts = "The Parties will adjudicate any such action in the courts of the State of Delaware."
    body = f"{FRAME} {fuller} {courts}"
    out, removed = drop_restated(body, FRAME, ["Party", "Parties"], ["the State of Delaware"])
    assert out == f"{fuller} {courts}" and removed == [FRAME]
    # ... but not where it would lose a required term as the frame writes it
    out, removed = drop_restated(body.replace("the law of the State of", "the law of"), FRAME, ["Party"], ["Delaware"])
    assert removed == [FRAME]
    lost = body.replace("The law of the State of Delaware", "The law of the state of Delaware")
    out, removed = drop_restated(lost, FRAME, ["Party"], ["the State of Delaware"])
    assert out == f"{FRAME} {courts}" and removed == [fuller.replace("State", "state")]


def test_the_precedents_own_term_left_blank_after_the_frame_is_a_restatement():
    frame = (
        "This Agreement begins on the Effective Date and continues for 5 years unless terminated earlier under this "
        "Section."
    )
    blank = (
        "This Agreement will commence on the Effective Date and continue for an initial term of [___], unless "
        "terminated as permitted under this Agreement."
    )
    cause = "Either Party may terminate this Agreement for cause on written notice."
    out, removed = drop_restated(f"{frame} {blank}\n\n{cause}", frame, ["Party", "Effective Date"], ["5 years"])
    assert out == f"{frame}\n\n{cause}" and removed == [blank]
    # without the blank it states another number: not the frame's term again, a term of its own
    other = blank.replace("[___]", "3 years")
    assert drop_restated(f"{frame} {other}", frame, ["Party", "Effective Date"]) == (f"{frame} {other}", [])
    # a form's own term, all blanks, after a frame composed for a user's template: fewer shared words suffice
    lease = "The lease term is 36 months, starting on the Effective Date."
    form = "The Term of this Agreement shall be for a period of [___] years and [___] months commencing the [___]."
    assert drop_restated(f"{lease} {form}", lease, ["Lessee", "Effective Date"]) == (lease, [form])
    rent = "The Lessee shall pay the Lessor rent of USD 4,750 per month, in advance."
    late = "Late payments bear interest at [___] per month."
    assert drop_restated(f"{rent} {late}", rent, ["Lessee", "Lessor"]) == (f"{rent} {late}", [])


def test_a_restatements_run_in_heading_goes_with_it_and_the_list_is_renumbered():
    # franchise "Term and Renewal" at 3d6ffb1: "A. Term." stayed alone and the list opened on "B."
    frame = "The term of this Agreement is 10 years from the Effective Date."
    again = "The term of this Agreement starts on the Effective Date and ends 10 years from the Effective Date."
    body = f"{frame} A. Term. {again}\n\nB. Renewal. You may renew twice.\n\nC. Notice. You must give notice."
    sec = {"heading": "Term and Renewal", "clause": "term", "body": body, "frame": frame,
           "locked": ["Effective Date"], "terms": ["10 years"]}
    bodies, report = consistency_pass([sec], preamble="")
    # the frame takes the restatement's place under its heading (seed 281: the first of the parts a reference counts)
    assert bodies[0] == f"A. Term. {frame}\n\nB. Renewal. You may renew twice.\n\nC. Notice. You must give notice."
    change = report["sections"][0]["changes"][0]
    assert (change["old"], change["new"], change["action"]) == (again, frame, "replaced")
    # never a word of the frame: "Effective Date." ends the frame, not a heading of the restatement
    out, _ = drop_restated(f"{frame} {again}", frame, ["Effective Date"], ["10 years"])
    assert out == frame


NDA_FRAME = (
    "Each Party shall use the Confidential Information of the other Party only for the Purpose and shall protect it "
    "with at least reasonable care."
)
NDA_LOCKED = ["Party", "Confidential Information", "Purpose", "Disclosing Party", "Receiving Party"]
BONTERMS = (
    '"Confidential Information" means information disclosed by Disclosing Party to Receiving Party.\n\n'
    "Receiving Party will: (a) use Confidential Information only for the Purpose, (b) not disclose Confidential "
    "Information to third parties, (c) protect Confidential Information using at least the same precautions "
    "Receiving Party uses for its own similar information and no less than a reasonable standard of care."
)


def test_a_frame_stating_no_value_goes_where_a_later_sentence_says_all_it_says_and_more():
    text = f"{NDA_FRAME} {BONTERMS}"
    out, removed = drop_restated(text, NDA_FRAME, NDA_LOCKED, terms=["Confidential Information", "Purpose"])
    assert out == BONTERMS and removed == [NDA_FRAME]
    # the later sentence does not say "only": it restates less than the frame, so both stay
    short = text.replace("only for the Purpose", "for the Purpose")
    assert drop_restated(short, NDA_FRAME, NDA_LOCKED, terms=["Purpose"]) == (short, [])
    # a required term the frame writes and the later sentence does not: the frame stays
    assert drop_restated(text, NDA_FRAME, NDA_LOCKED, terms=["Purpose", "Confidential Information of the other"])[
        1
    ] == []
