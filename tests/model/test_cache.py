"""hybrid.model.cache.KVCache: appends into a growing buffer equal plain concatenation, through
truncation, expanded and selected caches, and dtype changes; the buffer is reused, not re-copied."""

import pytest
import torch

from hybrid.model.cache import KVCache


def _kv(b, t, seed, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, 2, t, 4, generator=g).to(dtype), torch.randn(b, 2, t, 4, generator=g).to(dtype)


@pytest.mark.parametrize("chunks", [[5, 1, 1, 1], [1] * 70, [64, 3, 100, 1]])
def test_appends_equal_concatenation(chunks):
    c, ref_k, ref_v = KVCache(), None, None
    for i, t in enumerate(chunks):
        k, v = _kv(3, t, i)
        for layer in range(2):
            got_k, got_v = c.update(k + layer, v - layer, layer)
            want_k = k + layer if ref_k is None else torch.cat([ref_k[layer], k + layer], 2)
            want_v = v - layer if ref_v is None else torch.cat([ref_v[layer], v - layer], 2)
            assert torch.equal(got_k, want_k) and torch.equal(got_v, want_v)
        ref_k = [c.keys[0].clone(), c.keys[1].clone()]
        ref_v = [c.values[0].clone(), c.values[1].clone()]
    assert c.seq_len == sum(chunks)


def test_buffer_is_reused_between_appends():
    c = KVCache()
    c.update(*_kv(2, 4, 0), 0)
    c.update(*_kv(2, 1, 1), 0)  # first append: allocates the buffer
    ptr = c.keys[0].data_ptr()
    for i in range(20):
        c.update(*_kv(2, 1, i + 2), 0)
    assert c.keys[0].data_ptr() == ptr and c.seq_len == 25


def test_truncate_then_append_overwrites_the_dropped_positions():
    c = KVCache()
    k, v = _kv(1, 10, 0)
    c.update(k[:, :, :6], v[:, :, :6], 0)
    c.update(k[:, :, 6:], v[:, :, 6:], 0)
    c.truncate(4)
    k2, v2 = _kv(1, 3, 9)
    got_k, _ = c.update(k2, v2, 0)
    assert torch.equal(got_k, torch.cat([k[:, :, :4], k2], 2))


def test_expanded_and_selected_caches_append_without_touching_the_source():
    src = KVCache()
    k, v = _kv(1, 5, 0)
    src.update(k, v, 0)
    for other in (src.expand(3), KVCache.select(src.expand(3), [0, 2])):
        k2, v2 = _kv(other.batch_size, 2, 1)
        got_k, _ = other.update(k2, v2, 0)
        assert torch.equal(got_k, torch.cat([k.expand(other.batch_size, -1, -1, -1), k2], 2))
    assert torch.equal(src.keys[0], k)


def test_a_dtype_change_reallocates():
    c = KVCache()
    c.update(*_kv(1, 3, 0), 0)
    got_k, _ = c.update(*_kv(1, 2, 1, torch.bfloat16), 0)
    assert got_k.dtype == torch.bfloat16 and got_k.shape[2] == 5
