"""One draft request: what to draft and how, validated once where it enters.

Owns: DraftRequest (template, fields, n, seed, steps, guidance, sampling, mmr, outline, the precedent
mode and its settings, filler, commit rule, threads), PrecedentMode, RequestValueError and the drafting
defaults (DRAFT_SAMPLING, HEADINGS). The command line, the Python API (Drafter.draft), the web page
(hybrid.serve.forms) and the evaluation harness (evals.systems) build this same object; __post_init__
fills in the defaults, then checks every field once (one rule, one raise: the message names the field,
what it may be and what it got), and the stages below trust it.
"""

import enum
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields

from hybrid.common.errors import SamplingError
from hybrid.common.options import COMMIT_RULES, MAX_PRECEDENTS, MAX_VARIANTS, MMR, SEED, float_range, int_range
from hybrid.common.sampling import SamplingParams
from hybrid.common.textsafe import shown
from hybrid.draft.loading import FILLERS
from hybrid.draft.work import MAX_DRAFT_TOKENS, outline_tokens
from hybrid.templates.template import Template, load_template

__all__ = ["DraftRequest", "PrecedentMode", "RequestValueError", "DRAFT_SAMPLING", "SAMPLING_FIELDS", "OPTIONS",
           "option_message", "EDIT_FILLERS", "DEFAULT_PRECEDENTS", "DEFAULT_PRECEDENT_START"]

DRAFT_SAMPLING = {"temperature": 0.8, "top_p": 0.95}  # the `hybrid plan` defaults; a request's sampling overrides them
SAMPLING_FIELDS = ("temperature", "top_k", "top_p", "min_p", "repetition_penalty", "no_repeat_ngram")
EDIT_FILLERS = ("diffusion", "ar-batched")  # the fillers that edit a precedent start (precedent_start < 1)
# What a draft does when the caller leaves the precedents unset: edit from one precedent per section, masking
# only what the deal needs changed (t = 0: the precedent's own facts, no random paraphrase noise; README
# "Drafting from precedent")
DEFAULT_PRECEDENTS = 1
DEFAULT_PRECEDENT_START = 0.0
_RANGES = {
    "n": int_range(1, MAX_VARIANTS),
    "steps": int_range(1, 1 << 16),
    "guidance": float_range(0, off=1),
    "seed": SEED,
    "mmr": MMR,
    "precedents": int_range(0, MAX_PRECEDENTS, off=0),
    "precedent_guidance": float_range(0, off=0),  # added to the guidance weight
    "precedent_start": float_range(0, 1, off=1),  # 0 = only what must change
    "threads": int_range(0, 1024),
}
_AR_FILLERS = ("ar", "ar-batched")  # no unconditional branch: no guidance
OPTIONS = {"n": "-n", "steps": "--steps", "guidance": "--guidance", "seed": "--seed", "temperature": "--temperature",
           "top_p": "--top-p", "precedents": "--precedents", "precedent_guidance": "--precedent-guidance",
           "precedent_start": "--precedent-start", "filler": "--filler", "commit": "--commit", "threads": "--threads",
           "base": "--base", "base_doc": "--base-doc"}
"""field -> the `hybrid draft` option that sets it: how the command line and the web page name it (option_message)."""


class RequestValueError(SamplingError, ValueError):
    """A field of a DraftRequest is invalid; `field` names it. The message names it too, with what it may be
    and what it got, each field as Python spells it (`precedents=0`); `spelled(names)` is the same message with
    the names a caller gave them (the command line's `--precedents 0`). A SamplingError, so the CLI prints it
    as one line and exits 2."""

    def __init__(self, field: str, say):
        self.field, self._say = field, say if callable(say) else (lambda spell: say)
        super().__init__(self._say(_python))

    def spelled(self, names: dict) -> str:
        """The message with each field called names[field] and a value after it as `--field value`."""
        def spell(name, *value):
            shown = names.get(name, name)
            return shown if not value else f"{shown} {value[0]!r}"

        return self._say(spell)


def option_message(e: RequestValueError) -> str:
    """The message of `e` as `hybrid draft` words it: each field called by its option (OPTIONS), a range as
    argparse says it (`argument -n: must be an integer in [1, 64], got 0.`)."""
    message = e.spelled(OPTIONS)
    option = OPTIONS.get(e.field, "")
    if option and message.startswith(f"{option} must be "):
        return f"argument {option}: {message[len(option) + 1:]}"
    return message


def _python(name, *value) -> str:
    return name if not value else f"{name}={value[0]!r}"


class PrecedentMode(str, enum.Enum):
    """How a draft uses the clause library's precedents."""

    OFF = "off"  # none: every clause drafted from scratch (precedents 0)
    BESIDE = "beside"  # k precedents sit before each span, the filler writes it beside them (precedent_start 1)
    EDIT = "edit"  # each variant's span starts as a precedent of its own; only its holes are written (start < 1)


