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
- duration: a time unit ("days", "months", "year") within UNIT_REACH tokens after a number the
  deal does not state (a banned digit token or a number word of another value: "one year",
  "thirty (30) days"), so "one of the parties" stays writable.
Amounts are covered by the digits ("$5,000,000" needs digits the deal does not have).
"""

import re
from functools import lru_cache

import torch

from hybrid.foreign_facts import _GENERIC, _NUMBER_WORDS, _WORD_RE
from hybrid.sampling import LogitsProcessor

__all__ = ["FactGuard", "UNIT_REACH"]

UNIT_REACH = 4  # a unit this many tokens after a foreign number completes a foreign duration
_SENTENCE_END = re.compile(r"(?:[.:;!?)\]\"'“”(]|\n)\s*$")
_CAP_OPEN = re.compile(r"^\s?[A-Z]")
_DIGITS = re.compile(r"^\s?[\d.,]*\d[\d.,]*$")
_UNIT = re.compile(r"^[\s-]?(?:day|week|month|quarter|year)s?$", re.I)
_REF = re.compile(r"^\s?(?:sections?|articles?|exhibits?|schedules?|clauses?|paragraphs?|annex|appendix)$|^\s?\($", re.I)
_NUMBER_WORD = re.compile(r"^\s?(" + "|".join(sorted((w for w in _NUMBER_WORDS if " " not in w and "-" not in w), key=len, reverse=True)) + r")$", re.I)


@lru_cache(maxsize=4)
def _tables(tokenizer, vocab: int) -> dict:
    """Per-token facts of a tokenizer's pieces (bool tensors of length vocab, and the pieces)."""
    pieces = [tokenizer.decode([i]) if i not in tokenizer.special_ids else "" for i in range(vocab)]
    t = lambda f: torch.tensor([bool(f(p)) for p in pieces], dtype=torch.bool)  # noqa: E731
    word_value = [(_NUMBER_WORDS[m.group(1).lower()] if (m := _NUMBER_WORD.match(p)) else -1) for p in pieces]
    return {
        "pieces": pieces,
        "cap_open": t(lambda p: _CAP_OPEN.match(p)),
        "sentence_end": t(lambda p: _SENTENCE_END.search(p)),
        "digits": t(lambda p: _DIGITS.match(p)),
        "unit": t(lambda p: _UNIT.match(p)),
        "ref": t(lambda p: _REF.match(p)),
        "word_value": torch.tensor(word_value, dtype=torch.long),
    }


class FactGuard(LogitsProcessor):
    """Bans for one deal (`allowed`: hybrid.foreign_facts.allowed_text). `ban_mask(left)` takes
    (C, UNIT_REACH) token ids to the left of C slots, nearest first, -1 where unknown (still
    masked, or outside the span): a slot whose nearest left token is unknown gets no name ban."""

    def __init__(self, tokenizer, allowed: str, vocab: int | None = None):
        V = vocab or tokenizer.vocab_size
        tb = _tables(tokenizer, V)
        self.V = V
        words = set(_WORD_RE.findall(allowed))
        ok = torch.zeros(V, dtype=torch.bool)
        for w in words | {w.capitalize() for w in _GENERIC}:
            for text in (" " + w, w, " " + w.capitalize(), w.capitalize()):
                ids = tokenizer.encode(text)
                if ids:
                    ok[ids[0]] = True  # a word of the deal (or a generic one) may open with its first piece
        generic = {w.lower() for w in _GENERIC} | {w.lower() for w in words}
        for i, p in enumerate(tb["pieces"]):
            if p.strip().lower() in generic:
                ok[i] = True
        self.name_ban = tb["cap_open"] & ~ok
        digit_ok = torch.zeros(V, dtype=torch.bool)
        for m in re.finditer(r"\d[\d.,]*", allowed):
            for text in (m.group(0), " " + m.group(0), "$" + m.group(0), "(" + m.group(0)):
                for i in tokenizer.encode(text):
                    digit_ok[i] = True
        self.digit_ban = tb["digits"] & ~digit_ok
        values = {int(float(x.replace(",", ""))) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", allowed) if x.replace(",", "").replace(".", "").isdigit()}
        values |= {v for w, v in _NUMBER_WORDS.items() if re.search(rf"\b{re.escape(w)}\b", allowed, re.I)}
        wv = tb["word_value"]
        self.foreign_number = self.digit_ban | ((wv >= 0) & ~torch.isin(wv, torch.tensor(sorted(values) or [-2])))
        self.sentence_end, self.ref, self.unit = tb["sentence_end"], tb["ref"], tb["unit"]

    def ban_mask(self, left: torch.Tensor) -> torch.Tensor:
        """(C, V) bool: the tokens banned at slots with these left contexts."""
        dev = left.device
        C = left.shape[0]
        near = left[:, 0]
        has = near >= 0
        at = near.clamp_min(0).cpu()
        mid = has.cpu() & ~self.sentence_end[at]  # mid-sentence: a capitalized foreign word is a name
        after_ref = has.cpu() & self.ref[at]
        lc = left.clamp_min(0).cpu()
        foreign_before = ((left.cpu() >= 0) & self.foreign_number[lc]).any(1)
        out = torch.zeros(C, self.V, dtype=torch.bool)
        out |= mid[:, None] & self.name_ban[None]
        out |= (~after_ref)[:, None] & self.digit_ban[None]
        out |= foreign_before[:, None] & self.unit[None]
        return out.to(dev)

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        """The AR fillers' view: the prefix's last UNIT_REACH tokens are the left context (an empty
        prefix is a span start: no name ban)."""
        B, T = input_ids.shape
        left = torch.full((B, UNIT_REACH), -1, dtype=torch.long, device=input_ids.device)
        k = min(T, UNIT_REACH)
        if k:
            left[:, :k] = input_ids[:, T - k :].flip(1)
        left = torch.where(left < self.V, left, -1)
        ban = self.ban_mask(left)
        return scores.masked_fill(ban[:, : scores.shape[-1]], float("-inf"))

    def __repr__(self) -> str:
        return f"FactGuard(names={int(self.name_ban.sum())}, digits={int(self.digit_ban.sum())})"
