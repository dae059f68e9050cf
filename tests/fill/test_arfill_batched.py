"""hybrid.fill.ar_batched: every (variant, span) row decoded at once equals a no-cache greedy reference
that writes each span after the skeleton text before it; variant i does not depend on n; locks,
budgets and the guidance rule hold."""

import pytest
import torch

from hybrid.common.errors import SamplingError
from hybrid.common.sampling import SamplingParams
from hybrid.fill.ar import ARConfig
from hybrid.fill.ar_batched import fill

from test_arfill import _small  # the same three-clause skeleton

GREEDY = SamplingParams(temperature=0)
FP32 = ARConfig(precision="fp32")
ONE_BY_ONE = ARConfig(precision="fp32", kept_per_step=1)  # one token per row per step


def _reference(model, tokenizer, sk, starts=None):
    """Greedy, no cache, one span at a time: context = the skeleton tokens before the span only, and
    with starts[s] (an edit start) its kept tokens forced at their offsets, every other offset the
    argmax after the span so far (no <eos> before the last kept token, no piece glued onto the kept
    token to its left)."""
    from hybrid.fill.diffusion.guards import glue_tokens

    ids, span, mask = sk.ids.tolist(), sk.span_mask.tolist(), tokenizer.mask_id
    banned = [i for i in tokenizer.special_ids if i != tokenizer.eos_id]
    glue = glue_tokens(tokenizer, tokenizer.vocab_size)
    out = []
    for s, st in zip(sk.spans, starts or [[]] * len(sk.spans)):
        seq = [t for t, sp in zip(ids[: s.start], span[: s.start]) if not sp]
        last = max((i for i, x in enumerate(st) if x != mask), default=-1)
        body = []
        for t in range(s.length - 1):
            if t < len(st) and st[t] != mask:
                x = st[t]
            else:
                with torch.no_grad():
                    logits = model(torch.tensor(seq)[None], "causal")[0, -1].float()
                logits[banned] = float("-inf")
                if t < last:
                    logits[tokenizer.eos_id] = float("-inf")
                if 0 < t <= len(st) and st[t - 1] != mask:
                    logits[glue[: logits.shape[0]]] = float("-inf")
                x = int(logits.argmax())
                if x == tokenizer.eos_id:
                    break
            seq.append(x)
            body.append(x)
        out.append(body)
    return out


@pytest.mark.parametrize("budgets", [(12, 9, 14), (5, 30, 3)])
def test_batched_rows_equal_a_no_cache_reference(lively_model, tokenizer, budgets):
    sk = _small(tokenizer, budgets)
    got = fill(lively_model, tokenizer, sk, n=2, params=GREEDY, config=FP32)
    want = _reference(lively_model, tokenizer, sk)
    assert got[0].tokens == want and got[1].tokens == want


def test_variant_i_does_not_depend_on_n(tiny_model, tokenizer):
    sk = _small(tokenizer)
    p = SamplingParams(temperature=1.0, top_p=0.95)
    two = fill(tiny_model, tokenizer, sk, n=2, seed=5, params=p, config=FP32)
    four = fill(tiny_model, tokenizer, sk, n=4, seed=5, params=p, config=FP32)
    assert [r.tokens for r in two] == [r.tokens for r in four[:2]]
    assert four[0].tokens != four[1].tokens


def test_locks_and_budgets_hold(tiny_model, tokenizer):
    sk = _small(tokenizer, budgets=(16, 10, 20)).lock_text(tokenizer, 2, " Borealis LLC", offset=3)
    lock = tokenizer.encode(" Borealis LLC")
    for r in fill(tiny_model, tokenizer, sk, n=3, seed=1, params=SamplingParams(temperature=1.0)):
        assert r.tokens[2][3 : 3 + len(lock)] == lock
        assert all(len(t) <= s.length - 1 for t, s in zip(r.tokens, sk.spans))


def _holed(tokenizer, text, holes):
    """text's tokens with those at the offsets `holes` masked."""
    ids = tokenizer.encode(text)
    return [tokenizer.mask_id if i in holes else t for i, t in enumerate(ids)]


@pytest.mark.parametrize("chunk", [0, 1, 3])
def test_editing_forces_the_kept_tokens_and_equals_a_no_cache_reference(lively_model, tokenizer, chunk):
    """Uneven runs of kept tokens fed in one forward per step (padded across rows), or one token per
    row per step, give the tokens a one-token-at-a-time reference without a cache gives; the kept
    tokens stand at their offsets."""
    sk = _small(tokenizer, (56, 36, 64))
    starts = [_holed(tokenizer, " The Supplier shall deliver the Products on time", {0, 3, 4}),
              _holed(tokenizer, " Each party shall keep", {1}),
              _holed(tokenizer, " This Agreement is governed by the laws of Delaware", {2, 5, 6, 7})]
    got = fill(lively_model, tokenizer, sk, n=2, params=GREEDY, start=[starts, starts],
               config=ARConfig(precision="fp32", kept_per_step=chunk))
    want = _reference(lively_model, tokenizer, sk, starts)
    assert got[0].tokens == want and got[1].tokens == want
    for body, st in zip(got[0].tokens, starts):
        assert len(body) >= len(st)
        assert all(body[i] == x for i, x in enumerate(st) if x != tokenizer.mask_id)
    if chunk == 0:  # kept runs cost no decode steps of their own
        assert got[0].steps < max(len(b) for b in want) - 10


def test_editing_start_shape_is_checked(tiny_model, tokenizer):
    with pytest.raises(SamplingError, match="start must hold n=2 lists of 3"):
        fill(tiny_model, tokenizer, _small(tokenizer), n=2, start=[[[], [], []]])


def test_editing_variant_i_does_not_depend_on_n(lively_model, tokenizer):
    """Rows advance through their own offsets; a step where no row of variant 0 writes must still
    draw its uniforms, or variant 0 reads another stream position when more variants run."""
    sk = _small(tokenizer, (40, 30, 40))
    p = SamplingParams(temperature=3.0, top_p=1.0)  # flat enough that a shifted uniform picks another token
    from hybrid.text.start import SpanStart


    def ends(ids):  # each clause ends with its start: variant 0 has steps with no hole to write
        return SpanStart(ids, ends=True)

    a = [
        ends(_holed(tokenizer, " The Supplier shall deliver the Products", {1})),
        ends(_holed(tokenizer, " This Agreement is governed by", {4})),
        ends(_holed(tokenizer, " Each party shall keep the", {3})),
    ]
    b = [_holed(tokenizer, " The Supplier shall deliver the Products on time and in full", {0, 2, 4, 9}),
         _holed(tokenizer, " This Agreement is governed", {0, 1, 2}), []]
    one = fill(lively_model, tokenizer, sk, n=1, seed=3, params=p, start=[a], config=ONE_BY_ONE)
    two = fill(lively_model, tokenizer, sk, n=2, seed=3, params=p, start=[a, b], config=ONE_BY_ONE)
    assert one[0].tokens == two[0].tokens
    other = fill(lively_model, tokenizer, sk, n=1, seed=4, params=p, start=[a], config=ONE_BY_ONE)
    assert other[0].tokens != one[0].tokens  # the premise: the draws matter
