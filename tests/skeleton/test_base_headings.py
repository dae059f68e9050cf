"""A contract base's section heading written for the deal: the library normalizes a section's body to markers, not
its heading, so the seed-347 distributor drafted from a reseller agreement read "## 4. Duties of Todos"."""

from dataclasses import replace

import pytest

from hybrid.data.corpus import corpus_root, load_manifest
from hybrid.precedents.library import Precedent
from hybrid.skeleton.from_base import _heading_for_deal
from hybrid.templates.template import load_template

TODOS = ("cuad/contracts/TodosMedicalLtd_20190328_20-F_EX-4.10_11587157_EX-4.10_Marketing Agreement_ Reseller "
         "Agreement.txt")


def _section(heading: str) -> Precedent:
    return Precedent(f"{TODOS}#4", TODOS, "cuad", "CC-BY-4.0", "MARKETING AGREEMENT", "other", heading,
                     "[PARTY_A] shall provide technical assistance to [PARTY_B].",
                     ["Todos", "the Reseller", "Reseller"], ["provider", "customer"])


@pytest.mark.skipif(not any(e["path"] == TODOS for e in load_manifest(corpus_root())), reason="corpus lacks the base")
def test_a_base_heading_names_the_deals_parties_not_the_bases():
    t = load_template("distributor")
    assert _heading_for_deal(_section("Duties of Todos"), t.example, t) == "Duties of Supplier"
    assert _heading_for_deal(_section("Duties of the Reseller"), t.example, t) == "Duties of Distributor"
    # the heading title-cased where the document writes its short name in capitals (the facts' "TODOS")
    capitals = replace(_section("Duties of Todos"), facts=["TODOS", "the Reseller"])
    assert _heading_for_deal(capitals, t.example, t) == "Duties of Supplier"
    # a heading holding none of the section's own facts stays as the base writes it
    assert _heading_for_deal(_section("Grant of Rights"), t.example, t) == "Grant of Rights"
    # a section whose document is not a train document keeps its heading
    other = replace(_section("Duties of Todos"), doc_id="cuad/contracts/none.txt")
    assert _heading_for_deal(other, t.example, t) == "Duties of Todos"