def _mode_of(precedents: int, precedent_start: float) -> PrecedentMode:
    if not precedents:
        return PrecedentMode.OFF
    return PrecedentMode.EDIT if precedent_start < 1 else PrecedentMode.BESIDE


@dataclass(frozen=True, repr=False)
class DraftRequest:
    """A draft to make. Unset (None) fields take their defaults in __post_init__, which then checks them all.

    With no precedent field set (precedent_mode, precedents, precedent_guidance, precedent_start all None), the
    default is to edit from one precedent per section at precedent_start 0 with a filler that edits
    (EDIT_FILLERS), else none; a clause library that cannot be had then means drafting from scratch, with a
    note in Draft.settings["precedent_note"] (`precedent_fallback`). A request that sets one of them fails
    instead; so does one made by dataclasses.replace of a checked request, whose precedent fields are all set.
    """

    template: Template | str  # a template id, a path to a template JSON file, or a Template; loaded here
    fields: dict  # the deal's field values; validated against the template (defaults filled in)
    n: int = 4  # variants drafted, 1..MAX_VARIANTS (64)
    seed: int = 0  # 0 .. 2**64 - 1; same seed, same drafts
    steps: int | None = None  # denoising steps K, 1..65536 (None: the diffusion filler's DEFAULT_STEPS)
    guidance: float | None = None  # w >= 0 in uncond + w (cond - uncond); 1 = off (None: DEFAULT_GUIDANCE)
    sampling: SamplingParams | dict | None = None  # SAMPLING_FIELDS over DRAFT_SAMPLING; becomes SamplingParams
    mmr: float = 0.0  # reranker diversity weight in [0, 1); 0 = order by score
    outline: dict | None = None  # None: the planner writes one; the n variants share it
    precedent_mode: PrecedentMode | str | None = None  # off / beside / edit (None: from the fields below)
    precedents: int | None = None  # precedents per section, 0..MAX_PRECEDENTS (4); 0 = off
    precedent_guidance: float | None = None  # >= 0, added to guidance on the precedents beside the span; 0 = off
    precedent_start: float | None = None  # edit start noise in [0, 1]: 0 = only what must change, 1 = off
    filler: str = "diffusion"  # FILLERS: "diffusion", "ar" or "ar-batched"
    commit: str = "auto"  # the diffusion filler's commit rule (COMMIT_RULES); auto: runs when editing
    threads: int | None = None  # torch CPU threads, 0 = torch's default; None = leave them as they are
    # one coherent base document per variant (hybrid.skeleton.from_base); False: each section from its own
    # precedent (the section-by-section assembly); None: on when editing precedents with no outline given
    base: bool | None = None
    # the base document every variant starts from, chosen by the lawyer: a library document id or a part of one
    # that names one candidate base of the kind (hybrid.skeleton.from_base.base_variants checks it against them);
    # None: the engine's choice (hybrid.precedents.base.choose_bases)
    base_doc: str | None = None
    precedent_fallback: bool = field(init=False, repr=False)  # no precedent field set: see the class docstring

    @classmethod
    def of(cls, template, fields: dict, **kw) -> "DraftRequest":
        """A request from keyword arguments: the dataclass's fields by name, any other keyword a sampling
        argument (temperature=0.5, top_p=0.9, ...); DraftRequest.of("mutual-nda", fields, n=4, seed=7)."""
        names = {f.name for f in dataclass_fields(cls) if f.init}
        sampling = {k: kw.pop(k) for k in list(kw) if k not in names}
        if sampling:
            if kw.get("sampling") is not None:
                raise RequestValueError("sampling", f"pass sampling arguments either as sampling= or as keywords, "
                                        f"not both; got sampling={kw['sampling']!r} and {sorted(sampling)}.")
            kw["sampling"] = sampling
        return cls(template, fields, **kw)

    def __post_init__(self):
        set_ = object.__setattr__  # frozen: the normalised values are written once, here
        set_(self, "sampling", _sampling(self.sampling))
        if self.filler not in FILLERS:
            raise RequestValueError("filler", lambda n: f"{n('filler')} must be one of {', '.join(FILLERS)}, got "
                                    f"{self.filler!r}.")
        from hybrid.fill.diffusion.fill_config import DEFAULT_GUIDANCE, DEFAULT_STEPS

        set_(self, "steps", DEFAULT_STEPS if self.steps is None else self.steps)
        set_(self, "guidance", DEFAULT_GUIDANCE if self.guidance is None else self.guidance)
        for name in ("n", "steps", "guidance", "seed", "mmr"):
            _check(name, getattr(self, name))
        if self.threads is not None:
            _check("threads", self.threads)
        self._check_commit()
        if self.filler in _AR_FILLERS and self.guidance != 1:
            raise RequestValueError(
                "guidance", lambda n: f"{n('guidance')} must be 1 (off) for the AR filler {self.filler!r} (it has no "
                f"unconditional branch), got {self.guidance!r}."
            )
        self._resolve_precedents()
        self._resolve_base()
        # last, so that a bad number is named before the deal's fields (TemplateError, FieldError: their own)
        template = load_template(self.template)
        set_(self, "template", template)
        set_(self, "fields", template.validate_fields(self.fields))
        if self.outline is not None:
            template.validate_outline(self.outline)
        self._check_work()

    def _check_work(self) -> None:
        """The draft's total work (sections x budget x n, hybrid.draft.work) within MAX_DRAFT_TOKENS: past it, the
        message names the numbers, the bound and the largest n that fits (the template itself when none does)."""
        sections, tokens = outline_tokens(self.template, self.outline)
        if tokens * self.n <= MAX_DRAFT_TOKENS:
            return
        what = f"template {self.template.id!r}: up to {sections} sections, {tokens:,} span tokens a variant"
        fits = MAX_DRAFT_TOKENS // max(tokens, 1)
        if fits < 1:
            raise RequestValueError("template", f"{what} ({MAX_DRAFT_TOKENS:,} at most for a whole draft); give it "
                                    "fewer sections or smaller budgets.")
        raise RequestValueError(
            "n", lambda n: f"{n('n', self.n)} asks for {tokens * self.n:,} span tokens ({what}, x {self.n} variants); "
            f"a draft may write at most {MAX_DRAFT_TOKENS:,}: at most {fits} variants of this template."
        )

    def _check_commit(self) -> None:
        if self.commit not in COMMIT_RULES:
            raise RequestValueError("commit", lambda n: f"{n('commit')} must be one of {', '.join(COMMIT_RULES)}, got "
                                    f"{self.commit!r}.")
        if self.commit != "auto" and self.filler != "diffusion":
            raise RequestValueError(
                "commit", lambda n: f"{n('commit')} chooses the diffusion filler's commits: it needs {n('filler')} "
                f"diffusion, got {n('filler')} {self.filler} with {n('commit')} {self.commit}."
            )

    def _resolve_precedents(self) -> None:
        """The precedent fields, unset ones given their defaults (the class docstring), then checked."""
        mode = self.precedent_mode
        if mode is not None:
            try:
                mode = PrecedentMode(mode)
            except ValueError:
                raise RequestValueError(
                    "precedent_mode", lambda n: f"{n('precedent_mode')} must be one of "
                    f"{', '.join(m.value for m in PrecedentMode)}, got {mode!r}.",
                ) from None
        k, w, t = self.precedents, self.precedent_guidance, self.precedent_start
        fallback = mode is None and k is None and w is None and t is None
        w = 0.0 if w is None else w
        edits = self.filler in EDIT_FILLERS
        if k is None:
            if mode is not None:
                k = 0 if mode is PrecedentMode.OFF else DEFAULT_PRECEDENTS
            else:
                asked = t not in (None, 1, 1.0) or w not in (0, 0.0)  # compares, never raises on a bad type
                k = DEFAULT_PRECEDENTS if edits or asked else 0
        if t is None:
            if mode is not None:
                t = DEFAULT_PRECEDENT_START if mode is PrecedentMode.EDIT else 1.0
            else:
                t = DEFAULT_PRECEDENT_START if k not in (0, False) and w in (0, 0.0) and edits else 1.0
        _check_precedents(k, w, t, self.filler)
        used = _mode_of(k, t)
        if mode is not None and mode is not used:
            raise RequestValueError(
                "precedent_mode", lambda n: f"{n('precedent_mode', mode.value)} does not go with "
                f"{n('precedents', k)} and {n('precedent_start', t)}, which are mode {used.value!r} (off: "
                f"{n('precedents')} 0; beside: {n('precedents')} >= 1, {n('precedent_start')} 1; edit: "
                f"{n('precedents')} >= 1, {n('precedent_start')} < 1)."
            )
        for name, value in (("precedent_mode", used), ("precedents", k), ("precedent_guidance", w),
                            ("precedent_start", t), ("precedent_fallback", fallback)):
            object.__setattr__(self, name, value)

    def _resolve_base(self) -> None:
        """base: None becomes on exactly when each variant edits precedents and no outline is given; on is
        refused with another precedent mode or a given outline (a base brings its own sections)."""
        base = self.base
        if base is None:
            base = self.precedent_mode is PrecedentMode.EDIT and self.outline is None
        elif not isinstance(base, bool):
            raise RequestValueError("base", lambda n: f"{n('base')} must be true or false, got {base!r}.")
        elif base and (self.precedent_mode is not PrecedentMode.EDIT or self.outline is not None):
            raise RequestValueError(
                "base", lambda n: f"{n('base')} drafts each variant from one base document: it needs "
                f"{n('precedent_mode')} edit and no outline (a base brings its own sections), got "
                f"{n('precedent_mode', self.precedent_mode.value)}"
                f"{' and an outline' if self.outline is not None else ''}."
            )
        if self.base_doc is not None and (not isinstance(self.base_doc, str) or not self.base_doc.strip()):
            raise RequestValueError("base_doc", lambda n: f"{n('base_doc')} must name a base document (its id or a "
                                    f"part of it), got {self.base_doc!r}.")
        if self.base_doc is not None and not base:
            raise RequestValueError("base_doc", lambda n: f"{n('base_doc')} names the document every variant starts "
                                    f"from: it needs {n('base')} on (the default when editing precedents), got it off.")
        object.__setattr__(self, "base", base)

    def __repr__(self) -> str:
        parts = [f"template={self.template.id!r}"] + [
            f"{f.name}={getattr(self, f.name)!r}" for f in dataclass_fields(self) if f.repr and f.name != "template"
        ]
        return f"DraftRequest({', '.join(parts)})"

    @property
    def edits(self) -> bool:
        """Whether each variant edits a precedent start (PrecedentMode.EDIT)."""
        return self.precedent_mode is PrecedentMode.EDIT

    def precedent_settings(self) -> dict:
        """What Draft.settings records of the precedents: how many, their guidance and start as used."""
        return {"precedents": self.precedents, "precedent_guidance": self.precedent_guidance,
                "precedent_start": self.precedent_start}


