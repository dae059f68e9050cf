"""hybrid.fill.diffusion.sampler: seeded, the skeleton run once per document, guidance rows only when w != 1
(uncond + w (cond - uncond)), locks and budgets respected, long documents filled in windows, and the n-gram
blocker / repetition guard / threshold commits doing their job. Its agreement with the plain loop of
hybrid.fill.diffusion.reference: test_reference.py."""

import pytest
import torch

from hybrid.common.errors import SamplingError
from hybrid.common.sampling import SamplingParams
from hybrid.data.document import Segment
from hybrid.fill.diffusion.guards import ngram_bans
from hybrid.fill.diffusion.reference import reference_fill
from hybrid.fill.diffusion.sampler import FillConfig, fill
from hybrid.model.cache import KVCache
from hybrid.model.slot_cache import SlotKV
from hybrid.skeleton.tokenized import from_template, tokenize_segments
from hybrid.templates.template import load_template


class Spy(torch.nn.Module):
    """The backbone, recording every forward call; `favour` adds a large bias towards one token."""

    def __init__(self, model, favour: int | None = None):
        super().__init__()
        self.m, self.embed, self.cfg, self.favour = model, model.embed, model.cfg, favour
        self.output_weight = model.output_weight
        self.calls = []

    def forward(self, ids, mode="causal", cache=None, **kw):
        fresh = isinstance(cache, KVCache) and cache.seq_len == 0
        self.calls.append({"rows": ids.shape[0], "fresh_cache": fresh, "max_pos": int(kw["positions"].max())})
        out = self.m(ids, mode, cache=cache, **kw)
        if self.favour is not None:
            out = out + 2000 * self.embed.weight[self.favour]
        return out

    @property
    def skeleton_passes(self):
        return sum(c["fresh_cache"] for c in self.calls)


def _small(tokenizer, budgets=(12, 9, 14)):
    segs = [Segment("SUPPLY AGREEMENT\n\nThis Agreement is made by Acme Inc. and Borealis LLC.\n\n", "text")]
    for i, _b in enumerate(budgets):
        segs += [Segment(f"{i + 1}. Heading {i}.\n", "heading", i), Segment("", "body", i), Segment("\n\n", "text")]
    segs.append(Segment("Signed.\n", "text"))
    return tokenize_segments(tokenizer, segs, list(budgets))


GREEDY = SamplingParams(temperature=0)
EXACT = FillConfig(schedule="linear", refresh_every=1, guard_ratio=0.0, precision="fp32", block=0, threshold=0.0)


def test_guidance_one_runs_no_unconditional_rows_and_matches_the_unguided_path(tiny_model, tokenizer):
    sk = _small(tokenizer)
    off, on = Spy(tiny_model), Spy(tiny_model)
    a = fill(off, tokenizer, sk, n=3, steps=3, guidance=1.0, seed=4, params=GREEDY, config=EXACT)
    fill(on, tokenizer, sk, n=3, steps=3, guidance=2.0, seed=4, params=GREEDY, config=EXACT)
    assert [c["rows"] for c in off.calls[1:]] == [3] * 3
    assert [c["rows"] for c in on.calls[1:]] == [6] * 3
    assert [r.tokens for r in a] == [reference_fill(tiny_model, tokenizer, sk, 3)] * 3


@pytest.mark.parametrize("n,steps,w", [(1, 1, 1.0), (3, 4, 2.5), (8, 2, 1.0), (2, 6, 0.0)])
def test_skeleton_runs_exactly_once_per_document(tiny_model, tokenizer, n, steps, w):
    spy = Spy(tiny_model)
    res = fill(spy, tokenizer, _small(tokenizer), n=n, steps=steps, guidance=w, seed=1)
    assert spy.skeleton_passes == 1
    assert spy.calls[0]["fresh_cache"] and len(spy.calls) == 1 + res[0].steps


def test_same_seed_same_drafts_and_other_seed_differs(tiny_model, tokenizer):
    sk = _small(tokenizer)
    p = SamplingParams(temperature=1.0, top_p=0.95)
    a = fill(tiny_model, tokenizer, sk, n=3, steps=4, guidance=1.0, seed=7, params=p)
    b = fill(tiny_model, tokenizer, sk, n=3, steps=4, guidance=1.0, seed=7, params=p)
    c = fill(tiny_model, tokenizer, sk, n=3, steps=4, guidance=1.0, seed=8, params=p)
    assert [r.text for r in a] == [r.text for r in b]
    assert [r.tokens for r in a] != [r.tokens for r in c]
    assert len({tuple(map(tuple, r.tokens)) for r in a}) > 1  # variants differ from each other


