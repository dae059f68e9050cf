"""Drafting by editing a precedent: the filler keeps the start tokens it is given and writes only the
masked ones; start_tokens keeps the deal's facts, masks the precedent's foreign facts and noises the
rest at rate t, the same way for a seed."""

import random

import pytest
import torch

from hybrid.common.errors import SamplingError
from hybrid.common.sampling import SamplingParams
from hybrid.data.document import Segment
from hybrid.data.facts import DealFacts
from hybrid.fill.diffusion.sampler import FillConfig, fill
from hybrid.fill.diffusion.start import HOLE_RECHECKS
from hybrid.skeleton.tokenized import tokenize_segments
from hybrid.text.start import StartNoise, WordNoise, precedent_starts, start_tokens

DEAL = DealFacts(party_a="Acme Robotics, Inc.", party_b="Borealis LLC", law="Delaware")
ALLOWED = "Acme Robotics, Inc. and Borealis LLC, governed by the laws of Delaware."


def _sk(tokenizer, budgets=(20, 16)):
    segs = [Segment("SUPPLY AGREEMENT\n\nBetween Acme Robotics, Inc. and Borealis LLC.\n\n", "text")]
    for i, _ in enumerate(budgets):
        segs += [Segment(f"{i + 1}. Heading {i}.\n", "heading", i), Segment("", "body", i), Segment("\n\n", "text")]
    return tokenize_segments(tokenizer, segs, list(budgets))


class _Favour(torch.nn.Module):
    """The backbone with a large bias towards one token (hidden states pushed along its embedding)."""

    def __init__(self, model, token: int):
        super().__init__()
        self.m, self.cfg, self.token = model, model.cfg, token
        self.output_weight = model.output_weight

    def forward(self, ids, mode="causal", **kw):
        return self.m(ids, mode, **kw) + 50 * self.m.output_weight[self.token]


def _free(sk, s=0) -> int:
    """Open slots of span s the start may use (its last open slot stays masked, so that it can end)."""
    return int((~sk.locked[sk.spans[s].start : sk.spans[s].end]).sum()) - 1


def test_the_filler_keeps_the_start_tokens_and_no_hole_before_the_last_one_ends_the_span(lively_model, tokenizer):
    sk = _sk(tokenizer)
    m = tokenizer.mask_id
    text = tokenizer.encode(" the supplier shall deliver the goods on time")[: _free(sk) - 2]
    start = [[[t if i % 2 else m for i, t in enumerate(text)], []]]
    eager = _Favour(lively_model, tokenizer.eos_id)  # every hole would rather end the span
    out = fill(eager, tokenizer, sk, n=1, steps=8, seed=1, params=SamplingParams(temperature=1.0), start=start,
               config=FillConfig(precision="fp32"))
    got = out[0].tokens[0]
    assert len(got) >= len(text) - 1 and tokenizer.eos_id not in got[: len(text)]
    assert [got[i] for i in range(1, len(text), 2)] == [text[i] for i in range(1, len(text), 2)]
    assert out[0].tokens[1] == []  # the span without a start: <eos> at once, as the bias wants


def test_start_tokens_are_never_re_masked_by_the_repetition_guard(lively_model, tokenizer):
    sk = _sk(tokenizer, budgets=(40, 16))
    phrase = tokenizer.encode(" the goods")
    text = (phrase * 40)[: _free(sk)]
    cfg = FillConfig(precision="fp32", guard_ratio=0.9, guard_min=4)  # a guard that fires on any repetition
    out = fill(
        lively_model,
        tokenizer,
        sk,
        n=1,
        steps=8,
        seed=1,
        params=SamplingParams(temperature=1.0),
        start=[[text, []]],
        config=cfg,
    )
    assert out[0].tokens[0][: len(text)] == text
    unguarded = fill(
        lively_model, tokenizer, sk, n=1, steps=8, seed=1, params=SamplingParams(temperature=1.0), config=cfg
    )
    assert unguarded[0].tokens[0][: len(text)] != text


def test_a_start_of_the_wrong_shape_names_the_shape(tiny_model, tokenizer):
    with pytest.raises(SamplingError, match="start must hold n=2 lists of 2"):
        fill(tiny_model, tokenizer, _sk(tokenizer), n=2, steps=2, start=[[[], []]])


