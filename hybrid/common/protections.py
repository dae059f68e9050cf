"""The rights, remedies and protections a sentence grants, and the veto they hold over the consistency pass.

Owns: `PROTECTIONS` (the table of kinds: termination for breach or insolvency, cure periods, limitation or exclusion
of liability, indemnity, survival, equitable relief, warranty disclaimers, confidentiality obligations, cumulative
remedies), `protection_kinds` / `protection_kind` (which of them a sentence grants), `stated_elsewhere` (another
sentence of the draft that grants the same kind to the same holder on the same subject) and `Guard` (one draft's
veto over the removals of hybrid.draft.consistency: a span that grants a protection the rest of the draft does not
state again stays, and the decisions come back for the pass's report).

A precedent's "Either party may terminate this Agreement ... if the other party (a) fails to cure a material breach"
shares words with a term frame ("unless terminated earlier under this Section") and once went as a restatement of
it: the draft lost its termination right and kept an orphan ("In addition to the right to terminate this Agreement,
the non-breaching party, shall have all rights ..."). Never remove a right, remedy or protection silently (the
design card, "Drafting from precedent"). Pure string functions and a small stateful class; no model. This
module removes nothing itself: the removal functions (hybrid.text.wording, hybrid.text.repeated_clauses) ask a
Guard which of their spans may go.
"""

import math
import re
from collections import Counter
from functools import lru_cache

from hybrid.common.sentences import RUN_IN_HEADING, sentences
from hybrid.common.stems import content_stems

__all__ = ["PROTECTIONS", "CATCH_ALL", "SUBJECT_SHARE", "protection_kinds", "protection_kind", "stated_elsewhere",
           "Guard"]

_I = re.I | re.S


def _all(*patterns: str) -> re.Pattern:
    """A pattern that matches a sentence holding every one of `patterns` (in any order)."""
    return re.compile(r"\A" + "".join(f"(?=.*?{p})" for p in patterns), _I)  # anchored: one scan per pattern


def _any(*patterns: str) -> re.Pattern:
    """A pattern that matches a sentence holding one of `patterns` at least."""
    return re.compile("|".join(patterns), _I)