def _check(name: str, value) -> None:
    rng = _RANGES[name]
    if not rng.contains(value):
        raise RequestValueError(name, lambda n: f"{n(name)} must be {rng.rule()}, got {shown(value)}.")


def _sampling(sampling) -> SamplingParams:
    """SamplingParams of a request's sampling (None: DRAFT_SAMPLING; a dict: its names over DRAFT_SAMPLING)."""
    if isinstance(sampling, SamplingParams):
        return sampling
    sampling = {} if sampling is None else sampling
    if not isinstance(sampling, dict):
        raise RequestValueError("sampling", f"sampling must be a dict or SamplingParams, got {sampling!r}.")
    unknown = [k for k in sampling if k not in SAMPLING_FIELDS]
    if unknown:
        raise RequestValueError(
            unknown[0], f"unknown sampling argument {unknown[0]!r}; allowed: {', '.join(SAMPLING_FIELDS)}."
        )
    try:
        return SamplingParams(**{**DRAFT_SAMPLING, **sampling})
    except (SamplingError, TypeError, ValueError) as e:  # SamplingParams's own rule; its message names the field
        message = str(e)
        name = next((k for k in sampling if message.startswith(k + " ")), "sampling")
        say = (lambda n: message) if name == "sampling" else (lambda n: n(name) + message[len(name):])
        raise RequestValueError(name, say) from None