def test_start_tokens_keep_deal_facts_mask_foreign_facts_and_noise_the_rest(tokenizer):
    text = ("Acme Robotics, Inc. shall pay Pretzel Business [***] within thirty (30) days under the laws of Delaware "
            "and the contract.")
    m = tokenizer.mask_id
    full = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(1.0, random.Random(0)), 200)
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    kept = "".join(text[a:b] for i, (a, b) in zip(full, enc.offsets) if i != m)
    assert "Acme Robotics, Inc." in kept and "Delaware" in kept  # the deal's facts are never noised
    assert "Pretzel" not in kept and "thirty" not in kept and "contract" not in kept
    light = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.05, random.Random(0)), 200)
    kept_light = "".join(text[a:b] for i, (a, b) in zip(light, enc.offsets) if i != m)
    assert "Pretzel" not in kept_light and "thirty (30) days" not in kept_light  # foreign facts: always rewritten
    assert "*" not in kept_light  # and CUAD's redaction marks
    assert kept_light.count(" ") > kept.count(" ")
    assert len(start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.5, random.Random(0)), 5)) == 5


def test_precedent_starts_differ_per_variant_and_repeat_for_a_seed(tokenizer):
    texts = ["The supplier shall deliver the goods to the buyer on time and in full at its own cost.", None]
    a = precedent_starts(tokenizer, texts, DEAL, ALLOWED, StartNoise(0.5, 3, 7), [64, 64])
    assert a == precedent_starts(tokenizer, texts, DEAL, ALLOWED, StartNoise(0.5, 3, 7), [64, 64])
    assert a[0][0] != a[1][0] and all(v[1] == [] for v in a)


def test_a_hole_after_a_kept_word_opens_a_new_word(lively_model, tokenizer):
    from hybrid.fill.diffusion.guards import glue_tokens

    sk = _sk(tokenizer, budgets=(40, 16))
    m = tokenizer.mask_id
    words = tokenizer.encode(" the supplier shall deliver the goods")
    glue = glue_tokens(tokenizer, lively_model.output_weight.shape[0])
    # keep every other token: a hole may follow a token in mid-word, which is exactly what must not glue on
    start = [[[t if i % 2 == 0 else m for i, t in enumerate(words * 3)][: _free(sk)], []] for _ in range(3)]
    out = fill(lively_model, tokenizer, sk, n=3, steps=8, seed=2, params=SamplingParams(temperature=1.0), start=start,
               config=FillConfig(precision="fp32"))
    for r, st in zip(out, start):
        got = r.tokens[0]
        holes = [i for i in range(1, len(st[0])) if st[0][i] == m and st[0][i - 1] != m]
        assert holes and not any(bool(glue[got[i]]) for i in holes if i < len(got))


def test_a_precedents_own_facts_left_in_its_text_are_masked(tokenizer):
    text = "CERES shall deliver the goods to the buyer on time."
    m = tokenizer.mask_id
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    got = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.01, random.Random(0)), 200, own_facts=["CERES"])
    kept = "".join(text[a:b] for i, (a, b) in zip(got, enc.offsets) if i != m)
    assert "CERES" not in kept and "deliver" in kept


def test_another_deals_acronym_is_masked_but_emphasis_and_the_deals_own_acronyms_stay(tokenizer):
    text = "Payments go to LBIO under this Agreement. THE GOODS ARE SOLD AS IS. Borealis LLC is a party."
    out = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.0, random.Random(0)), 64)
    kept = tokenizer.decode([i for i in out if i != tokenizer.mask_id])
    assert "LBIO" not in kept  # another deal's short name: a hole to fill
    assert "AS IS" in kept and "LLC" in kept  # emphasis and the deal's own words are kept
    kept = start_tokens(tokenizer, text, DEAL, ALLOWED + " LBIO", WordNoise(0.0, random.Random(0)), 64)
    assert "LBIO" in tokenizer.decode(kept)


