"""The shared transformer: forward(ids, mode, cache) -> logits. No sampling, no tokenizer.

Owns: BackboneConfig, the pre-norm decoder blocks and the three attention modes over one set
of weights, plus the mask builders for them:
- "causal": each token sees itself and earlier tokens (planner, AR fill, reranker likelihood).
- "fill": the diffusion filler. Skeleton tokens see only skeleton tokens; span tokens see
  everything. The skeleton's keys/values therefore never depend on span content and are
  computed once per document (exact, not approximate). The caller passes the boolean mask built
  by `fill_mask`, which can also hide a span's own heading from it (condition dropout at
  training, the unconditional rows of classifier-free guidance at sampling).
- "bidirectional": full attention (ablation baseline).
`DecoderBase` (forward, rotary tables per device) and `attend` (rotary positions, KV cache, SDPA)
serve hybrid.model.llama's architecture too. A forward is a cancel point between its blocks
(hybrid.common.cancel.checkpoint: a no-op outside a cancellable stream).

Choices: RMSNorm (one fewer reduction than LayerNorm, no mean centring needed in a pre-norm
stack), rotary positions (relative, so a span scored in a window at document offset p sees the
same geometry as in training; explicit `positions` let cached skeletons and spans interleave),
SwiGLU MLP, no biases, tied input/output embeddings initialised N(0, 0.02) (N(0, 1) stalls
training: benchmarks/results/figures-without-a-result-file.md).
"""

import math
from dataclasses import asdict, dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

from hybrid.common.cancel import checkpoint
from hybrid.common.errors import ConfigError

__all__ = [
    "BackboneConfig",
    "Backbone",
    "DecoderBase",
    "attend",
    "MODES",
    "fill_mask",
    "causal_mask",
    "mode_mask",
    "cached_kv",
    "Attending",
]

MODES = ("causal", "fill", "bidirectional")


