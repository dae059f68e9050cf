"""The independent judge: a pretrained causal LM that scores clause bodies given their skeleton.

Owns: loading the judge (`load_judge`: a fetched base name such as smollm2-135m, a Llama
directory or one of our checkpoints, all through hybrid.model.resolve), the lineage
of a model's weights (`lineage`: which bases and which weight files it came from), the refusal
to judge a system initialized from the judge's weights (`check_independent`), and the per-clause
score (`clause_nats`). Knows nothing about systems, files or reports.

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
from pathlib import Path

from hybrid.common.errors import ConfigError

__all__ = ["DEFAULT_JUDGE", "OTHER_JUDGE", "Judge", "load_judge", "lineage", "check_independent", "clause_nats"]

DEFAULT_JUDGE = "smollm2-135m"
OTHER_JUDGE = "checkpoints/reference"  # what to use instead when a system shares the judge's weights
CONTEXT_TOKENS = 64  # skeleton tokens before each clause: its heading and the sentence before it
BODY_WORDS = 128  # words of each body scored (one MAUVE passage); bounds CPU time per clause


def _file_digest(path: Path) -> str | None:
    """sha1 of a weights file (first 16 hex digits); None when there is none."""
    if not path.is_file():
        return None
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()[:16]


def lineage(spec: str) -> set[str]:
    """Identifiers of the weights `spec` (a base name, a Llama dir, our checkpoint dir) holds or was
    initialized from: "base:<name>" for a known base (its own name, a Llama dir's source.json,
    a training record's init/base entry) and "weights:<sha1>" of its weights file."""
    from hybrid.model.pretrained import BASES, base_dir

    name = str(spec)
    out: set[str] = set()
    if name in BASES:
        out.add(f"base:{name}")
        d = base_dir(name)
    else:
        d = Path(name)
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


def check_independent(judge: str, models: dict[str, str]) -> None:
    """ConfigError when the judge shares weights (or their origin) with a system's model.

    models: system name -> the model spec it drafts with."""
    mine = lineage(judge)
    seen: dict[str, set[str]] = {}
    for system, spec in models.items():
        theirs = seen.setdefault(spec, lineage(spec))
        shared = sorted(mine & theirs)
        if shared:
            other = OTHER_JUDGE if Path(judge).resolve() != Path(OTHER_JUDGE).resolve() else DEFAULT_JUDGE
            raise ConfigError(
                f"--judge {judge} cannot judge system {system!r}: its model ({spec}) was initialized from the judge's "
                f"weights "
                f"({', '.join(shared)}), so the judge would score its own text; use another judge, e.g. --judge "
                f"{other}, "
                f"or leave {system!r} out of --systems."
            )


class Judge:
    """A loaded judge: model, tokenizer, the spec it was loaded from, its parameter count."""

    def __init__(self, spec: str, model, tokenizer, record: dict, device="cpu"):
        self.spec, self.model, self.tokenizer, self.record = str(spec), model, tokenizer, record
        self.device = device
        self.params = record.get("params") or sum(p.numel() for p in model.parameters())
        self.max_len = int(getattr(model.cfg, "max_len", 2048))


def load_judge(spec: str, device="cpu") -> Judge:
    from hybrid.model.resolve import resolve

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
            h = judge.model(x, "causal", return_hidden=True)[:, :-1]  # (B, T-1, D): position t predicts t+1
            sel = m[:, 1:]
            logits = F.linear(h[sel], judge.model.output_weight).float()  # (n scored, V): the head only where scored
            nll = F.cross_entropy(logits, x[:, 1:][sel], reduction="sum")
        nats += float(nll)
        scored += int(sel.sum())
    return nats, n_bytes, scored

