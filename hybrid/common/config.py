"""Typed, validated configs that are not a single module's private business.

Owns: TrainConfig (what `hybrid train` takes) and PairMix (its precedent mix, read by
hybrid.data.precedent_pairs). BackboneConfig lives with the backbone and
SamplingParams with the processors; each validates itself at construction.
"""

from dataclasses import asdict, dataclass, fields
from pathlib import Path

from hybrid.common.errors import ConfigError
from hybrid.common.options import DEFAULT_THREADS, Range, bounded, check_fields, float_range, int_range

SHIPPED_CHECKPOINT = Path(__file__).resolve().parents[2] / "checkpoints" / "hybrid-small"
"""The default model: trained by `hybrid train` and committed with the package."""

__all__ = ["TrainConfig", "PairMix", "MIN_VOCAB_SIZE"]

MIN_VOCAB_SIZE = 256 + 8  # byte-level BPE: the 256 byte symbols plus hybrid.tokenizer.bpe.SPECIAL_TOKENS
# hybrid.model.llama's nn.Linear names
LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")



def option(default, help: str, allowed: Range | None = None):
    """A config field with its default, its why-note (`hybrid train --help` shows it) and, for a
    number, its allowed values: checked at construction and by `hybrid train` at parse time."""
    return bounded(default, allowed, help=help)

@dataclass
class TrainConfig:
    out: str = option("checkpoints/hybrid-small", "checkpoint directory (written atomically)")
    corpus: str | None = option(None, "corpus root; None = $HYBRID_CORPUS or ../shared/corpus")
    # below MIN_VOCAB_SIZE the BPE trainer silently grows it
    vocab_size: int = option(
        8192, "BPE vocabulary (see hybrid/tokenizer/bpe.py for why)", int_range(MIN_VOCAB_SIZE, 1 << 20)
    )
    d_model: int = option(256, "model width", int_range(1, 1 << 16))
    n_layers: int = option(6, "blocks", int_range(1, 1024))
    n_heads: int = option(8, "heads", int_range(1, 1024))
    # the backbone's rotary table covers 4096 positions (BackboneConfig.max_len)
    seq_len: int = option(
        512, "training window (tokens); documents are cut into overlapping windows", int_range(2, 4096)
    )
    stride: int = option(384, "window stride; < seq_len so every boundary is seen with context", int_range(1, 4096))
    batch_size: int = option(8, "windows per optimizer step (per process)", int_range(1, 1 << 16))
    lr: float = option(1.5e-3, "peak AdamW learning rate", float_range(0, 1, lo_open=True, hi_open=True))
    min_lr_ratio: float = option(0.1, "cosine floor as a fraction of lr", float_range(0, 1, hi_open=True))
    warmup_steps: int = option(200, "linear warmup", int_range(0, 1 << 31))
    max_steps: int = option(6000, "cosine horizon and hard stop", int_range(1, 1 << 31))
    max_minutes: float = option(0.0, "wall-clock stop (checkpoint saved); 0 = off", float_range(0, 1e6))
    weight_decay: float = option(0.1, "AdamW decoupled decay on matrices (not norms)", float_range(0, 1))
    dropout: float = option(
        0.1, "regularization: the corpus is small and a 30M-param model overfits it", float_range(0, 1, hi_open=True)
    )
    grad_clip: float = option(1.0, "global grad-norm clip", float_range(0, 1e6, lo_open=True))
    cond_dropout: float = option(
        0.1, "P(hide a span's heading from it): trains the CFG unconditional branch", float_range(0, 1, hi_open=True)
    )
    diffusion_weight: float = option(1.0, "total loss = ar + diffusion_weight * mdlm", float_range(0, 1e6))
    schedule: str = option("loglinear", "MDLM noise schedule")
    plan_repeat: int = option(
        4, "planner pairs repeated per epoch (they are ~4% of rows otherwise)", int_range(0, 1024)
    )
    eval_every: int = option(250, "steps between validation passes and checkpoints", int_range(1, 1 << 31))
    eval_windows: int = option(64, "fixed val windows per validation pass", int_range(1, 1 << 20))
    # data order seeds seed * 1000 + epoch, which must stay within 64 bits
    seed: int = option(1234, "data order, noise and init", int_range(0, 2**32 - 1))
    tokenizer_docs: int = option(0, "train the tokenizer on the first N train docs; 0 = all", int_range(0, 1 << 31))
    limit_docs: int = option(
        0, "use only the first N train and val documents (smoke runs, tests); 0 = all", int_range(0, 1 << 31)
    )
    precision: str = option(
        "auto",
        "auto = bf16 autocast on CUDA, fp32 on CPU (hybrid.common.precision: one rule, no CPU flags); bf16 is faster "
        "on a CPU with bf16 matmul units (AMX), slower where it is emulated",
    )
    threads: int = option(
        DEFAULT_THREADS,
        "CPU intra-op threads; 0 = torch default (see hybrid.common.options.DEFAULT_THREADS)",
        int_range(0, 1024),
    )
    precedent_mix: str = option(
        "",
        '"own:cross:none" shares of sections given a precedent in training windows, e.g. 0.4:0.4:0.2 '
        '(hybrid.data.precedent_pairs); "" = off',
    )
    init_from: str = option(
        "",
        'adapt a pretrained base (a name from `hybrid model list` or a Llama checkpoint directory) instead of training '
        'our own backbone; its tokenizer and weights are used, d_model/n_layers/n_heads/vocab_size/dropout ignored '
        '(hybrid.model.adapt); "" = from scratch',
    )
    lora_rank: int = option(
        0,
        "with init_from: train a LoRA adapter of this rank (peft) on lora_targets, the base frozen, and save only the "
        "adapter; 0 = train every weight",
        int_range(0, 4096),
    )
    lora_alpha: float = option(
        0.0, "LoRA scale numerator (the update is alpha/rank x B A); 0 = 2 x lora_rank", float_range(0, 1e6)
    )
    lora_dropout: float = option(0.0, "dropout on the LoRA branch's input", float_range(0, 1, hi_open=True))
    lora_targets: str = option(
        "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj",
        "comma-separated Llama projections that get an adapter",
    )

    def __post_init__(self):
        check_fields(self)
        if not str(self.out).strip():  # Path("") would be the current directory
            raise ConfigError(f"out (--out) must name a directory, got {self.out!r}.")
        if self.stride > self.seq_len:
            raise ConfigError(f"stride must be <= seq_len ({self.seq_len}), got {self.stride}.")
        if self.precision not in ("auto", "fp32", "bf16"):
            raise ConfigError(f"precision must be one of auto, fp32, bf16, got {self.precision!r}.")
        if self.precedent_mix:
            PairMix.parse(self.precedent_mix)
        if self.lora_rank and not self.init_from:
            raise ConfigError(
                f"lora_rank needs init_from (LoRA adapts a pretrained base), got lora_rank={self.lora_rank} and no "
                f"init_from."
            )
        bad = sorted(set(self.lora_targets.split(",")) - set(LORA_TARGETS))
        if bad or not self.lora_targets:
            raise ConfigError(
                f"lora_targets must be a comma-separated subset of {','.join(LORA_TARGETS)}, got {self.lora_targets!r}."
            )

    def to_dict(self) -> dict:
        return asdict(self)

    # fields that define the model/data; --resume refuses a checkpoint that differs in any of them
    ARCH_FIELDS = (
        "vocab_size",
        "d_model",
        "n_layers",
        "n_heads",
        "seq_len",
        "init_from",
        "lora_rank",
        "lora_alpha",
        "lora_targets",
    )

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def field_help(cls) -> dict[str, str]:
        """Each field's why-note (its `help` metadata), reused as its `--help` text."""
        return {f.name: f.metadata["help"] for f in fields(cls)}

    @classmethod
    def ranges(cls) -> dict[str, Range]:
        """Each numeric field's allowed values (its `range` metadata)."""
        return {f.name: f.metadata["range"] for f in fields(cls) if f.metadata["range"] is not None}