@pytest.mark.parametrize("reuse", [1, 3, 0])
def test_locks_never_change_and_spans_stay_within_budget(tiny_model, tokenizer, reuse):
    sk = _small(tokenizer, budgets=(16, 10, 20))
    sk = sk.lock_text(tokenizer, 0, " Acme", offset=0).lock_text(tokenizer, 2, " Borealis LLC", offset=5)
    lock0, lock2 = tokenizer.encode(" Acme"), tokenizer.encode(" Borealis LLC")
    for r in fill(
        tiny_model, tokenizer, sk, n=4, steps=5, guidance=1.0, seed=2, config=FillConfig(refresh_every=reuse)
    ):
        assert r.tokens[0][: len(lock0)] == lock0
        assert r.tokens[2][5 : 5 + len(lock2)] == lock2
        for toks, s in zip(r.tokens, sk.spans):
            assert len(toks) <= s.length - 1
            assert not set(toks) & set(tokenizer.special_ids)


def test_eos_ends_a_span_but_never_before_its_locks(tiny_model, tokenizer):
    sk = _small(tokenizer).lock_text(tokenizer, 1, " Acme", offset=3)
    spy = Spy(tiny_model, favour=tokenizer.eos_id)
    res = fill(spy, tokenizer, sk, n=2, steps=3, params=GREEDY)
    lock = tokenizer.encode(" Acme")
    for r in res:
        assert r.tokens[0] == [] and r.tokens[2] == []  # the favoured <eos> empties free spans
        assert len(r.tokens[1]) == 3 + len(lock) and r.tokens[1][3:] == lock


def test_template_without_spans_is_rejected(tiny_model, tokenizer):
    t = load_template("mutual-nda")
    skel = t.render_skeleton(t.example_outline(), t.example)
    skel.segments = [s for s in skel.segments if s.kind != "body"]
    skel.spans = []
    with pytest.raises(SamplingError, match="at least one span.*got 0"):
        fill(tiny_model, tokenizer, skel)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"schedule": "sqrt"}, "schedule must be one of cosine, linear, got 'sqrt'"),
        ({"precision": "fp16"}, "precision must be one of auto, fp32, bf16, got 'fp16'"),
        ({"refresh_every": -1}, "refresh_every must be an integer >= 0, got -1"),
        ({"threshold": 1.0}, r"threshold must be in \[0, 1\)"),
    ],
)
def test_bad_config_names_the_field(kwargs, match):
    with pytest.raises(SamplingError, match=match):
        FillConfig(**kwargs)


def test_document_longer_than_the_context_fills_in_windows(tiny_model, tokenizer):
    segs = [Segment("LONG AGREEMENT\n\n" + "The parties agree as follows. " * 60 + "\n\n", "text")]
    n_spans = 24
    for i in range(n_spans):
        segs += [
            Segment(f"{i + 1}. Heading {i}.\n", "heading", i),
            Segment("", "body", i),
            Segment("\n\n" + "Further text here. " * 25, "text"),
        ]
    sk = tokenize_segments(tokenizer, segs, [24] * n_spans)
    assert len(sk) > 4096
    spy = Spy(tiny_model)
    res = fill(spy, tokenizer, sk, n=2, steps=2, guidance=1.0, seed=0, config=FillConfig(window=512))
    assert spy.skeleton_passes == 1 and spy.calls[0]["rows"] == len(sk.pages(512))
    assert max(c["max_pos"] for c in spy.calls) < 512
    assert all(len(r.tokens) == n_spans and all(len(t) <= 23 for t in r.tokens) for r in res)
    assert res[0].text.startswith("LONG AGREEMENT") and res[0].timings["pages"] > 1


def test_template_contract_fills_with_every_option_on(tiny_model, tokenizer):
    t = load_template("saas-agreement")
    skel = t.render_skeleton(t.example_outline(), t.example)
    events = []
    p = SamplingParams(temperature=0.9, top_p=0.9, repetition_penalty=1.1, no_repeat_ngram=3)
    res = fill(tiny_model, tokenizer, skel, n=2, steps=3, guidance=1.5, seed=0, params=p, on_step=events.append,
               config=FillConfig(schedule="cosine", refresh_every=2, block=8, precision="bf16"))
    assert [e.step for e in events] == [1, 2, 3] and events[-1].masked == 0
    assert len(res[0].spans) == len(skel.spans) and res[0].text.startswith(skel.segments[0].text)
    budgets = from_template(tokenizer, skel).spans
    assert all(len(tk) < s.length for r in res for tk, s in zip(r.tokens, budgets))


