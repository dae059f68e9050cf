"""Drafting by editing a precedent: each span starts as its top precedent, adapted to the deal and
partly noised, and the diffusion filler writes only the masked tokens (SDEdit's idea for an
absorbing-state model: run the forward process to time t on a real text instead of starting
from all-masked, then denoise).

Owns: `start_tokens` (one span's start: the adapted precedent tokenized, each word masked with
probability t, the deal's facts always kept, the precedent's foreign facts always masked so the
guarded filler rewrites them), `SpanStart` (those ids with the precedent's own token under each
noised hole and the words a hole may write) and `precedent_starts` (every variant and span of a
draft). Knows nothing about models; the filler takes the result as `fill(..., start=...)`
(hybrid.fill.diffusion.start: a hole that writes a word no contract uses is masked again, and at the
end given back its precedent's word; the clause ends where its precedent ends).

t = 1 is drafting from scratch with the precedent in view only (every token masked: what
`--precedents` alone does); t -> 0 approaches retrieval (the precedent as is, facts adapted).
Each variant masks its own tokens (a generator seeded by seed, variant and span), so variants of
one precedent differ where they were masked.
"""

import random
import re

from hybrid.common.errors import SamplingError
from hybrid.common.sentences import (
    CONNECTIVES,
    HEADING_BEFORE_TEXT,
    cut_to_clause,
    cut_to_sentence,
    sentence_boundaries,
)
from hybrid.common.stems import content_stems
from hybrid.data.clean import REDACTION_RE
from hybrid.data.facts import DealFacts
from hybrid.fidelity.foreign_facts import foreign_acronyms, foreign_facts, party_names, source_words
from hybrid.fidelity.ordinary_words import load_ordinary_words
from hybrid.precedents.definitions import defined_heads
from hybrid.precedents.library import letter_words
from hybrid.precedents.parts import drop_repeated_parts

__all__ = [
    "SpanStart",
    "fact_holes",
    "start_tokens",
    "precedent_starts",
    "starts_from_draws",
    "settled_start",
    "found_facts",
    "edit_allowed",
]


ORDINARY_KINDS = ("name", "statute")  # foreign facts that are no deal's when of ordinary words (_fact_spans)
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


def fact_holes(text: str, deal: DealFacts, allowed: str, own_facts=()) -> int:
    """How many holes an edit of `text` (an adapted precedent) must open at t = 0: the runs of characters
    start_tokens always masks (foreign facts, redactions, another deal's acronyms, the source's own facts)."""
    _, drop = _fact_spans(text, deal, allowed, own_facts)
    runs, end = 0, -1
    for a, b in sorted(drop):
        if a > end + 1:
            runs += 1
        end = max(end, b)
    return runs


def _overlaps(a: int, b: int, spans) -> bool:
    return any(a < e and s < b for s, e in spans)


def start_tokens(
    tokenizer,
    text: str,
    deal: DealFacts,
    allowed: str,
    t: float,
    rng: random.Random,
    budget: int,
    own_facts=(),
    words=None,
) -> SpanStart:
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
    keep, drop = _fact_spans(text, deal, allowed, own_facts)
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


_FOUND: dict = {}  # (text, allowed, own facts) -> its foreign facts, within one process


def found_facts(text: str, allowed: str, own_facts=()) -> list:
    """hybrid.fidelity.foreign_facts.foreign_facts of text, party_names() as the names, memoized: the fact spans,
    the worded holes, the lowered names and the figure blanks of one settling each ask it of the same text."""
    key = (text, allowed, tuple(own_facts))
    if key not in _FOUND:
        if len(_FOUND) > 4096:
            _FOUND.clear()
        _FOUND[key] = foreign_facts(text, allowed, party_names(), own_facts)
    return _FOUND[key]


