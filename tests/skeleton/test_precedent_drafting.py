"""Drafting from precedent on a tiny random model: precedents sit right before their span as that
section's heading tokens (so the unconditional rows hide them), carry the deal's facts and none of
their own, every drafted section cites its precedents (Draft, markdown, docx, drafts.json), both
fillers take the same precedent context, and bad arguments exit 2 with nothing written."""

import json

import docx
import pytest

from hybrid import Drafter
from hybrid.cli.main import main
from hybrid.common.errors import SamplingError
from hybrid.data.facts import MARKERS
from hybrid.data.windows import KIND_SPAN
from hybrid.precedents.library import Library, Precedent
from hybrid.skeleton.from_precedents import condition, deal_from_template
from hybrid.skeleton.tokenized import from_template
from hybrid.templates.template import load_template

T = load_template("mutual-nda")
OUTLINE = T.example_outline()
FOREIGN = ["Zebulon Holdings", "Zeb", "Pretzel Works", "$75,000", "June 9, 2011", "Montana", "ninety (90) days"]


def _library() -> Library:
    body = (
        "[PARTY_A] and [PARTY_B] shall keep Confidential Information secret for [DURATION] from [DATE] and pay "
        "[AMOUNT]; "
        "the laws of [LAW] govern."
    )
    precedents = [Precedent(f"d{i}#1", f"train/d{i}.txt", "cuad", "CC-BY-4.0", "MUTUAL NDA", c, c.title(), body,
                            facts=FOREIGN) for i, c in enumerate(T.clause_types)]
    return Library(precedents, "fp")


@pytest.fixture(scope="module")
def drafter(tiny_model, tokenizer):
    return Drafter(tiny_model, tokenizer, library=_library())


def test_each_precedent_sits_right_before_its_span_as_that_sections_heading(tokenizer):
    values = T.validate_fields(T.example)
    plain = T.render_skeleton(OUTLINE, values)
    sk, prov = condition(plain, _library(), T, values, k=1)
    assert len(prov) == len(sk.spans) and all(len(p) == 1 for p in prov)
    segs = sk.segments
    bodies = [i for i, s in enumerate(segs) if s.kind == "body"]
    for i in bodies:
        assert segs[i - 1].kind == "heading" and segs[i - 1].section == segs[i].section
        assert segs[i - 1].text.startswith("Precedent: ")
    tsk, bare = from_template(tokenizer, sk), from_template(tokenizer, plain)
    n_prec = [len(tokenizer.encode(segs[i - 1].text)) for i in bodies]
    for span, n in zip(tsk.spans, n_prec):
        # the n tokens right before the span are its precedent, hidden with its heading by the unconditional rows
        assert (tsk.heading_ids[span.start - n : span.start] == span.section).all()
        assert int(tsk.kind[span.start]) == KIND_SPAN
    hidden = [int((tsk.heading_ids == s.section).sum()) for s in tsk.spans]
    assert hidden == [int((bare.heading_ids == s.section).sum()) + n for s, n in zip(bare.spans, n_prec)]


def test_precedents_carry_the_deals_facts_and_none_of_their_own():
    values = T.validate_fields(T.example)
    sk, _ = condition(T.render_skeleton(OUTLINE, values), _library(), T, values, k=1)
    text = "".join(s.text for s in sk.segments)
    for f in FOREIGN:
        assert f not in text
    deal = deal_from_template(T, values)
    assert (
        deal.party_a == values["party_a"]
        and deal.law == values["governing_law"]
        and deal.duration == values["nda_term"]
    )
    assert (
        values["party_a"] in text
        and values["governing_law"] in text
        and not any(m in text.split("Precedent: ", 1)[1].split("\n")[0] for m in MARKERS)
    )