@dataclass
class BackboneConfig:
    vocab_size: int = 8192  # byte-level BPE size (hybrid.tokenizer.bpe)
    d_model: int = 256  # residual width
    n_layers: int = 6  # decoder blocks
    n_heads: int = 8  # attention heads; head size = d_model / n_heads
    d_ff: int = 0  # SwiGLU hidden size; 0 = round(8/3 * d_model) to a multiple of 64
    max_len: int = 4096  # longest position the rotary table covers (>= 2048 per DESIGN.md)
    rope_theta: float = 10000.0  # rotary base
    dropout: float = 0.0  # residual/attention dropout during training; 0 = off
    norm_eps: float = 1e-5  # RMSNorm epsilon
    init_std: float = 0.02  # N(0, std) for embeddings and linears (N(0,1) stalls training)

    def __post_init__(self):
        if self.d_ff == 0:
            self.d_ff = int(64 * math.ceil(8 / 3 * self.d_model / 64))
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "d_ff", "max_len"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1, got {getattr(self, name)}.")
        if self.d_model % self.n_heads or (self.d_model // self.n_heads) % 2:
            raise ConfigError(
                f"d_model must be divisible by n_heads with an even head size, got d_model={self.d_model}, "
                f"n_heads={self.n_heads}."
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ConfigError(f"dropout must be in [0, 1), got {self.dropout}.")

    @classmethod
    def tiny(cls, vocab_size: int) -> "BackboneConfig":
        """A model for tests: fast on CPU, same code paths."""
        return cls(vocab_size=vocab_size, d_model=64, n_layers=2, n_heads=4, max_len=4096)

    def to_dict(self) -> dict:
        return asdict(self)


class RMSNorm(nn.Module):
    def __init__(self, d: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return F.rms_norm(x, (x.shape[-1],), self.weight, self.eps)


def _rope_tables(head_size: int, max_len: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    inv = 1.0 / theta ** (torch.arange(0, head_size, 2, dtype=torch.float32) / head_size)
    freqs = torch.outer(torch.arange(max_len, dtype=torch.float32), inv)  # (L, hs/2)
    return freqs.cos(), freqs.sin()


def _apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    # x (B, nh, T, hs); cos/sin (B, 1, T, hs/2): rotate pairs (x1, x2) of the two halves
    x1, x2 = x.float().chunk(2, dim=-1)
    out = torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
    return out.to(x.dtype)


@dataclass(frozen=True)
class Attending:
    """What every layer of one forward attends with, built once per forward by DecoderBase.forward (as vLLM's
    attention metadata): the rotary tables at the query positions, the mask and the cache."""

    cos: torch.Tensor  # (B, 1, T, hs/2) rotary cosines at the query positions
    sin: torch.Tensor  # (B, 1, T, hs/2) rotary sines
    mask: torch.Tensor | None  # for scaled_dot_product_attention, True = may attend (mode_mask)
    is_causal: bool  # SDPA's own causal mask, used where no mask is given
    cache: object = None  # a KVCache (or transformers Cache) or None
    write_cache: bool = True  # append this forward's keys/values; False only reads the past (skeleton cache)


def attend(q, k, v, at: Attending, layer_idx: int) -> torch.Tensor:
    """Rotary positions, the cache and scaled dot-product attention: q (B, nh, T, hs), k/v (B, nkv, T, hs)
    -> (B, T, nh * hs), heads merged, before the output projection. Shared by every DecoderBase
    (Backbone, hybrid.model.llama); each keeps its own projections.

    nkv < nh is grouped-query attention inside SDPA (kv head j serves query heads j*r .. j*r+r-1,
    transformers' repeat_kv order): faster per decode step than repeating k/v first
    (benchmarks/results/figures-without-a-result-file.md), identical outputs. The cache holds nkv heads, not nh.
    """
    q, k = _apply_rope(q, at.cos, at.sin), _apply_rope(k, at.cos, at.sin)
    k, v = cached_kv(at.cache, k, v, layer_idx, at.write_cache)  # (B, nkv, Tk, hs)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=at.mask, is_causal=at.is_causal and at.mask is None,
                                       enable_gqa=k.shape[1] != q.shape[1])  # (B, nh, T, hs)
    return rearrange(y, "b h t d -> b t (h d)")


class Attention(nn.Module):
    def __init__(self, cfg: BackboneConfig):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        # no dropout on attention probabilities: on CPU it forces SDPA's math path and a
        # bernoulli over every (T x T) score matrix (a large share of a training step:
        # benchmarks/results/figures-without-a-result-file.md);
        # residual dropout (Block.drop) regularizes instead

    def forward(self, x, at: Attending, layer_idx: int):
        q, k, v = rearrange(self.qkv(x), "b t (three h d) -> three b h t d", three=3, h=self.n_heads)  # (B, nh, T, hs)
        return self.proj(attend(q, k, v, at, layer_idx))


class MLP(nn.Module):
    def __init__(self, cfg: BackboneConfig):
        super().__init__()
        self.gate_up = nn.Linear(cfg.d_model, 2 * cfg.d_ff, bias=False)
        self.down = nn.Linear(cfg.d_ff, cfg.d_model, bias=False)

    def forward(self, x):
        gate, up = self.gate_up(x).chunk(2, dim=-1)
        return self.down(F.silu(gate) * up)


class Block(nn.Module):
    def __init__(self, cfg: BackboneConfig):
        super().__init__()
        self.norm1 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.attn = Attention(cfg)
        self.norm2 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.mlp = MLP(cfg)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x, at: Attending, layer_idx: int):
        x = x + self.drop(self.attn(self.norm1(x), at, layer_idx))
        return x + self.drop(self.mlp(self.norm2(x)))


def cached_kv(cache, k: torch.Tensor, v: torch.Tensor, layer_idx: int, write_cache: bool):
    """The keys/values a layer attends to: k, v (B, nkv, T, hs) after the cache's past ones.

    write_cache=True appends them (`cache.update`, the transformers Cache signature); False only
    reads the past (the filler's skeleton cache), a 1-row past serving B rows without a copy.
    """
    if cache is None:
        return k, v
    if write_cache:
        return cache.update(k, v, layer_idx)
    past = cache.get(layer_idx)
    if past is None:
        return k, v
    pk, pv = past
    if pk.shape[0] != k.shape[0]:
        pk, pv = pk.expand(k.shape[0], -1, -1, -1), pv.expand(k.shape[0], -1, -1, -1)
    return torch.cat([pk, k], dim=2), torch.cat([pv, v], dim=2)


def mode_mask(
    mode: str, attn_mask: torch.Tensor | None, q_len: int, past_len: int, device
) -> tuple[torch.Tensor | None, bool]:
    """(mask for scaled_dot_product_attention, is_causal) of one forward call, per `Backbone.forward`'s
    attn_mask contract; shared by every backbone behind that contract (hybrid.model.llama)."""
    if mode not in MODES:
        raise ConfigError(f"mode must be one of {MODES}, got {mode!r}.")
    mask = attn_mask
    if mode == "causal":
        if mask is None and past_len == 0 and q_len > 1:
            return None, True
        if mask is None or mask.dim() == 2:
            mask = causal_mask(q_len, past_len, mask, device) if (q_len > 1 or mask is not None) else None
    elif mode == "fill":
        assert mask is not None and mask.dim() == 4, "fill mode needs a (B, 1, Tq, Tk) mask from fill_mask()"
    elif mask is not None and mask.dim() == 2:
        mask = mask[:, None, None, :].bool()
    return mask, False


def causal_mask(q_len: int, past_len: int, key_mask: torch.Tensor | None = None, device=None) -> torch.Tensor:
    """(B or 1, 1, Tq, past+Tq) bool, True = may attend: query i sees keys <= past_len + i."""
    q = torch.arange(q_len, device=device)[:, None] + past_len
    k = torch.arange(past_len + q_len, device=device)[None, :]
    m = (k <= q)[None, None]
    if key_mask is not None:
        m = m & key_mask[:, None, None, :].bool()
    return m


def fill_mask(
    q_span: torch.Tensor,
    k_span: torch.Tensor,
    q_section: torch.Tensor | None = None,
    k_heading: torch.Tensor | None = None,
    q_uncond: torch.Tensor | None = None,
    k_valid: torch.Tensor | None = None,
) -> torch.Tensor:
    """The `fill` attention mask (B, 1, Tq, Tk), True = may attend.

    q_span (B, Tq) / k_span (B, Tk): True where a query/key is a span (clause-body) token.
    Skeleton queries see skeleton keys only; span queries see every key. Optional hiding for
    condition dropout / guidance: a span query with q_uncond True cannot see the heading keys of
    its own section (k_heading (B, Tk) == q_section (B, Tq); -1 = not a heading / not a span).
    k_valid (B, Tk): False for padding keys.
    """
    m = q_span[:, :, None] | ~k_span[:, None, :]  # (B, Tq, Tk)
    if q_uncond is not None:
        assert q_section is not None and k_heading is not None, "hiding needs q_section and k_heading"
        own_heading = (q_section[:, :, None] == k_heading[:, None, :]) & (k_heading[:, None, :] >= 0)
        m = m & ~(own_heading & q_uncond[:, :, None])
    if k_valid is not None:
        m = m & k_valid[:, None, :]
    # a query that may see nothing (e.g. a padded skeleton row) would give NaN; let it see itself
    # when it is also a key at the same index, otherwise the first key
    empty = ~m.any(-1, keepdim=True)
    if empty.any():
        m = m | (empty & (torch.arange(m.shape[-1], device=m.device) == 0))
    return m[:, None]


class DecoderBase(nn.Module):
    """`forward(ids, mode, cache, ...)`, the contract every backbone honours (the planner, the fillers
    and the reranker call nothing else), over a pre-norm decoder stack. A subclass names its modules
    as its state dict does and supplies them through `embed_ids`, `decoder_layers`, `final_norm`,
    `rope_tables` and `output_weight`; each layer takes (x, Attending, layer_idx)."""

    cfg: object  # the subclass's config: `max_len` bounds the positions

    def __init__(self):
        super().__init__()
        # rotary tables per device are derived state, kept out of the state dict and off the
        # module's buffers (transformers' from_pretrained materialises non-persistent buffers as garbage)
        self._rope: dict = {}

    def embed_ids(self, ids: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, D)
        raise NotImplementedError

    @property
    def decoder_layers(self) -> nn.ModuleList:
        raise NotImplementedError

    @property
    def final_norm(self) -> nn.Module:
        raise NotImplementedError

    def rope_tables(self) -> tuple[torch.Tensor, torch.Tensor]:
        """(cos, sin) (max_len, hs/2) fp32 on the CPU."""
        raise NotImplementedError

    @property
    def output_weight(self) -> torch.Tensor:
        """(V, D) output projection; callers read this, never the embedding (untied bases differ)."""
        raise NotImplementedError

    def rope(self, device) -> tuple[torch.Tensor, torch.Tensor]:
        key = str(device)
        if key not in self._rope:
            cos, sin = self.rope_tables()
            self._rope[key] = (cos.to(device), sin.to(device))
        return self._rope[key]

    def num_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def forward(
        self,
        ids: torch.Tensor,
        mode: str = "causal",
        cache=None,
        positions: torch.Tensor | None = None,
        attn_mask: torch.Tensor | None = None,
        write_cache: bool = True,
        return_hidden: bool = False,
    ) -> torch.Tensor:
        """ids (B, T) -> logits (B, T, V) (or final hidden states (B, T, D) with return_hidden).

        cache: a KVCache (or transformers Cache) the new keys/values are appended to
            (write_cache=True) or only read from (write_cache=False: the filler's skeleton cache).
        positions (B, T): rotary positions; default past_len + arange(T).
        attn_mask: "causal": optional key-padding mask (B, Tk) or full (B, 1, Tq, Tk) bool;
            "fill": required, from fill_mask(); "bidirectional": optional key-padding (B, Tk).
        """
        B, T = ids.shape
        past = cache.get_seq_length() if cache is not None else 0
        mask, is_causal = mode_mask(mode, attn_mask, T, past, ids.device)
        if positions is None:
            positions = torch.arange(past, past + T, device=ids.device).expand(B, T)
        if int(positions.max()) >= self.cfg.max_len:
            raise ConfigError(f"position {int(positions.max())} exceeds max_len={self.cfg.max_len}; window the input.")
        cos_t, sin_t = self.rope(ids.device)
        at = Attending(cos_t[positions][:, None], sin_t[positions][:, None], mask, is_causal, cache, write_cache)
        x = self.embed_ids(ids)
        for i, layer in enumerate(self.decoder_layers):
            checkpoint()  # a long document's forward takes seconds on a CPU: a cancelled stream stops between blocks
            x = layer(x, at, i)
        x = self.final_norm(x)
        if return_hidden:
            return x
        return F.linear(x, self.output_weight)


class Backbone(DecoderBase):
    def __init__(self, cfg: BackboneConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.drop = nn.Dropout(cfg.dropout)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.apply(self._init)
        for b in self.blocks:  # residual projections scaled so the stream's variance stays ~1 with depth
            nn.init.normal_(b.attn.proj.weight, std=cfg.init_std / math.sqrt(2 * cfg.n_layers))
            nn.init.normal_(b.mlp.down.weight, std=cfg.init_std / math.sqrt(2 * cfg.n_layers))

    def _init(self, m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=self.cfg.init_std)

    def embed_ids(self, ids: torch.Tensor) -> torch.Tensor:
        return self.drop(self.embed(ids))

    @property
    def decoder_layers(self) -> nn.ModuleList:
        return self.blocks

    @property
    def final_norm(self) -> nn.Module:
        return self.norm

    def rope_tables(self) -> tuple[torch.Tensor, torch.Tensor]:
        return _rope_tables(self.cfg.d_model // self.cfg.n_heads, self.cfg.max_len, self.cfg.rope_theta)

    @property
    def output_weight(self) -> torch.Tensor:
        return self.embed.weight  # tied
