"""hybrid.common.sampling: processor contract, validation messages, filtering behaviour, seeded draws."""

import math

import pytest
import torch

from hybrid.common.errors import SamplingError
from hybrid.common.sampling import (
    BannedTokens,
    MinP,
    NoRepeatNGram,
    RepetitionPenalty,
    SamplingParams,
    Temperature,
    TopK,
    TopP,
    apply_processors,
    sample,
)

NEG = float("-inf")

PROCESSORS = [
    Temperature(0.7),
    TopK(2),
    TopP(0.5),
    MinP(0.2),
    RepetitionPenalty(1.5),
    NoRepeatNGram(2),
    BannedTokens([0, 3]),
]


@pytest.mark.parametrize("proc", PROCESSORS, ids=lambda p: type(p).__name__)
def test_processors_never_modify_their_inputs(proc):
    ids = torch.tensor([[1, 2, 1, 2], [4, 4, 4, 4]])
    scores = torch.tensor([[2.0, -1.0, 0.5, 3.0, 0.0], [0.1, 0.2, -0.3, 0.4, 1.0]])
    ids_before, scores_before = ids.clone(), scores.clone()
    out = proc(ids, scores)
    assert torch.equal(ids, ids_before) and torch.equal(scores, scores_before)
    assert out.shape == scores.shape and out.data_ptr() != scores.data_ptr()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: TopP(1.5), "top_p must be in (0, 1], got 1.5."),
        (lambda: TopP(0), "top_p must be in (0, 1], got 0."),
        (lambda: TopK(0), "top_k must be an integer >= 1, got 0."),
        (lambda: TopK(2.5), "top_k must be an integer >= 1, got 2.5."),
        (lambda: Temperature(0), "temperature must be a finite number > 0, got 0."),
        (lambda: MinP(1.2), "min_p must be in (0, 1], got 1.2."),
        (lambda: RepetitionPenalty(0), "repetition_penalty must be a finite number > 0, got 0."),
        (lambda: NoRepeatNGram(0), "no_repeat_ngram must be an integer >= 1, got 0."),
        (lambda: BannedTokens([1, -2]), "banned token ids must be integers >= 0, got -2."),
        (lambda: SamplingParams(top_p=1.5), "top_p must be in (0, 1], got 1.5."),
        (lambda: SamplingParams(temperature=-1), "temperature must be a finite number >= 0, got -1.0."),
        (lambda: SamplingParams(top_k=-1), "top_k must be an integer >= 0 (0 = off), got -1."),
        (lambda: SamplingParams(min_p=2), "min_p must be in [0, 1], got 2.0."),
        (lambda: SamplingParams(repetition_penalty=0), "repetition_penalty must be a finite number > 0, got 0.0."),
        (lambda: SamplingParams(no_repeat_ngram=-3), "no_repeat_ngram must be an integer >= 0 (0 = off), got -3."),
    ],
)
def test_bad_arguments_raise_with_field_range_and_value(make, message):
    with pytest.raises(SamplingError) as e:
        make()
    assert str(e.value) == message


def _kept(scores: torch.Tensor) -> list[int]:
    return torch.isfinite(scores[0]).nonzero().flatten().tolist()


@pytest.mark.parametrize(
    "proc, logits, kept",
    [
        (TopK(2), [1.0, 4.0, 3.0, 2.0], [1, 2]),
        (TopK(10), [1.0, 4.0, 3.0, 2.0], [0, 1, 2, 3]),
        # probs 0.5, 0.3, 0.2: 0.5 alone is < 0.6, so the nucleus holds the top two
        (TopP(0.6), [math.log(0.5), math.log(0.3), math.log(0.2)], [0, 1]),
        (TopP(0.5), [math.log(0.5), math.log(0.3), math.log(0.2)], [0]),
        (TopP(0.01), [0.0, 5.0, 1.0], [1]),  # always keeps the best token
        (MinP(0.5), [math.log(0.5), math.log(0.3), math.log(0.2)], [0, 1]),
        (MinP(0.3), [math.log(0.5), math.log(0.1), math.log(0.4)], [0, 2]),
        (BannedTokens([1]), [0.0, 9.0, 1.0], [0, 2]),
        (TopK(1), [NEG, 2.0, NEG], [1]),
    ],
)
def test_truncation_keeps_the_expected_tokens(proc, logits, kept):
    scores = torch.tensor([logits])
    assert _kept(proc(torch.zeros((1, 0), dtype=torch.long), scores)) == kept


def test_repetition_penalty_pushes_seen_tokens_down_on_both_signs():
    scores = torch.tensor([[2.0, -2.0, 1.0]])
    out = RepetitionPenalty(2.0)(torch.tensor([[0, 1, 1]]), scores)
    assert out.tolist() == [[1.0, -4.0, 1.0]]


