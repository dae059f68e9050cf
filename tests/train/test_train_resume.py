"""Exact resume: six training steps straight and three steps + `--resume` three more give bit-identical
weights on CPU fp32 (every random stream is restored or a pure function of (seed, rank, step))."""

import shutil

import pytest
import torch
from safetensors.torch import load_file

from hybrid.common.config import TrainConfig
from hybrid.train import loop as train_mod
from hybrid.train.loop import noise_generator, train

from conftest import CORPUS

TINY = dict(corpus=str(CORPUS), vocab_size=400, d_model=32, n_layers=1, n_heads=2, seq_len=64, stride=48, batch_size=4,
            warmup_steps=2, eval_every=3, eval_windows=8, limit_docs=3, threads=1, precision="fp32", dropout=0.1)


def test_six_steps_straight_equal_three_plus_resume_three(tmp_path, monkeypatch):
    straight, halfway = tmp_path / "straight", tmp_path / "halfway"
    real_save = train_mod.save_checkpoint

    def save_and_keep_step_3(out, model, tok, record, state):
        real_save(out, model, tok, record, state)
        if state is not None and state["step"] == 3:
            shutil.copytree(out, halfway)

    monkeypatch.setattr(train_mod, "save_checkpoint", save_and_keep_step_3)
    train(TrainConfig(out=str(straight), max_steps=6, **TINY), log=lambda m: None)
    monkeypatch.setattr(train_mod, "save_checkpoint", real_save)
    record = train(TrainConfig(out=str(halfway), max_steps=6, **TINY), resume=True, log=lambda m: None)
    assert record["step"] == 6
    a, b = load_file(straight / "model.safetensors"), load_file(halfway / "model.safetensors")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert (
        record["curves"]["train_diff"]
        == torch.load(straight / "train_state.pt", weights_only=False)["curves"]["train_diff"]
    )


@pytest.mark.parametrize("a,b", [((1, 0, 5), (1, 1, 5)), ((1, 0, 5), (1, 0, 6)), ((1, 0, 5), (2, 0, 5))])
def test_noise_differs_across_ranks_steps_and_seeds(a, b):
    draw = lambda seed, rank, step: torch.rand(4, generator=noise_generator(seed, rank, step, "cpu"))  # noqa: E731
    assert torch.equal(draw(*a), draw(*a)) and not torch.equal(draw(*a), draw(*b))


def test_both_objectives_fall_on_a_fixed_batch():
    """A few optimizer steps on one batch (same noise each step) lower the AR and the diffusion loss:
    the gradients of both objectives reach the weights and point the right way."""
    from hybrid.data.corpus import load_documents
    from hybrid.data.windows import document_windows
    from hybrid.model.backbone import Backbone, BackboneConfig
    from hybrid.model.schedule import get_schedule
    from hybrid.tokenizer.bpe import HybridTokenizer
    from hybrid.train.loop import joint_losses

    docs = load_documents(str(CORPUS), splits=("train",))[:2]
    tok = HybridTokenizer.train((d.text for d in docs), 400)
    rows = document_windows(docs, tok, 64, 48, seed=0)
    batch = rows.select(torch.arange(8))
    torch.manual_seed(0)
    model = Backbone(BackboneConfig(vocab_size=tok.vocab_size, d_model=32, n_layers=1, n_heads=2))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    schedule = get_schedule("loglinear")
    first = None
    for _ in range(40):
        ar, diff, _, n_sp = joint_losses(
            model, batch, {"mask": tok.mask_id}, schedule, noise_generator(0, 0, 0, "cpu"), 0.0
        )
        if first is None:
            first = (ar.item(), diff.item())
            assert n_sp > 0, "the batch must hold span tokens for the diffusion loss"
        opt.zero_grad()
        (ar + diff).backward()
        opt.step()
    assert ar.item() < 0.8 * first[0] and diff.item() < 0.8 * first[1], (first, ar.item(), diff.item())