_TERMINATE = r"\bterminat"
_LIABLE = r"\bliab(?:le|ility|ilities)\b"
PROTECTIONS: tuple[tuple[str, re.Pattern], ...] = (
    ("termination_for_breach",
     _all(_TERMINATE, r"\b(?:breach|default|violat|fails?\s+to\s+(?:cure|perform|comply|pay))")),
    ("termination_for_insolvency",
     _all(_TERMINATE, r"\b(?:insolven|bankrupt|receiver|liquidat|winding[- ]up|administrat(?:ion|or)\b"
                      r"|benefit\s+of\s+(?:its\s+)?creditors|ceases?\s+(?:operation|to\s+do\s+business|business))")),
    ("cure", _all(r"\b(?:cure[ds]?|remedied|unremedied|rectif(?:y|ies|ied))\b", r"\b(?:days?|period|within|notice)\b")),
    ("limitation_of_liability",
     _any(rf"{_LIABLE}.*?\b(?:(?:shall|will|may)\s+not|not\s+to|in\s+no\s+event)\s+exceed",
          rf"\b(?:aggregate|total|maximum|cumulative|entire)\s+{_LIABLE}", rf"\blimitations?\s+(?:of|on)\s+{_LIABLE}",
          r"\b(?:sole|exclusive)\s+(?:and\s+exclusive\s+)?(?:remedy|liability)")),
    ("exclusion_of_liability",
     _any(r"\b(?:not|never|no|neither)\b[^.;]{0,80}?\bliable\b", rf"\bin\s+no\s+event\b[^.;]{{0,120}}?{_LIABLE}",
          r"\b(?:consequential|incidental|punitive|exemplary)\s+(?:or\s+\w+\s+)?damages", r"\blost\s+profits")),
    ("indemnity",
     _any(r"\bindemnif(?:y|ies)\b", r"\b(?:be|is|are)\s+indemnified", r"\b(?:hold|save)s?\s+(?:\w+\s+){0,3}harmless",
          r"\bdefend\b[^.;]{0,120}?\b(?:claims?|suits?|actions?|proceedings?)\b")),
    ("survival", _any(r"\bsurviv\w*")),
    ("equitable_relief",
     _any(r"\bequitable\s+(?:relief|remed)", r"\binjunct\w*", r"\bspecific\s+performance", r"\birreparabl")),
    ("disclaimer",
     _any(r"[\"“]as[- ]is[\"”]", r"(?-i:\bAS[- ]IS\b)", r"\bdisclaim\w*", r"\bmerchantab\w*",
          r"\bfitness\s+for\s+a\s+particular",
          r"\b(?:makes?|gives?|without|no)\s+(?:other\s+)?(?:\w+\s+)?(?:representations?\s+or\s+)?warrant")),
    ("confidentiality",
     _any(r"\b(?:hold|keep|maintain|treat|protect|preserve)\w*\b[^.;]{0,80}?"
          r"\b(?:in\s+(?:strict\s+)?confidence|confidential\b|secret)",
          r"\b(?:not|never)\s+(?:to\s+)?(?:disclose|divulge|reveal|publish)\b[^.;]{0,100}?\b(?:confidential|proprietary)",
          r"\buse\b[^.;]{0,40}?\bconfidential\s+information\b[^.;]{0,60}?\bonly\b",
          r"\bconfidential\s+information\b[^.;]{0,60}?\b(?:only|solely)\s+(?:for|to)\b")),
    ("remedies",
     _any(r"\bremedies\b[^.;]{0,80}?\b(?:cumulative|available\s+at\s+law|in\s+equity)",
          r"\bin\s+addition\s+to\s+(?:any\s+|all\s+)?(?:other\s+)?(?:rights\s+(?:and|or)\s+)?remedies",
          r"\bwithout\s+prejudice\s+to\s+(?:any\s+)?(?:other\s+)?(?:rights?|remed)")),
)
"""(kind, pattern) in the order a record names them: a sentence grants every kind whose pattern it matches. A pattern
errs toward a match (a sentence that is no protection and stays costs a repetition; a protection that goes costs the
client a right). "exclusion_of_liability": no liability at all for some loss ("in no event liable for consequential
damages"); "limitation_of_liability": a cap or an exclusive remedy; "remedies": rights and remedies that stand beside
the contract's own ("all rights and remedies available at law and in equity")."""

# where a kind's words stand in a sentence (its pattern's match, where that is a whole sentence's): its holder's verb
# is before them (_holder)
_TRIGGERS = {
    "termination_for_breach": re.compile(_TERMINATE, re.I),
    "termination_for_insolvency": re.compile(_TERMINATE, re.I),
    "cure": re.compile(r"\b(?:cure|remed|unremed|rectif)", re.I),
}

CATCH_ALL = {"survival": re.compile(r"\bby\s+(?:their|its)\s+(?:nature|terms)|\b(?:intended|meant)\s+to\s+survive",
                                    re.I)}
"""A kind -> the sentences that state it for every provision at once: "Those provisions which by their nature extend
beyond termination survive it" states the survival of "obligations respecting confidentiality" too."""

SUBJECT_SHARE = 0.5  # another sentence of the kind states it again where it holds this share of the sentence's subject
_GENERIC = frozenset(content_stems(  # words any clause uses, whatever it is about
    "this agreement party parties either hereunder herein hereof hereby section may agree agrees after before during "
    "against arising arise out relating related including include limitation term expiration whether"
))
# the words of the kinds themselves: two sentences of a kind share them whatever their scope
_KIND_WORDS = frozenset(content_stems(
    "terminate termination terminated breach breaches default cure cured remedy remedied fails failure notice written "
    "days period insolvency bankruptcy liable liability damages indemnify indemnification defend hold harmless "
    "claims losses survive survival equitable relief injunctive warranties disclaims confidential confidentiality "
    "disclose rights remedies"
))
_MUTUAL = frozenset(content_stems("neither both"))  # "Neither party shall be liable": each party's, as "either"
_VERB = re.compile(r"\b(?:shall|will|must|may|agrees?|hereby|undertakes?|covenants?)\b", re.I)
_WORD = re.compile(r"[A-Za-z]+|\d+")
_MARKER = re.compile(r"[a-z]|[ivx]+|\d+", re.I)
# a sentence opening on a condition or a preposition names its holder elsewhere ("In no event shall either party ...")
_OPENERS = frozenset("if in notwithstanding except provided subject upon without to where when unless for".split())


