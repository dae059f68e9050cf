"""Consistency of substance (hybrid.draft.substance): one term, exclusivity stated one way, roles as the
template's `roles` define them. The positive sentences are the contradictions a lawyer found in drafts;
the negatives are clean standard-form sentences of the same kind."""

import json
from pathlib import Path

import pytest

from hybrid.common.errors import TemplateError
from hybrid.draft.substance import CHECKS, substance_checks
from hybrid.templates.rendered import substitute
from hybrid.templates.template import list_templates, load_template, parse_template
from hybrid.text.term import parse_duration


def _sections(*pairs) -> list[dict]:
    return [{"heading": h, "clause": "other", "body": b} for h, b in pairs]


def _run(template_id: str, pairs, **values) -> dict:
    t = load_template(template_id)
    return substance_checks(_sections(*pairs), t, {**t.example, **values})


def _checks(report: dict) -> list[str]:
    return [f["check"] for group in ("term", "exclusivity", "roles") for f in report[group]]


RENEWAL = ("Thereafter this Agreement shall automatically renew for successive one-year periods unless either Party "
           "gives ninety (90) days' notice of non-renewal.")

# (check, template id, deal values over the template's example, the draft's (heading, body) sections)
POSITIVES = [
    ("term", "hosting", {"term_length": "24 months"}, [
        ("Term", "This Agreement begins on the Effective Date and continues for 24 months unless terminated earlier."),
        ("Termination", "Unless terminated earlier, this Agreement will terminate on the third anniversary of the "
                        "Effective Date.")]),
    ("term", "supply", {"term_length": "5 years"}, [
        ("Term", "This Agreement begins on the Effective Date and continues for 24 months unless terminated "
                 "earlier.")]),
    ("term", "strategic-alliance", {"term_length": ""}, [  # no deal term: the first statement is the reference
        ("Term", "The initial term of this Agreement shall be three (3) years."),
        ("Termination", "This Agreement shall remain in effect for a period of five years.")]),
    ("exclusivity", "distributor", {"exclusivity": "exclusive"}, [
        ("Appointment", "Supplier appoints the Distributor as its exclusive distributor of the Products in the "
                        "Territory. Distributor accepts the appointment. Supplier appoints the Distributor as its "
                        "non-exclusive distributor of the Products.")]),
    ("cure_for_nonpayment", "hosting", {}, [
        ("Termination", "If the Customer breaches, the Host shall have thirty (30) days to cure any nonpayment.")]),
    ("paid_party_pays", "supply", {}, [
        ("Payment", "Supplier shall pay Buyer for the Products within thirty (30) days of invoice.")]),
    ("ip_retained_by_counterpart", "consulting-services", {}, [
        ("Intellectual Property Assignment", "Contractor and its licensors retain all intellectual property rights "
                                             "in the Deliverables.")]),
    ("appointment_reversed", "distributor", {}, [
        ("Appointment", "Distributor hereby appoints Supplier as its distributor of the Products.")]),
    ("promotion_reversed", "sponsorship", {}, [
        ("Sponsorship Rights", "Sponsor shall promote the Club in Sponsor shopping channel.")]),
    ("delivery_reversed", "supply", {}, [
        ("Supply", "Buyer shall manufacture the Products in accordance with the Specifications.")]),
    ("one_off_sale_clause", "supply", {"term_length": "5 years"}, [
        ("Termination", "Either Party may terminate this Agreement at any time prior to delivery of the Product.")]),
    # seed 223: an endorsement deal's "Company shall pay Endorser" as an alternative clause of a sponsorship
    ("paid_party_pays", "sponsorship", {}, [
        ("Sponsorship Fee", "For the entire term of this Agreement Rights Holder shall pay Sponsor a base "
                            "compensation of [___] dollars.")]),
]

NEGATIVES = [
    ("term", "supply", {"term_length": "5 years"}, [
        ("Term", "This Agreement begins on the Effective Date and continues for 5 years unless terminated earlier. "
                 + RENEWAL),
        ("Termination", "Either Party may terminate this Agreement upon thirty (30) days' written notice."),
        ("Renewal", "This Agreement shall then be automatically extended for a period of one (1) year."),
        ("Confidentiality", "The confidentiality obligations of this Agreement shall remain in effect for three (3) "
                            "years, and they survive for three (3) years after termination.")]),
    ("term", "distributor", {"term_length": "3 years"}, [
        ("Term", "This Agreement shall continue for an initial term of three (3) years."),
        ("Termination", "Unless terminated earlier, this Agreement will terminate on the third anniversary of the "
                        "Effective Date; prices under this Agreement are fixed for 12 months.")]),
    ("exclusivity", "distributor", {"exclusivity": "exclusive"}, [
        ("Appointment", "Supplier hereby appoints Distributor as its exclusive distributor of the Products in the "
                        "Territory. Distributor may appoint sub-distributors on a non-exclusive basis."),
        ("Governing Law", "The courts of Ohio have exclusive jurisdiction.")]),
    ("cure_for_nonpayment", "hosting", {}, [
        ("Termination", "If the Customer fails to pay any amount when due, the Host shall give the Customer thirty "
                        "(30) days to cure any nonpayment.")]),
    ("paid_party_pays", "supply", {}, [
        ("Payment", "The Buyer shall pay the Supplier for the Products within thirty (30) days of invoice. Supplier "
                    "shall pay Buyer any refund for rejected Products.")]),
    ("ip_retained_by_counterpart", "consulting-services", {}, [
        ("Work Product", "Consultant hereby assigns to Client all right, title and interest in the Deliverables. "
                         "Consultant retains all intellectual property rights in its pre-existing materials.")]),
    ("appointment_reversed", "distributor", {}, [
        ("Appointment", "Supplier hereby appoints Distributor as its exclusive distributor of the Products in the "
                        "Territory.")]),
    ("promotion_reversed", "sponsorship", {}, [
        ("Sponsorship Rights", "The Rights Holder shall promote the Sponsor at each home game. Sponsor shall promote "
                               "its sponsorship of the Property in its own advertising.")]),
    ("delivery_reversed", "supply", {}, [
        ("Supply", "The Supplier shall deliver the Products to the Buyer. Buyer shall provide the Supplier with "
                   "forecasts.")]),
    ("one_off_sale_clause", "supply", {"term_length": "5 years"}, [
        ("Termination", "Either Party may terminate this Agreement for material breach not cured within thirty (30) "
                        "days.")]),
]


