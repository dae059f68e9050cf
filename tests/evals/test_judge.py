"""evals.judge: per-clause scoring with bounded context, and the refusal of a judge that shares a system's weights."""

import json
import math
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from evals.judge import Judge, check_independent, clause_nats, lineage  # noqa: E402
from hybrid.common.errors import ConfigError  # noqa: E402
from hybrid.data.document import Segment  # noqa: E402

SEGS = [
    Segment("SUPPLY AGREEMENT\n\n", "text"),
    Segment("1. Term.\n", "heading", 0),
    Segment("", "body", 0),
    Segment("\n\n", "text"),
    Segment("2. Fees.\n", "heading", 1),
    Segment("", "body", 1),
    Segment("\n\n", "text"),
]
BODIES = [
    "This Agreement runs for two years from the Effective Date.",
    "The Buyer pays the fees within thirty days of invoice.",
]


@pytest.fixture(scope="module")
def judge(lively_model, tokenizer):
    return Judge("tiny", lively_model.eval(), tokenizer, {"params": 1})


def _direct(judge, before: str, body: str, context: int, eos: bool) -> float:
    tok = judge.tokenizer
    ctx = tok.encode(before)[-context:] if context else []
    ids = [tok.bos_id] + ctx + tok.encode(body) + ([tok.eos_id] if eos else [])
    x = torch.tensor([ids])
    with torch.no_grad():
        logp = F.log_softmax(judge.model(x, "causal")[0, :-1].float(), -1)
    start = 1 + len(ctx)
    return -sum(float(logp[t - 1, ids[t]]) for t in range(start, len(ids)))


def test_each_clause_is_scored_given_only_the_skeleton_just_before_it(judge):
    nats, nbytes, scored = clause_nats(judge, SEGS, BODIES, context_tokens=8, body_words=100)
    before = ["SUPPLY AGREEMENT\n\n1. Term.\n", "SUPPLY AGREEMENT\n\n1. Term.\n" + BODIES[0] + "\n\n2. Fees.\n"]
    want = sum(_direct(judge, b, body, 8, True) for b, body in zip(before, BODIES))
    assert math.isclose(nats, want, rel_tol=1e-4), (nats, want)
    assert nbytes == sum(len(b.encode()) for b in BODIES)
    assert scored == sum(len(judge.tokenizer.encode(b)) + 1 for b in BODIES)


def test_a_long_body_is_cut_to_its_first_words_without_eos_and_blank_bodies_are_skipped(judge):
    nats, nbytes, _ = clause_nats(judge, SEGS, [BODIES[0], "  "], context_tokens=4, body_words=3)
    assert nbytes == len("This Agreement runs".encode())
    assert math.isclose(
        nats, _direct(judge, "SUPPLY AGREEMENT\n\n1. Term.\n", "This Agreement runs", 4, False), rel_tol=1e-4
    )


def test_batching_does_not_change_the_score(judge):
    a = clause_nats(judge, SEGS, BODIES, batch=1)
    b = clause_nats(judge, SEGS, BODIES, batch=8)
    assert math.isclose(a[0], b[0], rel_tol=1e-5) and a[1:] == b[1:]


def test_lineage_names_the_base_a_model_was_initialized_from(tmp_path):
    d = tmp_path / "finetuned"
    d.mkdir()
    (d / "training_record.json").write_text(json.dumps({"config": {"init": "smollm2-135m"}}))
    (d / "model.safetensors").write_bytes(b"weights")
    assert "base:smollm2-135m" in lineage(str(d)) and any(x.startswith("weights:") for x in lineage(str(d)))
    with pytest.raises(
        ConfigError,
        match=r"cannot judge system 'hybrid'.*base:smollm2-135m.*use another judge, e\.g\. --judge "
              r"gemma3-270m",
    ):
        check_independent("smollm2-135m", {"hybrid": str(d)})
    other = tmp_path / "other"
    other.mkdir()
    (other / "model.safetensors").write_bytes(b"other weights")
    check_independent(str(other), {"hybrid": str(d)})
