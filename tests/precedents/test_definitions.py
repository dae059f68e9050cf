"""A Definitions section composed from precedents (hybrid.precedents.definitions): only the entries a draft can
use (its template's own terms the preamble does not define, and boilerplate terms), each defined
once, from the best precedent that defines it, cross-references and the source deal's figures left
out, and every source cited."""

from hybrid import Drafter
from hybrid.precedents.definitions import GENERIC_TERMS, ComposedPrecedent, compose, entries, keep_terms
from hybrid.precedents.library import Library, Precedent
from hybrid.skeleton.from_precedents import variant_draws
from hybrid.templates.template import load_template

T = load_template("mutual-nda")
OUTLINE = T.example_outline()

ENERGY = (
    "Section 1.1 Definitions. As used in this Agreement, capitalized terms shall have the meanings set forth below:\n"
    '(a) "Affiliate" means any entity that controls, is controlled by or is under common control with a Party; and\n'
    '"kWh" means the energy output in kWh. "Person" means any individual or entity;\n'
    '1.2 "Effective Date" means the date of the last signature below.\n'
    '"Confidential Information" has the meaning set forth in Section 7.\n'
    '"Control" means ownership of over [PERCENT] of the voting stock.'
)
SUPPLY = ("For purposes hereof:\n"
          "\"Affiliate\" means a party's parent only.\n"
          "\"Confidential Information\" means all non-public information one Party discloses to the other.\n"
          "\"Specifications\" means the Product specifications.")


def _p(i, body, doc_type="MAINTENANCE AGREEMENT"):
    return Precedent(f"d{i}#1", f"train/d{i}.txt", "cuad", "CC-BY-4.0", doc_type, "definitions", "Definitions", body)


def test_entries_cut_a_body_into_its_lead_in_and_its_defined_terms():
    lead, items = entries(ENERGY)
    assert lead.startswith("Section 1.1 Definitions. As used in this Agreement")
    # "kWh": no capital
    assert [t for t, _ in items] == ["Affiliate", "Person", "Effective Date", "Confidential Information", "Control"]
    text = dict(items)
    assert (
        text["Affiliate"]
        == '"Affiliate" means any entity that controls, is controlled by or is under common control with a Party'
    )
    # the joining ";" and the next line's "1.2" dropped
    assert text["Person"] == '"Person" means any individual or entity'
    assert entries("no definitions here") == ("no definitions here", [])


def test_only_the_terms_a_draft_can_use_are_kept():
    keep = keep_terms(T.defined_terms, T.preamble)
    assert "confidential information" in keep and "affiliate" in keep and "person" in keep
    # the preamble defines them: no second meaning
    assert not {"agreement", "effective date", "party", "purpose"} & keep
    assert "kwh" not in keep


def test_compose_takes_each_kept_term_once_from_the_best_precedent_that_defines_it():
    best, second = _p(0, ENERGY), _p(1, SUPPLY, "SUPPLY AGREEMENT")
    c = compose([best, None, second], keep_terms(T.defined_terms, T.preamble))
    assert isinstance(c, ComposedPrecedent) and [p.id for p in c.sources] == ["d0#1", "d1#1"]
    assert c.citations() == [best.provenance(), second.provenance()]
    paras = c.body.split("\n\n")
    assert paras[0].startswith("Section 1.1 Definitions.")  # the first source's lead-in
    assert paras[1:] == [
        # the best one's
        '"Affiliate" means any entity that controls, is controlled by or is under common control with a Party.',
        # not a cross-reference
        '"Confidential Information" means all non-public information one Party discloses to the other.',
        '"Person" means any individual or entity.',
    ]  # alphabetical; no kWh, no second Effective Date, no "[PERCENT]" of another deal, no Specifications
    assert compose([_p(2, '"kWh" means energy.')], keep_terms(T.defined_terms, T.preamble)) is None