def test_every_drafted_section_cites_its_precedents(drafter, tmp_path):
    # beside
    drafts = drafter.draft(T, T.example, n=2, steps=2, seed=1, outline=OUTLINE, precedents=1, precedent_start=1.0)
    for d in drafts:
        assert all(
            s["precedents"] and {"doc_id", "heading", "source", "license"} <= set(s["precedents"][0])
            for s in d.sections
        )
        # one footnote per section names its source; the contract text names none
        assert d.markdown.count("]: Source: ") == len(d.sections) and "train/d" not in d.text
        assert [s["citations"] for s in d.sources] == [s["precedents"] for s in d.sections]
        for f in FOREIGN:
            assert f not in d.text
    path = drafts[0].to_docx(tmp_path / "d.docx")
    document = docx.Document(str(path))
    assert not any("train/d" in p.text for p in document.paragraphs)  # no provenance in the contract text
    comments = [c.text for c in document.comments]  # one Word comment per section, naming its source file
    assert len(comments) == len(drafts[0].sections) and all("train/d" in c and "CC-BY-4.0" in c for c in comments)
    assert all(
        "precedents" not in s
        for s in drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE, precedents=0)[0].sections
    )
    edited = drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE)[
        0
    ]  # the default: each section edits one
    assert all(len(s["precedents"]) == 1 for s in edited.sections) and edited.settings["precedent_start"] == 0.0


def test_the_ar_baseline_gets_the_same_precedent_context(tiny_model, tokenizer):
    ar = Drafter(tiny_model, tokenizer, filler="ar", library=_library())
    d = ar.draft(T, T.example, n=1, steps=1, seed=1, outline=OUTLINE, precedents=1)[0]
    assert all(s["precedents"] for s in d.sections)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"precedents": -1}, "precedents must be an integer in"),
        ({"precedents": 9}, "precedents must be an integer in"),
        ({"precedents": 1, "precedent_guidance": -0.5}, "precedent_guidance must be"),
        ({"precedents": 0, "precedent_guidance": 1.0}, "precedent_guidance needs precedents"),
        ({"precedents": 1, "precedent_start": -0.5}, r"precedent_start must be a finite number in \[0, 1\]"),
        ({"precedents": 0, "precedent_start": 0.5}, "precedent_start needs precedents"),
        (
            {"precedent_start": 0.5, "precedent_guidance": 1.0},
            "precedent_guidance guides on the precedents beside each clause",
        ),
    ],
)
def test_bad_precedent_arguments_raise_naming_themselves(drafter, kwargs, match):
    with pytest.raises(SamplingError, match=match):
        drafter.draft(T, T.example, n=1, steps=1, outline=OUTLINE, **kwargs)


@pytest.mark.parametrize(
    "extra",
    [
        ["--precedents", "-1"],
        ["--precedents", "x"],
        ["--precedent-guidance", "-2"],
        ["--precedent-start", "-0.1"],
        ["--precedents", "0", "--precedent-start", "0.5"],
        ["--precedents", "0", "--precedent-guidance", "1"],
        ["--precedents", "1", "--precedent-start", "0.5", "--filler", "ar"],
        ["--precedents", "1", "--precedent-start", "0.5", "--precedent-guidance", "1"],
    ],
)
def test_cli_bad_precedent_options_exit_2_with_nothing_written(extra, tmp_path, capsys):
    out = tmp_path / "out"
    try:
        code = main(["draft", "mutual-nda", "--example", "--out", str(out), *extra])
    except SystemExit as e:  # plain argparse exits; hybrid.cli.main may return the code instead
        code = e.code
    assert code == 2 and "--preced" in capsys.readouterr().err
    assert not out.exists()


def test_drafts_json_lists_each_sections_precedents(tiny_model, tokenizer, tmp_path, capsys, monkeypatch):
    from hybrid.train.loop import save_checkpoint

    ckpt = tmp_path / "ckpt"
    save_checkpoint(ckpt, tiny_model, tokenizer, {"step": 0}, None)
    monkeypatch.setattr(Drafter, "precedent_library", lambda self, on_doc=None: _library())
    out = tmp_path / "out"
    code = main(
        [
            "draft",
            "mutual-nda",
            "--example",
            "-n",
            "1",
            "--steps",
            "2",
            "--checkpoint",
            str(ckpt),
            "--out",
            str(out),
            "--precedents",
            "1",
        ]
    )
    assert code == 0, capsys.readouterr().err
    report = json.loads((out / "drafts.json").read_text())
    assert report["settings"]["precedents"] == 1
    assert all(p and p[0]["doc_id"].startswith("train/") for p in report["drafts"][0]["precedents"])


