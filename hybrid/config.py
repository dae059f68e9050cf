"""Typed, validated configs that are not a single module's private business.

Owns: TrainConfig (what `hybrid train` takes). BackboneConfig lives with the backbone and
SamplingParams with the processors; each validates itself at construction.
"""

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from hybrid.errors import ConfigError

SHIPPED_CHECKPOINT = Path(__file__).resolve().parent.parent / "checkpoints" / "hybrid-small"
"""The default model: trained by `hybrid train` and committed with the package."""

__all__ = ["TrainConfig"]


@dataclass
class TrainConfig:
    out: str = "checkpoints/hybrid-small"  # checkpoint directory (written atomically)
    corpus: str | None = None  # corpus root; None = $HYBRID_CORPUS or ../shared/corpus
    vocab_size: int = 8192  # BPE vocabulary (see hybrid/tokenizer.py for why)
    d_model: int = 256  # model width
    n_layers: int = 6  # blocks
    n_heads: int = 8  # heads
    seq_len: int = 512  # training window (tokens); documents are cut into overlapping windows
    stride: int = 384  # window stride; < seq_len so every boundary is seen with context
    batch_size: int = 8  # windows per optimizer step (per process)
    lr: float = 1.5e-3  # peak AdamW learning rate
    min_lr_ratio: float = 0.1  # cosine floor as a fraction of lr
    warmup_steps: int = 200  # linear warmup
    max_steps: int = 6000  # cosine horizon and hard stop
    max_minutes: float = 0.0  # wall-clock stop (checkpoint saved); 0 = off
    weight_decay: float = 0.1  # AdamW decoupled decay on matrices (not norms)
    dropout: float = 0.1  # regularization: the corpus is small and overfits at 30M params (DESIGN.md)
    grad_clip: float = 1.0  # global grad-norm clip
    cond_dropout: float = 0.1  # P(hide a span's heading from it): trains the CFG unconditional branch
    diffusion_weight: float = 1.0  # total loss = ar + diffusion_weight * mdlm
    schedule: str = "loglinear"  # MDLM noise schedule
    plan_repeat: int = 4  # planner pairs repeated per epoch (they are ~4% of rows otherwise)
    eval_every: int = 250  # steps between validation passes and checkpoints
    eval_windows: int = 64  # fixed val windows per validation pass
    seed: int = 1234  # data order, noise and init
    tokenizer_docs: int = 0  # train the tokenizer on the first N train docs; 0 = all
    limit_docs: int = 0  # use only the first N train and val documents (smoke runs, tests); 0 = all
    precision: str = "auto"  # auto = bf16 autocast on CUDA and on CPUs with AMX (~2x faster step here), else fp32
    threads: int = 0  # CPU intra-op threads; 0 = torch default (1 is faster when other jobs share the cores)
    precedent_mix: str = ""  # "own:cross:none" shares of sections given a precedent in training windows, e.g. 0.4:0.4:0.2 (hybrid.data.precedent_pairs); "" = off

    def __post_init__(self):
        positive = ("vocab_size", "d_model", "n_layers", "n_heads", "seq_len", "stride", "batch_size", "max_steps", "eval_every", "eval_windows")
        for name in positive:
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1, got {getattr(self, name)}.")
        if self.stride > self.seq_len:
            raise ConfigError(f"stride must be <= seq_len ({self.seq_len}), got {self.stride}.")
        if not 0 < self.lr < 1:
            raise ConfigError(f"lr must be in (0, 1), got {self.lr}.")
        for name in ("dropout", "cond_dropout", "min_lr_ratio"):
            if not 0 <= getattr(self, name) < 1:
                raise ConfigError(f"{name} must be in [0, 1), got {getattr(self, name)}.")
        if self.precision not in ("auto", "fp32", "bf16"):
            raise ConfigError(f"precision must be one of auto, fp32, bf16, got {self.precision!r}.")
        if self.precedent_mix:
            from hybrid.data.precedent_pairs import PairMix

            PairMix.parse(self.precedent_mix)
        if self.warmup_steps < 0 or self.max_minutes < 0 or self.grad_clip <= 0:
            raise ConfigError("warmup_steps and max_minutes must be >= 0 and grad_clip > 0.")

    def to_dict(self) -> dict:
        return asdict(self)

    # fields that define the model/data; --resume refuses a checkpoint that differs in any of them
    ARCH_FIELDS = ("vocab_size", "d_model", "n_layers", "n_heads", "seq_len")

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def field_help(cls) -> dict[str, str]:
        """Each field's why-comment from this file, reused as its `--help` text."""
        import inspect
        import re

        src = inspect.getsource(cls)
        return {m.group(1): m.group(2).strip() for m in re.finditer(r"^    (\w+): [^=]+= [^#\n]+# (.*)$", src, re.M)}
