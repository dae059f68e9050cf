"""The systems under evaluation: what writes the hidden clause bodies of a held-out document.

Owns: the system table (names -> how they fill), the one factory that resolves a name (unknown
-> HybridError listing the valid ones), the sampling settings every system shares, and running
one system on one document (timed). Knows nothing about metrics, files or reports.

Every generating system gets the same sampling params (temperature 0.8, top-p 0.9, as
benchmarks/fill.py) and per-document seed, and fills the same span budgets (the real bodies'
token lengths + 1, hybrid.skeleton.tokenized.from_document), except `planned`, which writes its own
outline for the document's doc type under the matching template (with the template's headings
for the planned clause types, as `hybrid draft` does by default) and fills that skeleton.

The drafting model's fills apply the fact guard (hybrid.fidelity.fact_guard) with the document's skeleton
and fields as the deal's text, as `hybrid draft` does with a template's; `hybrid-edit` starts each
variant's span from its own seeded draw of precedents (variant 0: the top one) with a share of its
words masked, nothing beside the span (hybrid.text.start), as `hybrid draft --precedent-start` does.

Precedents (`precedents` = 1): each span's top train-split precedent, the deal's facts written
in, sits right before it (hybrid.skeleton.from_precedents.document_skeleton, the layout benchmarks/precedent.py
measures), as
`hybrid draft --precedents 1` drafts. `retrieval` generates nothing: variant v is the v-th
seeded retrieval draw with the deal's facts substituted, cut to the real body's word count.
`smollm2-ar` fills zero-shot with the pretrained base (its own tokenizer), on at most
--max-docs documents (`costly`).
"""

import re
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import lru_cache

from hybrid.common.errors import ConfigError, SamplingError, TemplateError

__all__ = [
    "System",
    "SYSTEMS",
    "EVAL_SAMPLING",
    "get_system",
    "parse_systems",
    "Engine",
    "Drafts",
    "document_terms",
    "deal_text",
    "template_for",
    "planned_fields",
]

STEP_SWEEP = (4, 8, 16, 32, 64)


@dataclass(frozen=True)
class System:
    name: str
    kind: str  # "draft" | "pasting" | "form" | "diffusion" | "ar" | "planned" | "retrieval"
    steps: int | None  # K denoising steps (diffusion, planned); None = the sampler's default
    guidance: float | None  # w; None = the sampler's default
    description: str
    precedents: int = 0  # precedents per span in the skeleton (0 = none)
    model: str | None = None  # the model it drafts with; None = --checkpoint (the drafting model)
    costly: bool = False  # runs on the first --max-docs documents only (slow on CPU)
    start: float = 1.0  # precedent start noise (hybrid.text.start; 1 = off: spans start masked)
    filler: str | None = None  # "draft" systems: the request's --filler (None = the request's default)


