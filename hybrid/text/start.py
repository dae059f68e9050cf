"""Drafting by editing a precedent: each span starts as its top precedent, adapted to the deal and
partly noised, and the diffusion filler writes only the masked tokens (SDEdit's idea for an
absorbing-state model: run the forward process to time t on a real text instead of starting
from all-masked, then denoise).

Owns: `start_tokens` (one span's start: the adapted precedent tokenized, each word masked with
probability t, the deal's facts always kept, the precedent's foreign facts always masked so the
guarded filler rewrites them), `SpanStart` (those ids with the precedent's own token under each
noised hole and the words a hole may write) and `precedent_starts` (every variant and span of a
draft), and the start phase's runs of hybrid.text.pipeline: `settled_start` (a precedent through the start passes
up to the fit, memoized) and `starts_from_draws` (the rest of the phase, cut to each span's room, then masked).
Knows nothing about models; the filler takes the result as `fill(..., start=...)`
(hybrid.fill.diffusion.start: a hole that writes a word no contract uses is masked again, and at the
end given back its precedent's word; the clause ends where its precedent ends).

t = 1 is drafting from scratch with the precedent in view only (every token masked: what
`--precedents` alone does); t -> 0 approaches retrieval (the precedent as is, facts adapted).
Each variant masks its own tokens (a generator seeded by seed, variant and span), so variants of
one precedent differ where they were masked.
"""

import random
import re
from dataclasses import dataclass, replace

import hybrid.text.start_passes  # noqa: F401  (registers the start phase's passes)
from hybrid.common.errors import SamplingError
from hybrid.data.facts import DealFacts
from hybrid.precedents.fact_spans import ORDINARY_KINDS as ORDINARY_KINDS  # re-exported
from hybrid.precedents.fact_spans import fact_holes, fact_spans, found_facts, overlaps
from hybrid.precedents.library import letter_words
from hybrid.text.context import StartContext
from hybrid.text.passes import disabled, run
from hybrid.text.pipeline import FIT, phase

__all__ = [
    "SpanStart",
    "WordNoise",
    "StartNoise",
    "fact_holes",
    "start_tokens",
    "precedent_starts",
    "starts_from_draws",
    "settled_start",
    "SpanEdits",
    "found_facts",
    "edit_allowed",
]


_SENTENCE_END = re.compile(r"[.;:!?]+[\"')\]”’]*")  # a token that ends a sentence or a clause of one


class SpanStart(list):
    """A span's start ids (<mask> where the filler writes), as `fill(start=)` reads them, with what
    editing needs beside them: `original[i]` the precedent's own token under a hole that random noise
    made (-1 where the hole is a foreign fact, which must never come back), `words` the lower-case
    words a hole may write (None: any), `ends` True when the ids hold the whole precedent, so the
    clause ends where it does (no text written from scratch after it)."""

    def __init__(self, ids, original=None, words=None, ends: bool = False):
        super().__init__(ids)
        self.original = list(original) if original is not None else [-1] * len(self)
        self.words, self.ends = words, ends
        self.spaced: "SpanStart | None" = None  # the start of " " + text (start_tokens)


@dataclass(frozen=True)
class WordNoise:
    """How one span's start is noised: each word masked with probability t, drawn from rng."""

    t: float  # in [0, 1]: 0 keeps the precedent's words, 1 masks them all
    rng: random.Random  # one per variant and span (StartNoise.of)


@dataclass(frozen=True)
class StartNoise:
    """How a draft's n variants' starts are noised: each word masked with probability t, variant v's span s drawn
    from its own generator seeded by (seed, v, s), so variants of one precedent differ where they were masked."""

    t: float  # in [0, 1], checked where the request entered (hybrid.draft.request.DraftRequest)
    n: int  # variants
    seed: int

    def of(self, v: int, s: int) -> WordNoise:
        return WordNoise(self.t, random.Random(f"{self.seed}:{v}:{s}"))


def start_tokens(tokenizer, text: str, deal: DealFacts, allowed: str, noise: WordNoise, budget: int, own_facts=(),
                 words=None) -> SpanStart:
    """The first `budget` tokens of `text` (an adapted precedent), <mask> where the filler writes:
    tokens of the deal's facts kept (also inside a phrase masked as foreign), tokens of facts `allowed` does not state,
    of isolated acronyms
    it does not write (hybrid.fidelity.foreign_facts.foreign_acronyms) and of CUAD's redaction marks ("[***]")
    masked, every other
    word's tokens masked together with probability t (a word masked in part would come back as a
    broken word: "Discloser" with its first piece masked reads "Wloser"), except, for t < 1, the
    token that ends it with a full stop, semicolon or colon (the sentence still ends there). A SpanStart: `original`
    holds the precedent's token under each noised hole, `words` is passed on, `ends` is True when
    the whole text fits the budget, and `spaced` is the same start (the same words masked) for the
    text after a space, which the filler takes where a frame sentence ends right before the span
    ("... Effective Date." + " The term ...", not "Date.The")."""
    t, rng = noise.t, noise.rng
    keep, drop = fact_spans(text, deal, allowed, own_facts)
    draws = [rng.random() < t for _ in range(len(text.split()) + 1)]  # one per whitespace word (+ a trailing space)
    out = _start(tokenizer, text, keep, drop, draws, budget, words, t < 1)
    if not text[:1].isspace():  # the same words masked after a space: the spans move by one character
        out.spaced = _start(
            tokenizer,
            " " + text,
            [(a + 1, b + 1) for a, b in keep],
            [(a + 1, b + 1) for a, b in drop],
            draws,
            budget,
            words,
            t < 1,
        )
    return out