def _hole_start(tokenizer, words):
    """' the supplier shall deliver the goods on time' with ' deliver' a hole whose original token is known."""
    from hybrid.text.start import SpanStart

    ids = tokenizer.encode(" the supplier shall deliver the goods on time")
    word = tokenizer.encode(" deliver")
    a = next(i for i in range(len(ids)) if ids[i : i + len(word)] == word)
    at = list(range(a, a + len(word)))  # the hole: every piece of the word
    start = [tokenizer.mask_id if i in at else t for i, t in enumerate(ids)]
    original = [t if i in at else -1 for i, t in enumerate(ids)]
    return ids, at, SpanStart(start, original, words=words)


def test_a_hole_that_writes_an_unknown_word_is_written_again_then_given_back_its_precedents_word(
    lively_model, tokenizer
):
    vocab = frozenset("the supplier shall deliver goods on time".split())
    odd = tokenizer.encode(" s")[0]  # a word the vocabulary does not hold
    ids, at, st = _hole_start(tokenizer, vocab)
    sk = _sk(tokenizer, budgets=(24, 16))
    cfg = FillConfig(precision="fp32")
    stubborn = _Favour(lively_model, odd)  # writes the odd piece into every hole, every time
    out = fill(
        stubborn,
        tokenizer,
        sk,
        n=1,
        steps=16,
        seed=1,
        params=SamplingParams(temperature=1.0),
        start=[[st, []]],
        config=cfg,
    )
    got = out[0].tokens[0]
    # rewritten twice, still unknown: the precedent's own word is back
    assert [got[i] for i in at] == [ids[i] for i in at]
    assert out[0].timings["reverted_holes"] == 1 and out[0].timings["rewritten_holes"] == HOLE_RECHECKS
    unchecked = fill(stubborn, tokenizer, sk, n=1, steps=16, seed=1, params=SamplingParams(temperature=1.0),
                     start=[[_hole_start(tokenizer, None)[2], []]], config=cfg)
    assert [unchecked[0].tokens[0][i] for i in at] == [odd] * len(at)  # no vocabulary: whatever the filler wrote stays
    the = tokenizer.encode(" the")[0]
    known = _Favour(lively_model, the)  # a word the vocabulary holds: kept as written
    kept = fill(
        known,
        tokenizer,
        sk,
        n=1,
        steps=16,
        seed=1,
        params=SamplingParams(temperature=1.0),
        start=[[st, []]],
        config=cfg,
    )
    assert [kept[0].tokens[0][i] for i in at] == [the] * len(at) and kept[0].timings["reverted_holes"] == 0


def test_a_start_that_holds_its_whole_precedent_ends_the_span_where_it_ends(lively_model, tokenizer):
    from hybrid.text.start import SpanStart

    sk = _sk(tokenizer, budgets=(30, 16))
    ids = tokenizer.encode(" the supplier shall deliver the goods")
    wordy = _Favour(lively_model, tokenizer.encode(" goods")[0])  # would write on and on
    cfg = FillConfig(precision="fp32")
    whole = fill(wordy, tokenizer, sk, n=1, steps=8, seed=1, params=SamplingParams(temperature=1.0),
                 start=[[SpanStart(ids, ends=True), []]], config=cfg)
    assert whole[0].tokens[0] == ids  # nothing written from scratch after the precedent
    cut = fill(wordy, tokenizer, sk, n=1, steps=8, seed=1, params=SamplingParams(temperature=1.0),
               start=[[SpanStart(ids, ends=False), []]], config=cfg)
    assert cut[0].tokens[0][: len(ids)] == ids and len(cut[0].tokens[0]) > len(ids)
    # an empty start that ends (the precedent only restated the frame): nothing at all is written
    empty = fill(wordy, tokenizer, sk, n=1, steps=8, seed=1, params=SamplingParams(temperature=1.0),
                 start=[[SpanStart([], ends=True), []]], config=cfg)
    assert empty[0].tokens[0] == []


def test_a_precedent_that_only_restates_the_frame_leaves_the_frame_alone(tokenizer):
    from types import SimpleNamespace

    from hybrid.text.start import SpanEdits, SpanStart, starts_from_draws

    frame = "This Agreement is governed by and construed in accordance with the laws of the State of Ohio."
    p = SimpleNamespace(facts=(), adapted=lambda deal: "This Agreement shall be governed by the laws of Ohio.")
    q = SimpleNamespace(facts=(), adapted=lambda deal: "Each party submits to the courts of Ohio for all disputes.")
    start, _ = starts_from_draws(tokenizer, [[p], [q]], SpanEdits(DEAL, ALLOWED, [40], frames=[frame]), 0.0, 1)
    assert isinstance(start[0][0], SpanStart) and list(start[0][0]) == [] and start[0][0].ends
    assert len(start[1][0]) > 0  # a precedent that says more is edited as usual
    start, _ = starts_from_draws(tokenizer, [[p]], SpanEdits(DEAL, ALLOWED, [40]), 0.0, 1)  # no frame: kept
    assert len(start[0][0]) > 0


