"""The independent judge: a pretrained causal LM that scores clause bodies given their skeleton.

Owns: loading the judge (`load_judge`: a fetched base name such as smollm2-135m, a Llama
directory or one of our checkpoints, all through hybrid.model.resolve; or a judge-only model such as
gemma3-270m, through evals.judges), the lineage of a model's weights (`lineage`: which bases and which
weight files it came from), choosing the judge (`choose_judge`: "auto" = smollm2-135m unless a system
drafts with SmolLM2 weights, then gemma3-270m), the refusal to judge a system initialized from the
judge's weights (`check_independent`), and the per-clause score (`clause_nats`). Knows nothing about
systems, files or reports.

Why a pretrained judge: the in-house reference model (2.9M parameters, trained on this corpus)
scores generic, repetitive filler *better* than real clauses. A 135M model pretrained on web
text and never trained here knows what English and legal prose look like, so word salad costs
it bits.

Cost bound (CPU): each clause is one row of [<bos>] + the last `context_tokens` tokens of the
document before it (its heading and, mostly, the end of the previous clause as this system
wrote it; never a precedent) + the body's first `body_words` words (+ <eos> when the body is
whole). Only body tokens are scored; bytes are the UTF-8 bytes of the scored text. Rows are
batched by length. The real clauses are cut exactly the same way, so the ratio judge_bpb /
real judge_bpb compares like with like. A likelihood judge still rewards locally fluent text:
legal-sounding word salad can score near real clauses, so the report reads it together with
MAUVE, the copying figures and the drafts themselves.
"""

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from hybrid.common.errors import ConfigError

__all__ = ["AUTO", "DEFAULT_JUDGE", "OTHER_JUDGE", "INDEPENDENT_JUDGE", "Judge", "load_judge", "lineage",
           "choose_judge", "check_independent", "clause_nats"]

AUTO = "auto"  # --judge auto: DEFAULT_JUDGE, or INDEPENDENT_JUDGE when a system shares DEFAULT_JUDGE's weights
DEFAULT_JUDGE = "smollm2-135m"
INDEPENDENT_JUDGE = "gemma3-270m"  # evals.judges: shares no weights with SmolLM2 nor with our checkpoints
OTHER_JUDGE = "checkpoints/reference"  # what to use instead when a system shares the judge's weights
CONTEXT_TOKENS = 64  # skeleton tokens before each clause: its heading and the sentence before it
BODY_WORDS = 128  # words of each body scored (one MAUVE passage); bounds CPU time per clause


def _file_digest(path: Path) -> str | None:
    """sha1 of a weights file (first 16 hex digits); None when there is none."""
    if not path.is_file():
        return None
    st = path.stat()
    return _digest(str(path.resolve()), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=64)
def _digest(path: str, size: int, mtime_ns: int) -> str:  # size and mtime: a rewritten file is hashed again
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()[:16]


def lineage(spec: str) -> set[str]:
    """Identifiers of the weights `spec` (a base name, a Llama dir, our checkpoint dir) holds or was
    initialized from: "base:<name>" for a known base (its own name, a Llama dir's source.json,
    a training record's init/base entry) and "weights:<sha1>" of its weights file."""
    from evals.judges import JUDGE_MODELS, judge_dir
    from hybrid.model.pretrained import BASES, base_dir
    from hybrid.model.shipped import locate

    name = str(spec)
    out: set[str] = set()
    if name in BASES:
        out.add(f"base:{name}")
        d = base_dir(name)
    elif name in JUDGE_MODELS:
        out.add(f"base:{name}")
        d = judge_dir(name)
    else:
        d = Path(locate(name))  # a checkpoint shipped in checkpoints/NAME by its name
    adapt = d / "adapt.json"  # a LoRA adapter or an adapted checkpoint: the base it was trained on
    if adapt.is_file():
        try:
            base = json.loads(adapt.read_text()).get("base")
        except (OSError, ValueError, AttributeError):
            base = None
        if isinstance(base, str) and base:
            out |= lineage(base) if base in BASES or Path(base).is_dir() else {f"base:{base}"}
    src = d / "source.json"
    if src.is_file():
        try:
            base = json.loads(src.read_text()).get("name")
        except (OSError, ValueError, AttributeError):
            base = None
        if base:
            out.add(f"base:{base}")
    rec = d / "training_record.json"
    if rec.is_file():
        try:
            r = json.loads(rec.read_text())
        except (OSError, ValueError):
            r = {}
        for key in ("init", "base", "init_from", "pretrained"):
            v = r.get(key) or (r.get("config") or {}).get(key)
            if isinstance(v, str) and v:
                out.add(f"base:{Path(v).name if v not in BASES else v}")
                if v not in BASES:
                    out |= {x for x in lineage(v) if x.startswith("weights:")} if Path(v).is_dir() else set()
    digest = _file_digest(d / "model.safetensors")
    if digest:
        out.add(f"weights:{digest}")
    return out


def _shared(judge: str, models: dict[str, str]) -> tuple[str, str, list[str]] | None:
    """(system, its model, the lineage it shares with the judge) of the first system that shares any; None."""
    mine = lineage(judge)
    seen: dict[str, set[str]] = {}
    for system, spec in models.items():
        shared = sorted(mine & seen.setdefault(spec, lineage(spec)))
        if shared:
            return system, spec, shared
    return None


