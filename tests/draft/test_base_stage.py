"""A draft from one coherent base per variant (hybrid.draft.base_stage), end to end on a tiny random model and the
real train-split library: the base's sections in its order, the market check, substance and foreign subject
matter reported per draft, and the request's `base` switch checked where the request enters."""

import pytest

from hybrid.draft.drafter import Drafter
from hybrid.draft.request import DraftRequest, RequestValueError
from hybrid.templates.template import load_template

T = load_template("mutual-nda")


@pytest.fixture(scope="module")
def library():
    from hybrid.precedents.library import load_library

    return load_library(progress=False)


@pytest.fixture(scope="module")
def drafts(tiny_model, tokenizer, library):
    return Drafter(tiny_model, tokenizer, library=library).draft(T, T.example, n=2, steps=2, seed=11)


def test_each_variant_is_drafted_from_a_whole_base_of_the_kind(drafts, library):
    from hybrid.precedents.base import documents
    from hybrid.skeleton.from_base import form_leftovers_out

    for d in drafts:
        assert d.settings["base"] is True and d.base["kind"] == "form"
        own = [p.id for p in documents(library)[d.base["doc_id"]]]
        cited = [c["id"] for s in d.sections for c in s["precedents"]]
        # every section of the base is there, in the base's order (an inserted clause may stand between them, and a
        # repeated base takes one same-kind alternative so that no two drafts are the same)
        kept = [c for c in cited if c in own]
        # less a section that said only where the parties are identified (Bonterms' Introduction)
        emptied = sum(1 for p in documents(library)[d.base["doc_id"]] if not form_leftovers_out(p.body).strip())
        assert kept == sorted(kept, key=own.index)
        assert len(kept) == len(own) - len(d.base["alternatives"]) - emptied
        assert d.words >= 900  # an NDA of the length real ones have, not a budget's


def test_each_draft_reports_what_a_lawyer_checks(drafts):
    for d in drafts:
        mc = d.checks["market_check"]
        assert mc["total"] >= 8 and {"return_or_destruction", "compelled_disclosure", "no_license"} <= {
            it["key"] for it in mc["items"] if it["held"]}
        assert d.checks["substance"]["contradictions"] == 0
        assert isinstance(d.checks["foreign_subjects"], list)
    assert [d.rank for d in drafts] == [1, 2] and drafts[0].score >= drafts[1].score


def test_an_outline_given_or_base_off_drafts_section_by_section(tiny_model, tokenizer, library):
    req = DraftRequest.of(T, T.example, n=1, base=False)
    assert req.base is False
    assert DraftRequest.of(T, T.example, n=1).base is True  # the default when editing precedents
    outline = T.example_outline()
    assert DraftRequest.of(T, T.example, n=1, outline=outline).base is False
    with pytest.raises(RequestValueError, match="base") as e:
        DraftRequest.of(T, T.example, n=1, outline=outline, base=True)
    assert e.value.field == "base"
    with pytest.raises(RequestValueError, match="base"):
        DraftRequest.of(T, T.example, n=1, precedents=0, base=True)
    [d] = Drafter(tiny_model, tokenizer, library=library).draft(T, T.example, n=1, steps=2, seed=1, base=False)
    assert d.settings["base"] is False and not d.base


def test_a_standard_forms_base_leaves_the_filler_nothing_to_make_up(tokenizer, library):
    from hybrid.draft.base_stage import base_allowed, base_starts
    from hybrid.skeleton.from_base import base_variants

    t = load_template("saas-agreement")
    bv = base_variants(library, t, t.example, 1)[0]
    start, _ = base_starts(tokenizer, bv, library, t, t.example, seed=3, t=0.0)
    mask = tokenizer.mask_id
    assert sum(ids.count(mask) for ids in start[0]) == 0  # every hole a blank to complete, none a filler's rewrite
    allowed = base_allowed(bv, "")  # a standard form's own words ("Recipient", "Order") are no other deal's names
    assert bv.base.kind == "form" and all(d.body in allowed for d in bv.draws if d)


def test_a_variants_share_of_the_progress_bar_fills_when_its_fill_stops_early():
    from types import SimpleNamespace

    from hybrid.draft.base_stage import _Counted

    seen = []
    counted = _Counted(lambda e: seen.append((e.step, e.steps)), 1, 4)
    counted.done()  # no step seen: nothing to fill in
    assert seen == []
    counted(SimpleNamespace(step=1, steps=256, partial=lambda g: ""))
    counted.done()  # the filler stopped after one step: the variant's quarter of the bar is full
    assert seen == [(257, 1024), (512, 1024)]


def test_a_base_itself_outranks_its_variants_with_an_alternative_clause():
    """The seed-83 hosting draft ranked first was the form with an NDA clause in place of the SLA's remedies; the
    form itself came second, 0.22 behind. Each clause another document supplies in place of the base's own costs
    its variant ALTERNATIVE_COST, more than the likelihood spread between variants of one base."""
    from types import SimpleNamespace as NS

    from hybrid.draft.base_stage import ALTERNATIVE_COST, _score_checks

    checks = {"market_check": {"coverage": 0.9}, "substance": {"contradictions": 0}}
    pure = NS(score=-5.72, scores={}, checks=checks, base={"alternatives": []})
    varied = NS(score=-5.50, scores={}, checks=checks, base={"alternatives": [{"section": 15}]})
    for d in (pure, varied):
        _score_checks(d)
    assert pure.score > varied.score and varied.scores["alternatives"] == 1
    assert varied.score == pytest.approx(-5.50 + 2.0 * 0.9 - ALTERNATIVE_COST)