@pytest.mark.parametrize(
    "ids, n, banned",
    [
        ([5, 6, 7, 5], 2, [6]),  # "5 6" seen; ending in 5 -> 6 banned
        ([5, 6, 5, 7, 5], 2, [6, 7]),
        ([1, 2, 3, 1, 2], 3, [3]),
        ([1, 2, 3, 4], 3, []),
        ([1, 2], 3, []),  # shorter than n
        ([4, 2], 1, [2, 4]),  # unigram: every seen token
    ],
)
def test_no_repeat_ngram_bans_exactly_the_completing_tokens(ids, n, banned):
    scores = torch.zeros((1, 8))
    out = NoRepeatNGram(n)(torch.tensor([ids]), scores)
    assert sorted(set(range(8)) - set(_kept(out))) == banned


def test_no_repeat_ngram_works_per_row():
    out = NoRepeatNGram(2)(torch.tensor([[1, 2, 1], [3, 3, 0]]), torch.zeros((2, 5)))
    assert torch.isinf(out).nonzero().tolist() == [[0, 2]]


def test_banned_token_outside_vocab_is_rejected():
    with pytest.raises(SamplingError, match="banned token id must be < vocabulary size 3, got 7"):
        BannedTokens([7])(torch.zeros((1, 0), dtype=torch.long), torch.zeros((1, 3)))


def test_temperature_zero_is_argmax_and_ignores_the_generator():
    logits = torch.tensor([[0.1, 3.0, 2.9], [5.0, 0.0, -1.0]])
    assert sample(logits, None, temperature=0).tolist() == [1, 0]
    assert sample(logits, torch.Generator().manual_seed(1), 0).tolist() == [1, 0]


def test_seed_reproducibility_of_draws():
    logits = torch.zeros((4, 50))

    def draw(seed):
        return sample(logits, torch.Generator().manual_seed(seed), 1.0).tolist()

    assert draw(3) == draw(3)
    assert any(draw(3) != draw(s) for s in range(4, 10))


def test_sample_only_draws_finite_tokens():
    logits = torch.full((1, 10), NEG)
    logits[0, 7] = 0.0
    logits[0, 2] = 0.0
    g = torch.Generator().manual_seed(0)
    assert {int(sample(logits, g, 1.0)) for _ in range(30)} <= {2, 7}


def test_params_build_processors_in_hf_order_and_skip_off_values():
    assert SamplingParams().processors() == []
    kinds = [type(p).__name__ for p in SamplingParams(0.7, 5, 0.9, 0.1, 1.2, 3).processors()]
    assert kinds == ["RepetitionPenalty", "NoRepeatNGram", "Temperature", "TopK", "TopP", "MinP"]
    greedy = [type(p).__name__ for p in SamplingParams(temperature=0, top_p=0.5, repetition_penalty=1.2).processors()]
    assert greedy == ["RepetitionPenalty"]  # truncation cannot change an argmax


def test_next_token_applies_the_temperature_once():
    logits = torch.tensor([[0.0, math.log(3.0)]])  # p = 0.25, 0.75
    params = SamplingParams(temperature=0.5)  # -> 0.1, 0.9
    g = torch.Generator().manual_seed(0)
    ids = torch.zeros((1, 0), dtype=torch.long)
    hits = sum(int(params.next_token(ids, logits, g)) for _ in range(2000)) / 2000
    assert abs(hits - 0.9) < 0.03


def test_apply_processors_composes_left_to_right():
    scores = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
    out = apply_processors([BannedTokens([3]), TopK(1)], torch.zeros((1, 0), dtype=torch.long), scores)
    assert _kept(out) == [2]


def test_draws_follow_the_softmax_distribution():
    probs = torch.tensor([0.1, 0.0, 0.2, 0.3, 0.4])
    logits = probs.log()[None].expand(4000, -1)  # 4000 rows, one draw each; token 1 has -inf
    ids = sample(logits, torch.Generator().manual_seed(0), 1.0)
    freq = torch.bincount(ids, minlength=5).float() / len(ids)
    assert freq[1] == 0
    assert torch.allclose(freq, probs, atol=0.025)


def test_top_p_among_candidates_is_top_k_then_top_p_and_leaves_its_input():
    g = torch.Generator().manual_seed(1)
    scores = torch.randn(32, 8192, generator=g) * torch.linspace(0.1, 12, 32)[:, None]
    before = scores.clone()
    ids = torch.zeros(32, 3, dtype=torch.long)
    want = TopP(0.9)(ids, TopK(64)(ids, scores))
    got = TopP(0.9, candidates=64)(ids, scores)
    assert torch.equal(torch.isinf(want), torch.isinf(got)) and torch.equal(scores, before)
    kept = (~torch.isinf(got)).sum(-1)
    assert int(kept.max()) <= 64 and int(kept.min()) >= 1
    assert int(kept[0]) > 1  # a flat row keeps many candidates, not just the best