def choose_judge(judge: str, models: dict[str, str]) -> str:
    """The judge to use: `judge` itself unless it is AUTO; AUTO = DEFAULT_JUDGE when no system's model shares its
    weights, else INDEPENDENT_JUDGE. The choice is then held to check_independent (ConfigError)."""
    if judge == AUTO:
        judge = DEFAULT_JUDGE if _shared(DEFAULT_JUDGE, models) is None else INDEPENDENT_JUDGE
    check_independent(judge, models)
    return judge


def check_independent(judge: str, models: dict[str, str]) -> None:
    """ConfigError when the judge shares weights (or their origin) with a system's model.

    models: system name -> the model spec it drafts with."""
    hit = _shared(judge, models)
    if hit:
        system, spec, shared = hit
        others = [j for j in (INDEPENDENT_JUDGE, OTHER_JUDGE, DEFAULT_JUDGE) if j != judge]
        other = next((j for j in others if _shared(j, models) is None), others[0])
        raise ConfigError(
            f"--judge {judge} cannot judge system {system!r}: its model ({spec}) was initialized from the judge's "
            f"weights ({', '.join(shared)}), so the judge would score its own text; use another judge, e.g. --judge "
            f"{other} (or --judge {AUTO}), or leave {system!r} out of --systems."
        )


class Judge:
    """A loaded judge: model, tokenizer, the spec it was loaded from, its parameter count.

    `hidden` (token ids -> last hidden states) and `head` (hidden states -> logits) are what clause_nats
    calls: here our backbone's; evals.judges overrides both for a transformers model."""

    def __init__(self, spec: str, model, tokenizer, record: dict, device="cpu"):
        self.spec, self.model, self.tokenizer, self.record = str(spec), model, tokenizer, record
        self.device = device
        self.params = record.get("params") or sum(p.numel() for p in model.parameters())
        self.max_len = int(getattr(getattr(model, "cfg", None), "max_len", 2048))

    def hidden(self, x):
        return self.model(x, "causal", return_hidden=True)

    def head(self, h):
        import torch.nn.functional as F

        return F.linear(h, self.model.output_weight)


def load_judge(spec: str, device="cpu") -> Judge:
    """The judge `spec` names: a judge-only model (evals.judges.JUDGE_MODELS) or anything hybrid.model.resolve
    loads (a fetched base, a Llama directory, one of our checkpoints)."""
    from evals.judges import JUDGE_MODELS, load_hf_judge
    from hybrid.model.resolve import resolve

    if str(spec) in JUDGE_MODELS:
        return load_hf_judge(spec, device)
    model, tok, record = resolve(spec)
    model.to(device).eval()
    return Judge(spec, model, tok, record, device)


def _cut_words(text: str, n: int) -> tuple[str, bool]:
    """(text up to the end of its n-th whitespace-separated word, whether that is the whole text)."""
    import re

    m = list(re.finditer(r"\S+", text))
    if not n or len(m) <= n:
        return text, True
    return text[: m[n - 1].end()], False


def clause_nats(judge: Judge, segments, bodies, *, context_tokens: int = CONTEXT_TOKENS, body_words: int = BODY_WORDS,
                batch: int = 8) -> tuple[float, int, int]:
    """(nats, bytes, tokens scored) of every non-blank body under the judge, one row per clause.

    segments: hybrid.data.document.Segment list in order; the i-th "body" segment stands for bodies[i]."""
    import torch
    import torch.nn.functional as F

    tok = judge.tokenizer
    n_body = sum(s.kind == "body" for s in segments)
    assert n_body == len(bodies), f"{len(bodies)} bodies for {n_body} body segments"
    rows, n_bytes, before, it = [], 0, "", iter(bodies)
    for s in segments:
        if s.kind != "body":
            before += s.text
            continue
        body = next(it)
        if not body.strip():
            before += body
            continue
        text, whole = _cut_words(body, body_words)
        ctx = tok.encode(before)[-context_tokens:] if context_tokens else []
        ids = tok.encode(text) + ([tok.eos_id] if whole else [])
        rows.append(([tok.bos_id] + ctx, ids))
        n_bytes += len(text.encode("utf-8"))
        before += body
    nats, scored = 0.0, 0
    rows.sort(key=lambda r: len(r[0]) + len(r[1]))
    for a in range(0, len(rows), batch):
        chunk = rows[a : a + batch]
        T = min(max(len(c) + len(b) for c, b in chunk), judge.max_len)
        x = torch.full((len(chunk), T), tok.pad_id, dtype=torch.long)
        m = torch.zeros(len(chunk), T, dtype=torch.bool)
        for i, (c, b) in enumerate(chunk):  # right padding: a causal row never sees its pads
            r = (c + b)[:T]
            x[i, : len(r)] = torch.tensor(r)
            m[i, len(c) : len(r)] = True
        x, m = x.to(judge.device), m.to(judge.device)
        with torch.no_grad():
            h = judge.hidden(x)[:, :-1]  # (B, T-1, D): position t predicts t+1
            sel = m[:, 1:]
            logits = judge.head(h[sel]).float()  # (n scored, V): the head only where scored
            nll = F.cross_entropy(logits, x[:, 1:][sel], reduction="sum")
        nats += float(nll)
        scored += int(sel.sum())
    return nats, n_bytes, scored

