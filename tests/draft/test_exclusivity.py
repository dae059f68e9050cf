"""hybrid.text.exclusivity: the base's appointment stated the way the deal says, on the drafting path. The
sentences are the distributor base's own (benchmarks/results/coherence-cpu.json: the 9 contradictions left)."""

from types import SimpleNamespace

import pytest

from hybrid.draft.stages import revise_variants
from hybrid.draft.substance import substance_checks
from hybrid.templates.template import load_template
from hybrid.text.appointment import deal_exclusivity
from hybrid.text.exclusivity import mend_exclusivity

FRAME = ("The Supplier appoints the Distributor as its exclusive distributor of the Products in Canada, and the "
         "Distributor accepts that appointment.")
BASE = ("Subject to the terms and conditions of this Agreement, Supplier appoints Distributor, and Distributor hereby "
        "accepts such appointment, as Supplier's non-exclusive authorized distributor for sale of the Products to its "
        "customers (other than house account) in the Territory.")
ANNOUNCE = ("Use of Trademarks. During the term of this Agreement, Distributor may (i) announce to the public that it "
            "is an authorized non-exclusive Distributor of the Products, and (ii) advertise the Products.")
TRADEMARKS = ("Supplier grants to Distributor a non-exclusive license to use Supplier's trademarks only in connection "
              "with the Products.")


@pytest.fixture(scope="module")
def distributor():
    return load_template("distributor")


def _contradictions(bodies, template, values) -> int:
    sections = [{"heading": f"S{i}", "clause": "other", "body": b} for i, b in enumerate(bodies)]
    return substance_checks(sections, template, values)["contradictions"]


def test_the_bases_non_exclusive_appointment_is_flipped_to_the_deals_exclusive(distributor):
    values = {**distributor.example, "exclusivity": "exclusive"}
    bodies = [f"{FRAME} {BASE}", ANNOUNCE, "For the term of this Agreement, Supplier appoints Distributor as a "
              "non-exclusive distributor for the Products in the Territory."]
    assert _contradictions(bodies, distributor, values) >= 2
    new, changes = mend_exclusivity(bodies, [FRAME], distributor, values)
    assert new[0] == f"{FRAME} {BASE}".replace("non-exclusive authorized", "exclusive authorized")
    assert "it is an authorized exclusive Distributor of the Products, and (ii) advertise" in new[1]
    assert new[2].endswith("appoints Distributor as an exclusive distributor for the Products in the Territory.")
    assert [i for i, _ in changes] == [0, 1, 2]
    assert _contradictions(new, distributor, values) == 0


def test_not_to_the_exclusion_of_is_flipped_with_the_appointment_it_qualifies(distributor):
    values = {**distributor.example, "exclusivity": "exclusive"}
    body = ("Supplier hereby appoints Distributor as a non-exclusive distributor of Products to customers, not to the "
            "exclusion of Supplier itself or any of its other current or future distributors.")
    (new,), _ = mend_exclusivity([body], [], distributor, values)
    assert new == ("Supplier hereby appoints Distributor as an exclusive distributor of Products to customers, to the "
                   "exclusion of Supplier itself or any of its other current or future distributors.")
    assert _contradictions([FRAME, new], distributor, values) == 0


def test_an_exclusive_base_is_flipped_to_a_non_exclusive_deal_in_its_own_case(distributor):
    values = {**distributor.example, "exclusivity": "non-exclusive"}
    body = "Supplier hereby appoints Distributor as an EXCLUSIVE distributor of the Products."
    (new,), _ = mend_exclusivity([body], [], distributor, values)
    assert new == "Supplier hereby appoints Distributor as a NON-EXCLUSIVE distributor of the Products."


def test_a_licence_of_another_thing_and_another_partys_appointment_are_left(distributor):
    values = {**distributor.example, "exclusivity": "exclusive"}
    mixed = ("Supplier appoints Distributor as its non-exclusive distributor of the Products, and grants Distributor a "
             "non-exclusive license to use the Marks.")
    others = "Supplier shall not appoint any other non-exclusive distributor in the Territory."
    basis = "Distributor is authorized to use the Marks on a non-exclusive basis."
    new, changes = mend_exclusivity([FRAME, TRADEMARKS, mixed, others, basis], [FRAME], distributor, values)
    assert new[:2] == [FRAME, TRADEMARKS] and new[3:] == [others, basis]
    assert new[2] == mixed.replace("its non-exclusive", "its exclusive")  # the appointment, not the licence
    assert [i for i, _ in changes] == [2]


def test_a_deal_silent_on_exclusivity_changes_nothing(distributor):
    values = {k: v for k, v in distributor.example.items() if k != "exclusivity"}
    bodies = [f"{FRAME} {BASE}", ANNOUNCE]
    assert mend_exclusivity(bodies, [FRAME], distributor, values) == (bodies, [])
    assert deal_exclusivity(values) is None
    assert deal_exclusivity({"scope": "Non Exclusive"}) == ("scope", "non-exclusive")  # any field, when it is one
    assert deal_exclusivity({"a": "exclusive", "b": "non-exclusive"}) is None  # the deal says both: no mend


def test_the_rewrite_is_a_change_in_the_drafts_consistency_report(distributor):
    values = {**distributor.example, "exclusivity": "exclusive"}
    spans = [SimpleNamespace(heading="Appointment", clause="appointment", frame=FRAME, budget=128),
             SimpleNamespace(heading="Trademarks", clause="intellectual_property", frame="", budget=128)]
    skeleton = SimpleNamespace(spans=spans, segments=[None, SimpleNamespace(text="Preamble.")])
    bodies, (report,) = revise_variants(distributor, skeleton, [[f"{FRAME} {BASE}", TRADEMARKS]], None, None, values)
    assert "Supplier's exclusive authorized distributor" in bodies[0][0] and bodies[0][1] == TRADEMARKS
    (change,) = [c for c in report["sections"][0]["changes"] if c["kind"] == "exclusivity"]
    assert change == {"kind": "exclusivity", "old": BASE, "new": BASE.replace("non-exclusive", "exclusive"),
                      "action": "rewritten",
                      "reason": "states the appointment non-exclusive; the deal's exclusivity is exclusive"}
    assert report["totals"]["exclusivity_rewritten"] == 1
    assert not [c for c in report["sections"][1]["changes"] if c["kind"] == "exclusivity"]
