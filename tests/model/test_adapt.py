"""`hybrid train --init-from`: adapting a (tiny, random) Llama base to AR + fill, on CPU.

Checked: one training step from a Llama directory and a full checkpoint that reloads to the same
logits (and stays a plain Llama checkpoint); both losses fall on a fixed batch, with and without
LoRA; LoRA trains only the adapter, saves a small checkpoint that reloads (base + adapter) to the
same logits, refuses a base whose weights changed, and resumes exactly; the fill shift, against a
model whose correct answers are known (a perfect next-token predictor of one sequence: with the
shift its fill loss is ~0 and the sampler writes the true text; without it, or shifted twice,
neither holds); bad input exits 2 with one line and writes nothing.
"""

import json
import shutil

import pytest
import torch
import torch.nn.functional as F

from hybrid.cli.main import main
from hybrid.common.config import TrainConfig
from hybrid.common.errors import CheckpointError
from hybrid.data.document import Document, Section
from hybrid.data.windows import Rows, document_tokens
from hybrid.model.adapt import init_model
from hybrid.model.pretrained import load_pretrained
from hybrid.model.resolve import resolve
from hybrid.model.schedule import get_schedule
from hybrid.rank.bpb import fill_nats
from hybrid.train.loop import STATE_FILE, joint_losses, noise_generator, train

from conftest import CORPUS, TEXT, tiny_llama_dir

torch.set_num_threads(1)

TINY = dict(
    corpus=str(CORPUS),
    seq_len=64,
    stride=64,
    batch_size=2,
    warmup_steps=0,
    lr=3e-3,
    eval_every=1,
    eval_windows=4,
    limit_docs=1,
    plan_repeat=0,
    threads=1,
)
DOC = Document(
    "t.txt",
    "test",
    "NDA",
    "test",
    "g",
    "NON-DISCLOSURE AGREEMENT",
    TEXT[0],
    [
        Section("1", "Term", "term", TEXT[2]),
        Section("2", "Confidentiality", "confidentiality", TEXT[1] + " " + TEXT[0]),
    ],
)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return tiny_llama_dir(tmp_path_factory.mktemp("base"))[0]


def _x(model, n=24):
    return torch.randint(0, model.cfg.vocab_size - 8, (2, n), generator=torch.Generator().manual_seed(3))


def _fill_mask(n=24):
    from hybrid.model.backbone import fill_mask

    span = torch.zeros(2, n, dtype=torch.bool)
    span[:, 8:16] = True
    return fill_mask(span, span)


def _same_logits(a, b):
    x, m = _x(a), _fill_mask()
    with torch.no_grad():
        torch.testing.assert_close(a(x, "causal"), b(x, "causal"), atol=0, rtol=0)
        torch.testing.assert_close(a(x, "fill", attn_mask=m), b(x, "fill", attn_mask=m), atol=0, rtol=0)


def _cfg(base, out, **kw):
    return TrainConfig(out=str(out), init_from=str(base), **{**TINY, **kw})


def test_one_step_from_a_llama_dir_saves_a_full_checkpoint_that_reloads_to_the_same_logits(base, tmp_path):
    from transformers import LlamaForCausalLM

    out = tmp_path / "full"
    record = train(_cfg(base, out, max_steps=1), log=lambda m: None)
    assert record["step"] == 1 and record["adapted_from"]["base"] == str(base.resolve())
    assert all(
        0 < v < 20 for v in record["curves"]["train_ar"] + record["curves"]["train_diff"] + record["curves"]["val_diff"]
    )
    assert json.loads((out / "config.json").read_text())["shift_fill_logits"] is True
    again, tok, rec = resolve(out)
    assert again.cfg.shift_fill_logits and not rec["zero_shot"] and tok.vocab_size == again.cfg.vocab_size
    trained, _, _ = load_pretrained(base)
    trained.load_state_dict(torch.load(out / STATE_FILE, weights_only=False)["model"])
    trained.cfg.shift_fill_logits = True
    _same_logits(again, trained)
    base_model, _, _ = load_pretrained(base)
    # it trained
    assert not torch.equal(base_model.model.layers[0].mlp.up_proj.weight, again.model.layers[0].mlp.up_proj.weight)
    hf = LlamaForCausalLM.from_pretrained(out).eval()  # still a plain Llama checkpoint
    with torch.no_grad():
        torch.testing.assert_close(hf(_x(again)).logits, again(_x(again)), atol=1e-5, rtol=1e-5)


def _fixed_rows(tok, n=4):
    from hybrid.data.corpus import load_documents
    from hybrid.data.windows import document_windows

    docs = load_documents(str(CORPUS), splits=("train",))[:1]
    w = document_windows(docs, tok, 64, 64, seed=0)
    return w.select(torch.arange(8, 8 + n))