def test_start_tokens_record_the_precedents_word_under_each_noised_hole_and_none_under_a_foreign_fact(tokenizer):
    text = "CERES shall deliver the goods to the buyer on time."
    got = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(1.0, random.Random(0)), 200, own_facts=["CERES"],
                       words=frozenset({"goods"}))
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    ceres = [i for i, (a, b) in enumerate(enc.offsets) if a < 5]
    assert all(x == tokenizer.mask_id for x in got)  # t = 1: every word a hole
    assert all(got.original[i] == -1 for i in ceres)  # a foreign fact's hole never comes back
    assert [got.original[i] for i in range(len(got)) if i not in ceres] == [
        enc.ids[i] for i in range(len(got)) if i not in ceres
    ]
    assert got.words == {"goods"} and got.ends
    # cut to the budget: the text goes on
    assert not start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(1.0, random.Random(0)), 4).ends


def test_a_foreign_name_is_masked_wherever_it_stands_even_where_the_check_reads_a_list_start(tokenizer):
    text = "The goods go to Licensee on time, and (a) Licensee identifies the goods to the buyer."
    out = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.0, random.Random(0)), 64)
    kept = tokenizer.decode([i for i in out if i != tokenizer.mask_id])
    assert "Licensee" not in kept and "identifies" in kept


def test_the_spaced_start_masks_the_same_words(tokenizer):
    text = "The goods shall be delivered by Acme Robotics, Inc. to the buyer on time, in full and in good order."
    for seed in range(5):
        x = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.5, random.Random(seed)), 200)
        kept = [tokenizer.decode([i for i in s if i != tokenizer.mask_id]).split() for s in (x, x.spaced)]
        assert kept[0] == kept[1] and x.spaced.original.count(-1) < len(x.spaced)
    # spaced already
    assert start_tokens(tokenizer, " " + text, DEAL, ALLOWED, WordNoise(0.5, random.Random(0)), 200).spaced is None


def test_a_deal_fact_inside_a_phrase_masked_as_foreign_is_kept(tokenizer):
    """"Pretzel Acme Robotics, Inc." reads as one foreign name; the deal's own party inside it stays
    (before, the mask won and an edit lost terms that pasting the precedent keeps)."""
    text = "Products of any Pretzel Acme Robotics, Inc. competitor shall be excluded from the Territory."
    m = tokenizer.mask_id
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    st = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(1e-9, random.Random(0)), 200)
    kept = "".join(text[a:b] for i, (a, b) in zip(st, enc.offsets) if i != m)
    assert "Acme Robotics, Inc." in kept and "Pretzel" not in kept


def test_a_character_of_several_byte_tokens_opens_one_word(tokenizer):
    """"™" is three byte-level tokens with the same offsets; each used to open a word of its own, so
    the draws (one per whitespace word) ran out: IndexError on a precedent with "™" or "®"."""
    text = "Pay ™ and ® now ™x " * 6 + "done"
    m = tokenizer.mask_id
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    assert len(enc.ids) > len(set(enc.offsets))  # the premise: pieces that share a character's offsets
    st = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.5, random.Random(0)), 400)
    assert len(st) == len(enc.ids)
    for (a, b), _i in zip(enc.offsets, st):  # a word's pieces are masked together or kept together
        same = [j for (x, y), j in zip(enc.offsets, st) if (x, y) == (a, b)]
        assert len(set(j == m for j in same)) == 1


