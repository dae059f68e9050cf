"""Shared fixtures: a small tokenizer trained on real corpus text and a tiny random backbone."""

import os
from pathlib import Path

import pytest
import torch

from hybrid.model.backbone import Backbone, BackboneConfig
from hybrid.tokenizer.bpe import HybridTokenizer

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("HYBRID_CORPUS", REPO.parent / "shared" / "corpus"))
SHIPPED = REPO / "checkpoints" / "hybrid-small"

# Tiny models decode one token at a time: a second intra-op thread only adds synchronisation
# (measured ~8x slower batch-1 decoding with 2 threads on a loaded 2-core machine).
torch.set_num_threads(1)


EXCERPTS = REPO / "tests" / "data" / "excerpts"
CUAD_EXCERPT_NAME = (
    "2ThemartComInc_19990826_10-12G_EX-10.10_6700288_EX-10.10_Co-Branding Agreement_ Agency Agreement.txt"
)
CUAD_FILES = {
    f"cuad/contracts/{CUAD_EXCERPT_NAME}": "cuad_numbered_2themart.txt",
    "cuad/master_clauses.csv": "master_clauses_excerpt.csv",
}
"""build_corpus files: the CUAD excerpt (an agency agreement) and the master_clauses.csv rows its fields come from."""


def cuad_entry(group: str, **extra) -> dict:
    """The train-split manifest entry of CUAD_FILES' contract; extra adds keys (a license)."""
    return {
        "path": f"cuad/contracts/{CUAD_EXCERPT_NAME}",
        "source": "cuad",
        **extra,
        "doc_type": "AGENCY AGREEMENT",
        "group": group,
        "split": "train",
    }


def build_corpus(root: Path, files: dict, entries: list[dict]) -> Path:
    """A corpus tree at `root`: files maps a relative path to an excerpt file name (under
    tests/data/excerpts) or, for a str holding a newline, the text itself; manifest.jsonl lists entries."""
    import json

    for rel, what in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(
            what if "\n" in what else (EXCERPTS / what).read_text(encoding="utf-8"), encoding="utf-8"
        )
    (root / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return root


@pytest.fixture
def cuad_corpus(tmp_path, monkeypatch):
    """build_corpus(files, entries) at tmp_path/corpus with CUAD_FILES added and the ingestion cache
    ($HYBRID_CACHE) in tmp_path/cache."""
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    return lambda files, entries: build_corpus(tmp_path / "corpus", {**CUAD_FILES, **files}, entries)


def corpus_sample_texts(n: int = 6) -> list[str]:
    """A few real training-split standard agreements (small, clean, fast to read)."""
    files = sorted((CORPUS / "standard-agreements").glob("common-paper-*.txt"))[:n]
    assert files, f"corpus not found at {CORPUS}"
    return [f.read_text(encoding="utf-8") for f in files]


@pytest.fixture(scope="session")
def tokenizer() -> HybridTokenizer:
    return HybridTokenizer.train(corpus_sample_texts(), vocab_size=512)


@pytest.fixture(scope="session")
def tiny_model(tokenizer) -> Backbone:
    torch.manual_seed(0)
    return Backbone(BackboneConfig.tiny(tokenizer.vocab_size)).eval()


@pytest.fixture(scope="session")
def shipped_checkpoint() -> Path:
    if not (SHIPPED / "model.safetensors").is_file():
        pytest.skip("shipped checkpoint not present (train it with `hybrid train`)")
    return SHIPPED


@pytest.fixture(scope="session")
def lively_model(tokenizer) -> Backbone:
    """A tiny random backbone with large initial weights (std 0.3): unlike `tiny_model`, whose greedy
    output is one token repeated whatever the context, its predictions depend on the context, so a
    test against a reference fails when a filler feeds the wrong context or commits the wrong slot."""
    from dataclasses import replace

    torch.manual_seed(0)
    return Backbone(replace(BackboneConfig.tiny(tokenizer.vocab_size), init_std=0.3)).eval()


# Tiny random Hugging Face Llama checkpoints (tests/model/test_pretrained.py, tests/model/test_adapt.py)
BASE_VOCAB = 300
BASE_SPECIALS = ["<|endoftext|>", "<|im_start|>"]
TEXT = ["This Agreement is made between the Parties.", "Confidential Information means all information.",
        "Section 2.1 \u2014 \u201cTerm\u201d. The term is 3 years, governed by the laws of Delaware. $1,000.00 10%"] * 5

CONFIGS = {  # name -> LlamaConfig overrides
    "gqa_tied": dict(num_attention_heads=4, num_key_value_heads=2, tie_word_embeddings=True),
    "gqa_untied": dict(num_attention_heads=4, num_key_value_heads=1, tie_word_embeddings=False),
    "mha_llama3_rope": dict(
        num_attention_heads=4,
        num_key_value_heads=4,
        tie_word_embeddings=False,
        rope_parameters={
            "rope_type": "llama3",
            "rope_theta": 50000.0,
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 32,
        },
    ),
}


def _llama_config(**over):
    from transformers import LlamaConfig

    kw = dict(
        vocab_size=BASE_VOCAB,
        hidden_size=64,
        intermediate_size=96,
        num_hidden_layers=2,
        max_position_embeddings=1024,
        rms_norm_eps=1e-5,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
    )
    kw.update(over)
    return LlamaConfig(**kw)


def base_tokenizer(path):
    """A byte-level BPE of BASE_VOCAB pieces trained on TEXT, with two base special tokens, as path/tokenizer.json."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        TEXT,
        trainer=trainers.BpeTrainer(
            vocab_size=BASE_VOCAB,
            special_tokens=BASE_SPECIALS,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        ),
    )
    assert tok.get_vocab_size() <= BASE_VOCAB
    tok.save(str(path / "tokenizer.json"))


def tiny_llama_dir(tmp_path, name="gqa_tied"):
    """A random Hugging Face Llama checkpoint directory (safetensors) with a base tokenizer; (dir, hf model)."""
    from transformers import LlamaForCausalLM

    torch.manual_seed(0)
    hf = LlamaForCausalLM(_llama_config(**CONFIGS[name])).eval()
    d = tmp_path / name
    hf.save_pretrained(d)
    base_tokenizer(d)
    return d, hf
