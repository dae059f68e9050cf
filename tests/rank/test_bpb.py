import pytest
import torch
import torch.nn.functional as F

from hybrid.data.layout import KIND_SPAN, KIND_TEXT
from hybrid.rank.bpb import ar_nats, corpus_bpb, fill_nats


def test_ar_nats_equals_the_plain_nll_when_one_window_fits(tiny_model):
    ids = torch.randint(8, tiny_model.cfg.vocab_size, (40,), generator=torch.Generator().manual_seed(0)).tolist()
    with torch.no_grad():
        logits = tiny_model(torch.tensor([ids]))[0, :-1]
    expected = float(F.cross_entropy(logits, torch.tensor(ids[1:]), reduction="sum"))
    assert abs(ar_nats(tiny_model, ids, length=64, stride=32) - expected) < 1e-3
    # windowed scoring loses left context, so it can only differ, never crash or skip tokens
    assert ar_nats(tiny_model, ids, length=16, stride=8) > 0


def test_fill_nats_is_deterministic_for_a_seed_and_zero_without_spans(tiny_model):
    ids = torch.randint(8, tiny_model.cfg.vocab_size, (50,), generator=torch.Generator().manual_seed(1)).tolist()
    kind = [KIND_TEXT] * 10 + [KIND_SPAN] * 30 + [KIND_TEXT] * 10
    a = fill_nats(tiny_model, ids, kind, mask_id=3, draws=2, length=32, seed=5)
    b = fill_nats(tiny_model, ids, kind, mask_id=3, draws=2, length=32, seed=5)
    assert a == b and a > 0
    assert fill_nats(tiny_model, ids, [KIND_TEXT] * 50, mask_id=3, draws=2, length=32) == 0.0


@pytest.mark.parametrize("draws", [0, -3, 1.5])
def test_corpus_bpb_refuses_a_draw_count_below_one(tiny_model, tokenizer, draws):
    from hybrid.common.errors import ConfigError

    with pytest.raises(ConfigError, match=f"draws must be an integer >= 1, got {draws}"):
        corpus_bpb(tiny_model, tokenizer, [], draws=draws)
