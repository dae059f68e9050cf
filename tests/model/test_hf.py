import pytest
import torch

from hybrid.model.cache import KVCache
from hybrid.model.hf import HybridForCausalLM


def _our_greedy(backbone, ids, n):
    cache, out = KVCache(), [ids]
    with torch.no_grad():
        logits = backbone(ids, cache=cache)
        for _ in range(n):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            out.append(nxt)
            logits = backbone(nxt, cache=cache)
    return torch.cat(out, 1)


@pytest.fixture(scope="module")
def hf_model(tiny_model):
    return HybridForCausalLM.from_backbone(tiny_model).eval()


@pytest.mark.parametrize("use_cache", [True, False])
def test_generate_greedy_matches_our_loop(hf_model, tiny_model, use_cache):
    ids = torch.randint(8, tiny_model.cfg.vocab_size, (2, 7), generator=torch.Generator().manual_seed(1))
    out = hf_model.generate(ids, max_new_tokens=10, do_sample=False, use_cache=use_cache, pad_token_id=0)
    assert torch.equal(out, _our_greedy(tiny_model, ids, 10))


def test_generate_sampled_is_seeded(hf_model):
    ids = torch.tensor([[5, 9, 11]])
    torch.manual_seed(3)
    a = hf_model.generate(ids, max_new_tokens=8, do_sample=True, top_k=50, pad_token_id=0)
    torch.manual_seed(3)
    b = hf_model.generate(ids, max_new_tokens=8, do_sample=True, top_k=50, pad_token_id=0)
    assert a.shape == (1, 11) and torch.equal(a, b)


def test_save_pretrained_roundtrip_with_safetensors(hf_model, tmp_path):
    hf_model.save_pretrained(tmp_path)
    assert (tmp_path / "model.safetensors").is_file()
    again = HybridForCausalLM.from_pretrained(tmp_path).eval()
    ids = torch.tensor([[1, 2, 3, 4]])
    with torch.no_grad():
        torch.testing.assert_close(again(ids).logits, hf_model(ids).logits)


def test_generate_on_shipped_model(shipped_checkpoint):
    model = HybridForCausalLM.from_pretrained(shipped_checkpoint).eval()
    ids = torch.tensor([[model.config.bos_token_id]])
    greedy = model.generate(ids, max_new_tokens=12, do_sample=False)
    cached_off = model.generate(ids, max_new_tokens=12, do_sample=False, use_cache=False)
    assert torch.equal(greedy, cached_off) and greedy.shape[1] > 1
    sampled = model.generate(ids, max_new_tokens=12, do_sample=True, top_p=0.9)
    assert sampled.shape[1] > 1