def test_a_draft_whose_base_is_about_the_deal_outranks_one_about_another_business():
    """Seed 211: the bakery-cafe franchise's first draft stood on an air-purifier franchise (meaning 0.0), 0.16 ahead
    of the fast-food franchise chosen as the best base (meaning 0.39) for two more checklist items."""
    from types import SimpleNamespace as NS

    from hybrid.draft.base_stage import MEANING_WEIGHT, _score_checks

    def draft(score, coverage, meaning):
        checks = {"market_check": {"coverage": coverage}, "substance": {"contradictions": 0}}
        return NS(score=score, scores={}, checks=checks, base={"alternatives": [], "parts": {"meaning": meaning}})

    purifier, cafe = draft(-7.355, 0.68, 0.0), draft(-7.355, 0.6, 0.3931)  # the reranker's totals, as drafted
    for d in (purifier, cafe):
        _score_checks(d)
    assert cafe.score > purifier.score and cafe.scores["meaning"] == 0.3931
    assert cafe.score == pytest.approx(-7.355 + 2.0 * 0.6 + MEANING_WEIGHT * 0.3931)


def test_the_check_line_says_a_draft_repeats_another_variants_sections():
    from types import SimpleNamespace as NS

    from hybrid.cli.draft_output import check_line

    checks = {"market_check": {"held": 17, "total": 25, "lacking": ["Cap"]}, "substance": {}, "foreign_subjects": []}
    line = check_line(NS(base={"doc_id": "cuad/contracts/X.txt", "kind": "precedent", "repeats": 0}, checks=checks))
    assert "the sections of variant 0 again" in line and line.startswith("base X.txt")
    assert "again" not in check_line(NS(base={"doc_id": "cuad/contracts/X.txt", "kind": "precedent"}, checks=checks))
    # the lawyer named the base (--base-doc): the line says so, not that no other base fits
    named = check_line(NS(base={"doc_id": "cuad/contracts/X.txt", "kind": "precedent", "repeats": 0, "named": True},
                          checks=checks))
    assert "the base named by --base-doc" in named and "no other base" not in named


def test_a_base_with_a_section_the_filler_cannot_page_is_not_chosen(tiny_model, tokenizer, library):
    """A section longer than the model's positions (max_len, less PAGE_MARGIN) stopped the whole draft ("a span
    needs a page longer than the model's max_len"): such a document is no base (hybrid.draft.base_stage.pageable)."""
    from types import SimpleNamespace

    from hybrid.draft.base_stage import pageable
    from hybrid.precedents.base import choose_bases

    fits = pageable(SimpleNamespace(model=tiny_model, tokenizer=tokenizer))
    short = SimpleNamespace(body="Supplier ships. " * 20)
    long_ = SimpleNamespace(body="Supplier ships the goods. " * 900)
    assert fits([short]) and not fits([short, long_])
    # few words, many tokens: a Definitions section of 1,487 words took 5,264 of the tiny tokenizer's (a count of
    # words alone had let it through and the draft stopped)
    dense = SimpleNamespace(body=" ".join(["Zanzibarquuxholdings"] * 1500))
    assert len(tokenizer.encode(dense.body)) > tiny_model.cfg.max_len and not fits([dense])
    t = load_template("supply")
    every = choose_bases(library, t, t.example)
    kept = choose_bases(library, t, t.example, pageable=fits)
    refused = {b.doc_id for b in every} - {b.doc_id for b in kept}
    assert refused and kept  # the tiny tokenizer's ~3 tokens a word refuses the longest sections' documents
    assert all(fits(b.sections) for b in kept) and not any(fits(b.sections) for b in every if b.doc_id in refused)


def test_variants_on_different_contracts_rank_in_their_bases_order_and_forms_by_score():
    """Seed 433 supply: the vehicle maker's agreement (read C) scored 1.2 above the master supply agreement (read B,
    the better fit): across filed contracts the bases' fit orders the drafts, within one base the score does; among
    standard forms (all written for reuse) the score alone."""
    from types import SimpleNamespace as NS

    from hybrid.draft.base_stage import by_base_fit

    def d(variant, doc, score, kind="precedent"):
        return NS(variant=variant, score=score, base={"doc_id": doc, "kind": kind})

    drafts = [d(0, "reynolds", -4.1), d(1, "electra", -2.9), d(2, "reynolds", -3.0), d(3, "electra", -2.5)]
    assert [x.variant for x in sorted(drafts, key=by_base_fit(drafts))] == [2, 0, 3, 1]
    forms = [d(0, "bonterms", -3.0, "form"), d(1, "common-paper", -2.0, "form")]
    assert [x.variant for x in sorted(forms, key=by_base_fit(forms))] == [1, 0]