_HEADING_ONLY = re.compile(rf"(?:\(?[A-Za-z0-9]{{1,3}}[.)]\s+)?{RUN_IN_HEADING}")  # "b) Limitation of Liability."


def _sentences(text: str) -> list[str]:
    """The sentences of text (hybrid.common.sentences.sentences), less those that are only a run-in heading (which
    grant nothing)."""
    return [s for s in sentences(text) if not _HEADING_ONLY.fullmatch(s)]


@lru_cache(maxsize=1 << 14)
def protection_kinds(sentence: str) -> tuple[str, ...]:
    """Every kind of PROTECTIONS the sentence grants, in the table's order; () for none."""
    return tuple(kind for kind, pattern in PROTECTIONS if pattern.search(sentence))


def protection_kind(sentence: str) -> "str | None":
    """The first kind of PROTECTIONS the sentence grants ("termination_for_breach"), None for none."""
    kinds = protection_kinds(sentence)
    return kinds[0] if kinds else None


@lru_cache(maxsize=1 << 14)
def _subject(sentence: str) -> frozenset[str]:
    """What a sentence is about: its content stems less the words every clause uses ("agreement", "party") and the
    kinds' own (_KIND_WORDS), which two sentences of a kind share whatever their scope."""
    return frozenset(content_stems(sentence) - _GENERIC - _KIND_WORDS)


@lru_cache(maxsize=1 << 14)
def _holder(sentence: str, kind: str) -> "frozenset[str] | None":
    """Whose right or duty of `kind` a sentence states: the stems of the few words before the modal verb that governs
    the kind's words, after any condition ("If ..., Supplier shall indemnify Buyer": {"supplier"}); empty for
    either, each or neither party (every party's); None where none reads so ("In no event shall ...")."""
    at = _TRIGGERS.get(kind, dict(PROTECTIONS)[kind]).search(sentence)
    verbs = list(_VERB.finditer(sentence, 0, at.start() if at else len(sentence)))
    words = _WORD.findall(re.split(r"[,;:)]", sentence[: verbs[-1].start()])[-1]) if verbs else []
    if words and (_MARKER.fullmatch(words[0]) or words[0].lower() in ("and", "or", "but", "then")):
        words = words[1:]  # "(c) Recipient shall ...", "..., and Merchant shall ..."
    if not words or len(words) > 6 or words[0].lower() in _OPENERS:
        return None
    return frozenset(content_stems(" ".join(words)) - _GENERIC - _MUTUAL)


def _same_holder(gone: "frozenset[str] | None", other: "frozenset[str] | None") -> bool:
    """Whether a sentence held by `other` keeps the right of one held by `gone` (_holder): every party's right keeps
    any party's, one party's keeps that party's only ("Buyer shall indemnify Supplier" is no "Supplier shall
    indemnify Buyer"); an unknown holder does not decide."""
    return gone is None or other is None or not other or bool(gone & other)


def stated_elsewhere(kind: str, sentence: str, other_texts) -> "tuple[object, str] | None":
    """(where, quote): the sentence of `other_texts` ((where, text) pairs: the rest of the draft that stays) that
    grants `kind` too, to the same holder (_same_holder), on the same subject, the one sharing most of it; None where
    the draft states it nowhere else. The same subject: at least SUBJECT_SHARE of `sentence`'s subject stems, each
    weighted by how few sentences of the draft use it (the parties' names and "Product" are in many, "patent" in
    few: an indemnity against patent claims is not one against product liability claims), or a CATCH_ALL of the
    kind."""
    subject, holder = _subject(sentence), _holder(sentence, kind)
    candidates = [(where, other) for where, text in other_texts for other in _sentences(text)]
    used = Counter(w for _, other in candidates for w in _subject(other) & subject)
    weight = {w: math.log(1 + (len(candidates) + 1) / (used[w] + 1)) for w in subject}
    total = sum(weight.values())
    best, best_share = None, -1.0
    for where, other in candidates:
        if kind not in protection_kinds(other) or not _same_holder(holder, _holder(other, kind)):
            continue
        share = sum(weight[w] for w in subject & _subject(other)) / total if total else 1.0
        catch = kind in CATCH_ALL and bool(CATCH_ALL[kind].search(other))
        if (share >= SUBJECT_SHARE or catch) and share > best_share:
            best, best_share = (where, other), share
    return best