def test_a_precedents_source_facts_are_those_of_its_whole_contract():
    from hybrid.precedents.definitions import ComposedPrecedent
    from hybrid.skeleton.from_precedents import source_facts

    def p(i, doc, facts):
        body = "[PARTY_A] agrees."
        return Precedent(f"{doc}#{i}", doc, "cuad", "CC-BY-4.0", "CO-BRANDING", "general", "General", body, facts=facts)

    a, b = p(1, "train/ebix.txt", ["About"]), p(2, "train/ebix.txt", ["EBIX.COM"])
    c = p(1, "train/other.txt", ["Zebulon"])
    lib = Library([a, b, c], "fp")
    assert source_facts(lib, a) == ["About", "EBIX.COM"] and source_facts(lib, c) == ["Zebulon"]
    composed = ComposedPrecedent(
        id="composed:x",
        doc_id=a.doc_id,
        source="cuad",
        license="CC-BY-4.0",
        doc_type="X",
        clause_type="definitions",
        heading="Definitions",
        body="x",
        facts=["About", "Zebulon"],
        sources=[a, c],
    )
    assert source_facts(lib, composed) == ["About", "Zebulon", "EBIX.COM"]


def test_a_draft_knows_its_sources_facts_and_reports_their_names_in_any_case(drafter):
    from hybrid.fidelity.foreign_facts import draft_foreign_facts

    drafts = drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE, precedents=1, precedent_start=0.5)
    assert set(FOREIGN) <= set(drafts[0].source_facts)
    body = ["The zebulon holdings team and PRETZEL WORKS agree."]
    found = draft_foreign_facts(T, drafts[0].fields, body, drafts[0].source_facts)
    assert {"kind": "source", "text": "zebulon holdings"} in found
    assert {"kind": "source", "text": "PRETZEL WORKS"} in found
    assert draft_foreign_facts(T, drafts[0].fields, body) == []  # unknown without them: lower case, all-caps
    assert drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE, precedents=0)[0].source_facts == []


def test_a_draft_edited_from_precedent_keeps_its_unnoised_words(drafter):
    """precedent_start: each span starts as its adapted precedent, noised word by word; what is kept stays."""
    values = T.validate_fields(T.example)
    deal = deal_from_template(T, values)
    precedent = _library().precedents[0].adapted(deal)
    kept = drafter.draft(T, T.example, n=2, steps=4, seed=1, outline=OUTLINE, precedents=1, precedent_start=0.05)
    scratch = drafter.draft(T, T.example, n=2, steps=4, seed=1, outline=OUTLINE, precedents=1, precedent_start=1.0)
    words = set(precedent.split())

    def share(d):
        bodies = [s["body"] for s in d.sections]
        return sum(w in words for b in bodies for w in b.split()) / max(1, sum(len(b.split()) for b in bodies))

    assert share(kept[0]) > 0.5 > share(scratch[0])
    for f in FOREIGN:
        assert f not in kept[0].text


def test_drafting_beside_a_precedent_bans_its_own_facts(shipped_checkpoint, monkeypatch):
    drafter = Drafter.from_pretrained(shipped_checkpoint, device="cpu", library=_library())
    tokenizer = drafter.tokenizer
    seen = []
    import hybrid.draft.drafter as drafter_module

    real = drafter_module.fill_function

    def spying(*a, **kw):  # the params that reach the filler
        fill = real(*a, **kw)
        return lambda *fa, **fkw: seen.append(fkw["params"]) or fill(*fa, **fkw)

    monkeypatch.setattr(drafter_module, "fill_function", spying)
    from hybrid.fidelity.fact_guard import precedent_fact_ban_ids
    from hybrid.fidelity.foreign_facts import allowed_text

    own = set(precedent_fact_ban_ids(tokenizer, FOREIGN, allowed_text(T, T.validate_fields(T.example)))) - set(
        _deal_bans(tokenizer)
    )
    assert own  # the fixture's facts give bans of their own on this tokenizer, beyond the deal's (the test can fail)

    def banned(params):  # everywhere: the filler's banned tokens and the fact guard's always-banned table
        return set(params.banned_tokens) | set(params.fact_guard.always.nonzero().flatten().tolist())

    drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE, precedents=1, precedent_start=1.0)
    assert own <= banned(seen[-1])
    drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE, precedents=0)
    assert not own & banned(seen[-1])  # no precedent, no ban of its facts


