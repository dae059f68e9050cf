"""evals.drafting_relevance (the drafting-request validation) and evals.drafting_facets on a tiny corpus."""

import csv
import json

import pytest

from evals import drafting_relevance as dr
from evals.drafting_facets import FACETS, HEADS, facets_of

LAW = "Governing Law"
README = "\tCategory:\tGoverning Law\r\n\tDescription:\tWhich state's law governs?\r\n\tGroup: \t\t-\r\n"
STATES = ("Texas", "New York", "Delaware", "California")


def test_the_rubric_grades_type_then_share_of_the_request_met():
    text = "This Agreement is governed by the laws of Texas, without regard to its conflict of laws principles."
    assert facets_of(LAW, text) >= {"texas", "conflicts"}
    assert dr.gain(LAW, ["texas", "conflicts"], {LAW}, text) == 3
    assert dr.gain(LAW, ["texas", "cisg"], {LAW}, text) == 2  # half of the request
    assert dr.gain(LAW, ["texas", "cisg", "delaware"], {LAW}, text) == 1  # under half
    assert dr.gain(LAW, ["texas"], {"Non-Compete"}, text) == 0  # another clause type, whatever it says


def test_a_request_is_a_drafters_name_for_the_clause_then_the_positions_asked():
    for cat, facets in FACETS.items():
        q = dr.request(cat, [f for f, _, _ in facets[:2]], key="k")
        assert q.split(",")[0] in HEADS[cat] and " and and " not in q


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.setattr(dr, "FACETS", {LAW: FACETS[LAW]})
    (tmp_path / "cuad").mkdir()
    (tmp_path / "cuad" / "CUAD_v1_README.txt").write_text(README)
    docs = [(f"C{i}_1", "train", f"cuad:C{i}") for i in range(14)]
    docs += [("V_1", "val", "cuad:V"), ("T_1", "test", "cuad:T")]
    with open(tmp_path / "cuad" / "master_clauses.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Filename", LAW])
        for i, (name, _, _) in enumerate(docs):
            extra = " without regard to conflicts of laws" if i % 2 else ", and the courts there have jurisdiction"
            w.writerow([f"{name}.pdf", repr([f"This Agreement of {name} is governed by the laws of "
                                             f"{STATES[i % 4]}{extra}.", f"{name} pays all fees in thirty days."])])
    with open(tmp_path / "manifest.jsonl", "w") as f:
        for name, split, group in docs:
            f.write(json.dumps({"path": f"cuad/contracts/{name}.txt", "source": "cuad", "doc_type": "X",
                                "group": group, "split": split}) + "\n")
    return tmp_path


def test_built_from_train_only_with_slices_apart_by_company(corpus):
    data = dr.build(corpus)
    assert data == dr.build(corpus)  # deterministic
    assert not any("V_1" in t or "T_1" in t for t in data["texts"])
    docs = {s: {q["doc"] for q in qs} for s, qs in data["slices"].items()}
    assert docs["fit"] and docs["heldout"] and not docs["fit"] & docs["heldout"]
    for part, qs in data["slices"].items():
        for q in qs:
            assert q["seed"] in q["pool"] and q["gains"][q["pool"].index(q["seed"])] == 3
            for i, g in zip(q["pool"], q["gains"]):
                assert g == dr.gain(LAW, q["facets"], set(data["labels"][i]), data["texts"][i])
                owner = next(t for t in data["texts"][i].split() if t[:1] == "C" and t.endswith("_1"))
                assert f"cuad/contracts/{owner}.txt" in docs[part]  # pools never cross the slices
