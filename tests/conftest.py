"""Shared fixtures: a small tokenizer trained on real corpus text and a tiny random backbone."""

import os
from pathlib import Path

import pytest
import torch

from hybrid.model.backbone import Backbone, BackboneConfig
from hybrid.tokenizer import HybridTokenizer

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("HYBRID_CORPUS", REPO.parent / "shared" / "corpus"))
SHIPPED = REPO / "checkpoints" / "hybrid-small"

# Tiny models decode one token at a time: a second intra-op thread only adds synchronisation
# (measured ~8x slower batch-1 decoding with 2 threads on a loaded 2-core machine).
torch.set_num_threads(1)


EXCERPTS = REPO / "tests" / "data" / "excerpts"
CUAD_EXCERPT_NAME = "2ThemartComInc_19990826_10-12G_EX-10.10_6700288_EX-10.10_Co-Branding Agreement_ Agency Agreement.txt"


def build_corpus(root: Path, files: dict, entries: list[dict]) -> Path:
    """A corpus tree at `root`: files maps a relative path to an excerpt file name (under
    tests/data/excerpts) or, for a str holding a newline, the text itself; manifest.jsonl lists entries."""
    import json

    for rel, what in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(what if "\n" in what else (EXCERPTS / what).read_text(encoding="utf-8"), encoding="utf-8")
    (root / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return root


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