def test_a_noised_words_full_stop_stays_so_the_sentence_still_ends_there(tokenizer):
    """Rewritten with its word, a full stop could vanish and run two sentences into one ("the
    Agreement Alternatively, ..."), which reads a sentence opener as a mid-sentence name; at t = 1
    (drafting from scratch) nothing is kept."""
    text = "The term ends on the date. Alternatively, either party may end it; notice: in writing."
    m = tokenizer.mask_id
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    st = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(0.999999, random.Random(0)), 200)
    kept = [text[a:b] for i, (a, b) in zip(st, enc.offsets) if i != m]
    assert kept and set(kept) <= {".", ";", ":"} and "".join(kept).count(".") == 2
    assert all(i == m for i in start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(1.0, random.Random(0)), 200))


def test_the_run_rule_activates_the_first_open_slot_of_every_run_and_commits_them_all():
    from hybrid.fill.diffusion.commit import RunCommit

    # one row, two spans: span 0 = slots 0-5 (runs at 0-2 and 4-5), span 1 = slots 6-9 (runs at 6 and 8-9)
    masked = torch.tensor([[True, True, True, False, True, True, True, False, True, True]])
    prev = torch.tensor([[-1, 0, 1, 2, 3, 4, -1, 6, 7, 8]])  # slot 6 opens span 1: no predecessor
    inst = torch.tensor([[0] * 6 + [1] * 4])
    rule = RunCommit(prev, steps=8)
    active, quota = rule.active(0, masked, inst, 2)
    assert active[0].nonzero().flatten().tolist() == [0, 4, 6, 8]  # slots 0 and 6 open their spans: heads though masked
    assert quota.tolist() == [5, 3]
    assert bool(rule.select(torch.tensor([0.1, 0.9, 0.5, 0.2]), torch.tensor([0, 0, 1, 1]), quota, 2).all())
    last, _ = rule.active(7, masked, inst, 2)
    assert torch.equal(last, masked)  # the last step commits whatever is left


def test_the_run_rule_with_a_chunk_writes_a_long_run_from_every_chunk_th_slot():
    from hybrid.fill.diffusion.commit import RunCommit

    # one span of 9 slots: a run of 5 (slots 1-5), a kept slot, a run of 2 (slots 7-8)
    masked = torch.tensor([[False, True, True, True, True, True, False, True, True]])
    prev = torch.tensor([[-1, 0, 1, 2, 3, 4, 5, 6, 7]])
    inst = torch.zeros_like(prev)
    active, _ = RunCommit(prev, steps=8, chunk=2).active(0, masked, inst, 1)
    assert active[0].nonzero().flatten().tolist() == [1, 3, 5, 7]  # pieces 1-2, 3-4, 5 and the short run 7-8
    whole, _ = RunCommit(prev, steps=8).active(0, masked, inst, 1)
    assert whole[0].nonzero().flatten().tolist() == [1, 7]


def test_unknown_commit_rules_are_refused_naming_the_choices():
    with pytest.raises(SamplingError, match=r"commit must be one of auto, confidence, runs, got 'run'"):
        FillConfig(commit="run")


def test_the_run_rule_fills_every_hole_of_an_edit_start_in_as_many_steps_as_its_longest_hole(lively_model, tokenizer):
    from hybrid.text.start import SpanStart

    sk = _sk(tokenizer, budgets=(60, 16))
    m = tokenizer.mask_id
    ids = tokenizer.encode(" the supplier shall deliver the goods to the buyer on time at the agreed place")
    assert len(ids) < _free(sk)
    holes = [(1, 3), (5, 6), (8, 11)]  # hole runs of 2, 1 and 3 tokens
    start = list(ids)
    for a, b in holes:
        start[a:b] = [m] * (b - a)
    other = SpanStart(tokenizer.encode(" notices in writing"), ends=True)  # kept whole: nothing to write
    events = []
    cfg = FillConfig(precision="fp32", commit="runs")
    out = fill(lively_model, tokenizer, sk, n=2, steps=16, seed=3, params=SamplingParams(temperature=1.0),
               start=[[SpanStart(start, ends=True), other]] * 2, config=cfg, on_step=events.append)
    # the longest hole; the confidence rule at K=16 takes more (it commits ~1 slot per step here)
    assert out[0].steps == 3
    assert [e.masked for e in events][:3] == [2 * 3, 2 * 1, 0]  # 3 holes x 2 variants, then the 3-token hole's last one
    for r in out:
        got = r.tokens[0]
        assert len(got) == len(ids) and [got[i] for i in range(len(ids)) if start[i] != m] == [
            t for t in start if t != m
        ]
    assert out[0].timings["commit"] == "runs"
    auto = fill(lively_model, tokenizer, sk, n=2, steps=16, seed=3, params=SamplingParams(temperature=1.0),
                start=[[SpanStart(start, ends=True), other]] * 2, config=FillConfig(precision="fp32"))
    assert [r.tokens for r in auto] == [r.tokens for r in out]  # "auto" edits a start with the run rule
    slow = fill(
        lively_model,
        tokenizer,
        sk,
        n=2,
        steps=16,
        seed=3,
        params=SamplingParams(temperature=1.0),
        start=[[SpanStart(start, ends=True), other]] * 2,
        config=FillConfig(precision="fp32", commit="confidence"),
    )
    assert slow[0].steps > 3 and slow[0].timings["commit"] == "confidence"