def _start(tokenizer, text, keep, drop, draws, budget, words, stops: bool = True) -> SpanStart:
    enc = tokenizer.hf.encode(text, add_special_tokens=False)
    ids, offsets = enc.ids[:budget], enc.offsets[:budget]
    # draws[w] for all tokens of whitespace word w (a space token goes with the word it opens)
    word, index, opened = -1, [], -1  # opened: where the last word started (the byte pieces of one
    for a, b in offsets:  # character, "™" as three tokens, share its offsets: that word opens once)
        opens = [p for p in range(a, b) if p > opened and not text[p].isspace() and (p == 0 or text[p - 1].isspace())]
        if opens:
            word, opened = word + 1, opens[-1]
        index.append(word + 1 if text[a:b].isspace() else max(word, 0))
    out, original = [], []
    for i, (a, b), w in zip(ids, offsets, index):
        if overlaps(a, b, keep):
            out.append(i)  # the deal's own fact, also inside a phrase the check calls foreign ("Company Competitor")
            original.append(-1)
        elif overlaps(a, b, drop):
            out.append(tokenizer.mask_id)
            original.append(-1)
        elif not draws[w] or (stops and _SENTENCE_END.fullmatch(text[a:b]) and (b >= len(text) or text[b].isspace())):
            out.append(i)  # unnoised, or the full stop that ends a noised word: the sentence still ends there
            original.append(-1)  # (rewritten with it, "... the Agreement" + "Alternatively," ran into one sentence)
        else:
            out.append(tokenizer.mask_id)
            original.append(i)
    return SpanStart(out, original, words, ends=len(enc.ids) <= budget)


def precedent_starts(tokenizer, texts, deal: DealFacts, allowed: "str | list[list[str]]", noise: StartNoise,
                     budgets: list[int], own_facts=None, words=None) -> list[list[list[int]]]:
    """start[v][s] for noise.n variants (StartNoise): span s starts from texts[s] (None or "": fully masked), or, when
    texts holds one list per variant (len n, each a list per span), variant v's span s from
    texts[v][s] (each variant edits its own draw of precedents); own_facts[s] (or own_facts[v][s]):
    the facts its precedent's normalization replaced (Precedent.facts), masked wherever they still
    stand; words: the lower-case words a hole may write (hybrid.precedents.library.Library.words; None = any);
    allowed: the deal's text, or allowed[v][s] per variant and span: what span s of variant v may state as it
    stands (edit_allowed)."""
    n, noise = noise.n, replace(noise, t=float(noise.t))
    per_variant = bool(texts) and isinstance(texts[0], (list, tuple))
    if per_variant and len(texts) != n:
        raise SamplingError(f"per-variant start texts must hold n={n} lists, got {len(texts)}.")
    texts_v = texts if per_variant else [texts] * n
    facts_v = own_facts if (per_variant and own_facts) else [own_facts or [()] * len(texts_v[0])] * n
    allowed_of = None if isinstance(allowed, str) else allowed
    if words is not None:  # the deal's own words may be written too
        texts_allowed = [allowed] if allowed_of is None else {a for row in allowed_of for a in row}
        words = frozenset(words).union(*(letter_words(a) for a in texts_allowed))
    return [
        [
            start_tokens(tokenizer, x, deal, allowed_of[v][s] if allowed_of else allowed, noise.of(v, s), b, f, words)
            if x else []
            for s, (x, b, f) in enumerate(zip(texts_v[v], budgets, facts_v[v]))
        ]
        for v in range(n)
    ]


def edit_allowed(p, text: str, allowed: str, own_facts=()) -> str:
    """What an edit of precedent p may state as it stands: the deal's text `allowed`, and for a clause of the user's
    own library (hybrid.precedents.user.is_own) its own words too, less its source's facts (own_facts, which the
    deal-fact substitution replaces): the firm's wording is trusted, never read as another deal's facts ("as agreed
    at the Pelican Bay offsite" had been masked and rewritten "as agreed at the end of the Agreement for the
    offsite")."""
    from hybrid.precedents.user import is_own

    if not is_own(p):
        return allowed
    for f in own_facts:
        text = text.replace(f, " ")
    return f"{allowed}\n{text}"


