"""A Llama-family checkpoint behind the shared backbone's interface.

Owns: LlamaBackbone, the Llama architecture (RMSNorm, GQA attention with separate q/k/v/o
projections, SwiGLU MLP, RoPE from the checkpoint's config, tied or untied head). The shared
backbone's code does the rest: `forward` is hybrid.model.backbone.DecoderBase's (the three attention
modes, explicit positions, `return_hidden`, `write_cache`) and attention runs through its `attend`
(rotary positions, the KV cache: KVCache, the filler's _StepKV, transformers' DynamicCache; GQA);
this module supplies the Llama modules, their rotary tables, `cfg` and `output_weight`. Module names follow
transformers' LlamaForCausalLM, so a Hugging Face state dict
loads as it is and what `save` writes is a plain Llama checkpoint. Knows nothing about files,
tokenizers or where weights come from (hybrid.model.pretrained).

Why our own module rather than transformers' LlamaModel with a 4D mask (measured on SmolLM2-135M,
1 CPU thread, fp32; numbers in tests/model/test_pretrained.py's docstring): same logits to fp32
rounding, and the filler needs two things LlamaModel's attention does not do: read a cache
without writing it (the skeleton shared by N variants, expanded not copied) and the project's
boolean masks passed through untouched. Wrapping would mean a cache shim around transformers'
mask builders, whose conventions move between majors (DESIGN.md's transformers 5.x pitfalls).
"""

from dataclasses import asdict, dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

from hybrid.common.errors import CheckpointError, ConfigError
from hybrid.model import backbone
from hybrid.model.backbone import DecoderBase, attend

__all__ = ["LlamaBackbone", "LlamaBackboneConfig", "LLAMA_MODEL_TYPES"]

LLAMA_MODEL_TYPES = ("llama",)  # config.json model_type values this module implements exactly
_STATIC_ROPE = ("default", "linear", "llama3", "yarn")  # frequency tables independent of sequence length


@dataclass
class LlamaBackboneConfig:
    """The Llama fields the backbone uses, read from a transformers config.json."""

    vocab_size: int  # rows of the embedding (grows when the tokenizer adapter adds our specials)
    d_model: int  # hidden_size
    n_layers: int  # num_hidden_layers
    n_heads: int  # num_attention_heads (queries)
    n_kv_heads: int  # num_key_value_heads (GQA: n_heads is a multiple of it)
    head_dim: int  # per-head size; hidden_size / num_attention_heads unless the config says
    d_ff: int  # intermediate_size of the SwiGLU MLP
    max_len: int  # max_position_embeddings: longest position the rotary table covers
    norm_eps: float  # rms_norm_eps
    tie_embeddings: bool  # tie_word_embeddings: the head is the input embedding
    attention_bias: bool = False  # q/k/v/o biases (Llama: none)
    mlp_bias: bool = False  # gate/up/down biases (Llama: none)
    rope: dict | None = None  # rope_parameters (rope_type, rope_theta, scaling fields)
    # fill mode's output at i-1 predicts the token at i (an AR base adapted to diffusion keeps its
    # head's next-token alignment, as DiffuLLaMA/Dream do; hybrid.model.objective.align_fill);
    # False for a base as fetched. Recorded in config.json (ignored by transformers) or adapt.json
    shift_fill_logits: bool = False

    def __post_init__(self):
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "d_ff", "max_len"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ConfigError(f"{name} must be an integer >= 1, got {getattr(self, name)!r}.")
        if self.n_heads % self.n_kv_heads:
            raise ConfigError(
                f"num_attention_heads must be a multiple of num_key_value_heads, got {self.n_heads} and "
                f"{self.n_kv_heads}."
            )
        if self.head_dim % 2:
            raise ConfigError(f"head_dim must be even for rotary positions, got {self.head_dim}.")
        rope_type = (self.rope or {}).get("rope_type", "default")
        if rope_type not in _STATIC_ROPE:
            raise ConfigError(f"rope_type must be one of {_STATIC_ROPE}, got {rope_type!r}.")

    @classmethod
    def from_hf(cls, hf_config) -> "LlamaBackboneConfig":
        """From a transformers LlamaConfig (which normalises rope_theta/rope_scaling into rope_parameters)."""
        c = hf_config
        if c.model_type not in LLAMA_MODEL_TYPES:
            raise CheckpointError(f"model_type must be one of {LLAMA_MODEL_TYPES}, got {c.model_type!r}.")
        if getattr(c, "hidden_act", "silu") != "silu":
            raise CheckpointError(f"hidden_act must be 'silu' (SwiGLU), got {c.hidden_act!r}.")
        head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
        rope = dict(
            getattr(c, "rope_parameters", None)
            or {"rope_type": "default", "rope_theta": getattr(c, "rope_theta", 10000.0)}
        )
        return cls(
            vocab_size=c.vocab_size,
            d_model=c.hidden_size,
            n_layers=c.num_hidden_layers,
            n_heads=c.num_attention_heads,
            n_kv_heads=c.num_key_value_heads or c.num_attention_heads,
            head_dim=head_dim,
            d_ff=c.intermediate_size,
            max_len=c.max_position_embeddings,
            norm_eps=float(c.rms_norm_eps),
            tie_embeddings=bool(c.tie_word_embeddings),
            attention_bias=bool(getattr(c, "attention_bias", False)),
            mlp_bias=bool(getattr(c, "mlp_bias", False)),
            rope=rope,
            shift_fill_logits=bool(getattr(c, "shift_fill_logits", False)),
        )

    def to_dict(self) -> dict:
        return asdict(self)