def _fact_spans(text: str, deal: DealFacts, allowed: str, own_facts) -> tuple[list, list]:
    """(keep, drop): character spans of text that stay as written (the deal's facts, the terms definitions
    define: hybrid.precedents.definitions.defined_heads) and that are
    always masked (foreign facts wherever they stand, the precedent's own names in any case among them,
    redaction marks, another deal's acronyms, the precedent's own leftover names as written). A
    reference ("Section 8.2") is no foreign fact: the consistency pass renumbers it. Nor is a name, statute or
    acronym of ordinary words (hybrid.fidelity.ordinary_words: "acts of God", "shall NOT", "the FCPA"), which
    contracts of many companies write: masked, the filler rewrote it, and a base's blank read as damage."""
    keep = [(m.start(), m.end()) for f in deal.strings() for m in re.finditer(re.escape(f), text)]
    keep += defined_heads(text, allowed)  # '"Affiliate" means': the term a definition defines stays as written
    ordinary = load_ordinary_words()
    found = [
        f
        for f in found_facts(text, allowed, own_facts)
        if f.kind not in ORDINARY_KINDS or not ordinary.ordinary(f.text, allowed)
    ]
    drop = [(f.start, f.end) for f in found]
    for name in {f.text for f in found if f.kind == "name" and len(f.text) >= 3}:  # every other place it stands too:
        # the check skips a capitalized word after a list marker ("(a) Discloser identifies"), which a
        # rewritten neighbour can turn into mid-sentence
        drop += [(m.start(), m.end()) for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)]
    drop += [(m.start(), m.end()) for m in REDACTION_RE.finditer(text)]  # CUAD's "[***]": a hole to fill, not text
    # another deal's short name ("LBIO"), which find_facts skips; not an ordinary one ("NOT", "FCPA")
    drop += [(a, b) for a, b in foreign_acronyms(text, allowed) if not ordinary.ordinary(text[a:b], allowed)]
    for f in own_facts:  # the precedent's own names that its normalization missed ("CERES" beside "[PARTY_A]"); a fact
        # in lower case of words only ("about", "the racing": its party matched in any case) is no name
        if len(f) >= 3 and f.lower() not in allowed.lower() and (f != f.lower() or source_words([f], allowed)):
            drop += [(m.start(), m.end()) for m in re.finditer(r"(?<!\w)" + re.escape(f) + r"(?!\w)", text)]
    return keep, drop


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
        if _overlaps(a, b, keep):
            out.append(i)  # the deal's own fact, also inside a phrase the check calls foreign ("Company Competitor")
            original.append(-1)
        elif _overlaps(a, b, drop):
            out.append(tokenizer.mask_id)
            original.append(-1)
        elif not draws[w] or (stops and _SENTENCE_END.fullmatch(text[a:b]) and (b >= len(text) or text[b].isspace())):
            out.append(i)  # unnoised, or the full stop that ends a noised word: the sentence still ends there
            original.append(-1)  # (rewritten with it, "... the Agreement" + "Alternatively," ran into one sentence)
        else:
            out.append(tokenizer.mask_id)
            original.append(i)
    return SpanStart(out, original, words, ends=len(enc.ids) <= budget)


def precedent_starts(
    tokenizer,
    texts,
    deal: DealFacts,
    allowed: str,
    t: float,
    n: int,
    seed: int,
    budgets: list[int],
    own_facts=None,
    words=None,
    allowed_of=None,
) -> list[list[list[int]]]:
    """start[v][s] for n variants: span s starts from texts[s] (None or "": fully masked), or, when
    texts holds one list per variant (len n, each a list per span), variant v's span s from
    texts[v][s] (each variant edits its own draw of precedents); own_facts[s] (or own_facts[v][s]):
    the facts its precedent's normalization replaced (Precedent.facts), masked wherever they still
    stand; words: the lower-case words a hole may write (hybrid.precedents.library.Library.words; None = any);
    allowed_of[v][s]: what span s of variant v may state as it stands (edit_allowed; None: `allowed` everywhere)."""
    t = float(t)  # in [0, 1]: checked where the request entered (hybrid.draft.request.DraftRequest)
    per_variant = bool(texts) and isinstance(texts[0], (list, tuple))
    if per_variant and len(texts) != n:
        raise SamplingError(f"per-variant start texts must hold n={n} lists, got {len(texts)}.")
    texts_v = texts if per_variant else [texts] * n
    facts_v = own_facts if (per_variant and own_facts) else [own_facts or [()] * len(texts_v[0])] * n
    if words is not None:  # the deal's own words may be written too
        words = frozenset(words) | set(letter_words(allowed))
    return [
        [
            start_tokens(tokenizer, x, deal, allowed_of[v][s] if allowed_of else allowed, t,
                         random.Random(f"{seed}:{v}:{s}"), b, f, words) if x else []
            for s, (x, b, f) in enumerate(zip(texts_v[v], budgets, facts_v[v]))
        ]
        for v in range(n)
    ]