def test_composed_definitions_without_a_lead_in_take_one_from_another_candidate_and_cite_it():
    bare = _p(3, '"Person" means any individual or entity.')
    lead_only = _p(4, "As used in this Agreement, the following terms have these meanings:\n\"Territory\" means Ohio.")
    c = compose([bare, lead_only], keep_terms(T.defined_terms, T.preamble))
    assert c.body.split("\n\n") == [
        "As used in this Agreement, the following terms have these meanings:",
        '"Person" means any individual or entity.',
    ]
    assert [p.id for p in c.sources] == ["d3#1", "d4#1"]
    assert compose([bare], keep_terms(T.defined_terms, T.preamble)).body == '"Person" means any individual or entity.'


def test_a_long_entry_is_cut_after_a_full_clause():
    long = '"Person" means ' + "; ".join(f"an entity of kind {i}" for i in range(60)) + "."
    c = compose([_p(0, long)], {"person"})
    words = c.body.split()
    assert len(words) <= 90 and c.body.endswith(".") and c.body.startswith('"Person" means an entity of kind 0')


def test_every_variant_composes_its_definitions_and_cites_each_source(tiny_model, tokenizer):
    others = [
        Precedent(
            f"o{i}#1",
            f"train/o{i}.txt",
            "cuad",
            "CC-BY-4.0",
            "MUTUAL NDA",
            c,
            c.title(),
            "[PARTY_A] keeps the secrets of [PARTY_B].",
        )
        for i, c in enumerate(T.clause_types)
        if c != "definitions"
    ]
    lib = Library(others + [_p(0, ENERGY, "MUTUAL NDA"), _p(1, SUPPLY, "MUTUAL NDA")], "fp")
    values = T.validate_fields(T.example)
    skeleton = T.render_skeleton(OUTLINE, values)
    spans = [s.clause for s in skeleton.spans]
    assert "definitions" in spans  # the template has a Definitions section (the test can fail)
    draws = variant_draws(skeleton, lib, T, values, 2, seed=3)
    for row in draws:
        composed = row[spans.index("definitions")]
        assert isinstance(composed, ComposedPrecedent) and "kWh" not in composed.body
    d = Drafter(tiny_model, tokenizer, library=lib).draft(T, T.example, n=1, steps=2, seed=3, outline=OUTLINE)[0]
    cited = d.sections[spans.index("definitions")]["precedents"]
    assert {c["id"] for c in cited} == {"d0#1", "d1#1"}  # both sources are cited
    number = d.sections[spans.index("definitions")]["number"]
    # the sources are a footnote of the section, outside the contract text
    assert f"[^s{number}]: Source: Definitions" in d.markdown and "Definitions (" not in d.text


def test_the_generic_terms_are_defined_by_at_least_ten_train_precedents():
    """GENERIC_TERMS's criterion (hybrid.precedents.definitions): each is defined by >= 10 Definitions precedents of the
    library."""
    from hybrid.precedents.library import load_library

    lib = load_library(progress=False)
    defs = [p for p in lib.precedents if p.clause_type == "definitions"]
    counts = {t: sum(any(term == t for term, _ in entries(p.body)[1]) for p in defs) for t in GENERIC_TERMS}
    assert all(n >= 10 for n in counts.values()), counts


def test_an_edited_definition_keeps_the_term_it_defines(tokenizer):
    import random

    from hybrid.skeleton.from_precedents import deal_from_template
    from hybrid.text.start import WordNoise, start_tokens

    values = T.validate_fields(T.example)
    allowed = T.render_skeleton(OUTLINE, values).deal_text
    text = (
        '"Affiliate" means any entity under common control. "Widget Spec" means the thing. "Purpose" includes the aim.'
    )
    noise = WordNoise(0.99, random.Random(0))
    start = start_tokens(tokenizer, text, deal_from_template(T, values), allowed, noise, 200)
    kept = tokenizer.decode([i for i in start if i != tokenizer.mask_id])
    assert '"Affiliate"' in kept and '"Purpose"' in kept  # boilerplate, and a term of the deal's own text
    assert "Widget" not in kept and "entity" not in kept  # another deal's term, and the words the noise took
