"""A tiny corpus built from the test excerpts and tiny checkpoints trained on it (shared by the eval tests)."""

import json
import shutil
from pathlib import Path

EXCERPTS = Path(__file__).resolve().parent.parent / "data" / "excerpts"

# (excerpt, path in the corpus, source, doc_type, split)
FILES = [
    (
        "commonpaper_software_license.txt",
        "standard-agreements/sla.txt",
        "commonpaper",
        "SOFTWARE LICENSE AGREEMENT",
        "train",
    ),
    ("cuad_numbered_2themart.txt", "cuad/contracts/themart.txt", "cuad", "AGENCY AGREEMENT", "train"),
    (
        "cuad_article_sandridge.txt",
        "cuad/contracts/sandridge.txt",
        "cuad",
        "OPERATIONS AND MAINTENANCE AGREEMENT",
        "train",
    ),
    ("cuad_flattened_kubient.txt", "cuad/contracts/kubient.txt", "cuad", "SERVICES AGREEMENT", "val"),
    ("bonterms_cloud_terms.md", "standard-agreements/cloud-terms.md", "bonterms", "CLOUD TERMS", "val"),
    ("cuad_banners.txt", "cuad/contracts/banners.txt", "cuad", "CO-BRANDING AGREEMENT", "test"),  # 1 section
    ("cuad_redactions.txt", "cuad/contracts/redactions.txt", "cuad", "SUPPLY AGREEMENT", "test"),  # 1 section
    # no numbered sections
    ("cuad_wrapped_accuray.txt", "cuad/contracts/accuray.txt", "cuad", "DISTRIBUTOR AGREEMENT", "test"),
]

TINY_TRAIN = dict(vocab_size=400, d_model=32, n_layers=1, n_heads=2, seq_len=64, stride=48, batch_size=4,
                  warmup_steps=1, eval_every=2, eval_windows=4, max_steps=2, limit_docs=2, threads=1)


def make_corpus(root: Path) -> Path:
    for src, rel, *_ in FILES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXCERPTS / src, root / rel)
    entries = [
        {"path": rel, "source": source, "doc_type": dt, "group": f"g:{rel}", "split": split}
        for _, rel, source, dt, split in FILES
    ]
    (root / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return root


def make_checkpoints(root: Path, corpus: Path) -> tuple[Path, Path]:
    """(drafting model, reference model): the reference AR-only, another seed and width, as evals/train_reference.py."""
    from evals.train_reference import reference_config
    from hybrid.common.config import TrainConfig
    from hybrid.train.loop import train

    drafting, reference = root / "drafting", root / "reference"
    train(TrainConfig(out=str(drafting), corpus=str(corpus), **TINY_TRAIN), log=lambda m: None)
    train(
        reference_config(
            out=str(reference), corpus=str(corpus), **{**TINY_TRAIN, "d_model": 48, "n_heads": 2, "max_minutes": 0.0}
        ),
        log=lambda m: None,
    )
    return drafting, reference
