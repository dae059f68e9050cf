"""The evaluation run: documents x systems -> per-sample JSONL -> per-system summary -> report.

Owns: RunConfig (validated), choosing the documents (split, --limit), the loop over documents
and systems, resuming, the per-document seeds, scoring each sample with evals.metrics and
committing the report. The run directory's files are evals.samples, the per-system figures
evals.aggregate. Knows nothing about how a system fills (evals.systems) or how the report looks
(evals.report).

Resumable: every finished (system, document) sample is appended to samples.jsonl as one line
and flushed; a rerun with the same settings skips every sample already there (a half-written
last line from a kill is dropped). A rerun may add systems or raise --limit; it refuses a
directory whose samples came from other weights, split, seed or N.

Deterministic: the seed of a document is a function of --seed and the document's path only,
so a sample's text does not depend on which systems or how many documents a run has. The
systems are interleaved per document (all systems on document 1, then document 2, ...), so a
change in machine load during a long run hits every system alike.
"""

import json
import os
import re
import sys
import time
import zlib
from contextlib import nullcontext
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from evals import metrics
from evals.aggregate import mauve_embedder, summarize
from evals.judge import AUTO, BODY_WORDS, CONTEXT_TOKENS, DEFAULT_JUDGE
from evals.samples import REAL, SAMPLES, SUMMARY, check_settings, fingerprint, load_samples
from evals.systems import EVAL_SAMPLING, SYSTEMS, parse_systems
from hybrid.common.config import SHIPPED_CHECKPOINT
from hybrid.common.errors import CheckpointError, ConfigError, CorpusError
from hybrid.common.machine import cpu_model
from hybrid.common.options import DEFAULT_THREADS, MAX_VARIANTS, SEED, int_range
from hybrid.common.outdir import FileSet, OutputLock, check_writable, recover

__all__ = [
    "RunConfig",
    "run",
    "doc_seed",
    "shorten",
    "load_samples",
    "summarize",
    "DEFAULT_REFERENCE",
    "DEFAULT_CHECKPOINT",
]

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CHECKPOINT = SHIPPED_CHECKPOINT
DEFAULT_REFERENCE = REPO / "checkpoints" / "reference"


@dataclass
class RunConfig:
    systems: tuple[str, ...] = ("hybrid", "ar")  # names from evals.systems.SYSTEMS, in report order
    split: str = "test"  # corpus split the documents come from
    limit: int = 0  # first N documents that have clause bodies; 0 = all
    templated_only: bool = False  # only documents whose doc type has a template (what `hybrid` and `planned` draft)
    max_sections: int = 0  # keep each document's first M sections only (a shorter contract); 0 = all
    max_body_words: int = 0  # cut each real clause body to its first W words (and so its span budget); 0 = whole
    n_variants: int = 4  # N drafts per document (self-BLEU and distinct-n compare them)
    seed: int = 0  # base seed; each document's seed derives from it and the document path
    out: str = "evals/runs/latest"  # run directory (samples.jsonl, summary.json, report.md, plots)
    checkpoint: str = str(DEFAULT_CHECKPOINT)  # the drafting model
    reference: str = str(DEFAULT_REFERENCE)  # the independent causal LM that scores (evals/train_reference.py)
    corpus: str | None = None  # corpus root; None = $HYBRID_CORPUS or ../shared/corpus
    device: str = "auto"  # auto = cuda when available, else cpu
    # torch CPU threads; 0 = torch's default (hybrid.common.options.DEFAULT_THREADS says why 1)
    threads: int = DEFAULT_THREADS
    mauve: bool = True  # compute MAUVE (loads the embedding model, ~10 s)
    # k-means seeds MAUVE is averaged over: ten, since three let one run's figure move by 0.009 between two commits
    # whose ten-seed means differ by 0.0002 (final26, final27), more than the gap the issue-26 bar asks about
    mauve_seeds: tuple[int, ...] = tuple(range(1, 11))
    # the independent pretrained judge (evals.judge): auto (smollm2-135m, or gemma3-270m when a system drafts with
    # SmolLM2 weights), a base or judge name, a Llama dir or a checkpoint
    judge: str = AUTO
    judge_words: int = BODY_WORDS  # words of each body the judge scores (CPU bound; the real clauses are cut alike)
    judge_context: int = CONTEXT_TOKENS  # skeleton tokens before each clause the judge reads
    judge_docs: int = 0  # judge the first J documents only (0 = all): the judge is the slowest part on CPU
    max_docs: int = 4  # costly systems (smollm2-ar) run on the first M documents only
    # also write the report as this dated file (e.g. evals/reports/2026-12-01.md) with plots + summary
    report: str | None = None
    command: str = ""  # the command line, recorded in the report

    def __post_init__(self):
        self.systems = tuple(s.name for s in parse_systems(",".join(self.systems)))
        for name, lo, hi in (
            ("limit", 0, None),
            ("max_sections", 0, None),
            ("max_body_words", 0, None),
            ("n_variants", 1, MAX_VARIANTS),
            ("seed", 0, SEED.hi),
            ("threads", 0, None),
            ("judge_words", 1, None),
            ("judge_context", 0, None),
            ("judge_docs", 0, None),
            ("max_docs", 1, None),
        ):
            int_range(lo, hi).check(name.replace("_", "-"), getattr(self, name))
        if self.device not in ("auto", "cpu", "cuda"):
            raise ConfigError(f"device must be one of auto, cpu, cuda, got {self.device!r}.")
        if not self.mauve_seeds:
            raise ConfigError("mauve_seeds must name at least one seed.")
        if not str(self.judge).strip():
            raise ConfigError(
                f"judge must name a model (a base such as {DEFAULT_JUDGE}, a Llama directory or a checkpoint), got "
                f"{self.judge!r}."
            )
        if self.report is not None and not str(self.report).endswith(".md"):
            raise ConfigError(
                f"report must be a Markdown file path ending in .md (e.g. evals/reports/2026-12-01.md), got "
                f"{self.report!r}."
            )