class RMSNorm(backbone.RMSNorm):
    def forward(self, x):
        # normalised in fp32, scaled in the input dtype: transformers' LlamaRMSNorm, so bf16 matches too
        return self.weight * F.rms_norm(x.float(), (x.shape[-1],), None, self.eps).to(x.dtype)


class LlamaAttention(nn.Module):
    def __init__(self, cfg: LlamaBackboneConfig):
        super().__init__()
        self.nh, self.nkv, self.hd = cfg.n_heads, cfg.n_kv_heads, cfg.head_dim
        b = cfg.attention_bias
        self.q_proj = nn.Linear(cfg.d_model, cfg.n_heads * cfg.head_dim, bias=b)
        self.k_proj = nn.Linear(cfg.d_model, cfg.n_kv_heads * cfg.head_dim, bias=b)
        self.v_proj = nn.Linear(cfg.d_model, cfg.n_kv_heads * cfg.head_dim, bias=b)
        self.o_proj = nn.Linear(cfg.n_heads * cfg.head_dim, cfg.d_model, bias=b)

    def forward(self, x, at: backbone.Attending, layer_idx: int):
        q = rearrange(self.q_proj(x), "b t (h d) -> b h t d", h=self.nh)  # (B, nh, T, hd)
        k = rearrange(self.k_proj(x), "b t (h d) -> b h t d", h=self.nkv)  # (B, nkv, T, hd): GQA when nkv < nh
        v = rearrange(self.v_proj(x), "b t (h d) -> b h t d", h=self.nkv)
        return self.o_proj(attend(q, k, v, at, layer_idx))


class LlamaMLP(nn.Module):
    def __init__(self, cfg: LlamaBackboneConfig):
        super().__init__()
        self.gate_proj = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.mlp_bias)
        self.up_proj = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.mlp_bias)
        self.down_proj = nn.Linear(cfg.d_ff, cfg.d_model, bias=cfg.mlp_bias)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, cfg: LlamaBackboneConfig):
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.self_attn = LlamaAttention(cfg)
        self.post_attention_layernorm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.mlp = LlamaMLP(cfg)

    def forward(self, x, at: backbone.Attending, layer_idx: int):
        x = x + self.self_attn(self.input_layernorm(x), at, layer_idx)
        return x + self.mlp(self.post_attention_layernorm(x))


class _Body(nn.Module):  # the `model.` prefix of transformers' state dict
    def __init__(self, cfg: LlamaBackboneConfig):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.layers = nn.ModuleList(LlamaDecoderLayer(cfg) for _ in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.d_model, cfg.norm_eps)