@pytest.mark.parametrize("lora_rank", [0, 4])
def test_both_losses_fall_on_a_fixed_batch(base, tmp_path, lora_rank):
    torch.manual_seed(0)
    ad = init_model(_cfg(base, tmp_path / "o", lora_rank=lora_rank))
    rows = _fixed_rows(ad.tok)
    assert bool((rows.kind == 2).any()), "the batch has span tokens"
    opt = torch.optim.AdamW([p for p in ad.model.parameters() if p.requires_grad], lr=1e-2 if lora_rank else 3e-3)
    curve = []
    for _ in range(20):
        ar, diff, _, _ = joint_losses(
            ad.model,
            rows,
            {"mask": ad.tok.mask_id},
            get_schedule("loglinear"),
            noise_generator(0, 0, 0, "cpu"),
            0.0,
            shift=True,
        )
        curve.append((ar.item(), diff.item()))
        opt.zero_grad()
        (ar + diff).backward()
        opt.step()
    (ar0, d0), (ar1, d1) = curve[0], curve[-1]
    # LoRA on a random base has a ceiling: the tied embedding and the final norm are frozen and tiny
    # (init std 0.02), so the logits stay near uniform (ln 308 = 5.73) whatever the adapter does
    fall = 0.1 * ar0 if not lora_rank else 0.15
    assert ar1 < ar0 - fall and d1 < d0 - fall, curve


