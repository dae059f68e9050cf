"""transformers adapter: HybridConfig / HybridForCausalLM around the shared Backbone.

Owns: save_pretrained / from_pretrained with safetensors, and transformers' `generate()` on our
weights (used as a baseline in benchmarks and checked in tests). Our own decode loops call the
Backbone directly; nothing in the drafting path depends on this module's generate().

transformers 5.x pitfalls handled here (see DESIGN.md): GenerationMixin inherited explicitly;
the cache is passed as `cache` or the older `past_key_values`; DynamicCache(config=...) reads
num_hidden_layers / hidden_size / num_attention_heads, mapped with attribute_map.
"""

import torch
from transformers import AutoConfig, AutoModelForCausalLM, GenerationMixin, PreTrainedConfig, PreTrainedModel
from transformers.modeling_outputs import CausalLMOutputWithPast

from hybrid.model.backbone import Backbone, BackboneConfig

__all__ = ["HybridConfig", "HybridForCausalLM"]

_FIELDS = tuple(BackboneConfig.__dataclass_fields__)


class HybridConfig(PreTrainedConfig):
    model_type = "hybrid-contracts"
    attribute_map = {
        "num_hidden_layers": "n_layers",
        "hidden_size": "d_model",
        "num_attention_heads": "n_heads",
        "max_position_embeddings": "max_len",
    }

    def __init__(self, **kwargs):
        """BackboneConfig's fields by name (its defaults where absent, checked by it); the rest is transformers'."""
        bc = BackboneConfig(**{k: kwargs.pop(k) for k in _FIELDS if k in kwargs})
        for k in _FIELDS:
            setattr(self, k, getattr(bc, k))
        kwargs.setdefault("tie_word_embeddings", True)
        super().__init__(**kwargs)

    def backbone_config(self) -> BackboneConfig:
        return BackboneConfig(**{k: getattr(self, k) for k in _FIELDS})

    @classmethod
    def from_backbone_config(cls, bc: BackboneConfig, **kwargs) -> "HybridConfig":
        return cls(**bc.to_dict(), **kwargs)


class HybridForCausalLM(PreTrainedModel, GenerationMixin):
    config_class = HybridConfig
    base_model_prefix = "backbone"
    main_input_name = "input_ids"
    _supports_cache_class = True
    _no_split_modules = ["Block"]

    def __init__(self, config: HybridConfig):
        super().__init__(config)
        self.backbone = Backbone(config.backbone_config())
        self.post_init()

    @classmethod
    def from_backbone(cls, backbone: Backbone, **config_kwargs) -> "HybridForCausalLM":
        """Wrap existing weights (shared, not copied)."""
        model = cls(HybridConfig.from_backbone_config(backbone.cfg, **config_kwargs))
        model.backbone = backbone
        return model

    def _init_weights(self, module):  # the Backbone initialises itself; loading overwrites
        pass

    def get_input_embeddings(self):
        return self.backbone.embed

    def set_input_embeddings(self, value):
        self.backbone.embed = value

    def forward(self, input_ids=None, attention_mask=None, cache=None, use_cache=None, labels=None, position_ids=None,
                logits_to_keep=0, **kwargs):
        """transformers' causal-LM forward; the cache comes as `cache` or, from older callers, `past_key_values`."""
        cache = cache if cache is not None else kwargs.get("past_key_values")
        if use_cache is False:
            cache = None
        mask = None
        if attention_mask is not None and not bool(attention_mask.all()):
            mask = attention_mask.bool()
        if position_ids is None and mask is not None:  # left padding: count real tokens only
            full = mask.long().cumsum(-1) - 1
            position_ids = full[:, -input_ids.shape[1]:].clamp_min(0)
        logits = self.backbone(input_ids, "causal", cache=cache, positions=position_ids, attn_mask=mask)
        loss = None
        if labels is not None:
            loss = torch.nn.functional.cross_entropy(
                logits[:, :-1].reshape(-1, logits.shape[-1]).float(), labels[:, 1:].reshape(-1), ignore_index=-100
            )
        if logits_to_keep:
            logits = logits[:, -logits_to_keep:]
        return CausalLMOutputWithPast(loss=loss, logits=logits, cache=cache)


def register() -> None:
    """Make AutoConfig / AutoModelForCausalLM know our model type (per process; idempotent)."""
    try:
        AutoConfig.register(HybridConfig.model_type, HybridConfig)
        AutoModelForCausalLM.register(HybridConfig, HybridForCausalLM)
    except ValueError:
        pass


register()