def doc_seed(seed: int, path: str) -> int:
    """The document's sampling seed: stable across runs, system sets and --limit."""
    return (seed * 1_000_003 + zlib.crc32(path.encode("utf-8"))) % (2**31 - 1)


def _select_documents(cfg: RunConfig) -> tuple[list, int]:
    from hybrid.data.corpus import load_documents

    docs = load_documents(cfg.corpus, splits=(cfg.split,))
    usable = [d for d in docs if any(s.body.strip() for s in d.sections)]
    if cfg.templated_only:
        from evals.systems import template_for

        usable = [d for d in usable if template_for(d.doc_type) is not None]
    if not usable:
        raise CorpusError(f"split {cfg.split!r} has {len(docs)} documents but none with a clause body to fill")
    chosen = usable[: cfg.limit] if cfg.limit else usable
    return [shorten(d, cfg.max_sections, cfg.max_body_words) for d in chosen], len(docs) - len(usable)


def _first_words(text: str, n: int) -> str:
    """The text up to the end of its n-th whitespace-separated word (line breaks inside kept)."""
    m = list(re.finditer(r"\S+", text))
    return text if len(m) <= n else text[: m[n - 1].end()]


def shorten(doc, max_sections: int = 0, max_body_words: int = 0):
    """`doc` with only its first `max_sections` sections and each body cut to `max_body_words`
    words (0 = no limit): how a CPU-sized run bounds the work per document. The real text kept
    as the reference is cut the same way, so systems and the ceiling see the same budgets."""
    sections = doc.sections[:max_sections] if max_sections else list(doc.sections)
    if max_body_words:
        sections = [replace(s, body=_first_words(s.body, max_body_words)) for s in sections]
    return replace(doc, sections=sections)


def _real_drafts(doc):
    """The document's own clause bodies as one 'variant' (the ceiling every metric is read against)."""
    from evals.systems import Drafts, document_terms

    segs = doc.segments()
    bodies = [s.text for s in segs if s.kind == "body"]
    clauses = [doc.sections[s.section].clause_type for s in segs if s.kind == "body"]
    terms = [str(doc.fields[k]) for k in ("party_a", "party_b") if doc.fields.get(k)]
    return Drafts(bodies=[bodies], segments=segs, clauses=clauses, terms=terms, seconds=0.0, tokens=0, steps=0,
                  required_terms=document_terms(doc))