def _inv_freq(cfg: LlamaBackboneConfig) -> tuple[torch.Tensor, float]:
    """(inverse frequencies (hd/2,), cos/sin scaling) of the config's RoPE type."""
    rope = cfg.rope or {"rope_type": "default", "rope_theta": 10000.0}
    if rope.get("rope_type", "default") == "default":
        theta = float(rope.get("rope_theta", 10000.0))
        return 1.0 / theta ** (torch.arange(0, cfg.head_dim, 2, dtype=torch.float32) / cfg.head_dim), 1.0
    # scaled types: transformers' own formulas over a LlamaConfig carrying the same fields
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    hf = LlamaConfig(hidden_size=cfg.d_model, num_attention_heads=cfg.n_heads, head_dim=cfg.head_dim,
                     max_position_embeddings=cfg.max_len, rope_parameters=dict(rope))
    inv, scale = ROPE_INIT_FUNCTIONS[rope["rope_type"]](hf)
    return inv.float(), float(scale)


class LlamaBackbone(DecoderBase):
    def __init__(self, cfg: LlamaBackboneConfig):
        super().__init__()
        self.cfg = cfg
        self.model = _Body(cfg)
        self.lm_head = None if cfg.tie_embeddings else nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)

    def embed_ids(self, ids: torch.Tensor) -> torch.Tensor:
        return self.model.embed_tokens(ids)  # no embedding dropout, as in transformers' LlamaModel

    @property
    def decoder_layers(self) -> nn.ModuleList:
        return self.model.layers

    @property
    def final_norm(self) -> nn.Module:
        return self.model.norm

    def rope_tables(self) -> tuple[torch.Tensor, torch.Tensor]:
        inv, scale = _inv_freq(self.cfg)
        freqs = torch.outer(torch.arange(self.cfg.max_len, dtype=torch.float32), inv)  # (L, hd/2)
        return freqs.cos() * scale, freqs.sin() * scale

    @property
    def output_weight(self) -> torch.Tensor:
        """(V, D) output projection: the input embedding when tied, lm_head otherwise."""
        return self.model.embed_tokens.weight if self.lm_head is None else self.lm_head.weight

    @torch.no_grad()
    def resize_vocab(self, vocab_size: int) -> None:
        """Grow the embedding (and an untied head) to vocab_size rows; new rows are the mean row,
        so a new token starts as an average token rather than a random direction."""
        old = self.cfg.vocab_size
        assert vocab_size >= old, f"resize_vocab only grows the vocabulary ({old} -> {vocab_size})"
        if vocab_size == old:
            return

        def grown(w: torch.Tensor) -> nn.Parameter:
            return nn.Parameter(torch.cat([w, w.mean(0, keepdim=True).expand(vocab_size - old, -1)]))

        emb = self.model.embed_tokens
        emb.weight = grown(emb.weight)
        emb.num_embeddings = vocab_size
        if self.lm_head is not None:
            self.lm_head.weight = grown(self.lm_head.weight)
            self.lm_head.out_features = vocab_size
        self.cfg.vocab_size = vocab_size

    def hf_config_dict(self) -> dict:
        """config.json of this model as a transformers Llama checkpoint (the grown vocabulary included)."""
        c = self.cfg
        return {
            "architectures": ["LlamaForCausalLM"], "model_type": "llama", "vocab_size": c.vocab_size,
            "hidden_size": c.d_model, "num_hidden_layers": c.n_layers, "num_attention_heads": c.n_heads,
            "num_key_value_heads": c.n_kv_heads, "head_dim": c.head_dim, "intermediate_size": c.d_ff,
            "max_position_embeddings": c.max_len, "rms_norm_eps": c.norm_eps, "tie_word_embeddings": c.tie_embeddings,
            "attention_bias": c.attention_bias, "mlp_bias": c.mlp_bias, "hidden_act": "silu",
            "rope_parameters": dict(c.rope or {"rope_type": "default", "rope_theta": 10000.0}),
            # a plain base's config.json stays as it was
            **({"shift_fill_logits": True} if c.shift_fill_logits else {}),
        }
