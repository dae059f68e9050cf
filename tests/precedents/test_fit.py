"""hybrid.precedents.fit: a section's source is the clause its heading asks for, standard forms first."""

import pytest

from hybrid.precedents.fit import choose, fit, heading_words
from hybrid.precedents.library import Precedent


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
        p.source: fit(p, "Confidentiality", "confidentiality", 128, ["SUPPLY AGREEMENT"]).total
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