@pytest.mark.parametrize("check,template_id,values,pairs", POSITIVES, ids=[f"{p[0]}-{p[1]}" for p in POSITIVES])
def test_contradiction_is_reported_with_its_section_and_quote(check, template_id, values, pairs):
    report = _run(template_id, pairs, **values)
    found = [f for group in ("term", "exclusivity", "roles") for f in report[group] if f["check"] == check]
    assert found, f"{check} missed: {report}"
    f = found[0]
    body = pairs[f["section"]][1]
    assert f["heading"] == pairs[f["section"]][0] and f["quote"] in " ".join(body.split()) and f["why"]


@pytest.mark.parametrize("check,template_id,values,pairs", NEGATIVES, ids=[f"{n[0]}-{n[1]}" for n in NEGATIVES])
def test_clean_standard_form_sentences_report_nothing(check, template_id, values, pairs):
    report = _run(template_id, pairs, **values)
    assert report["contradictions"] == 0, report


def test_every_check_has_a_positive_and_a_negative_example():
    assert {p[0] for p in POSITIVES} == set(CHECKS) == {n[0] for n in NEGATIVES}


def test_exclusivity_finding_quotes_both_statements():
    report = _run("distributor", [
        ("Appointment", "Supplier hereby appoints Distributor as its exclusive distributor of the Products."),
        ("Products", "Supplier appoints the Distributor as its non-exclusive distributor of the Products.")],
        exclusivity="exclusive")
    (f,) = report["exclusivity"]
    assert "non-exclusive distributor" in f["quote"] and f["section"] == 1
    assert "its exclusive distributor" in f["other"]["quote"] and f["other"]["section"] == 0


def test_report_is_json_and_counts_every_finding():
    report = _run("hosting", POSITIVES[0][3] + POSITIVES[4][3], term_length="24 months")
    assert json.loads(json.dumps(report)) == report
    assert sorted(_checks(report)) == ["cure_for_nonpayment", "term"] and report["contradictions"] == 2


def test_role_checks_need_the_templates_roles():
    pairs = POSITIVES[5][3] + POSITIVES[9][3]  # "Supplier shall pay Buyer for the Products", "Buyer shall manufacture"
    assert _run("supply", pairs)["contradictions"] == 2
    assert _run("joint-venture", pairs)["contradictions"] == 0  # its parties are each a "Party": no roles declared
    assert substance_checks(_sections(*pairs), None, {})["contradictions"] == 0


def test_one_off_sale_clause_only_in_a_supply_or_services_deal_with_a_term():
    pairs = POSITIVES[10][3]  # "Either Party may terminate this Agreement at any time prior to delivery ..."
    assert _checks(_run("supply", pairs, term_length="5 years")) == ["one_off_sale_clause"]
    assert _run("supply", pairs, term_length="")["contradictions"] == 0  # no term: a one-off sale may be the deal
    assert _run("strategic-alliance", pairs, term_length="3 years")["contradictions"] == 0  # nothing is delivered


@pytest.mark.parametrize("template", list_templates(), ids=lambda t: t.id)
def test_template_frames_filled_with_its_example_state_no_contradiction(template):
    values = template.validate_fields(template.example)
    pairs = [(spec["heading"], substitute(spec["frame"], values)) for spec in template.clauses.values()
             if spec.get("frame")]
    assert substance_checks(_sections(*pairs), template, values)["contradictions"] == 0


@pytest.mark.parametrize("text,expected", [
    ("three (3) years", (36, "months")),
    ("36 months", (36, "months")),
    ("the third anniversary", (36, "months")),
    ("twenty-four (24) months", (24, "months")),
    ("renew for successive one-year periods", (12, "months")),
    ("two (2) weeks", (14, "days")),
    ("2 seasons", (2, "seasons")),
    ("perpetual", None),
])
def test_durations_compare_in_one_unit(text, expected):
    assert parse_duration(text) == expected


def test_template_role_must_name_a_party_the_preamble_defines():
    data = json.loads(Path(load_template("supply").path).read_text())
    data["roles"] = {"pays": "Purchaser"}
    with pytest.raises(TemplateError, match="/roles/pays"):
        parse_template(json.dumps(data), "supply-copy.json")
    data["roles"] = {"pays": "Buyer", "paid": "Buyer"}
    with pytest.raises(TemplateError, match="both pays and paid"):
        parse_template(json.dumps(data), "supply-copy.json")
