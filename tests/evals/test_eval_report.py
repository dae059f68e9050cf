"""evals.report: issue 14's bars stated plainly from a summary, and the appendix of whole drafts side by side."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from evals.report import trust_checks, write_report  # noqa: E402


def _summary(passages=(3000, 1200), ceiling=(1500, 1500), judge_ratio=1.05, copy=0.1):
    s = {
        "system": "hybrid",
        "description": "d",
        "judge_bpb": 1.05 * judge_ratio,
        "judge_bpb_vs_real": judge_ratio,
        "mauve": 0.4,
        "mauve_std": 0.01,
        "mauve_passages": list(passages),
        "copy_13gram": copy,
        "longest_copy": 40,
        "seconds_per_draft": 1.0,
        "ref_bpb": 0.7,
        "K": 256,
        "judge_seconds_per_document": 12.0,
        "judge_tokens_per_second": 80.0,
    }
    return {
        "systems": {"hybrid": s},
        "real": {
            "judge_bpb": 1.05,
            "ref_bpb": 1.2,
            "copy_13gram": 0.05,
            "mauve_ceiling": 0.9,
            "mauve_ceiling_std": 0.02,
            "mauve_ceiling_passages": list(ceiling),
            "pool_documents": 47,
            "pool_passages": 3000,
        },
        "judge": {
            "spec": "smollm2-135m",
            "base": "smollm2-135m",
            "upstream": "HuggingFaceTB/SmolLM2-135M-Instruct",
            "params": 134_519_616,
            "words": 128,
            "context_tokens": 64,
            "documents": 4,
        },
        "run": {
            "date": "2026-12-01 10:00 UTC",
            "command": "hybrid eval run --systems hybrid",
            "device_name": "cpu, 1 threads",
        },
        "appendix": {
            "doc": "cuad/x.txt",
            "doc_type": "SUPPLY AGREEMENT",
            "clauses": ["term", "fees"],
            "real": ["Real term.", "Real | fees.\nLine 2"],
            "systems": {
                "hybrid": {
                    "clauses": ["term", "fees"],
                    "drafts": [["Draft one term.", "fees one"], ["Draft two term.", "fees two"]],
                }
            },
        },
    }


@pytest.mark.parametrize(
    "kw, expect",
    [
        (
            {},
            [
                "(goal: within 15% of real): **met**, reads as close to real text",
                ">= 1,000 per side **met**",
                "reads as adaptation with some verbatim runs",
                "`smollm2-ar` is not in this run",
            ],
        ),
        ({"judge_ratio": 1.4}, ["**missed**, reads as worse than real text"]),
        ({"judge_ratio": 0.6}, ["**missed**, is more predictable than the real clauses"]),
        (
            {"passages": (3000, 480)},
            ["`hybrid` MAUVE on 3000 real / 480 generated passages: >= 1,000 per side **missed**"],
        ),
        ({"ceiling": (600, 580)}, [">= 1,000 per side **missed** (this run is smaller than MAUVE needs"]),
        ({"copy": 0.8}, ["reads as pasting"]),
        (
            {},
            [
                "`hybrid` MAUVE 0.400 ± 0.010 vs the real-vs-real ceiling 0.900: clearly distinguishable from real "
                "clauses"
            ],
        ),
    ],
)
def test_trust_checks_say_plainly_which_bar_is_met_or_missed(kw, expect):
    text = "\n".join(trust_checks(_summary(**kw)))
    for e in expect:
        assert e in text, (e, text)


def test_the_report_shows_two_whole_drafts_next_to_the_real_text_and_the_command(tmp_path):
    path = write_report(_summary(), tmp_path, name="2026-12-01.md", prefix="2026-12-01-")
    text = path.read_text()
    assert path.name == "2026-12-01.md" and "hybrid eval run --systems hybrid" in text
    assert "| clause | real | draft 1 | draft 2 |" in text
    assert "| fees | Real \\| fees.<br>Line 2 | fees one | fees two |" in text
    assert "judge: `smollm2-135m` (HuggingFaceTB/SmolLM2-135M-Instruct, 135M parameters)" in text