def _kept(tokenizer, text, t=0.0, **kw) -> str:
    out = start_tokens(tokenizer, text, DEAL, ALLOWED, WordNoise(t, random.Random(0)), 400, **kw)
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    return "".join(text[a:b] for i, (a, b) in zip(out, enc.offsets) if i != tokenizer.mask_id)


@pytest.mark.parametrize(
    "text, masked, kept",
    [
        ("Ship 3000 pagers each month.", "3000", "pagers"),  # a number the deal does not state
        ("Delivery is FCA (Incoterms 2010) here.", "2010", "Incoterms"),  # a year
        ("The prices are in Exhibit B hereto.", "Exhibit B", "prices"),  # an exhibit the deal has none of
        ("Use is governed by the Lanham Act here.", "Lanham Act", "governed"),  # a statute
        ("ALL WARRANTIES UNDER THE UNIFORM COMMERCIAL CODE ARE DISCLAIMED.", "UNIFORM COMMERCIAL CODE", "WARRANTIES"),
        # a reference stays
        ("The terms of Section 8.2 apply in two (2) counterparts.", None, "Section 8.2 apply in two (2) counterparts"),
    ],
)
def test_start_tokens_mask_the_widened_foreign_kinds_but_keep_references(tokenizer, text, masked, kept):
    got = _kept(tokenizer, text)
    assert kept in got
    if masked:
        assert masked not in got and not any(w in got for w in masked.split() if len(w) >= 4)


def test_the_precedents_own_names_are_masked_in_any_case_and_its_lower_case_words_are_kept(tokenizer):
    text = "Links to the ebix Site, with news about racing and more."
    got = _kept(tokenizer, text, own_facts=["EBIX.COM", "about", "the racing", "Racing"])  # as the library records them
    assert "ebix" not in got  # the source contract's name, written in lower case in its own body
    assert "about" in got and "racing" in got  # words its normalization matched in any case are no names
    assert "ebix" in _kept(tokenizer, text)  # without the source's facts nothing tells it from a word


def test_a_framed_span_whose_best_precedent_is_headed_for_another_subject_keeps_its_frame_alone(tokenizer):
    from types import SimpleNamespace

    from hybrid.skeleton.from_precedents import FRAME_ALONE, frame_alone
    from hybrid.text.start import SpanEdits, SpanStart, starts_from_draws

    rent = SimpleNamespace(heading="Rent", frame="The Lessee shall pay the Lessor rent of USD 4,750 per month.")
    fees = SimpleNamespace(heading="Sponsor Fees", clause_type="payment", facts=(),
                           adapted=lambda deal: "Sponsor shall pay the fees for each event.")
    paid = SimpleNamespace(heading="Rent and Deposit", clause_type="payment", facts=(),
                           adapted=lambda deal: "Rent is payable monthly in advance.")
    assert frame_alone(rent, fees) == FRAME_ALONE  # a sponsorship's fees are no lease's rent
    assert frame_alone(rent, paid) is paid  # the heading shares "rent"
    assert frame_alone(SimpleNamespace(heading="Rent", frame=""), fees) is fees  # no frame to stand alone
    edits = SpanEdits(DEAL, ALLOWED, [40], frames=[rent.frame])
    start, _ = starts_from_draws(tokenizer, [[FRAME_ALONE]], edits, 0.0, 1)
    assert isinstance(start[0][0], SpanStart) and list(start[0][0]) == [] and start[0][0].ends
