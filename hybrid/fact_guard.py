"""The fact guard: a context-dependent token ban that keeps a draft from writing facts its deal
does not state, where the token to its left decides whether a token would start one.

Owns: FactGuard (per-token tables built once per tokenizer, the deal's allowances, and the ban
mask for a left context). Both fillers apply it: the AR fillers as a LogitsProcessor on the prefix
(`__call__`), the diffusion filler per slot through `ban_mask` with the committed tokens to the
slot's left (a slot whose left neighbour is still masked is not guarded: nothing is known there).
Knows nothing about models; what counts as a foreign fact is hybrid.foreign_facts's definition,
and the guard bans the first token of the three kinds that a left neighbour can tell apart:
- name: a token opening a capitalized word in mid-sentence (its left neighbour does not end a
  sentence, a list marker or a quote) unless it spells, or opens, a word of the deal's text or a
  generic contract word ("Section", "Agreement", "Party");
- number: a digit token whose digits the deal's text never writes, except right after a
  cross-reference word ("Section 4", "Article 2") or an opening parenthesis ("(2)");
- duration: a time unit ("days", "months", "year") within UNIT_REACH tokens after a number (in
  digits or words) that is not the number of one of the deal's own durations ("one year",
  "thirty (30) days" when the deal's term is 2 years), or right after a slot not known yet (the
  filler may commit a number and its unit in one step), so "one of the parties" stays writable.
- a one-piece name with an inner capital ("GitHub") that the deal does not use, anywhere;
- letters glued onto a full stop ("Section.A", "Inc.com"): a sentence goes on after a space.
Amounts are covered by the digits and by currency signs the deal's text never writes, which are
banned everywhere, as are CUAD's redaction marks ("[***]").
"""

import re
from functools import lru_cache

import torch

from hybrid.foreign_facts import _DURATION_RE, _GENERIC, _NUMBER_WORDS, _WORD_RE
from hybrid.sampling import LogitsProcessor

__all__ = ["FactGuard", "UNIT_REACH", "UNKNOWN", "OUTSIDE", "precedent_fact_ban_ids"]

UNKNOWN, OUTSIDE = -1, -2  # left-context entries: a masked slot; beyond the span's start (or an empty prefix)

UNIT_REACH = 4  # a unit this many tokens after a foreign number completes a foreign duration
MIN_STEM = 2  # letters of a word's first piece that may open it mid-sentence when the word takes several pieces
_SENTENCE_END = re.compile(r"(?:[.:;!?)\]\"'“”(]|\n)\s*$")
_CAP_OPEN = re.compile(r"^\s?[A-Z]")
_INNER_CAP_PIECE = re.compile(r"^\s?[A-Z][a-z]+[A-Z]")  # "GitHub" as one piece: a name wherever it stands
_DIGITS = re.compile(r"^\s?[\d.,]*\d[\d.,]*$")
_CURRENCY = re.compile(r"^\s?(?:US)?[$€£]")
_UNIT = re.compile(r"^[\s-]?(?:day|week|month|quarter|year)s?$", re.I)
_REF = re.compile(r"^\s?(?:sections?|articles?|exhibits?|schedules?|clauses?|paragraphs?|annex|appendix)$|^\s?\($", re.I)
_NUMBER_WORD = re.compile(r"^\s?(" + "|".join(sorted((w for w in _NUMBER_WORDS if " " not in w and "-" not in w), key=len, reverse=True)) + r")$", re.I)


@lru_cache(maxsize=4)
def _tables(tokenizer, vocab: int) -> dict:
    """Per-token facts of a tokenizer's pieces (bool tensors of length vocab, and the pieces)."""
    pieces = [tokenizer.decode([i]) if i not in tokenizer.special_ids else "" for i in range(vocab)]
    t = lambda f: torch.tensor([bool(f(p)) for p in pieces], dtype=torch.bool)  # noqa: E731
    def value(p: str) -> int:
        if m := _NUMBER_WORD.match(p):
            return _NUMBER_WORDS[m.group(1).lower()]
        digits = p.strip().replace(",", "")
        return int(digits) if digits.isdigit() and len(digits) <= 6 else -1

    word_value = [value(p) for p in pieces]
    return {
        "pieces": pieces,
        "cap_open": t(lambda p: _CAP_OPEN.match(p)),
        "inner_cap": t(lambda p: _INNER_CAP_PIECE.match(p)),
        "bare_stop": t(lambda p: p.endswith(".")),  # a full stop with no space after it yet
        "letter_glue": t(lambda p: p[:1].isalpha()),  # a piece that continues the text without a space
        "sentence_end": t(lambda p: _SENTENCE_END.search(p)),
        "digits": t(lambda p: _DIGITS.match(p)),
        "unit": t(lambda p: _UNIT.match(p)),
        "ref": t(lambda p: _REF.match(p)),
        "currency": t(lambda p: _CURRENCY.match(p)),
        "redaction": t(lambda p: "**" in p),
        "word_value": torch.tensor(word_value, dtype=torch.long),
    }