def _table() -> dict[str, System]:
    rows = [
        System(
            "hybrid",
            "draft",
            None,
            None,
            "exactly `hybrid draft`'s default, through Drafter.draft: the planned outline under the doc type's "
            "template, each section edited from its chosen precedent (precedent start 0), composed Definitions, "
            "the consistency pass and the reranker, with the drafter's own sampling defaults",
        ),
        System(
            "hybrid-beside",
            "diffusion",
            None,
            None,
            "diffusion fill of the document's own skeleton from 1 precedent per span beside it, default K and w",
            precedents=1,
        ),
        System("hybrid-noprec", "diffusion", None, None, "diffusion fill without precedents, default K and w"),
        System(
            "hybrid-edit",
            "diffusion",
            None,
            None,
            "each span edited from its variant's own precedent draw: a quarter of its "
            "words masked, the deal's facts kept, then the diffusion fill (--precedent-start 0.25, the recommended "
            "level)",
            precedents=1,
            start=0.25,
        ),
        System(
            "ar",
            "ar",
            None,
            0.0,
            "KV-cached autoregressive fill on the same backbone and skeleton (1 precedent per span)",
            precedents=1,
        ),
        System(
            "retrieval",
            "retrieval",
            None,
            None,
            "no generation: the top precedent with the deal's facts substituted, cut to the real length",
        ),
        System(
            "pasting",
            "pasting",
            None,
            None,
            "no generation: what `hybrid` drafts each section from, pasted: the default draft's own outline, and "
            "per section its frame sentence and the precedent it starts from with the deal's facts substituted "
            "(each section's start_text), cut to the draft's length; variant v pastes variant v's precedents",
        ),
        System(
            "form",
            "form",
            None,
            None,
            "no generation: the form a lawyer fills in by hand: for each variant the whole base the default draft "
            "starts from (the same choice: hybrid.precedents.base), its sections with the deal's facts substituted "
            "(hybrid.skeleton.from_base.form_sections), nothing inserted, settled or written",
        ),
        System(
            "smollm2-ar",
            "ar",
            None,
            0.0,
            "zero-shot autoregressive fill with pretrained SmolLM2-135M, no precedents",
            model="smollm2-135m",
            costly=True,
        ),
        # issue 27's writers: `hybrid draft`'s default path (Drafter.draft) on another model, editing the same
        # precedent starts; costly, so on --max-docs documents like smollm2-ar
        System(
            "smollm2-edit-ar",
            "draft",
            None,
            None,
            "`hybrid draft --model smollm2-135m --filler ar-batched`: the default path, the batched KV-cached AR "
            "editor on pretrained SmolLM2-135M zero-shot",
            model="smollm2-135m",
            costly=True,
            filler="ar-batched",
        ),
        System(
            "lora-edit-ar",
            "draft",
            None,
            None,
            "`hybrid draft --model smollm2-135m-legal-lora --filler ar-batched`: the default path, the AR editor on "
            "the shipped LoRA adaptation of SmolLM2-135M",
            model="smollm2-135m-legal-lora",
            costly=True,
            filler="ar-batched",
        ),
        System(
            "lora-edit",
            "draft",
            None,
            None,
            "`hybrid draft --model smollm2-135m-legal-lora`: the default path, the diffusion editor (the adapted "
            "model's shift) on the shipped LoRA adaptation of SmolLM2-135M",
            model="smollm2-135m-legal-lora",
            costly=True,
        ),
        System(
            "hybrid-noguide",
            "diffusion",
            None,
            1.0,
            "diffusion fill from 1 precedent per span, default K, guidance off (w = 1)",
            precedents=1,
        ),
    ]
    rows += [
        System(
            f"hybrid-k{k}",
            "diffusion",
            k,
            None,
            f"diffusion fill from 1 precedent per span, K = {k}, default w",
            precedents=1,
        )
        for k in STEP_SWEEP
    ]
    rows.append(
        System(
            "planned",
            "planned",
            None,
            None,
            "the planner's outline for the doc type (template), then the default diffusion fill",
        )
    )
    return {s.name: s for s in rows}


SYSTEMS: dict[str, System] = _table()


def get_system(name: str) -> System:
    if name not in SYSTEMS:
        raise ConfigError(f"unknown system {name!r}; valid systems: {', '.join(SYSTEMS)}, real.")
    return SYSTEMS[name]


def parse_systems(spec: str) -> list[System]:
    """"hybrid,ar" -> [System, System] in the given order, duplicates dropped; every name checked.
    "real" (the real clauses, always scored as the ceiling) is accepted and needs no entry."""
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise ConfigError(f"--systems must name at least one system (valid: {', '.join(SYSTEMS)}, real), got {spec!r}.")
    names = [n for n in dict.fromkeys(names) if n != "real"]
    if not names:
        raise ConfigError(
            f"--systems must name at least one system besides real (valid: {', '.join(SYSTEMS)}), got {spec!r}."
        )
    return [get_system(n) for n in names]


# hybrid.common.sampling.SamplingParams fields, as benchmarks/fill.py
EVAL_SAMPLING = {"temperature": 0.8, "top_p": 0.9}


@lru_cache(maxsize=1)
def _templates():
    from hybrid.templates.template import list_templates

    return tuple(list_templates())