def _check_precedents(k, w, t, filler: str) -> None:
    """precedents an integer in [0, MAX_PRECEDENTS], precedent_guidance finite >= 0, precedent_start in [0, 1],
    and how they go together and with the filler."""
    for name, value in (("precedents", k), ("precedent_guidance", w), ("precedent_start", t)):
        _check(name, value)
    if w and not k:
        raise RequestValueError("precedent_guidance", lambda n: f"{n('precedent_guidance')} needs {n('precedents')} "
                                f">= 1, got {n('precedents', k)} with {n('precedent_guidance', w)}.")
    if t < 1 and not k:
        raise RequestValueError("precedent_start", lambda n: f"{n('precedent_start')} needs {n('precedents')} >= 1, "
                                f"got {n('precedents', k)} with {n('precedent_start', t)}.")
    if w and t < 1:
        raise RequestValueError(
            "precedent_guidance", lambda n: f"{n('precedent_guidance')} guides on the precedents beside each clause; "
            f"editing from precedent ({n('precedent_start')} < 1) puts none beside it (each variant edits its own): "
            f"leave {n('precedent_guidance')} at 0, got {n('precedent_guidance', w)} with {n('precedent_start', t)}."
        )
    if t < 1 and filler not in EDIT_FILLERS:
        raise RequestValueError(
            "precedent_start", lambda n: f"{n('precedent_start')} < 1 needs a filler that edits a start "
            f"({', '.join(EDIT_FILLERS)}), got {n('filler', filler)} with {n('precedent_start', t)}."
        )
    if w and filler in _AR_FILLERS:
        raise RequestValueError(
            "precedent_guidance", lambda n: f"{n('precedent_guidance')} must be 0 (off) for the AR filler {filler!r} "
            f"(it has no unconditional branch), got {w!r}."
        )
