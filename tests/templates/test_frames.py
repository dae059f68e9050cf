import copy
import json
from pathlib import Path

import pytest

from hybrid.common.errors import TemplateError
from hybrid.templates.frames import compose_frames, field_label
from hybrid.templates.template import load_template

LEASE = Path(__file__).resolve().parents[2] / "benchmarks" / "templates" / "equipment-lease.json"


def _frameless(tmp_path, mutate=None) -> Path:
    data = json.loads(LEASE.read_text())
    for spec in data["clauses"].values():
        spec.pop("frame", None)
        spec.pop("required_when", None)
    if mutate:
        mutate(data)
    path = tmp_path / "lease.json"
    path.write_text(json.dumps(data))
    return path


def test_field_labels_read_as_noun_phrases():
    assert field_label("monthly_rent", {"description": "rent per month, e.g. USD 1,200"}) == "rent per month"
    assert field_label("lease_term", {"description": "how long the lease runs, e.g. 36 months"}) == "lease term"
    assert field_label("equipment", {"description": "the equipment leased"}) == "equipment leased"


def test_a_template_without_frames_states_every_required_field_in_its_clause(tmp_path):
    t = load_template(_frameless(tmp_path))
    values = t.example
    for ctype, spec in t.clauses.items():
        for term in spec["required_terms"]:
            assert term in spec["frame"], (ctype, term)  # a frame states it: it is locked at the section's start
    sk = t.render_skeleton(t.example_outline(), values)
    frames = {s.clause: s.frame for s in sk.spans}
    assert frames["payment"] == f"The rent per month is {values['monthly_rent']}."
    law = t.clauses["governing_law"]["frame"]
    assert law == "This Agreement is governed by the laws of {governing_law}."
    assert t.clauses["term"]["required_when"] == ["lease_term"]
    assert {"obligations", "term", "payment", "governing_law"} <= set(t.required_when(values))  # in every outline


def test_a_written_frame_is_left_as_it_is():
    data = json.loads(LEASE.read_text())
    assert compose_frames(data) is data


def test_a_literal_required_term_no_frame_states_is_refused_at_load(tmp_path):
    def literal(data):
        data["clauses"]["insurance"]["required_terms"] = ["all-risks insurance"]

    with pytest.raises(TemplateError) as e:
        load_template(_frameless(tmp_path, literal))
    msg = str(e.value)
    assert "'insurance'" in msg and "'all-risks insurance'" in msg and "/clauses/insurance/required_terms/0" in msg
    assert "frame" in msg


def test_the_shipped_templates_need_no_composed_frame():
    for path in sorted((Path(__file__).resolve().parents[2] / "templates").glob("*.json")):
        data = json.loads(path.read_text())
        assert compose_frames(copy.deepcopy(data)) == data, path.name


def test_no_shipped_outline_holds_two_term_sections():
    """A template whose termination section states the term ("Term and Termination", its frame naming the
    period) offers no separate Term section, and one that offers a Term section heads termination
    "Termination": a supply draft had both, the second restating another deal's term."""
    from hybrid.templates.outline_schema import clause_values
    from hybrid.templates.template import TEMPLATES_DIR, load_template

    both = 0
    for path in sorted(TEMPLATES_DIR.glob("*.json")):
        t = load_template(path)
        termination = t.clauses.get("termination", {})
        states_term = termination.get("heading", "").startswith("Term and") or "continues for" in termination.get(
            "frame", ""
        )
        offered = set(clause_values(t.outline_schema))
        assert not (states_term and "term" in offered), path.name
        both += {"term", "termination"} <= offered
    assert both >= 2  # consulting-services, sponsorship: Term and Termination, each its own