def template_for(doc_type: str):
    """The template whose doc type or grounding doc types name `doc_type` (trailing digits ignored); None if none."""
    key = re.sub(r"\d+$", "", doc_type.strip()).strip().upper()
    for t in _templates():
        if key == t.doc_type.upper() or key in (d.upper() for d in t.grounding.get("doc_types", [])):
            return t
    return None


def planned_fields(template, doc_fields: dict) -> dict:
    """The template's example fields with every document field the template declares and accepts laid over them."""
    from hybrid.common.errors import FieldError

    values = dict(template.example)
    for k, v in doc_fields.items():
        if k in template.fields["properties"]:
            try:
                template.validate_fields({**values, k: v})
            except FieldError:
                continue  # e.g. a CUAD party name longer than the template allows: keep the example's
            values[k] = v
    return template.validate_fields(values)


@dataclass
class Drafts:
    """N variants of one document's clause bodies, with what the metrics need to score them."""

    bodies: list[list[str]]  # [variant][span] generated body text
    segments: list  # the skeleton's Segments in order (body segments are placeholders)
    clauses: list[str]  # clause type per span
    terms: list[str]  # party names the bodies should write exactly (the runner adds the skeleton's defined terms)
    seconds: float  # wall time of plan + fill for all N variants
    tokens: int  # generated body tokens over all variants (drafting tokenizer, no <eos>)
    steps: int  # denoising steps (diffusion) or decode steps (AR) run
    plan_seconds: float = 0.0
    required: list[str] | None = None  # required clause types (a template's); None = every section
    outline: dict | None = None  # the planner's outline (planned only; None when it failed)
    template: str | None = None  # the template planned under (planned only)
    skipped: str = ""  # why no bodies were written (planned: no template for the doc type, planner failed)
    # per span: deal facts its body must state (document_terms; a template's for planned)
    required_terms: list[list[str]] | None = None
    # the facts of the precedents' source contracts (foreign to the deal in any case)
    source_facts: list[str] = field(default_factory=list)


def _pasted(template, fields, draft) -> list[str]:
    """A draft's sections as pasting would give them: the frame sentence of each section's clause (the template's,
    with the deal's facts) then the precedent it was drafted from with the deal's facts substituted, cut to the
    draft body's word count; a section drafted from no precedent keeps the draft's body."""
    from evals.metrics import first_words

    if all("frame" in sec for sec in draft.sections):  # a base draft records each section's frame
        frames = [sec["frame"] for sec in draft.sections]
    else:
        spans = template.render_skeleton(draft.outline, fields).spans
        frames = [getattr(sp, "frame", "") for sp in spans] if len(spans) == len(draft.sections) else []
    out = []
    for i, sec in enumerate(draft.sections):
        source = sec.get("start_text")
        if not source:
            out.append(sec["body"])
            continue
        frame = frames[i] if frames else ""
        text = f"{frame} {source}" if frame else source
        out.append(first_words(text, len(sec["body"].split())))
    return out


def deal_text(doc) -> str:
    """What a held-out document's deal states for the fact guard: its skeleton text (title, preamble,
    headings, tail) and its CUAD fields, as hybrid.fidelity.foreign_facts.allowed_text is for a template draft."""
    return (
        "".join(s.text for s in doc.segments() if s.kind != "body")
        + "\n"
        + "\n".join(str(v) for v in doc.fields.values())
    )


def document_terms(doc) -> list[list[str]]:
    """Per body span of a real document: the deal facts (party names, effective date, governing law)
    its real body states, which a faithful fill must state too (evals.metrics.document_deal_terms)."""
    from evals.metrics import document_deal_terms
    from hybrid.data.precedent_pairs import deal_from_document

    per_section = document_deal_terms(doc, deal_from_document(doc))
    return [per_section[s.section] for s in doc.segments() if s.kind == "body"]