@dataclass(frozen=True)
class PairMix:
    """Shares of sections given each kind of precedent in training windows (they sum to 1)."""

    own: float = 0.4  # the clause's own body, facts adapted, corrupted (adapt-and-repair)
    cross: float = 0.4  # a retrieved precedent from another train document
    none: float = 0.2  # precedent dropout
    drop_words: float = 0.15  # own: each word dropped with this probability
    swap_words: float = 0.05  # own: each word swapped with its right neighbour with this probability

    def __post_init__(self):
        for name in ("own", "cross", "none", "drop_words", "swap_words"):
            v = getattr(self, name)
            if not 0 <= v <= 1:
                raise ConfigError(f"precedent mix {name} must be in [0, 1], got {v}.")
        if abs(self.own + self.cross + self.none - 1) > 1e-6:
            raise ConfigError(f"precedent mix own + cross + none must be 1, got {self.own + self.cross + self.none:g}.")

    @classmethod
    def parse(cls, spec: str) -> "PairMix":
        """'own:cross:none', e.g. '0.4:0.4:0.2'."""
        try:
            own, cross, none = (float(x) for x in spec.split(":"))
        except ValueError:
            raise ConfigError(
                f"precedent mix must be 'own:cross:none' shares such as 0.4:0.4:0.2, got {spec!r}."
            ) from None
        return cls(own, cross, none)