def _deal_bans(tokenizer):
    from hybrid.fidelity.foreign_facts import allowed_text, deal_ban_ids

    return deal_ban_ids(tokenizer, allowed_text(T, T.validate_fields(T.example)))


def _two_per_type() -> Library:
    """Two precedents of every clause type, one per document: a variant's draw can pick either."""
    out = []
    for d in range(2):
        body = f"[PARTY_A] keeps the secrets of [PARTY_B] under the {('alpha', 'beta')[d]} form of the laws of [LAW]."
        out += [
            Precedent(f"d{d}-{i}#1", f"train/d{d}-{i}.txt", "cuad", "CC-BY-4.0", "MUTUAL NDA", c, c.title(), body)
            for i, c in enumerate(T.clause_types)
        ]
    return Library(out, "fp")


def test_each_variant_edits_its_own_draw_and_cites_it(tiny_model, tokenizer):
    from hybrid.skeleton.from_precedents import variant_draws

    lib = _two_per_type()
    drafter = Drafter(tiny_model, tokenizer, library=lib)
    values = T.validate_fields(T.example)
    draws = variant_draws(T.render_skeleton(OUTLINE, values), lib, T, values, 4, seed=3)
    assert len({p.id for d in draws for p in d}) > len(draws[0])  # the variants do not all edit the same precedents
    plain = T.render_skeleton(OUTLINE, values)
    assert [p.id for p in draws[0]] == [
        h[0].id for h in condition(plain, lib, T, values, k=1, seed=3, return_hits=True)[2]
    ]
    drafts = drafter.draft(T, T.example, n=4, steps=2, seed=3, outline=OUTLINE, precedents=1, precedent_start=0.5)
    for d in drafts:  # each draft cites what its own variant edited
        assert [s["precedents"][0]["id"] for s in d.sections] == [p.id for p in draws[d.variant]]
    kept = drafter.draft(T, T.example, n=4, steps=2, seed=3, outline=OUTLINE, precedents=1, precedent_start=0.01)
    for d in kept:  # and writes that precedent's words, never another variant's (a precedent sentence longer than
        # these tiny budgets is cut back to the frame sentence by the whole-sentence rule, so its own words may be gone)
        for s, p in zip(d.sections, draws[d.variant]):
            own, other = ("alpha", "beta") if p.id.startswith("d0") else ("beta", "alpha")
            assert other not in s["body"]


def test_editing_from_precedent_refuses_precedent_guidance(drafter):
    with pytest.raises(SamplingError, match="precedent_guidance guides on the precedents beside each clause"):
        drafter.draft(
            T, T.example, n=1, steps=2, outline=OUTLINE, precedents=1, precedent_start=0.5, precedent_guidance=1.0
        )


def test_an_edited_clause_goes_on_after_a_space_where_its_frame_sentence_ends(drafter):
    import re

    framed = [i for i, s in enumerate(T.render_skeleton(OUTLINE, T.validate_fields(T.example)).spans) if s.frame]
    assert framed  # the template opens some clauses with a frame sentence (the test can fail)
    for d in drafter.draft(T, T.example, n=2, steps=4, seed=1, outline=OUTLINE, precedents=1, precedent_start=0.01):
        for i in framed:
            assert not re.search(r"[a-z]\.[A-Z]", d.sections[i]["body"]), d.sections[i]["body"]  # "care.Acme": no space