def test_threshold_commits_ends_early_when_confident(tiny_model, tokenizer):
    tok_id = tokenizer.encode(" the")[0]
    spy = Spy(tiny_model, favour=tok_id)
    res = fill(
        spy,
        tokenizer,
        _small(tokenizer),
        n=2,
        steps=8,
        params=GREEDY,
        config=FillConfig(threshold=0.9, block=0, guard_ratio=0.0),
    )
    assert res[0].steps == 1 and len(spy.calls) == 2
    assert all(set(t) == {tok_id} for t in res[0].tokens)


def test_repetition_guard_remasks_a_collapsing_span(tiny_model, tokenizer):
    tok_id = tokenizer.encode(" the")[0]
    sk = _small(tokenizer, budgets=(40, 30, 40))
    on = fill(
        Spy(tiny_model, favour=tok_id), tokenizer, sk, n=1, steps=6, params=GREEDY, config=FillConfig(guard_ratio=0.5)
    )
    off = fill(
        Spy(tiny_model, favour=tok_id), tokenizer, sk, n=1, steps=6, params=GREEDY, config=FillConfig(guard_ratio=0.0)
    )
    assert on[0].timings["remasked"] > 0 and off[0].timings["remasked"] == 0


def test_ngram_bans_match_left_and_right_context_within_the_span():
    # slots: span 0 = 5 1 2 _ 1 2 7, span 1 = 1 2 4; the open slot 3 sits between "1 2" and "1 2"
    tok = torch.tensor([[5, 1, 2, 0, 1, 2, 7, 1, 2, 4]])
    ok = torch.tensor([[1, 1, 1, 0, 1, 1, 1, 1, 1, 1]], dtype=torch.bool)
    span = torch.tensor([[0, 0, 0, 0, 0, 0, 0, 1, 1, 1]])
    bans = ngram_bans(tok, ok, span, torch.tensor([0]), torch.tensor([3]), 3, 10)
    # left "1 2 _" repeats "1 2 7"; right "_ 1 2" repeats "5 1 2"; span 1's "1 2 4" and the
    # window "7 1 2" across the span boundary do not count
    assert bans[0].nonzero().flatten().tolist() == [5, 7]
    assert not ngram_bans(tok, ok, span, torch.tensor([0]), torch.tensor([3]), 4, 10).any()


def test_pages_split_across_forward_calls_give_the_same_drafts(tiny_model, tokenizer):
    segs = [Segment("AGREEMENT\n\n" + "The parties agree as follows. " * 20 + "\n\n", "text")]
    for i in range(6):
        segs += [
            Segment(f"{i + 1}. Heading {i}.\n", "heading", i),
            Segment("", "body", i),
            Segment("\n\n" + "Further text. " * 10, "text"),
        ]
    sk = tokenize_segments(tokenizer, segs, [30] * 6)
    whole, split = Spy(tiny_model), Spy(tiny_model)
    a = fill(
        whole,
        tokenizer,
        sk,
        n=2,
        steps=3,
        guidance=2.0,
        params=GREEDY,
        config=FillConfig(window=128, max_batch_tokens=0, precision="fp32"),
    )
    b = fill(
        split,
        tokenizer,
        sk,
        n=2,
        steps=3,
        guidance=2.0,
        params=GREEDY,
        config=FillConfig(window=128, max_batch_tokens=64, precision="fp32"),
    )
    assert len(sk.pages(128)) > 2 and len(split.calls) > len(whole.calls) == 4
    assert split.skeleton_passes == whole.skeleton_passes == 1
    assert max(c["rows"] for c in split.calls[1:]) == 2 * 2  # one page (2 variants, 2 guidance copies) per call
    assert [r.tokens for r in a] == [r.tokens for r in b]


def test_repeated_ngrams_are_every_occurrence_after_the_first_within_a_span():
    from hybrid.fill.diffusion.guards import repeated_ngrams as _repeated_ngrams

    # span 0: 1 2 3 1 2 3 1 2 | span 1: 1 2 3 ; slot 9 uncommitted
    tok = torch.tensor([[1, 2, 3, 1, 2, 3, 1, 2, 1, 2, 3]])
    ok = torch.ones_like(tok, dtype=torch.bool)
    ok[0, 9] = False
    span = torch.tensor([[0] * 8 + [1] * 3])
    rep, win_ok, _ = _repeated_ngrams(tok, ok, span, 2, 10)
    # bigram windows 0..9: (1 2)(2 3)(3 1)(1 2)(2 3)(3 1)(1 2)(2 x)(x 2)(2 3): repeats at 3, 4, 5, 6 only
    assert rep[0].nonzero().flatten().tolist() == [3, 4, 5, 6]
    assert not win_ok[0, 7] and not win_ok[0, 8] and not win_ok[0, 9]