class FactGuard(LogitsProcessor):
    """Bans for one deal (`allowed`: hybrid.foreign_facts.allowed_text). `ban_mask(left)` takes
    (C, UNIT_REACH) token ids to the left of C slots, nearest first, UNKNOWN (-1) where a slot is
    still masked and OUTSIDE (-2) beyond the span's start. A slot whose left neighbour is unknown
    is guarded as if in mid-sentence (the filler may commit both in one step); the first slot of a
    span is a sentence start."""

    def __init__(self, tokenizer, allowed: str, vocab: int | None = None):
        V = vocab or tokenizer.vocab_size
        tb = _tables(tokenizer, V)
        self.V = V
        words = set(_WORD_RE.findall(allowed))
        ok = torch.zeros(V, dtype=torch.bool)
        for w in words | {w.capitalize() for w in _GENERIC}:
            for text in (" " + w, " " + w.capitalize()):
                ids = tokenizer.encode(text)
                # a word of the deal (or a generic one) may open with its first piece, if that piece is
                # the whole word or a real stem of it: a bare " F" or " Co" would let any name be spelled
                if ids and (len(ids) == 1 or len(tb["pieces"][ids[0]].strip()) >= MIN_STEM):
                    ok[ids[0]] = True
        generic = {w.lower() for w in _GENERIC} | {w.lower() for w in words}
        for i, p in enumerate(tb["pieces"]):
            if p.startswith(" ") and p.strip().lower() in generic:  # a capital without a space before it is
                ok[i] = True  # an inner capital ("TheThe", "Co-Pparty"): a name by hybrid.foreign_facts too
        self.name_ban = tb["cap_open"] & ~ok
        digit_ok = torch.zeros(V, dtype=torch.bool)
        for m in re.finditer(r"\d[\d.,]*", allowed):
            for text in (m.group(0), " " + m.group(0), "$" + m.group(0), "(" + m.group(0)):
                for i in tokenizer.encode(text):
                    digit_ok[i] = True
        self.digit_ban = tb["digits"] & ~digit_ok
        durations = set()  # the numbers of the deal's own durations ("2 years" -> 2): a unit may follow only them
        for m in _DURATION_RE.finditer(allowed):
            durations.add(int(m.group(3) or m.group(1)) if (m.group(3) or m.group(1)) else _NUMBER_WORDS[m.group(2).lower()])
        wv = tb["word_value"]
        self.foreign_number = (wv >= 0) & ~torch.isin(wv, torch.tensor(sorted(durations) or [-2]))
        self.sentence_end, self.ref, self.unit = tb["sentence_end"], tb["ref"], tb["unit"]
        self.bare_stop, self.letter_glue = tb["bare_stop"], tb["letter_glue"]
        # everywhere: a currency sign the deal never writes (its amounts read "USD 24,000": "$5,000" is
        # another deal's) and CUAD's redaction marks ("[***]"), which no draft should carry
        self.always = tb["redaction"] | (tb["currency"] & ~torch.tensor([bool(re.search(r"[$€£]", allowed))] * V))
        self.always |= tb["inner_cap"] & ~ok  # a one-piece name with an inner capital, even at a sentence start
        self._by_device: dict = {}

    _TABLES = ("always", "name_ban", "digit_ban", "foreign_number", "sentence_end", "ref", "unit", "bare_stop", "letter_glue")

    def _on(self, dev) -> dict:
        """The ban tables on `dev`, moved there once (the filler calls ban_mask every step)."""
        if dev not in self._by_device:
            self._by_device[dev] = {k: getattr(self, k).to(dev) for k in self._TABLES}
        return self._by_device[dev]

    def ban_mask(self, left: torch.Tensor) -> torch.Tensor:
        """(C, V) bool on left's device: the tokens banned at slots with these left contexts."""
        tb = self._on(left.device)
        near = left[:, 0]
        has = near >= 0
        at = near.clamp_min(0)
        # mid-sentence (or not known yet: a neighbour committed in the same step): a capitalized foreign word is a name
        mid = (has & ~tb["sentence_end"][at]) | (near == UNKNOWN)
        after_ref = has & tb["ref"][at]
        # a unit after a foreign number, or after a neighbour not known yet (committed in the same step: it may be one)
        foreign_before = ((left >= 0) & tb["foreign_number"][left.clamp_min(0)]).any(1) | (near == UNKNOWN)
        out = tb["always"][None].repeat(left.shape[0], 1)
        out |= mid[:, None] & tb["name_ban"][None]
        out |= (~after_ref)[:, None] & tb["digit_ban"][None]
        out |= foreign_before[:, None] & tb["unit"][None]
        # letters glued onto a full stop make a name or an address, not a sentence: "Section.A", "Inc.com"
        out |= (has & tb["bare_stop"][at])[:, None] & tb["letter_glue"][None]
        return out

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        """The AR fillers' view: the prefix's last UNIT_REACH tokens are the left context (an empty
        prefix is a span start: no name ban)."""
        B, T = input_ids.shape
        left = torch.full((B, UNIT_REACH), OUTSIDE, dtype=torch.long, device=input_ids.device)
        k = min(T, UNIT_REACH)
        if k:
            left[:, :k] = input_ids[:, T - k :].flip(1)
        left = torch.where(left < self.V, left, UNKNOWN)
        ban = self.ban_mask(left)
        return scores.masked_fill(ban[:, : scores.shape[-1]], float("-inf"))

    def __repr__(self) -> str:
        return f"FactGuard(names={int(self.name_ban.sum())}, digits={int(self.digit_ban.sum())})"


def precedent_fact_ban_ids(tokenizer, facts, allowed: str) -> list[int]:
    """Token ids that open a capitalized word of a precedent's own facts (its parties and defined roles:
    "the Company", "CERES", "Customer") that the deal's text never uses: banned everywhere in a draft
    written beside or from that precedent, so its facts cannot come back through the model's own
    prose. Generic contract words and pieces shorter than MIN_STEM letters are never banned."""
    keep = {w.lower() for w in _WORD_RE.findall(allowed)} | {w.lower() for w in _GENERIC}
    out = set()
    for fact in facts:
        for w in _WORD_RE.findall(fact):
            if not w[0].isupper() or len(w) < 3 or w.lower() in keep:
                continue
            for text in (" " + w, w):
                ids = tokenizer.encode(text)
                if ids and (len(ids) == 1 or len(tokenizer.decode(ids[:1]).strip()) >= MIN_STEM):
                    out.add(ids[0])
    return sorted(out)
