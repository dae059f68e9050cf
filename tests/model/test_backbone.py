import pytest
import torch

from hybrid.common.errors import ConfigError
from hybrid.model.backbone import Backbone, BackboneConfig, fill_mask
from hybrid.model.cache import KVCache


def _ids(model, b=2, t=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(8, model.cfg.vocab_size, (b, t), generator=g)


@pytest.mark.parametrize("chunks", [(24,), (10, 14), (12, 1, 1, 10), (1,) * 24])
def test_causal_logits_with_cache_equal_without(tiny_model, chunks):
    ids = _ids(tiny_model)
    with torch.no_grad():
        full = tiny_model(ids, "causal")
        cache, parts, s = KVCache(), [], 0
        for c in chunks:
            parts.append(tiny_model(ids[:, s : s + c], "causal", cache=cache))
            s += c
    assert cache.seq_len == 24
    torch.testing.assert_close(torch.cat(parts, 1), full, rtol=1e-4, atol=1e-5)


def test_causal_token_does_not_see_the_future(tiny_model):
    a = _ids(tiny_model)
    b = a.clone()
    b[:, 15:] = (b[:, 15:] + 1) % tiny_model.cfg.vocab_size
    with torch.no_grad():
        la, lb = tiny_model(a), tiny_model(b)
    torch.testing.assert_close(la[:, :15], lb[:, :15])
    assert not torch.allclose(la[:, 15:], lb[:, 15:])


def _span_layout(t=24):
    span = torch.zeros(2, t, dtype=torch.bool)
    span[:, 5:11] = True
    span[:, 16:21] = True
    return span


def test_fill_skeleton_hidden_states_bit_identical_whatever_the_spans(tiny_model):
    ids = _ids(tiny_model)
    span = _span_layout()
    other = ids.clone()
    other[span] = torch.randint(
        8, tiny_model.cfg.vocab_size, (int(span.sum()),), generator=torch.Generator().manual_seed(9)
    )
    mask = fill_mask(span, span)
    with torch.no_grad():
        h1 = tiny_model(ids, "fill", attn_mask=mask, return_hidden=True)
        h2 = tiny_model(other, "fill", attn_mask=mask, return_hidden=True)
    assert torch.equal(h1[~span], h2[~span])
    assert not torch.allclose(h1[span], h2[span])  # spans do see each other


def test_fill_with_cached_skeleton_equals_full_forward(tiny_model):
    """The skeleton's K/V computed once (1 row), expanded to N rows, reproduce the full pass."""
    ids = _ids(tiny_model, b=1)
    span = _span_layout()[:1]
    pos = torch.arange(ids.shape[1])[None]
    skel_pos, span_pos = pos[~span][None], pos[span][None]
    with torch.no_grad():
        full = tiny_model(ids, "fill", attn_mask=fill_mask(span, span))[span]
        cache = KVCache()
        n_skel = skel_pos.shape[1]
        sk = torch.zeros(1, n_skel, dtype=torch.bool)
        tiny_model(ids[~span][None], "fill", cache=cache, positions=skel_pos, attn_mask=fill_mask(sk, sk))
        n = 3
        sp_ids = ids[span][None].expand(n, -1)
        q = torch.ones(n, sp_ids.shape[1], dtype=torch.bool)
        k = torch.cat([torch.zeros(n, n_skel, dtype=torch.bool), q], 1)
        out = tiny_model(
            sp_ids, "fill", cache=cache, positions=span_pos.expand(n, -1), attn_mask=fill_mask(q, k), write_cache=False
        )
    assert cache.seq_len == n_skel  # read, not written
    for row in out:
        torch.testing.assert_close(row, full, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("layers", [1, 2])
def test_fill_hiding_a_heading_changes_its_own_span_first(tiny_model, layers):
    """Hiding section 0's heading from its span changes that span and never the skeleton; with one
    layer the other span is exactly unchanged (it reads span 0's layer-0 keys, which do not depend on
    attention), with more layers it may change only through span 0's hidden states."""
    from dataclasses import replace

    torch.manual_seed(0)
    model = Backbone(replace(tiny_model.cfg, n_layers=layers, init_std=0.3)).eval()
    ids = _ids(model, b=1)
    span = _span_layout()[:1]
    section = torch.full_like(ids, -1)
    section[0, 5:11], section[0, 16:21] = 0, 1
    heading = torch.full_like(ids, -1)
    heading[0, 2:5] = 0  # tokens 2-4 are section 0's heading
    uncond = span & (section == 0)
    with torch.no_grad():
        cond = model(ids, "fill", attn_mask=fill_mask(span, span))
        unc = model(ids, "fill", attn_mask=fill_mask(span, span, section, heading, uncond))
    assert (cond[0, 5:11] - unc[0, 5:11]).abs().max() > 1e-3
    skeleton = ~span[0]
    torch.testing.assert_close(cond[0][skeleton], unc[0][skeleton], rtol=0, atol=0)
    if layers == 1:
        torch.testing.assert_close(cond[0, 16:21], unc[0, 16:21], rtol=0, atol=0)


def test_bidirectional_sees_both_sides(tiny_model):
    a = _ids(tiny_model)
    b = a.clone()
    b[:, -1] = (b[:, -1] + 1) % tiny_model.cfg.vocab_size
    with torch.no_grad():
        assert not torch.allclose(tiny_model(a, "bidirectional")[:, 0], tiny_model(b, "bidirectional")[:, 0])


def test_cache_expand_shares_storage():
    cache = KVCache()
    k = torch.randn(1, 2, 5, 4)
    cache.update(k, k.clone(), 0)
    big = cache.expand(8)
    assert big.keys[0].shape[0] == 8
    assert big.keys[0].untyped_storage().data_ptr() == cache.keys[0].untyped_storage().data_ptr()
    big.truncate(3)
    assert big.seq_len == 3 and cache.seq_len == 5


def test_context_of_2048_tokens(tokenizer):
    model = Backbone(BackboneConfig(vocab_size=tokenizer.vocab_size, d_model=32, n_layers=1, n_heads=2)).eval()
    assert model.cfg.max_len >= 2048
    with torch.no_grad():
        out = model(torch.zeros(1, 2048, dtype=torch.long))
    assert out.shape == (1, 2048, tokenizer.vocab_size)


def test_position_beyond_max_len_is_a_clear_error():
    model = Backbone(BackboneConfig(vocab_size=64, d_model=16, n_layers=1, n_heads=2, max_len=8))
    with pytest.raises(ConfigError, match="max_len"):
        model(torch.zeros(1, 9, dtype=torch.long))


@pytest.mark.parametrize(
    "kwargs,match",
    [({"n_heads": 3}, "divisible"), ({"d_model": 0}, "d_model"), ({"dropout": 1.0}, "dropout")],
)
def test_bad_config_names_the_field(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        BackboneConfig(**{"vocab_size": 64, **kwargs})


def test_unknown_mode_lists_modes(tiny_model):
    with pytest.raises(ConfigError, match="causal"):
        tiny_model(torch.zeros(1, 3, dtype=torch.long), "sideways")
