"""hybrid.arfill_batched: every (variant, span) row decoded at once equals a no-cache greedy reference
that writes each span after the skeleton text before it; variant i does not depend on n; locks,
budgets and the guidance rule hold."""

import pytest
import torch

from hybrid.arfill_batched import fill
from hybrid.errors import SamplingError
from hybrid.sampling import SamplingParams
from test_arfill import _small  # the same three-clause skeleton

GREEDY = SamplingParams(temperature=0)


def _reference(model, tokenizer, sk):
    """Greedy, no cache, one span at a time: context = the skeleton tokens before the span only."""
    ids, span = sk.ids.tolist(), sk.span_mask.tolist()
    banned = [i for i in tokenizer.special_ids if i != tokenizer.eos_id]
    out = []
    for s in sk.spans:
        seq = [t for t, sp in zip(ids[: s.start], span[: s.start]) if not sp]
        body = []
        for t in range(s.length - 1):
            with torch.no_grad():
                logits = model(torch.tensor(seq)[None], "causal")[0, -1].float()
            logits[banned] = float("-inf")
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
    got = fill(lively_model, tokenizer, sk, n=2, params=GREEDY, precision="fp32")
    want = _reference(lively_model, tokenizer, sk)
    assert got[0].tokens == want and got[1].tokens == want


def test_variant_i_does_not_depend_on_n(tiny_model, tokenizer):
    sk = _small(tokenizer)
    p = SamplingParams(temperature=1.0, top_p=0.95)
    two = fill(tiny_model, tokenizer, sk, n=2, seed=5, params=p, precision="fp32")
    four = fill(tiny_model, tokenizer, sk, n=4, seed=5, params=p, precision="fp32")
    assert [r.tokens for r in two] == [r.tokens for r in four[:2]]
    assert four[0].tokens != four[1].tokens


def test_locks_and_budgets_hold(tiny_model, tokenizer):
    sk = _small(tokenizer, budgets=(16, 10, 20)).lock_text(tokenizer, 2, " Borealis LLC", offset=3)
    lock = tokenizer.encode(" Borealis LLC")
    for r in fill(tiny_model, tokenizer, sk, n=3, seed=1, params=SamplingParams(temperature=1.0)):
        assert r.tokens[2][3 : 3 + len(lock)] == lock
        assert all(len(t) <= s.length - 1 for t, s in zip(r.tokens, sk.spans))


def test_guidance_other_than_off_is_refused(tiny_model, tokenizer):
    with pytest.raises(SamplingError, match=r"guidance must be 1 \(off\)"):
        fill(tiny_model, tokenizer, _small(tokenizer), n=1, guidance=2.0)