_INLINE_HEADING = re.compile(
    rf"^\s*(?P<number>(?:(?:Section|SECTION|Article|ARTICLE|Clause)\s+)?(?:\d+(?:\.\d+)*\.?\s+)?)"
    rf"{HEADING_BEFORE_TEXT}\s+(?=\S)"
)


def strip_inline_heading(text: str, heading: str | None = None) -> str:
    """text without the run-in heading it opens with ("Delivery; Shipment. (a) Each ..." -> "(a) Each ...";
    numbered too: "Section 1.1 Defined Terms. ..."): the draft's own heading stands above the clause, and a frame
    sentence may open it. Given the section's `heading`, an unnumbered run-in heading on another subject stays: it
    heads a part of the clause ("Entire Agreement. This Agreement ..." under "General"), as contracts write it."""
    m = _INLINE_HEADING.match(text)
    if m and heading is not None and not m.group("number"):  # an unnumbered one on another subject stays
        if not content_stems(m.group(0)) & content_stems(heading):
            return text
    return text[m.end() :] if m else text


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


def settled_start(
    p, deal: DealFacts, allowed: str, own=(), lower=None, frame: str = "", heading=None, others=frozenset(),
    whole: bool = False,
) -> str:
    """What an edit of precedent p keeps before any hole opens: its adapted text, its run-in heading dropped
    (strip_inline_heading; a framed span drops any), its parts headed as a clause type in `others` dropped (the
    draft's other sections' types: hybrid.precedents.parts; first, while their run-in headings stand), settled
    (hybrid.precedents.settle.settle_facts; whole: a section of a whole base, which keeps all it can mend). Memoized:
    hybrid.skeleton.from_precedents asks it of the precedents it may choose, and starts_from_draws of those chosen."""
    from hybrid.precedents.settle import settle_facts  # settle builds on this module's fact spans

    frame = frame or ""
    text = strip_inline_heading(p.adapted(deal), None if frame else heading)
    allowed = edit_allowed(p, text, allowed, own)
    key = (text, repr(deal), allowed, tuple(own), id(lower), frame, heading, frozenset(others), whole)
    if key not in _SETTLED:
        if len(_SETTLED) > 4096:
            _SETTLED.clear()
        parts = drop_repeated_parts(text, "", others)[0] if others else text  # while its run-in headings stand
        _SETTLED[key] = settle_facts(parts, deal, allowed, own, lower, frame, heading, whole)
    return _SETTLED[key]


_LEANING = re.compile(rf"^(?:{CONNECTIVES}),\s+(?=[A-Za-z])")


def strip_leaning_opening(text: "str | None") -> "str | None":
    """text without the connective it opens with where the sentences before it were taken out ("In addition,
    Licensor may ..." -> "Licensor may ..."): a section's first sentence leans on nothing."""
    if not text:
        return text
    m = _LEANING.match(text)
    return text[m.end()].upper() + text[m.end() + 1 :] if m else text