class Engine:
    """The drafting model and everything the systems share; runs one system on one document."""

    def __init__(self, model, tokenizer, device="cpu", params=None, fill_config=None, corpus=None, record=None):
        import torch

        from hybrid.common.sampling import SamplingParams

        self.model, self.tokenizer = model, tokenizer
        self.record = record or {}  # the drafting checkpoint's training record (the reranker's window)
        self._drafters: dict = {}  # model spec (None: the drafting model) -> its Drafter
        self.device = torch.device(device)
        self.params = params or SamplingParams(**EVAL_SAMPLING)
        self.fill_config = fill_config
        self.corpus = corpus  # where the precedent library's train split comes from (None = the default corpus)
        self._planner = None
        self._library = None
        self._models: dict[str, tuple] = {}
        self._records: dict[str, dict] = {}  # model spec -> its training record (the reranker's window)
        self._last_draft = None  # (key, _default_drafts result) of the last document drafted

    def library(self):
        if self._library is None:
            from hybrid.precedents.library import load_library

            self._library = load_library(corpus=self.corpus, progress=False).use_relevance()  # as drafting retrieves
        return self._library

    def model_for(self, system: System) -> tuple:
        """(model, tokenizer) a system drafts with: the drafting model, or its own base (loaded once)."""
        if system.model is None:
            return self.model, self.tokenizer
        if system.model not in self._models:
            from hybrid.model.resolve import resolve

            m, tok, record = resolve(system.model)
            self._models[system.model] = (m.to(self.device).eval(), tok)
            self._records[system.model] = record or {}
        return self._models[system.model]

    def _autocast(self):
        import torch

        return torch.autocast("cuda", dtype=torch.bfloat16) if self.device.type == "cuda" else nullcontext()

    def _sync(self):
        import torch

        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def _fill(self, system: System, skeleton, n: int, seed: int, allowed: str = "", start=None, facts=()):
        """allowed: the deal's text; when given, the drafting model's fills apply the fact guard with it,
        and with `facts` (the precedents' own facts: their first pieces and phrases banned), as
        `hybrid draft` does (a pretrained base with its own tokenizer fills unguarded)."""
        from dataclasses import replace

        from hybrid.fidelity.fact_guard import FactGuard
        from hybrid.fill import ar as arfill
        from hybrid.fill.diffusion import sampler

        params = self.params
        if allowed and system.model is None:
            params = replace(
                params,
                fact_guard=FactGuard(
                    self.tokenizer, allowed, vocab=self.model.output_weight.shape[0], precedent_facts=facts
                ),
            )
        if system.kind == "ar":
            model, tok = self.model_for(system)
            return arfill.fill(model, tok, skeleton, n=n, seed=seed, params=params)
        steps = system.steps if system.steps is not None else sampler.DEFAULT_STEPS
        w = system.guidance if system.guidance is not None else sampler.DEFAULT_GUIDANCE
        return sampler.fill(self.model, self.tokenizer, skeleton, n=n, steps=steps, guidance=w, seed=seed,
                            params=params, config=self.fill_config, start=start)

    def warm_up(self, systems) -> None:
        """One tiny fill per filler kind, so first-call allocations are not timed."""
        from hybrid.data.document import Segment
        from hybrid.skeleton.tokenized import tokenize_segments

        segs = [
            Segment("AGREEMENT\n\n", "text"),
            Segment("1. Term.\n", "heading", 0),
            Segment("", "body", 0),
            Segment("\n\n", "text"),
        ]
        sk = tokenize_segments(self.tokenizer, segs, [8])
        for system in {s.model: s for s in systems if s.kind == "ar"}.values():
            model, tok = self.model_for(system)
            with self._autocast():
                self._fill(system, tokenize_segments(tok, segs, [8]), 2, 0)
        if any(s.kind in ("diffusion", "planned", "draft", "pasting", "form") for s in systems):
            with self._autocast():
                self._fill(SYSTEMS["hybrid-k4"], sk, 2, 0)
        if any(s.precedents or s.kind in ("retrieval", "draft", "pasting", "form") for s in systems):
            self.library()

    def planner(self):
        if self._planner is None:
            from hybrid.plan.planner import Planner

            self._planner = Planner(self.model, self.tokenizer)
        return self._planner

    def drafter(self, system: System | None = None):
        """The Drafter `hybrid draft` would build on the system's model (None: the drafting model; its library
        this engine's), built once per model."""
        spec = system.model if system is not None else None
        if spec not in self._drafters:
            from hybrid.draft.drafter import Drafter

            model, tok = self.model_for(system) if system is not None else (self.model, self.tokenizer)
            record = self.record if spec is None else self._records.get(spec, {})
            self._drafters[spec] = Drafter(model, tok, fill_config=self.fill_config, record=record,
                                           library=self.library())
        return self._drafters[spec]

    def _default_drafts(self, doc, n: int, seed: int, system: System | None = None):
        """(template, fields, variants in batch order, seconds) of `hybrid draft TEMPLATE --fields ... -n n --seed
        seed` on the document's deal: Drafter.draft with every default; the last call is kept, so `hybrid` and
        `pasting` of one document share it (a draft is deterministic per seed). A TemplateError or SamplingError
        comes back as the reason string in place of the variants."""
        model, filler = (system.model, system.filler) if system is not None else (None, None)
        key = (id(doc), getattr(doc, "doc_id", None), n, seed, model, filler)
        if self._last_draft is not None and self._last_draft[0] == key:
            return self._last_draft[1]
        template = template_for(doc.doc_type)
        if template is None:
            return None, None, f"no template for doc type {doc.doc_type!r}", 0.0
        fields = planned_fields(template, doc.fields)
        self._sync()
        from hybrid.draft.request import DraftRequest

        t0 = time.perf_counter()
        try:
            with self._autocast():
                # `hybrid draft`'s request, every default (a writer system: its --filler)
                request = DraftRequest.of(template, fields, n=n, seed=seed, **({"filler": filler} if filler else {}))
                drafts = sorted(self.drafter(system).draft(request), key=lambda d: d.variant)
        except (TemplateError, SamplingError) as e:
            drafts = f"drafting failed: {e}"
        self._sync()
        out = (template, fields, drafts, time.perf_counter() - t0)
        self._last_draft = (key, out)
        return out

    def _draft(self, doc, n: int, seed: int, paste: bool = False, system: System | None = None) -> Drafts:
        """`hybrid draft`'s default on the document's deal (see _default_drafts); scored on the draft's own
        skeleton (title, preamble, headings, signature block). paste=True: the `pasting` baseline, each section
        its frame sentence and its source text (the adapted precedent the draft starts from) cut to the draft
        body's word count; a section with no source keeps the draft's body."""
        from hybrid.data.document import Segment

        template, fields, drafts, seconds = self._default_drafts(doc, n, seed, None if paste else system)
        tokenizer = self.model_for(system)[1] if system is not None and not paste else self.tokenizer
        if isinstance(drafts, str):
            return self._skip(drafts, **({"template": template.id} if template is not None else {}))
        # a base draft's variants may differ in their sections (each its own base): the skeleton is the widest's,
        # and a variant with fewer sections has empty bodies after its last
        first = max(drafts, key=lambda d: len(d.sections))
        segs = [Segment(f"{first.title}\n\n{first.preamble}\n\n", "text")]
        for i, sec in enumerate(first.sections):
            segs += [Segment(f"{sec['number']}. {sec['heading']}\n", "heading", i), Segment("", "body", i)]
            segs.append(Segment("\n\n", "text"))
        segs.append(Segment(first.tail, "text"))
        width = len(first.sections)
        bodies = [
            ((_pasted(template, fields, d) if paste else [s["body"] for s in d.sections]) + [""] * width)[:width]
            for d in drafts
        ]
        return Drafts(
            bodies=bodies,
            segments=segs,
            clauses=[s["clause"] for s in first.sections],
            terms=[str(fields[k]) for k in ("party_a", "party_b") if fields.get(k)],
            seconds=0.0 if paste else seconds,
            tokens=0 if paste else sum(len(tokenizer.encode(b)) for v in bodies for b in v),
            steps=0,
            plan_seconds=0.0 if paste else float(first.timings.get("plan", 0.0)),
            required=list(template.required_clauses),
            outline=first.outline,
            template=template.id,
            required_terms=[list(template.clauses.get(s["clause"], {}).get("required_terms", []))
                            for s in first.sections],
            source_facts=list(first.source_facts),
        )

    def _form(self, doc, n: int, seed: int) -> Drafts:
        """The `form` baseline of the document's deal: the bases the default draft's variants start from, with the
        deal's facts substituted and nothing else (form_sections); a draft made section by section (no base) has
        none, and is skipped. Scored on the widest form's own skeleton (its headings)."""
        from hybrid.data.document import Segment
        from hybrid.precedents.base import Base, documents
        from hybrid.skeleton.from_base import form_sections

        template, fields, drafts, _ = self._default_drafts(doc, n, seed)
        if isinstance(drafts, str):
            return self._skip(drafts, **({"template": template.id} if template is not None else {}))
        if not all(d.base for d in drafts):
            return self._skip("the default draft has no base (section by section)", template=template.id)
        docs = documents(self.library())
        forms = [form_sections(Base(d.base["doc_id"], d.base["doc_type"], d.base["source"], docs[d.base["doc_id"]],
                                    d.base["kind"]), template, fields) for d in drafts]
        widest, first = max(forms, key=len), drafts[0]
        segs = [Segment(f"{first.title}\n\n{first.preamble}\n\n", "text")]
        for i, sec in enumerate(widest):
            segs += [Segment(f"{sec['number']}. {sec['heading']}\n", "heading", i), Segment("", "body", i),
                     Segment("\n\n", "text")]
        segs.append(Segment(first.tail, "text"))
        width = len(widest)
        return Drafts(
            bodies=[([s["body"] for s in f] + [""] * width)[:width] for f in forms],
            segments=segs,
            clauses=[s["clause"] for s in widest],
            terms=[str(fields[k]) for k in ("party_a", "party_b") if fields.get(k)],
            seconds=0.0,
            tokens=0,
            steps=0,
            required=list(template.required_clauses),
            template=template.id,
            required_terms=[[] for _ in widest],
            source_facts=list(first.source_facts),
        )

    def run(self, system: System, doc, n: int, seed: int) -> Drafts:
        """Fill `doc`'s clause bodies with `system`: n variants, timed (CUDA synchronized)."""
        from hybrid.data.document import Segment
        from hybrid.skeleton.tokenized import from_document, from_template

        plan_s, outline, tid, required, start, facts = 0.0, None, None, None, None, ()
        if system.kind == "retrieval":
            return self._retrieve(doc, n, seed)
        if system.kind in ("draft", "pasting"):
            return self._draft(doc, n, seed, paste=system.kind == "pasting", system=system)
        if system.kind == "form":
            return self._form(doc, n, seed)
        if system.kind == "planned":
            template = template_for(doc.doc_type)
            if template is None:
                return self._skip(f"no template for doc type {doc.doc_type!r}")
            fields = planned_fields(template, doc.fields)
            tid = template.id
            self._sync()
            t0 = time.perf_counter()
            try:
                with self._autocast():
                    plan = self.planner().plan(template, fields, seed=seed, params=self.params)
            except (TemplateError, SamplingError) as e:
                return self._skip(f"planner failed: {e}", template=tid)
            self._sync()
            plan_s = time.perf_counter() - t0
            outline = template.with_template_headings(plan.outline)  # as `hybrid draft` does by default
            skel = template.render_skeleton(outline, fields)
            sk = from_template(self.tokenizer, skel)
            required = list(template.required_clauses)
            terms = list(dict.fromkeys(t for s in skel.spans for t in s.locked))
        elif system.precedents:
            from hybrid.data.precedent_pairs import deal_from_document
            from hybrid.skeleton.from_precedents import document_skeleton, source_facts

            deal = deal_from_document(doc)
            if system.start < 1:  # as drafting edits: each variant its own draw, nothing beside the spans
                from hybrid.text.start import SpanEdits, starts_from_draws

                draws = [self.library().for_document(doc, variant=v, seed=seed) for v in range(n)]
                sk = document_skeleton(self.tokenizer, doc, None, deal)
                edits = SpanEdits(deal, deal_text(doc), [sp.length for sp in sk.spans], words=self.library().words(),
                                  facts_of=lambda p: source_facts(self.library(), p))
                start, facts = starts_from_draws(self.tokenizer, draws, edits, system.start, seed)
            else:
                hits = self.library().for_document(doc, seed=seed)
                sk = document_skeleton(self.tokenizer, doc, hits, deal)
                facts = list(dict.fromkeys(f for p in hits if p for f in source_facts(self.library(), p)))
            terms = [str(doc.fields[k]) for k in ("party_a", "party_b") if doc.fields.get(k)]
        else:
            sk = from_document(self.model_for(system)[1], doc)
            terms = [str(doc.fields[k]) for k in ("party_a", "party_b") if doc.fields.get(k)]
        self._sync()
        t0 = time.perf_counter()
        with self._autocast():
            allowed = skel.deal_text if system.kind == "planned" else deal_text(doc)
            results = self._fill(
                system if system.kind != "planned" else SYSTEMS["hybrid-beside"], sk, n, seed, allowed, start, facts
            )
        self._sync()
        fill_s = time.perf_counter() - t0
        # scored against the document's own skeleton: a precedent is the system's input, not context the judge may read
        segments = [
            Segment("", "body", s.section) if s.kind == "body" else s
            for s in (sk.segments if system.kind == "planned" else doc.segments())
        ]
        return Drafts(
            bodies=[list(r.spans) for r in results],
            segments=segments,
            clauses=[s.clause or doc.sections[s.section].clause_type for s in sk.spans]
            if system.kind != "planned"
            else [s.clause for s in sk.spans],
            terms=terms,
            seconds=plan_s + fill_s,
            tokens=sum(len(t) for r in results for t in r.tokens),
            steps=results[0].steps,
            plan_seconds=plan_s,
            required=required,
            outline=outline,
            template=tid,
            required_terms=[list(s.required_terms) for s in sk.spans]
            if system.kind == "planned"
            else document_terms(doc),
            source_facts=list(facts),
        )

    def _retrieve(self, doc, n: int, seed: int) -> Drafts:
        """Variant v = the v-th retrieval draw per section, the deal's facts written in, cut to the real body's
        words."""
        from evals.metrics import first_words
        from hybrid.data.document import Segment
        from hybrid.data.precedent_pairs import deal_from_document
        from hybrid.skeleton.from_precedents import source_facts

        t0 = time.perf_counter()
        segs = doc.segments()
        sections = [s.section for s in segs if s.kind == "body"]
        deal = deal_from_document(doc)
        bodies, facts = [], {}
        for v in range(n):
            hits = self.library().for_document(doc, variant=v, seed=seed)
            bodies.append(
                [
                    first_words(hits[i].adapted(deal), len(doc.sections[i].body.split())) if hits[i] else ""
                    for i in sections
                ]
            )
            facts.update(dict.fromkeys(f for i in sections if hits[i] for f in source_facts(self.library(), hits[i])))
        return Drafts(
            bodies=bodies,
            segments=[Segment("", "body", s.section) if s.kind == "body" else s for s in segs],
            clauses=[doc.sections[i].clause_type for i in sections],
            terms=[str(doc.fields[k]) for k in ("party_a", "party_b") if doc.fields.get(k)],
            seconds=time.perf_counter() - t0,
            tokens=0,
            steps=0,
            required_terms=document_terms(doc),
            source_facts=list(facts),
        )

    @staticmethod
    def _skip(reason: str, **kw) -> Drafts:
        return Drafts(
            bodies=[], segments=[], clauses=[], terms=[], seconds=0.0, tokens=0, steps=0, skipped=reason, **kw
        )