_SETTLED: dict = {}  # (text, deal, allowed, own facts, frame, heading, others) -> settled text, within one process


def settled_start(p, ctx: StartContext) -> str:
    """What an edit of precedent p keeps before any hole opens: its text adapted to ctx.deal through the start phase
    of hybrid.text.pipeline up to the fit (its run-in heading dropped, a framed span's any; its parts headed as a
    clause type in ctx.others dropped, while their run-in headings stand; settled: hybrid.text.start_passes;
    ctx.whole: a section of a whole base, which keeps all it can mend). Memoized per passes switched off too:
    hybrid.skeleton.from_precedents asks it of the precedents it may choose, and starts_from_draws of those chosen."""
    text = p.adapted(ctx.deal)
    ctx = replace(ctx, allowed=edit_allowed(p, text, ctx.allowed, ctx.own))  # a user library's own words too
    key = (text, ctx.key(), disabled())
    if key not in _SETTLED:
        if len(_SETTLED) > 4096:
            _SETTLED.clear()
        _SETTLED[key] = run(phase("start", stop=FIT), text, ctx)[0]
    return _SETTLED[key]


@dataclass
class SpanEdits:
    """What starts_from_draws needs of a draft's spans beside the draws. deal: the deal's facts; allowed: the text
    whose facts are the deal's; budgets[s]: span s's tokens. words: the words a hole may write (None: any);
    rooms[s]: the tokens span s's start may take (None: whole); deals[s]: the facts span s adapts to (None: `deal`
    everywhere); facts_of(p): a precedent's own facts (None: p.facts; hybrid.skeleton.from_precedents.source_facts
    adds its whole source contract's); lower: the words another deal's terms may be written in lower case with
    (hybrid.precedents.fit.common_words; None: none are); frames[s]: the frame sentence opening span s (its
    restatements are taken out, and where the precedent says nothing else the span ends after the frame);
    headings[s]: span s's heading (an unframed span keeps a run-in heading of its precedent on another subject;
    None: every run-in heading goes); others[s]: the clause types of the draft's other sections, whose parts span
    s's edit drops; whole: each draw is a section of the whole base the variant stands on (it keeps all it can
    mend)."""

    deal: DealFacts
    allowed: str
    budgets: list
    words: object = None
    rooms: list | None = None
    deals: list | None = None
    facts_of: object = None
    lower: object = None
    frames: list | None = None
    headings: list | None = None
    others: list | None = None
    whole: bool = False

    def context(self, s: int, own=()) -> StartContext:
        """Span s's start context for a precedent whose own facts are `own`."""
        pick = lambda xs, default: xs[s] if xs else default  # noqa: E731
        return StartContext(pick(self.deals, self.deal), self.allowed, tuple(own), self.lower,
                            pick(self.frames, "") or "", pick(self.headings, None), frozenset(pick(self.others, ())),
                            self.whole)


def starts_from_draws(tokenizer, draws, edits: SpanEdits, t: float, seed: int) -> tuple[list, list[str]]:
    """(start[v][s], the precedents' own facts for the fact guard): variant v edits draws[v][s] (a
    hybrid.precedents.library.Precedent: settled_start, then the start phase from the fit on, cut at the last
    sentence end within edits.rooms[s] tokens; None: fully masked; "" in a framed span: the frame alone),
    n = len(draws)."""
    facts_of = edits.facts_of or (lambda p: p.facts)
    facts = [[facts_of(p) if p else () for p in d] for d in draws]
    cut = phase("start", start=FIT)  # the start phase after its memoized part: fit, trailing headings, ...
    frames = edits.frames or [""] * len(edits.budgets)
    rooms = edits.rooms or [None] * len(edits.budgets)
    texts = [
        [
            run(cut, settled_start(p, edits.context(s, own)), StartContext(tokenizer=tokenizer, room=rooms[s]))[0]
            if p
            else ("" if p == "" and frames[s] else None)  # "": the frame alone (from_precedents.FRAME_ALONE)
            for s, (p, own) in enumerate(zip(d, fs))
        ]
        for d, fs in zip(draws, facts)
    ]
    frame_only = {(v, s) for v, row in enumerate(texts) for s, x in enumerate(row) if x == "" and frames[s]}
    allowed = [[edit_allowed(p, x or "", edits.allowed, f) for p, x, f in zip(d, row, fs)]
               for d, row, fs in zip(draws, texts, facts)]  # per variant and span: a user library's own words too
    start = precedent_starts(tokenizer, texts, edits.deal, allowed, StartNoise(t, len(draws), seed), edits.budgets,
                             facts, words=edits.words)
    for v, s in frame_only:  # the precedent only restated the frame: the clause ends after it
        start[v][s] = SpanStart([], ends=True)
    return start, list(dict.fromkeys(f for row in facts for fs in row for f in fs))