def test_lora_trains_only_the_adapter_and_saves_a_small_checkpoint_that_reloads(base, tmp_path, capsys, monkeypatch):
    ad = init_model(_cfg(base, tmp_path / "o", lora_rank=4))
    trainable = [n for n, p in ad.model.named_parameters() if p.requires_grad]
    assert trainable and all(".lora_A." in n or ".lora_B." in n for n in trainable)
    rows = _fixed_rows(ad.tok, 2)
    ar, diff, _, _ = joint_losses(
        ad.model,
        rows,
        {"mask": ad.tok.mask_id},
        get_schedule("loglinear"),
        noise_generator(0, 0, 0, "cpu"),
        0.0,
        shift=True,
    )
    (ar + diff).backward()
    for n, p in ad.model.named_parameters():
        assert (p.grad is not None) == p.requires_grad, n

    out = tmp_path / "lora"
    train(_cfg(base, out, lora_rank=4, max_steps=2), log=lambda m: None)
    assert not (out / "model.safetensors").exists()
    assert (out / "adapter_model.safetensors").stat().st_size * 5 < (base / "model.safetensors").stat().st_size
    from safetensors import safe_open

    with safe_open(str(out / "adapter_model.safetensors"), "pt") as f:
        # A, B x 7 projections x 2 layers
        assert len(list(f.keys())) == 2 * 7 * 2 and all(".lora_A." in k or ".lora_B." in k for k in f.keys())
    again, _, rec = resolve(out)
    assert again.cfg.shift_fill_logits and not rec["zero_shot"]
    ref = init_model(_cfg(base, tmp_path / "o", lora_rank=4))
    ref.load_train_state(torch.load(out / STATE_FILE, weights_only=False)["model"])
    ref.model.eval()
    _same_logits(again, ref.model)
    assert any(p.abs().sum() > 0 for n, p in again.named_parameters() if ".lora_B." in n)  # the adapter trained
    from hybrid.draft.drafter import load_model  # what Drafter.from_pretrained(DIR) and --model DIR load through

    _same_logits(load_model(out, device="cpu")[0], ref.model)

    monkeypatch.setattr("hybrid.data.corpus.load_documents", lambda root, splits: [DOC])
    assert main(["eval", "bpb", "--checkpoint", str(out), "--limit-docs", "1", "--draws", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["fill_bpb"] > 0  # an adapted checkpoint reports fill bpb

    from safetensors.torch import load_file, save_file

    w = load_file(str(base / "model.safetensors"))
    w["model.norm.weight"] = w["model.norm.weight"] + 1
    moved = tmp_path / "changed"
    shutil.copytree(base, moved)
    save_file(w, str(moved / "model.safetensors"))
    meta = json.loads((out / "adapt.json").read_text())
    (out / "adapt.json").write_text(json.dumps({**meta, "base": str(moved)}))
    with pytest.raises(CheckpointError, match="was trained on base weights with sha256"):
        resolve(out)


def test_lora_resume_equals_the_straight_run(base, tmp_path, monkeypatch):
    from hybrid.model.adapt import Adapted

    straight, part = tmp_path / "straight", tmp_path / "part"
    real_save = Adapted.save

    def save_and_keep_step_2(self, out, model, tok, record, state):
        real_save(self, out, model, tok, record, state)
        if state["step"] == 2:
            shutil.copytree(out, part)

    monkeypatch.setattr(Adapted, "save", save_and_keep_step_2)
    train(_cfg(base, straight, lora_rank=4, max_steps=3), log=lambda m: None)
    monkeypatch.setattr(Adapted, "save", real_save)
    train(_cfg(base, part, lora_rank=4, max_steps=3), resume=True, log=lambda m: None)
    a = torch.load(straight / STATE_FILE, weights_only=False)["model"]
    b = torch.load(part / STATE_FILE, weights_only=False)["model"]
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(CheckpointError, match="lora_rank"):
        train(_cfg(base, part, lora_rank=8, max_steps=4), resume=True, log=lambda m: None)


class PerfectNextToken(torch.nn.Module):
    """Whatever its input, its output at position p puts ~all mass on target[p + 1]: a perfect AR model
    of one known sequence, so a shifted fill (i-1 predicts i) has a known right answer everywhere. A
    real tiny Llama runs alongside for its caches (the sampler's skeleton and slot keys/values)."""

    def __init__(self, inner, target: torch.Tensor):
        super().__init__()
        self.inner, self.cfg, self.target = inner, inner.cfg, target
        V, D = inner.cfg.vocab_size, inner.cfg.d_model
        # distinct unit rows
        self.emb = F.normalize(torch.randn(V, D, generator=torch.Generator().manual_seed(0)), dim=-1)

    @property
    def output_weight(self):
        return 60.0 * self.emb  # margin >= 60 (1 - max cosine) nats

    def forward(
        self, ids, mode="causal", cache=None, positions=None, attn_mask=None, write_cache=True, return_hidden=False
    ):
        past = cache.get_seq_length() if cache is not None else 0
        self.inner(
            ids,
            mode,
            cache=cache,
            positions=positions,
            attn_mask=attn_mask,
            write_cache=write_cache,
            return_hidden=True,
        )
        if positions is None:
            positions = torch.arange(past, past + ids.shape[1]).expand_as(ids)
        h = self.emb[self.target[(positions + 1).clamp_max(len(self.target) - 1)]]  # (B, T, D)
        return h if return_hidden else F.linear(h, self.output_weight)


@pytest.fixture(scope="module")
def oracle(base):
    inner, tok, _ = load_pretrained(base)
    ids, kind, section = document_tokens(DOC, tok)
    assert len(ids) < 384, "one bpb window, one sampler page"
    return PerfectNextToken(inner, torch.tensor(ids)), tok, ids, kind, section


@pytest.mark.parametrize("shift", [True, False])
def test_the_shifted_fill_loss_of_a_perfect_next_token_model_is_zero(oracle, shift):
    model, tok, ids, kind, section = oracle
    model.cfg.shift_fill_logits = shift
    span_tokens = sum(k == 2 for k in kind)
    nats = fill_nats(model, ids, kind, tok.mask_id, draws=2) / span_tokens
    rows = Rows(torch.tensor([ids]), torch.tensor([kind]), torch.tensor([section]), torch.tensor([False]))
    _, diff, _, n = joint_losses(
        model, rows, {"mask": tok.mask_id}, get_schedule("loglinear"), noise_generator(0, 0, 0, "cpu"), 0.0, shift=shift
    )
    model.cfg.shift_fill_logits = False
    assert n == span_tokens
    if shift:
        assert nats < 1e-3 and float(diff) < 1e-3
    else:  # read at i, the prediction is of token i + 1
        assert nats > 1.0 and float(diff) > 1.0


@pytest.mark.parametrize("shift", [True, False])
def test_the_sampler_reads_a_shifted_model_at_the_slot_before(oracle, shift):
    from hybrid.common.sampling import SamplingParams
    from hybrid.fill.diffusion.sampler import fill
    from hybrid.skeleton.tokenized import from_document

    model, tok, *_ = oracle
    sk = from_document(tok, DOC)
    model.target = sk.ids.clone()
    for s, ref in zip(sk.spans, sk.reference):
        model.target[s.start : s.end] = torch.tensor(ref + [tok.eos_id])
    model.cfg.shift_fill_logits = shift
    try:
        r = fill(model, tok, sk, n=2, steps=8, params=SamplingParams(temperature=0), seed=0)
    finally:
        model.cfg.shift_fill_logits = False
    right = [v.tokens == sk.reference for v in r]
    assert right == [shift, shift]


def _cli(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr().err.strip().splitlines()


BAD = {  # name -> (extra argv, message fragment)
    "unknown_base": (["--init-from", "gpt-17"], "unknown base 'gpt-17'; known bases: smollm2-135m"),
    "not_llama": (["--init-from", "{gpt2}"], "is not a Llama-family checkpoint directory"),
    "missing_dir": (["--init-from", "./no/such/dir"], "directory not found"),
    "lora_without_base": (["--lora-rank", "4"], "lora_rank needs init_from"),
    "bad_targets": (
        ["--init-from", "{base}", "--lora-rank", "4", "--lora-targets", "q_proj,embed"],
        "lora_targets must be a comma-separated subset",
    ),
    "negative_rank": (["--init-from", "{base}", "--lora-rank", "-1"], "--lora-rank"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_adaptation_input_exits_2_with_one_line_and_writes_nothing(base, tmp_path, capsys, case):
    gpt2 = tmp_path / "gpt2"
    gpt2.mkdir()
    (gpt2 / "config.json").write_text(json.dumps({"model_type": "gpt2"}))
    extra, fragment = BAD[case]
    out = tmp_path / "out"
    argv = ["train", "--out", str(out), "--corpus", str(CORPUS)] + [a.format(gpt2=gpt2, base=base) for a in extra]
    code, err = _cli(argv, capsys)
    assert code == 2 and len(err) == 1 and err[0].startswith("hybrid: error:") and fragment in err[0], err
    assert not out.exists()