def fit_text(tokenizer, text: str, room: int | None) -> str:
    """text cut after its last whole sentence that fits `room` tokens (as it stands after a space: the
    filler's "spaced" start); where not even the first sentence fits, closed before its last coordinated
    clause that does (cut_to_clause: "..., AND EVEN IF ..." -> "...."), the same where only its opening run-in
    heading fits; unchanged when it fits, when room is None, or when neither fits (the filler's budget then cuts
    it)."""
    if room is None:
        return text
    fits = lambda x: len(tokenizer.hf.encode(" " + x, add_special_tokens=False).ids) <= room  # noqa: E731
    whole = cut_to_sentence(text, fits)
    head = _INLINE_HEADING.match(text)
    if whole is not None and head and len(whole.strip()) <= len(text[: head.end()].strip()):
        # only its run-in heading fits ("Distributor REPRESENTATION, WARRANTY AND UNDERTAKING." as a whole General):
        # the sentence it heads overruns the room, so it is closed before a coordinated clause as a first one is
        rest = text[head.end() :]
        ends = sentence_boundaries(rest)
        clause = cut_to_clause(rest[: ends[0]] if ends else rest, fits=lambda x: fits(text[: head.end()] + x))
        return text[: head.end()] + clause if clause else text
    if whole is None:  # the first sentence alone overruns the room
        ends = sentence_boundaries(text)
        whole = cut_to_clause(text[: ends[0]] if ends else text, fits=fits)
    return whole or text


def starts_from_draws(
    tokenizer,
    draws,
    deal: DealFacts,
    allowed: str,
    t: float,
    seed: int,
    budgets: list[int],
    words=None,
    rooms=None,
    deals=None,
    facts_of=None,
    lower=None,
    frames=None,
    headings=None,
    others=None,
    whole: bool = False,
) -> tuple[list, list[str]]:
    """(start[v][s], the precedents' own facts for the fact guard): variant v edits draws[v][s] (a
    hybrid.precedents.library.Precedent, adapted to the deal, its run-in heading dropped and cut at the last
    sentence end within rooms[s] tokens (rooms None: whole), None: fully masked, or "" in a framed span: the
    frame alone), n = len(draws); deals[s]:
    the facts span s adapts to (None: `deal` everywhere). facts_of(p): a precedent's own facts (None: p.facts;
    hybrid.skeleton.from_precedents.source_facts adds those of its whole source contract). lower: the words another
    deal's terms may be written in lower case with (hybrid.precedents.fit.common_words; None: none are); frames[s]:
    the frame sentence that opens span s (its restatements are taken out, and where the precedent says nothing
    else the span ends after the frame; None: no frames); headings[s]: span s's section heading (an unframed
    span keeps a run-in heading of its precedent on another subject: strip_inline_heading; None: every run-in
    heading goes); others[s]: the clause types of the draft's other sections, whose parts span s's edit drops
    (settled_start; None: none); whole: each draw is a section of the whole base the variant stands on (settled_start
    keeps all it can mend)."""
    rooms, deals = rooms or [None] * len(budgets), deals or [deal] * len(budgets)
    facts_of = facts_of or (lambda p: p.facts)
    facts = [[facts_of(p) if p else () for p in d] for d in draws]
    from hybrid.precedents.settle import trim_headings  # settle builds on this module's fact spans

    frames = frames or [""] * len(budgets)
    headings = headings or [None] * len(budgets)
    others = others or [frozenset()] * len(budgets)
    texts = [
        [
            strip_leaning_opening(
                trim_headings(fit_text(tokenizer, settled_start(p, f, allowed, own, lower, fr, h, o, whole), r))
            )
            if p
            else ("" if p == "" and fr else None)  # "": the frame alone (from_precedents.FRAME_ALONE)
            for p, r, f, own, fr, h, o in zip(d, rooms, deals, fs, frames, headings, others)
        ]
        for d, fs in zip(draws, facts)
    ]
    frame_only = {(v, s) for v, row in enumerate(texts) for s, x in enumerate(row) if x == "" and frames[s]}
    start = precedent_starts(
        tokenizer,
        texts,
        deal,
        allowed,
        t,
        len(draws),
        seed,
        budgets,
        facts,
        words=words,
        allowed_of=[[edit_allowed(p, x or "", allowed, f) for p, x, f in zip(d, row, fs)]
                    for d, row, fs in zip(draws, texts, facts)],
    )
    for v, s in frame_only:  # the precedent only restated the frame: the clause ends after it
        start[v][s] = SpanStart([], ends=True)
    return start, list(dict.fromkeys(f for row in facts for fs in row for f in fs))