@pytest.mark.parametrize("threshold,want", [
    (0.0, [2, 3, 4]),     # span 0 (slots 0-2) commits its 1 most confident, span 1 (slots 3-5) its 2
    (0.6, [1, 2, 3, 4]),  # ... plus every slot at or over the threshold
])
def test_select_commits_each_spans_most_confident_slots(threshold, want):
    from hybrid.fill.diffusion.commit import ConfidenceCommit

    rule = ConfidenceCommit("linear", threshold, block=0, steps=8)
    conf = torch.tensor([0.2, 0.7, 0.9, 0.95, 0.8, 0.3])  # varied on purpose: the rule, not ties, decides
    inst = torch.tensor([0, 0, 0, 1, 1, 1])
    got = rule.select(conf, inst, torch.tensor([1, 2]), n_inst=2)
    assert got.nonzero().flatten().tolist() == want


@pytest.mark.parametrize("name", ["cosinus", "", "LINEAR"])
def test_unknown_schedule_names_raise_naming_the_choices(name):
    from hybrid.fill.diffusion.commit import get_commit_schedule

    with pytest.raises(SamplingError, match=r"schedule must be one of cosine, linear"):
        get_commit_schedule(name)


def test_unconditional_rows_read_their_own_keys_and_values_never_the_conditional_ones():
    M, nh, Tk, hs, Q = 2, 1, 5, 3, 1
    cond = [torch.zeros(M, nh, Tk, hs)]
    uncond = [torch.full((M, nh, Tk, hs), 7.0)]
    kv = SlotKV(
        cond, [c.clone() for c in cond], torch.tensor([[1], [2], [1], [2]]), uncond, [u.clone() for u in uncond]
    )
    fresh = torch.ones(2 * M, nh, Q, hs)
    k, _ = kv.update(fresh, fresh, 0)  # (2M, nh, Tk, hs): conditional rows, then unconditional
    assert torch.equal(k[M:, :, 0], torch.full((M, nh, hs), 7.0))  # a slot no query touched: the uncond store
    assert torch.equal(k[:M, :, 0], torch.zeros(M, nh, hs))
    # stored for next step
    assert torch.equal(k[M:, :, 1][0], torch.ones(nh, hs)) and torch.equal(uncond[0][0, :, 1], torch.ones(nh, hs))


@pytest.mark.parametrize("w", [1.0, 2.0])
def test_variant_i_does_not_depend_on_how_many_variants_are_drafted(tiny_model, tokenizer, w):
    sk = _small(tokenizer)
    p = SamplingParams(temperature=1.0, top_p=0.95)
    two = fill(
        tiny_model, tokenizer, sk, n=2, steps=4, guidance=w, seed=11, params=p, config=FillConfig(precision="fp32")
    )
    four = fill(
        tiny_model, tokenizer, sk, n=4, steps=4, guidance=w, seed=11, params=p, config=FillConfig(precision="fp32")
    )
    assert [r.tokens for r in two] == [r.tokens for r in four[:2]]
    assert four[2].tokens != four[0].tokens


@pytest.mark.parametrize("steps,block", [(1, 0), (4, 0), (64, 1)])
def test_tokens_per_span_step_counts_what_open_spans_commit(tiny_model, tokenizer, steps, block):
    sk = _small(tokenizer)
    cfg = FillConfig(schedule="linear", refresh_every=1, guard_ratio=0.0, precision="fp32", block=block, threshold=0.0)
    r = fill(tiny_model, tokenizer, sk, n=2, steps=steps, params=GREEDY, config=cfg)[0]
    t = r.timings
    if steps == 1:  # one step: every span commits all its slots at once
        # the last slot is a locked <eos>
        assert t["tokens_per_span_step"] == sum(s.length - 1 for s in sk.spans) / len(sk.spans)
    if block == 1 and steps >= max(s.length for s in sk.spans):
        assert t["tokens_per_span_step"] == 1.0 and t["commits_per_span_step"][1] == sum(t["commits_per_span_step"])
    assert sum(t["commits_per_span_step"]) <= 2 * len(sk.spans) * r.steps
