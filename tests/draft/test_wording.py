"""hybrid.draft.wording: a precedent's sentence restating the frame, and "party" where the preamble defines "Party"."""

from types import SimpleNamespace

from hybrid.draft.consistency import consistency_pass
from hybrid.draft.revise import revise
from hybrid.draft.wording import capitalize_defined_party, defines_party, drop_restated

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