def _outside(text: str, spans) -> list[str]:
    """The pieces of text outside the (sorted, disjoint) spans."""
    out, at = [], 0
    for a, b in spans:
        out.append(text[at:a])
        at = max(at, b)
    return [*out, text[at:]]


class Guard:
    """One draft's veto over the consistency pass's removals. `sections`: (heading, body) per section, in the draft's
    order. The pass sets `at` to the section it revises and `settle`s each section's body once revised; a removal
    function calls `guard(text, spans)` with the current body of section `at` and the spans it means to cut, and cuts
    only the spans that come back. A span goes unless a sentence of it grants a protection (protection_kinds) that
    the rest of the draft (the other sections as they stand, this body less the spans still going) does not state
    again (stated_elsewhere); spans are judged in order, so of two copies of one right in one body the first stays
    and the second goes, naming the first (across sections, a copy revised first may go, naming a later one, which
    then stays; `follow` re-points a "where" whose sentence a later removal took). `take()` hands over the decisions
    since the last take: {"old": the span stripped, "kept", "kinds"} plus, for a span that goes, "where": [{"kind",
    "index" (the report's section index), "section" (its number), "heading", "sentence"}] (each kind's other
    statement)."""

    def __init__(self, sections):
        self.headings = [h for h, _ in sections]
        self.bodies = [b for _, b in sections]
        self.at = 0
        self._decisions: list[dict] = []
        self._gone: dict[tuple[int, str], list[dict]] = {}  # (section, sentence) that went -> where it stands

    def settle(self, index: int, body: str) -> None:
        """Section `index` now reads `body` (what later removals elsewhere may lean on)."""
        self.bodies[index] = body

    def __call__(self, text: str, spans) -> list[tuple[int, int]]:
        spans = sorted(spans)
        going = []
        for n, (a, b) in enumerate(spans):  # what stays: the spans kept so far and the text outside every span
            stays = _outside(text, sorted(spans[n:] + going))
            others = [(self.at, p) for p in stays] + [(j, t) for j, t in enumerate(self.bodies) if j != self.at]
            if not self._judge(text[a:b], others):
                going.append((a, b))
        return going

    def _judge(self, piece: str, others) -> bool:
        """Whether `piece` stays (records the decision where it grants a protection)."""
        where, unstated, kinds = [], [], []
        for sentence in _sentences(piece):
            for kind in protection_kinds(sentence):
                kinds.append(kind)
                hit = stated_elsewhere(kind, sentence, others)
                if hit is None:
                    unstated.append(kind)
                else:
                    j, quote = hit
                    where.append({"kind": kind, "index": j, "section": str(j + 1), "heading": self.headings[j],
                                  "sentence": quote})
        if not kinds:
            return False
        if unstated:
            self._decisions.append({"old": piece.strip(), "kept": True, "kinds": list(dict.fromkeys(unstated))})
            return True
        self._decisions.append({"old": piece.strip(), "kept": False, "kinds": list(dict.fromkeys(kinds)),
                                "where": where})
        for sentence in _sentences(piece):
            self._gone[(self.at, sentence)] = where
        return False

    def take(self) -> list[dict]:
        """The decisions since the last take, in order."""
        out, self._decisions = self._decisions, []
        return out

    def follow(self, where: list[dict]) -> None:
        """In place: each entry of a "where" whose sentence a later removal took points to where that one stands."""
        for entry in where:
            for _ in range(len(self._gone)):  # a chain of removals is no longer than the removals
                nxt = self._gone.get((entry["index"], entry["sentence"]))
                same = [e for e in nxt or () if e["kind"] == entry["kind"]]
                if not same:
                    break
                entry.update(same[0])