def _score(drafts, ref_model, ref_tok, window: int, device, judge=None, judge_kw=None, index=None) -> dict:
    """Per-sample metrics of one Drafts (every variant scored; the judge reads variant 0 only, when given)."""
    import time

    from evals import memorization
    from evals.judge import clause_nats

    skeleton_text = "".join(s.text for s in drafts.segments if s.kind != "body")
    terms = list(dict.fromkeys(drafts.terms + metrics.defined_terms(skeleton_text)))
    nats, nbytes = [], []
    for bodies in drafts.bodies:
        a, b = metrics.span_nats(ref_model, ref_tok, drafts.segments, bodies, window=window, stride=window // 2)
        nats.append(round(a, 4))
        nbytes.append(b)
    texts = ["\n\n".join(b) for b in drafts.bodies]
    rep = [sum(c) for c in zip(*(metrics.repetition_counts(b) for b in drafts.bodies))]  # [repeated, total]
    ex = [sum(c) for c in zip(*(metrics.term_counts(b, terms) for b in drafts.bodies))]  # [exact, mentions]
    req = [
        x
        for b in drafts.bodies
        if (x := metrics.required_clause_fraction(drafts.clauses, b, drafts.required)) is not None
    ]
    extra = {}
    if judge is not None:
        t0 = time.perf_counter()
        jn, jb, jt = clause_nats(judge, drafts.segments, drafts.bodies[0], **(judge_kw or {}))
        extra.update(
            judge_nats=round(jn, 4), judge_bytes=jb, judge_tokens=jt, judge_seconds=round(time.perf_counter() - t0, 3)
        )
    if index is not None:
        cp = [memorization.copy_share(t, index) for t in texts]
        extra.update(
            copy=[sum(a for a, _ in cp), sum(b for _, b in cp)],
            longest_copy=max(memorization.longest_copied_run(b, index) for v in drafts.bodies for b in v)
            if texts
            else 0,
        )
    rt = drafts.required_terms
    if rt is not None:
        extra["req_terms"] = [sum(c) for c in zip(*(metrics.terms_in_clauses(b, rt) for b in drafts.bodies))] or [0, 0]
    found = [metrics.foreign_facts(t, skeleton_text, extra_names=drafts.source_facts) for t in texts]
    extra["foreign"] = [sum(len(f) for f in found), sum(len(t.split()) for t in texts)]
    extra["junk_lines"] = sum(metrics.junk_numbering_lines(b) for b in drafts.bodies)
    extra["duplicate_types"] = metrics.duplicate_clause_types(drafts.clauses)
    return {
        **extra,
        "ref_nats": nats,
        "ref_bytes": nbytes,
        "self_bleu": metrics.self_bleu(texts),
        "distinct_1": metrics.distinct_n(texts, 1),
        "distinct_2": metrics.distinct_n(texts, 2),
        "repetition": rep,
        "terms": ex,
        "term_list": terms,
        "required_fraction": sum(req) / len(req) if req else None,
    }


def _outline_valid(drafts) -> bool | None:
    """Planned samples: the outline re-checked against its template's schema (a failed plan is invalid); None
    otherwise."""
    from hybrid.templates.template import load_template

    if drafts.template is None:
        return None
    return drafts.outline is not None and metrics.outline_valid(load_template(drafts.template), drafts.outline)


def _record(system: str, doc, seed: int, n: int, drafts, scores: dict | None) -> dict:
    rec = {
        "system": system,
        "doc": doc.path,
        "doc_type": doc.doc_type,
        "seed": seed,
        "n": n,
        "skipped": drafts.skipped,
        "clauses": drafts.clauses,
        "template": drafts.template,
        "outline": drafts.outline,
        "outline_valid": _outline_valid(drafts),
        "seconds": round(drafts.seconds, 4),
        "plan_seconds": round(drafts.plan_seconds, 4),
        "tokens": drafts.tokens,
        "steps": drafts.steps,
    }
    rec.update(scores or {})
    rec["bodies"] = drafts.bodies
    return rec


def run(cfg: RunConfig, log=None, progress: bool = True) -> dict:
    """Run (or resume) every (document, system) sample, then summarize and write the report; returns the summary.

    --out is checked before any model loads and held locked for the run (one run per directory);
    the report, its plots and summary.json are committed as one set."""
    check_writable(Path(cfg.out))
    with OutputLock(Path(cfg.out)):
        recover(Path(cfg.out))
        return _run(cfg, log, progress)


def _run(cfg: RunConfig, log, progress: bool) -> dict:
    import torch
    from tqdm import tqdm

    from evals import memorization
    from evals.judge import OTHER_JUDGE, choose_judge, lineage, load_judge
    from evals.systems import Engine
    from hybrid.train.loop import load_checkpoint

    t_begin = time.perf_counter()
    log = log or (lambda m: print(m, file=sys.stderr))
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    device = ("cuda" if torch.cuda.is_available() else "cpu") if cfg.device == "auto" else cfg.device
    if device == "cuda" and not torch.cuda.is_available():
        raise ConfigError("device cuda was asked for but torch sees no CUDA device; use --cpu or device auto.")
    docs, n_empty = _select_documents(cfg)

    ck, ref = Path(cfg.checkpoint), Path(cfg.reference)
    if ck.resolve() == ref.resolve():
        raise ConfigError(f"--reference must be an independent model, got the drafting checkpoint itself ({ck}).")
    systems = [SYSTEMS[s] for s in cfg.systems]
    drafting = {s.name: s.model or cfg.checkpoint for s in systems if s.kind not in ("retrieval", "pasting", "form")}
    judge_spec = choose_judge(cfg.judge, drafting)
    model, tok, ck_record = load_checkpoint(ck)
    try:
        ref_model, ref_tok, ref_record = load_checkpoint(ref)
    except CheckpointError as e:
        raise CheckpointError(
            f"reference model: {e}; train it with `python -m evals.train_reference` (evals/train_reference.py)"
        ) from None
    try:
        judge = load_judge(judge_spec, device)
    except CheckpointError as e:
        raise CheckpointError(
            f"judge {judge_spec}: {e} Or pass another with --judge (e.g. --judge {OTHER_JUDGE})."
        ) from None
    judge_weights = sorted(x for x in lineage(judge_spec) if x.startswith("weights:"))
    settings = {
        "split": cfg.split, "seed": cfg.seed, "n_variants": cfg.n_variants,
        "max_sections": cfg.max_sections, "max_body_words": cfg.max_body_words,
        "checkpoint": fingerprint(ck), "reference": fingerprint(ref),
        "sampling": EVAL_SAMPLING,
        "judge": judge_weights, "judge_words": cfg.judge_words, "judge_context": cfg.judge_context,
    }
    if cfg.templated_only:  # (absent otherwise: runs made before the option resume as they were)
        settings["templated_only"] = True
    if settings["checkpoint"] == settings["reference"]:
        raise ConfigError(
            f"--reference {ref} holds the same weights as --checkpoint {ck}; the reference must be an independent "
            f"model."
        )
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    check_settings(out, settings)

    model.to(device).eval()
    ref_model.to(device).eval()
    from hybrid.rank.likelihood import trained_window

    window = trained_window(ref_record)["window"]
    engine = Engine(model, tok, device, corpus=cfg.corpus, record=ck_record)
    index = memorization.load_index(cfg.corpus, log)
    judge_kw = {"body_words": cfg.judge_words, "context_tokens": cfg.judge_context}
    judged = {d.path for d in (docs[: cfg.judge_docs] if cfg.judge_docs else docs)}

    records = load_samples(out)
    done = {(r["system"], r["doc"]) for r in records}
    keys = [
        (s, d.path)
        for i, d in enumerate(docs)
        for s in (REAL, *cfg.systems)
        if s == REAL or not SYSTEMS[s].costly or i < cfg.max_docs
    ]
    todo = [k for k in keys if k not in done]
    log(
        f"eval: {len(docs)} documents of split {cfg.split!r} ({n_empty} without clause bodies left out), systems "
        f"{', '.join(cfg.systems)}, "
        f"N={cfg.n_variants}, device {device}; {len(keys) - len(todo)} of {len(keys)} samples already in "
        f"{out / SAMPLES}"
    )
    if todo and any(k[0] != REAL for k in todo):
        engine.warm_up([s for s in systems if any(k[0] == s.name for k in todo)])
    with (
        open(out / SAMPLES, "a", encoding="utf-8") as f,
        tqdm(
            total=len(keys),
            initial=len(keys) - len(todo),
            desc="eval",
            file=sys.stderr,
            disable=not progress,
            dynamic_ncols=True,
        ) as bar,
    ):
        todo_set = set(todo)
        for doc in docs:
            if not any((name, doc.path) in todo_set for name in (REAL, *cfg.systems)):
                continue
            seed = doc_seed(cfg.seed, doc.path)
            for name in (REAL, *cfg.systems):
                if (name, doc.path) not in todo_set:
                    continue
                bar.set_postfix_str(f"{name} {Path(doc.path).name[:32]}")
                t_sample = time.perf_counter()
                if name == REAL:
                    drafts = _real_drafts(doc)
                else:
                    drafts = engine.run(SYSTEMS[name], doc, cfg.n_variants, seed)
                scores = None if drafts.skipped else _score(drafts, ref_model, ref_tok, window, device,
                                                            judge if doc.path in judged else None, judge_kw, index)
                rec = _record(name, doc, seed, cfg.n_variants if name != REAL else 1, drafts, scores)
                rec["wall_seconds"] = round(time.perf_counter() - t_sample, 3)  # drafting and scoring this sample
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
                f.flush()
                records.append(rec)
                bar.update(1)

    embed = mauve_embedder("cuda" if device == "cuda" else "cpu") if cfg.mauve else None
    pool = {
        d.path: [s.body for s in d.sections]
        for d in _select_documents(replace(cfg, limit=0, max_sections=0, max_body_words=0))[0]
    }
    summary = summarize(
        records,
        cfg.systems,
        [d.path for d in docs],
        embed=embed,
        mauve_seeds=cfg.mauve_seeds,
        real_pool=pool,
        max_sections=cfg.max_sections,
    )
    summary["judge"] = {
        "spec": judge_spec,
        "requested": cfg.judge,
        "params": judge.params,
        "weights": judge_weights,
        "base": judge.record.get("base"),
        "upstream": (judge.record.get("source") or {}).get("upstream"),
        "words": cfg.judge_words,
        "context_tokens": cfg.judge_context,
        "documents": len(judged),
    }
    summary["run"] = {
        **asdict(cfg),
        "systems": list(cfg.systems),
        "mauve_seeds": list(cfg.mauve_seeds),
        "device": device,
        "threads_used": torch.get_num_threads(),
        "documents": len(docs),
        "documents_without_bodies": n_empty,
        "checkpoint_step": ck_record.get("step"),
        "checkpoint_config": {k: ck_record.get("config", {}).get(k) for k in ("d_model", "n_layers", "seed")},
        "reference_step": ref_record.get("step"),
        "reference_config": {
            k: ref_record.get("config", {}).get(k) for k in ("d_model", "n_layers", "seed", "diffusion_weight")
        },
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "device_name": torch.cuda.get_device_name() if device == "cuda" else f"cpu, {torch.get_num_threads()} threads",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model(),
        "wall_seconds": round(time.perf_counter() - t_begin, 1),  # this invocation, summary and MAUVE included
        "samples_run": len(todo),
        "samples_resumed": len(keys) - len(todo),
        # every sample, resumed ones too
        "sample_wall_seconds": round(sum(r.get("wall_seconds", 0.0) for r in records), 1),
    }
    _commit_report(summary, out, "report.md", "")
    if cfg.report:
        dated = Path(cfg.report)
        check_writable(dated.parent)
        own = dated.parent.resolve() == Path(out).resolve()  # the run's own directory, whose lock this run holds
        with nullcontext() if own else OutputLock(dated.parent):
            if not own:
                recover(dated.parent)
            _commit_report(summary, dated.parent, dated.name, dated.stem + "-")
        summary["dated_report"] = str(dated)
    return summary


def _commit_report(summary: dict, directory: Path, name: str, prefix: str) -> None:
    """directory/name + its plots (prefix + plot name) + prefix + summary.json, committed as one set
    (hybrid.common.outdir)."""
    from evals.report import write_report

    directory.mkdir(parents=True, exist_ok=True)
    with FileSet(directory) as fs:
        report = write_report(summary, fs.stage, name=name, prefix=prefix)
        summary["report"] = str(directory / report.name)
        (fs.stage / f"{prefix}{SUMMARY}").write_text(json.dumps(summary, indent=1), encoding="utf-8")
        for p in sorted(fs.stage.iterdir()):
            fs.path(p.name)
        fs.commit()


