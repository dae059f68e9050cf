"""hybrid.fill.diffusion.reference: the plain masked-diffusion loop, and the fast sampler writing exactly its
tokens wherever the two must agree (greedy draws, the same schedule, block, threshold and guidance, every slot's
keys/values recomputed each step, no guards, fp32)."""

import pytest
import torch
import torch.nn.functional as F
from test_sampler import _small as small_skeleton  # a three-clause document, one page

from hybrid.common.errors import SamplingError
from hybrid.common.sampling import SamplingParams
from hybrid.fill.diffusion.reference import ReferenceCommit, reference_fill
from hybrid.fill.diffusion.sampler import FillConfig, fill

GREEDY = SamplingParams(temperature=0)


def exact(**over) -> FillConfig:
    """The fast sampler's settings at which it must equal the reference."""
    kw = dict(commit="confidence", schedule="linear", refresh_every=1, guard_ratio=0.0, precision="fp32", block=0,
              threshold=0.0)
    kw.update(over)
    return FillConfig(**kw)


@pytest.mark.parametrize(
    "steps,w,schedule,block,threshold",
    [
        (4, 1.0, "linear", 0, 0.0),
        (4, 2.5, "linear", 0, 0.0),  # guidance: a second, heading-blind forward
        (5, 1.0, "cosine", 0, 0.0),
        (6, 1.0, "linear", 2, 0.0),  # semi-autoregressive blocks
        (6, 2.0, "cosine", 3, 0.5),  # ... with threshold commits
    ],
)
def test_fast_sampler_writes_the_reference_tokens(lively_model, tokenizer, steps, w, schedule, block, threshold):
    sk = small_skeleton(tokenizer).lock_text(tokenizer, 1, " Acme", offset=2)
    assert len(sk.pages(384)) == 1
    want = reference_fill(lively_model, tokenizer, sk, steps, guidance=w,
                          commit=ReferenceCommit(schedule=schedule, block=block, threshold=threshold))
    got = fill(lively_model, tokenizer, sk, n=2, steps=steps, guidance=w, seed=3, params=GREEDY,
               config=exact(schedule=schedule, block=block, threshold=threshold))
    assert [r.tokens for r in got] == [want, want]
    assert want[1][2:2 + len(tokenizer.encode(" Acme"))] == tokenizer.encode(" Acme")


class LeanTowards(torch.nn.Module):
    """The backbone with `weight` x token's embedding added to every final hidden state, the same in
    the reference's logits and the fast sampler's hidden states: a model that ends spans early."""

    def __init__(self, model, token: int, weight: float):
        super().__init__()
        self.m, self.cfg, self.output_weight = model, model.cfg, model.output_weight
        self.token, self.weight = token, weight

    def forward(self, ids, mode="causal", cache=None, return_hidden=False, **kw):
        h = self.m(ids, mode, cache=cache, return_hidden=True, **kw) + self.weight * self.m.embed.weight[self.token]
        return h if return_hidden else F.linear(h, self.output_weight)


@pytest.mark.parametrize("weight,lengths", [(1.5, [4, 7, 0]), (3.0, [0, 6, 0])])
def test_eos_ends_spans_alike_and_never_before_a_lock(lively_model, tokenizer, weight, lengths):
    """Some spans end early, some at once; the locked " Acme" at offset 2 of span 1 still stands."""
    sk = small_skeleton(tokenizer).lock_text(tokenizer, 1, " Acme", offset=2)
    model = LeanTowards(lively_model, tokenizer.eos_id, weight)
    want = reference_fill(model, tokenizer, sk, 4)
    got = fill(model, tokenizer, sk, n=1, steps=4, params=GREEDY, config=exact())[0].tokens
    assert got == want and [len(b) for b in want] == lengths
    assert want[1][2:2 + len(tokenizer.encode(" Acme"))] == tokenizer.encode(" Acme")


def test_the_commit_order_matters_at_these_settings(lively_model, tokenizer):
    """The agreement above would be vacuous if the order slots are committed in did not change the text:
    committing left to right (block 1, K = the longest span) gives other tokens than most-confident-first."""
    sk = small_skeleton(tokenizer)
    K = max(s.length for s in sk.spans)
    by_conf = reference_fill(lively_model, tokenizer, sk, 4)
    left_to_right = reference_fill(lively_model, tokenizer, sk, K, commit=ReferenceCommit(block=1))
    fast = fill(lively_model, tokenizer, sk, n=1, steps=K, params=GREEDY, config=exact(block=1))[0].tokens
    assert fast == left_to_right != by_conf


def test_sampled_reference_is_seeded_and_stays_in_its_budget(lively_model, tokenizer):
    sk = small_skeleton(tokenizer)
    runs = [reference_fill(lively_model, tokenizer, sk, 4, temperature=1.0, generator=torch.Generator().manual_seed(s))
            for s in (5, 5, 6)]
    assert runs[0] == runs[1] != runs[2]
    for bodies in runs:
        assert all(len(b) <= s.length - 1 and not set(b) & set(tokenizer.special_ids) for b, s in zip(bodies, sk.spans))


@pytest.mark.parametrize("schedule", ["sqrt", "LINEAR"])
def test_unknown_schedule_is_refused_naming_the_choices(lively_model, tokenizer, schedule):
    with pytest.raises(SamplingError, match=f"schedule must be one of linear, cosine, got '{schedule}'"):
        reference_fill(lively_model, tokenizer, small_skeleton(tokenizer), 2, commit=ReferenceCommit(schedule=schedule))