def test_the_batched_ar_fill_edits_a_precedent_too_and_the_sequential_one_is_refused(tiny_model, tokenizer):
    """--filler ar-batched --precedent-start: the AR baseline of editing (hybrid.fill.ar_batched start=)
    keeps the unnoised words as the diffusion filler does; the clause-by-clause AR fill cannot edit."""
    values = T.validate_fields(T.example)
    precedent = _library().precedents[0].adapted(deal_from_template(T, values))
    ar = Drafter(tiny_model, tokenizer, filler="ar-batched", library=_library())
    kept = ar.draft(T, T.example, n=2, seed=1, outline=OUTLINE, precedents=1, precedent_start=0.05)
    words = set(precedent.split())
    body = [w for s in kept[0].sections for w in s["body"].split()]
    assert sum(w in words for w in body) / len(body) > 0.5
    assert all(s.get("precedents") for s in kept[0].sections)
    with pytest.raises(
        SamplingError, match=r"precedent_start < 1 needs a filler that edits a start \(diffusion, ar-batched\)"
    ):
        Drafter(tiny_model, tokenizer, filler="ar", library=_library()).draft(
            T, T.example, n=1, outline=OUTLINE, precedents=1, precedent_start=0.25
        )


def test_cli_commit_rule_is_recorded_resolved_and_refused_for_the_ar_fillers(
    tiny_model, tokenizer, tmp_path, capsys, monkeypatch
):
    from hybrid.train.loop import save_checkpoint

    ckpt = tmp_path / "ckpt"
    save_checkpoint(ckpt, tiny_model, tokenizer, {"step": 0}, None)
    monkeypatch.setattr(Drafter, "precedent_library", lambda self, on_doc=None: _library())
    base = ["draft", "mutual-nda", "--example", "-n", "1", "--steps", "4", "--checkpoint", str(ckpt)]
    texts = []
    for extra, want in (
        (["--precedents", "1", "--precedent-start", "0"], "runs"),
        (["--precedents", "0"], "confidence"),
        ([], "runs"),
        (["--precedents", "1", "--precedent-start", "0.25", "--commit", "confidence"], "confidence"),
    ):
        out = tmp_path / f"out-{want}-{len(extra)}"
        assert main([*base, "--out", str(out), *extra]) == 0, capsys.readouterr().err
        assert json.loads((out / "drafts.json").read_text())["settings"]["commit"] == want
        texts.append("".join(p.read_text() for p in sorted(out.glob("*.md"))))
    assert texts[0] == texts[2]  # the default is that explicit edit
    assert texts[0] != texts[3]  # the same edit, committed by another rule: the rule reached the filler
    bad = tmp_path / "bad"
    try:
        code = main([*base, "--out", str(bad), "--commit", "runs", "--filler", "ar-batched"])
    except SystemExit as e:
        code = e.code
    assert (
        code == 2
        and "--commit chooses the diffusion filler's commits: it needs --filler diffusion" in capsys.readouterr().err
    )
    assert not bad.exists()


def test_without_a_clause_library_the_default_drafts_from_scratch_with_a_note(tiny_model, tokenizer, monkeypatch):
    import warnings

    from hybrid.precedents.library import PrecedentError

    def missing(self):
        raise PrecedentError("no corpus here")

    monkeypatch.setattr(Drafter, "precedent_library", missing)
    drafter = Drafter(tiny_model, tokenizer)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the fallback is data on the result, never a warning
        d = drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE)[0]
    assert (
        d.settings["precedents"] == 0
        and d.settings["precedent_start"] == 1.0
        and d.settings["precedent_note"].startswith("drafted from scratch: no clause library (no corpus here)")
    )
    assert all("precedents" not in s for s in d.sections)
    for asked in ({"precedents": 1}, {"precedent_start": 0.25}):  # a call that asks for precedents gets the error
        with pytest.raises(PrecedentError, match="no corpus here"):
            drafter.draft(T, T.example, n=1, steps=2, seed=1, outline=OUTLINE, **asked)
