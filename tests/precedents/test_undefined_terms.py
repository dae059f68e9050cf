"""Definitions for the terms a draft uses undefined (hybrid.precedents.definitions.used_terms, pick_entries and
compose's `extra`/`wanted`): "any Third Party" in a kept clause gets the library's usual, deal-free entry for
"Third Party", before boilerplate terms the draft never uses."""

from hybrid.precedents.definitions import GENERIC_TERMS, compose, pick_entries, used_terms
from hybrid.precedents.library import Library, Precedent
from hybrid.skeleton.from_precedents import variant_draws
from hybrid.templates.template import load_template

VOCAB = {"Third Party", "Term", "Affiliate", "Order", "Product", "Person"}


def _p(i, body="", doc_type="SUPPLY AGREEMENT", source="cuad", clause="definitions"):
    return Precedent(f"d{i}#1", f"train/d{i}.txt", source, "CC-BY-4.0", doc_type, clause, clause.title(), body)


def test_used_terms_counts_mid_sentence_uses_not_headings_or_sentence_openings():
    text = (
        "Term. The Term is five years. Neither party may assign to any Third Parties, and each Order shall name "
        "the Product. Supplier may use its Affiliates."
    )
    got = used_terms([text], VOCAB, defined={"Products"})
    # "Term." (a run-in heading) and "The Term" open sentences; "Third Parties" and "Affiliates" count as their
    # singular; "Product" is the singular of the deal's "Products"
    assert got == {"Third Party": 1, "Order": 1, "Affiliate": 1}


def test_used_terms_counts_a_boilerplate_term_written_in_lower_case():
    # the consistency pass capitalizes "third parties" where the Definitions keep "Third Party"; not a hyphenated
    # adjective, nor a word the deal defines, nor a term outside CAPITALIZABLE ("any person")
    text = "Neither party may assign to third parties or third-party agents, nor to any person or its affiliates."
    assert used_terms([text], VOCAB) == {"Third Party": 1, "Affiliate": 1}
    assert used_terms([text], VOCAB, defined={"Affiliates"}) == {"Third Party": 1}


def test_used_terms_takes_the_longest_term_a_phrase_opens_with():
    assert used_terms(["under each Third Party Order"], VOCAB | {"Third Party Order"}) == {"Third Party Order": 1}


def test_pick_entries_leaves_out_another_deals_entries_and_takes_the_usual_sense():
    index = {
        "Loss": [
            (_p(1), '"Loss" means a fall in revenue'),
            (_p(2), '"Loss" means all losses, damages, liabilities, costs and expenses, including legal fees'),
            (_p(3), '"Loss" means any loss, damage, liability, cost or expense, including reasonable legal fees'),
            (_p(4), '"Loss" means all damages, losses, liabilities and expenses'),
        ],
        # what only the deal can say: another deal's entry would make the deal's territory up
        "Territory": [(_p(11), '"Territory" shall mean the world')],
        "Initial Term": [(_p(16), '"Initial Term" means a period of years')],  # a phrase of the deal's own too
        "Third Party": [
            (_p(5), '"Third Party" means any person other than [PARTY_A]'),  # the source deal's fact
            (_p(6), '"Third Party" means a person listed in Schedule 2'),  # points into its own contract
            (_p(7), '"Third Party" means any Licensee Entity other than a Party'),  # an undefined capitalized phrase
            (_p(8), '"Third Party" means any reactor operator other than a Party'),  # another deal's topic
            (_p(12), '"Third Party" means a person to which, as applicable'),  # a dangling end
            (_p(13), '"Third Party" means [definition to be added]'),  # a bracket left to complete
            (_p(9), '"Third Party" means any person other than a Party or an Affiliate of a Party'),
        ],
        "Term": [(_p(10), '"Term" has the meaning set forth in the preamble')],
        "Subcontractor": [(_p(14), '"Subcontractor" means a person to which, as applicable')],  # dangling
        "Notice": [(_p(15), '"Notice" means [definition to be added]')],  # a bracket left to complete
    }
    foreign = lambda text: "reactor" in text  # noqa: E731
    used = {"Loss": 1, "Third Party": 3, "Term": 2, "Territory": 5, "Subcontractor": 1, "Notice": 1, "Initial Term": 4}
    got = pick_entries(used, index, foreign, {"party", "affiliate"})
    # most used first; "Term" has only a cross-reference, "Subcontractor" and "Notice" only unfinished entries
    assert list(got) == ["third party", "loss"]
    assert got["third party"][1] == '"Third Party" means any person other than a Party or an Affiliate of a Party.'
    assert "fall in revenue" not in got["loss"][1]  # the sense three entries share, not the shortest


def test_compose_takes_the_terms_the_draft_uses_before_unused_boilerplate():
    generic = _p(1, 'As used herein:\n"Person" means any individual, corporation, partnership, trust or other entity.')
    extra = {"third party": (_p(2), '"Third Party" means any person other than a Party.')}
    # room for one entry only: the used term wins over the kept but unused "Person"
    composed = compose([generic], {"person"}, max_words=12, extra=extra, wanted={"third party"})
    assert composed is not None and "Third Party" in composed.body and "Person" not in composed.body
    assert [p.id for p in composed.sources][0] == "d2#1"  # the extra entry's precedent is cited
    composed = compose([generic], {"person"}, max_words=40, extra=extra, wanted={"third party"})
    assert composed.body.index('"Person"') < composed.body.index('"Third Party"')  # alphabetical


def test_a_draft_whose_clause_uses_a_term_undefined_gets_its_definition():
    assert "subcontractor" not in {t.lower() for t in GENERIC_TERMS}
    t = load_template("supply")
    outline = t.example_outline()
    clauses = [s["clause"] for s in outline["sections"]]
    assert "definitions" in clauses  # the test can fail
    others = [
        _p(100 + i, "Supplier shall not let any Subcontractor perform its duties without consent.", clause=c)
        for i, c in enumerate(dict.fromkeys(clauses))
        if c != "definitions"
    ]
    definitions = _p(1, 'For purposes hereof:\n"Person" means any individual or entity.')
    # not a boilerplate term (GENERIC_TERMS): only its use in a clause brings it in
    third = _p(2, 'Scope:\n"Subcontractor" means any person to whom Supplier subcontracts any of its duties.')
    values = t.validate_fields(t.example)
    skeleton = t.render_skeleton(outline, values)
    draws = variant_draws(skeleton, Library(others + [definitions, third], "fp"), t, values, 1, seed=0)
    body = draws[0][clauses.index("definitions")].body
    assert '"Subcontractor" means any person to whom Supplier subcontracts any of its duties.' in body


def test_a_run_in_heading_uses_no_term():
    text = "(b) Required by Law. Receiving Party may disclose it to any Third Party as required by law."
    assert used_terms([text], VOCAB | {"Law"}) == {"Third Party": 1}
    assert used_terms(["Each party shall comply with any Law in force."], VOCAB | {"Law"}) == {"Law": 1}
