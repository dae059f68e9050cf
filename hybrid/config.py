"""Typed, validated configs that are not a single module's private business.

Owns: TrainConfig (what `hybrid train` takes). BackboneConfig lives with the backbone and
SamplingParams with the processors; each validates itself at construction.
"""

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import ClassVar

from hybrid.errors import ConfigError
from hybrid.options import DEFAULT_THREADS, Range, float_range, int_range

SHIPPED_CHECKPOINT = Path(__file__).resolve().parent.parent / "checkpoints" / "hybrid-small"
"""The default model: trained by `hybrid train` and committed with the package."""

__all__ = ["TrainConfig", "MIN_VOCAB_SIZE"]

MIN_VOCAB_SIZE = 256 + 8  # byte-level BPE: the 256 byte symbols plus hybrid.tokenizer.SPECIAL_TOKENS
LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")  # hybrid.model.llama's nn.Linear names



def option(default, help: str):
    """A config field with its default and its why-note, which `hybrid train --help` shows."""
    return field(default=default, metadata={"help": help})

@dataclass
class TrainConfig:
    out: str = option("checkpoints/hybrid-small", "checkpoint directory (written atomically)")
    corpus: str | None = option(None, "corpus root; None = $HYBRID_CORPUS or ../shared/corpus")
    vocab_size: int = option(8192, "BPE vocabulary (see hybrid/tokenizer.py for why)")
    d_model: int = option(256, "model width")
    n_layers: int = option(6, "blocks")
    n_heads: int = option(8, "heads")
    seq_len: int = option(512, "training window (tokens); documents are cut into overlapping windows")
    stride: int = option(384, "window stride; < seq_len so every boundary is seen with context")
    batch_size: int = option(8, "windows per optimizer step (per process)")
    lr: float = option(1.5e-3, "peak AdamW learning rate")
    min_lr_ratio: float = option(0.1, "cosine floor as a fraction of lr")
    warmup_steps: int = option(200, "linear warmup")
    max_steps: int = option(6000, "cosine horizon and hard stop")
    max_minutes: float = option(0.0, "wall-clock stop (checkpoint saved); 0 = off")
    weight_decay: float = option(0.1, "AdamW decoupled decay on matrices (not norms)")
    dropout: float = option(0.1, "regularization: the corpus is small and a 30M-param model overfits it")
    grad_clip: float = option(1.0, "global grad-norm clip")
    cond_dropout: float = option(0.1, "P(hide a span's heading from it): trains the CFG unconditional branch")
    diffusion_weight: float = option(1.0, "total loss = ar + diffusion_weight * mdlm")
    schedule: str = option("loglinear", "MDLM noise schedule")
    plan_repeat: int = option(4, "planner pairs repeated per epoch (they are ~4% of rows otherwise)")
    eval_every: int = option(250, "steps between validation passes and checkpoints")
    eval_windows: int = option(64, "fixed val windows per validation pass")
    seed: int = option(1234, "data order, noise and init")
    tokenizer_docs: int = option(0, "train the tokenizer on the first N train docs; 0 = all")
    limit_docs: int = option(0, "use only the first N train and val documents (smoke runs, tests); 0 = all")
    precision: str = option("auto", "auto = bf16 autocast on CUDA, fp32 on CPU (hybrid.precision: one rule, no CPU flags); bf16 on an AMX CPU is ~2x faster per step")
    threads: int = option(DEFAULT_THREADS, "CPU intra-op threads; 0 = torch default (see hybrid.options.DEFAULT_THREADS)")
    precedent_mix: str = option("", '"own:cross:none" shares of sections given a precedent in training windows, e.g. 0.4:0.4:0.2 (hybrid.data.precedent_pairs); "" = off')
    init_from: str = option("", 'adapt a pretrained base (a name from `hybrid model list` or a Llama checkpoint directory) instead of training our own backbone; its tokenizer and weights are used, d_model/n_layers/n_heads/vocab_size/dropout ignored (hybrid.adapt); "" = from scratch')
    lora_rank: int = option(0, "with init_from: train a LoRA adapter of this rank (peft) on lora_targets, the base frozen, and save only the adapter; 0 = train every weight")
    lora_alpha: float = option(0.0, "LoRA scale numerator (the update is alpha/rank x B A); 0 = 2 x lora_rank")
    lora_dropout: float = option(0.0, "dropout on the LoRA branch's input")
    lora_targets: str = option("q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj", "comma-separated Llama projections that get an adapter")

    def __post_init__(self):
        for name, rng in self.RANGES.items():
            rng.check(name, getattr(self, name))
        if self.stride > self.seq_len:
            raise ConfigError(f"stride must be <= seq_len ({self.seq_len}), got {self.stride}.")
        if self.precision not in ("auto", "fp32", "bf16"):
            raise ConfigError(f"precision must be one of auto, fp32, bf16, got {self.precision!r}.")
        if self.precedent_mix:
            from hybrid.data.precedent_pairs import PairMix

            PairMix.parse(self.precedent_mix)
        if self.lora_rank and not self.init_from:
            raise ConfigError(f"lora_rank needs init_from (LoRA adapts a pretrained base), got lora_rank={self.lora_rank} and no init_from.")
        bad = sorted(set(self.lora_targets.split(",")) - set(LORA_TARGETS))
        if bad or not self.lora_targets:
            raise ConfigError(f"lora_targets must be a comma-separated subset of {','.join(LORA_TARGETS)}, got {self.lora_targets!r}.")

    def to_dict(self) -> dict:
        return asdict(self)

    # every numeric field's allowed values: checked here and by `hybrid train` at parse time
    RANGES: ClassVar[dict[str, Range]] = {
        "vocab_size": int_range(MIN_VOCAB_SIZE, 1 << 20),  # below MIN_VOCAB_SIZE the BPE trainer silently grows it
        "d_model": int_range(1, 1 << 16),
        "n_layers": int_range(1, 1024),
        "n_heads": int_range(1, 1024),
        "seq_len": int_range(2, 4096),  # the backbone's rotary table covers 4096 positions (BackboneConfig.max_len)
        "stride": int_range(1, 4096),
        "batch_size": int_range(1, 1 << 16),
        "lr": float_range(0, 1, lo_open=True, hi_open=True),
        "min_lr_ratio": float_range(0, 1, hi_open=True),
        "warmup_steps": int_range(0, 1 << 31),
        "max_steps": int_range(1, 1 << 31),
        "max_minutes": float_range(0, 1e6),
        "weight_decay": float_range(0, 1),
        "dropout": float_range(0, 1, hi_open=True),
        "grad_clip": float_range(0, 1e6, lo_open=True),
        "cond_dropout": float_range(0, 1, hi_open=True),
        "diffusion_weight": float_range(0, 1e6),
        "plan_repeat": int_range(0, 1024),
        "eval_every": int_range(1, 1 << 31),
        "eval_windows": int_range(1, 1 << 20),
        "seed": int_range(0, 2**32 - 1),  # data order seeds seed * 1000 + epoch, which must stay within 64 bits
        "tokenizer_docs": int_range(0, 1 << 31),
        "limit_docs": int_range(0, 1 << 31),
        "threads": int_range(0, 1024),
        "lora_rank": int_range(0, 4096),
        "lora_alpha": float_range(0, 1e6),
        "lora_dropout": float_range(0, 1, hi_open=True),
    }

    # fields that define the model/data; --resume refuses a checkpoint that differs in any of them
    ARCH_FIELDS = ("vocab_size", "d_model", "n_layers", "n_heads", "seq_len", "init_from", "lora_rank", "lora_alpha", "lora_targets")

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def field_help(cls) -> dict[str, str]:
        """Each field's why-note (its `help` metadata), reused as its `--help` text."""
        return {f.name: f.metadata["help"] for f in fields(cls)}
