"""The fact guard: a context-dependent token ban that keeps a draft from writing facts its deal
does not state, where the token to its left decides whether a token would start one.

Owns: FactGuard (per-token tables built once per tokenizer, the deal's allowances, and the ban
mask for a left context). Both fillers apply it: the AR fillers as a LogitsProcessor on the prefix
(`__call__`), the diffusion filler per slot through `ban_mask` with the committed tokens to the
slot's left (a slot whose left neighbour is still masked is not guarded: nothing is known there).
Knows nothing about models; what counts as a foreign fact is hybrid.fidelity.foreign_facts's definition,
and the guard bans the first token of the kinds that a left neighbour can tell apart:
- name: a token opening a capitalized word in mid-sentence (its left neighbour does not end a
  sentence, a list marker or a quote) unless it spells, or opens, a word of the deal's text or a
  generic contract word ("Section", "Agreement", "Party");
- number: a digit token whose digits the deal's text never writes (numbers and years alike), except
  right after a cross-reference word ("Section 4", "Article 2") or an opening parenthesis ("(2)");
- exhibit: a designator (" A", " 2", " IV") right after an exhibit word ("Exhibit", "Schedule",
  "Annex" ...) unless the deal's text writes an exhibit with it ("Exhibit A" of a supply deal);
- duration: a time unit ("days", "months", "year") within UNIT_REACH tokens after a number (in
  digits or words) that, in that unit, is not one of the deal's own durations ("one year",
  "thirty (30) days" or "three months" when the deal's terms are 2 and 3 years; "24 months" is the
  deal's 2 years), or right after a slot not known yet (the filler may commit a number and its
  unit in one step), so "one of the parties" stays writable.
- a one-piece name with an inner capital ("GitHub") that the deal does not use, anywhere;
- the source contracts' own names in any case (hybrid.fidelity.foreign_facts.source_words of
  `precedent_facts`: "ebix", "EGAIN"): a form that is one token, anywhere; a longer one cannot be
  completed (precedent_phrases);
- letters glued onto a full stop ("Section.A", "Inc.com"): a sentence goes on after a space;
- spelling on: a piece glued onto a capitalized word opened in mid-sentence (letters, digits or a
  hyphen) that makes it no prefix of a word the deal or a contract uses: an allowed opener cannot
  be spelled on into a name ("New" + "land", "Co" + "-" + "free", "Liability" + "ia"). Judged on
  the committed pieces back to the word's opener (REACH tokens at most; a word whose opener or left
  neighbour is not known yet is left alone).
Amounts are covered by the digits and by currency signs the deal's text never writes, which are
banned everywhere, as are CUAD's redaction marks ("[***]").
"""

import bisect
import re
from functools import lru_cache

import torch

from hybrid.common.sampling import LogitsProcessor
from hybrid.fidelity.fact_finders import _EXHIBIT_RE, deal_days
from hybrid.fidelity.fact_vocab import _GENERIC, _NUMBER_WORDS, _UNITS, _WORD_RE, name_vocabulary, source_words

__all__ = ["FactGuard", "REACH", "UNIT_REACH", "UNKNOWN", "OUTSIDE", "precedent_fact_ban_ids", "precedent_phrases"]

UNKNOWN, OUTSIDE = -1, -2  # left-context entries: a masked slot; beyond the span's start (or an empty prefix)

UNIT_REACH = 4  # a unit this many tokens after a foreign number completes a foreign duration
REACH = 8  # left-context tokens the guard reads: a word's pieces back to its opener and the token before it
MIN_STEM = 2  # letters of a word's first piece that may open it mid-sentence when the word takes several pieces
_SENTENCE_END = re.compile(r"(?:[.:;!?)\]\"'“”(]|\n)\s*$")
_CAP_OPEN = re.compile(r"^\s?[A-Z]")
_INNER_CAP_PIECE = re.compile(r"^\s?[A-Z][a-z]+[A-Z]")  # "GitHub" as one piece: a name wherever it stands
_DIGITS = re.compile(r"^\s?[\d.,]*\d[\d.,]*$")
_CURRENCY = re.compile(r"^\s?(?:US)?[$€£]")
_UNIT = re.compile(r"^[\s-]?(day|week|month|quarter|year)s?$", re.I)
_REF = re.compile(
    r"^\s?(?:sections?|articles?|exhibits?|schedules?|clauses?|paragraphs?|annex|appendix)$|^\s?\($", re.I
)
_EXHIBIT_WORD = re.compile(
    r"^\s?(?:Exhibits?|EXHIBITS?|Schedules?|SCHEDULES?|Annex(?:es)?|ANNEX(?:ES)?|Appendix|APPENDIX|Attachments?|ATTACHMENTS?)$"
)
_DESIGNATOR = re.compile(r"^\s?(?:[A-Z]|[0-9][0-9.]*|[IVX]{1,4})$")  # what names an exhibit after its word: " A", " 2"
_NUMBER_WORD = re.compile(
    r"^\s?("
    + "|".join(sorted((w for w in _NUMBER_WORDS if " " not in w and "-" not in w), key=len, reverse=True))
    + r")$",
    re.I,
)


@lru_cache(maxsize=4)
def _tables(tokenizer, vocab: int) -> dict:
    """Per-token facts of a tokenizer's pieces (bool tensors of length vocab, and the pieces)."""
    pieces = [tokenizer.decode([i]) if i not in tokenizer.special_ids else "" for i in range(vocab)]
    t = lambda f: torch.tensor([bool(f(p)) for p in pieces], dtype=torch.bool)  # noqa: E731
    def value(p: str) -> int:
        if m := _NUMBER_WORD.match(p):
            return _NUMBER_WORDS[m.group(1).lower()]
        digits = p.strip().replace(",", "")
        # ASCII digits only: str.isdigit is true for "²" and "①" (SmolLM2's vocabulary), which int() refuses
        return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 6 else -1

    word_value = [value(p) for p in pieces]
    by_lower: dict[str, list[int]] = {}  # a glued piece's text (lower case) -> its ids
    for i, p in enumerate(pieces):
        if p[:1].isalnum() or p[:1] == "-":
            by_lower.setdefault(p.lower(), []).append(i)
    unit_kind = torch.full((vocab,), -1, dtype=torch.long)
    for i, p in enumerate(pieces):
        if m := _UNIT.match(p):
            unit_kind[i] = list(_UNITS).index(m.group(1).lower())
    return {
        "pieces": pieces,
        "by_lower": by_lower,
        "spell_on": t(lambda p: p[:1].isalnum() or p[:1] == "-"),  # glued onto the word to its left
        "unit_kind": unit_kind,
        "cap_open": t(lambda p: _CAP_OPEN.match(p)),
        "inner_cap": t(lambda p: _INNER_CAP_PIECE.match(p)),
        "bare_stop": t(lambda p: p.endswith(".")),  # a full stop with no space after it yet
        "letter_glue": t(lambda p: p[:1].isalpha()),  # a piece that continues the text without a space
        "sentence_end": t(lambda p: _SENTENCE_END.search(p)),
        "digits": t(lambda p: _DIGITS.match(p)),
        "ref": t(lambda p: _REF.match(p)),
        "exhibit_word": t(lambda p: _EXHIBIT_WORD.match(p)),
        "designator": t(lambda p: _DESIGNATOR.match(p)),
        "currency": t(lambda p: _CURRENCY.match(p)),
        "redaction": t(lambda p: "**" in p),
        "word_value": torch.tensor(word_value, dtype=torch.long),
    }


class FactGuard(LogitsProcessor):
    """Bans for one deal (`allowed`: hybrid.fidelity.foreign_facts.allowed_text), and for the facts of the
    precedents it is drafted from (`precedent_facts`: their words' first pieces everywhere,
    precedent_fact_ban_ids, and the completion of their multi-word facts, precedent_phrases). `ban_mask(left)`
    takes (C, k) token ids to the left of C slots (k <= REACH; fewer read less), nearest first,
    UNKNOWN (-1) where a slot is still masked and OUTSIDE (-2) beyond the span's start. A slot whose
    left neighbour is unknown is guarded as if in mid-sentence (the filler may commit both in one
    step); the first slot of a span is a sentence start."""

    def __init__(self, tokenizer, allowed: str, vocab: int | None = None, precedent_facts=()):
        V = vocab or tokenizer.vocab_size
        tb = _tables(tokenizer, V)
        self.V, self.reach = V, REACH  # reach: the left-context tokens ban_mask reads
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
                ok[i] = True  # an inner capital ("TheThe", "Co-Pparty"): a name by hybrid.fidelity.foreign_facts too
        self.name_ban = tb["cap_open"] & ~ok
        digit_ok = torch.zeros(V, dtype=torch.bool)
        for m in re.finditer(r"\d[\d.,]*", allowed):
            for text in (m.group(0), " " + m.group(0), "$" + m.group(0), "(" + m.group(0)):
                for i in tokenizer.encode(text):
                    digit_ok[i] = True
        self.digit_ban = tb["digits"] & ~digit_ok
        designator_ok = torch.zeros(V, dtype=torch.bool)
        for m in _EXHIBIT_RE.finditer(allowed):  # the deal's own exhibits ("Exhibit A") may be named
            for d in re.findall(r"(?<![\w.])[A-Z0-9][A-Z0-9.]*", m.group(0).split(None, 1)[1]):
                designator_ok[tokenizer.encode(" " + d)[:1]] = True
        self.exhibit_ban = tb["designator"] & ~designator_ok
        self.exhibit_word = tb["exhibit_word"]
        # a unit may follow a number only where that number of that unit is one of the deal's durations
        days = deal_days(allowed)
        wv = tb["word_value"]
        self.foreign_number = torch.stack([
            (wv >= 0) & ~torch.isin(wv, torch.tensor(sorted({round(d / u) for d in days if d % u == 0}) or [-2]))
            for u in _UNITS.values()])  # (units, V): in unit k, the number this token writes is not the deal's
        self.unit_kind = tb["unit_kind"]
        self.sentence_end, self.ref = tb["sentence_end"], tb["ref"]
        self.bare_stop, self.letter_glue = tb["bare_stop"], tb["letter_glue"]
        # everywhere: a currency sign the deal never writes (its amounts read "USD 24,000": "$5,000" is
        # another deal's) and CUAD's redaction marks ("[***]"), which no draft should carry
        self.always = tb["redaction"] | (tb["currency"] & ~torch.tensor([bool(re.search(r"[$€£]", allowed))] * V))
        self.always |= tb["inner_cap"] & ~ok  # a one-piece name with an inner capital, even at a sentence start
        own = (
            [i for i in precedent_fact_ban_ids(tokenizer, precedent_facts, allowed) if i < V] if precedent_facts else []
        )
        if own:  # the first pieces of the precedents' own capitalized fact words, everywhere
            self.always[torch.tensor(own)] = True
        # spelling a capitalized word on: what it may become (hybrid.fidelity.foreign_facts's name vocabulary)
        self._pieces, self._by_lower, self._spell_on = tb["pieces"], tb["by_lower"], tb["spell_on"]
        self._flags = [
            (a, b, e) for a, b, e in zip(tb["spell_on"].tolist(), tb["cap_open"].tolist(), tb["sentence_end"].tolist())
        ]
        self._words = sorted(name_vocabulary(allowed))
        self._spell_bans: dict[str, torch.Tensor] = {}
        self._phrases = precedent_phrases(tokenizer, precedent_facts, allowed)
        self._phrase_lens = sorted({len(k) for k in self._phrases})
        self._by_device: dict = {}

    _TABLES = (
        "always",
        "name_ban",
        "digit_ban",
        "exhibit_ban",
        "exhibit_word",
        "foreign_number",
        "unit_kind",
        "sentence_end",
        "ref",
        "bare_stop",
        "letter_glue",
    )

    def _on(self, dev) -> dict:
        """The ban tables on `dev`, moved there once (the filler calls ban_mask every step)."""
        if dev not in self._by_device:
            self._by_device[dev] = {k: getattr(self, k).to(dev) for k in self._TABLES}
        return self._by_device[dev]

    def _spell_ban(self, word: str) -> torch.Tensor:
        """(V,) bool: the glued pieces that would spell `word` (a capitalized word opened in mid-sentence)
        on into no prefix of an allowed word; cached per word."""
        if word not in self._spell_bans:
            w = word.lower()
            ok = torch.zeros(self.V, dtype=torch.bool)
            if not (len(word) >= 2 and word.isupper()):  # an acronym or emphasis ("AS IS"): not a name
                i = bisect.bisect_left(self._words, w)
                while i < len(self._words) and self._words[i].startswith(w):
                    rest = self._words[i][len(w):]  # what the word may still add, piece by piece
                    for k in range(1, len(rest) + 1):
                        for j in self._by_lower.get(rest[:k], ()):
                            ok[j] = True
                    i += 1
            else:
                ok |= self._spell_on  # an all-caps word may go on
            self._spell_bans[word] = self._spell_on & ~ok
        return self._spell_bans[word]

    def _words_being_spelled(self, rows: list[list[int]]) -> list[tuple[int, str]]:
        """(row, word so far) of the slots whose left pieces, all known, spell on a capitalized word
        opened in mid-sentence (its opener starts with a space and a capital; the token before the
        opener is known and ends no sentence)."""
        out, flags, V = [], self._flags, self.V
        for c, ids in enumerate(rows):
            if not ids or not 0 <= ids[0] < V or not (flags[ids[0]][0] or flags[ids[0]][1]):
                continue
            parts = []
            for k, t in enumerate(ids):
                if not 0 <= t < V:
                    break
                spell_on, cap_open, _ = flags[t]
                if spell_on:
                    parts.append(self._pieces[t])
                    continue
                if cap_open and self._pieces[t][:1] == " " and k + 1 < len(ids):
                    before = ids[k + 1]
                    if 0 <= before < V and not flags[before][2]:
                        out.append((c, self._pieces[t].strip() + "".join(reversed(parts))))
                break
        return out

    def ban_mask(self, left: torch.Tensor) -> torch.Tensor:
        """(C, V) bool on left's device: the tokens banned at slots with these left contexts."""
        tb = self._on(left.device)
        near = left[:, 0]
        has = near >= 0
        at = near.clamp_min(0)
        # mid-sentence (or not known yet: a neighbour committed in the same step): a capitalized foreign word is a name
        mid = (has & ~tb["sentence_end"][at]) | (near == UNKNOWN)
        after_ref = has & tb["ref"][at]
        out = tb["always"][None].repeat(left.shape[0], 1)
        out |= mid[:, None] & tb["name_ban"][None]
        out |= (~after_ref)[:, None] & tb["digit_ban"][None]
        # "Exhibit" + a designator the deal's text has no exhibit of
        out |= (has & tb["exhibit_word"][at])[:, None] & tb["exhibit_ban"][None]
        # a unit after a number that in this unit is no duration of the deal, or after a neighbour not known
        # yet (committed in the same step: it may be one)
        units = left[:, :UNIT_REACH]
        for k in range(tb["foreign_number"].shape[0]):
            foreign_before = ((units >= 0) & tb["foreign_number"][k][units.clamp_min(0)]).any(1) | (near == UNKNOWN)
            out |= foreign_before[:, None] & (tb["unit_kind"] == k)[None]
        # letters glued onto a full stop make a name or an address, not a sentence: "Section.A", "Inc.com"
        out |= (has & tb["bare_stop"][at])[:, None] & tb["letter_glue"][None]
        rows = left.tolist()  # the per-slot rules below read the left context as Python ints
        for c, word in self._words_being_spelled(rows):
            out[c] |= self._spell_ban(word).to(out.device)
        if self._phrases:  # the last token of a precedent's own multi-word fact ("the" + " Company")
            for c, ids in enumerate(rows):
                for n in self._phrase_lens:
                    for t in self._phrases.get(tuple(ids[:n]), ()):
                        out[c, t] = True
        return out

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        """The AR fillers' view: the prefix's last REACH tokens are the left context (an empty
        prefix is a span start: no name ban)."""
        B, T = input_ids.shape
        left = torch.full((B, REACH), OUTSIDE, dtype=torch.long, device=input_ids.device)
        k = min(T, REACH)
        if k:
            left[:, :k] = input_ids[:, T - k :].flip(1)
        left = torch.where(left < self.V, left, UNKNOWN)
        ban = self.ban_mask(left)
        return scores.masked_fill(ban[:, : scores.shape[-1]], float("-inf"))

    def __repr__(self) -> str:
        return f"FactGuard(names={int(self.name_ban.sum())}, digits={int(self.digit_ban.sum())})"


def precedent_phrases(tokenizer, facts, allowed: str) -> dict[tuple[int, ...], set[int]]:
    """{left tokens (nearest first): last tokens banned after them} for each multi-word fact of a
    precedent ("the Company", "the Customer") that the deal's text never writes: the phrase cannot be
    completed, whatever the deal writes of its words alone ("Customer Information" is the deal's,
    "the Customer" the precedent's party). Lower-case first letters also as capitals (sentence starts).
    Also each distinctive word of the facts (hybrid.fidelity.foreign_facts.source_words) that takes several
    tokens, in lower case, in capitals and capitalized ("ebix", "EBIX", "Ebix")."""
    out: dict[tuple[int, ...], set[int]] = {}

    def ban(form: str) -> None:
        for text in (" " + form, form):
            ids = tokenizer.encode(text)
            if len(ids) >= 2:
                out.setdefault(tuple(reversed(ids[:-1])), set()).add(ids[-1])

    for fact in facts:
        if len(fact.split()) < 2 or re.search(r"(?<!\w)" + re.escape(fact) + r"(?!\w)", allowed):
            continue
        for form in {fact, fact[:1].upper() + fact[1:]}:
            ban(form)
    for word in _source_case_forms(facts, allowed):
        ban(word)
    return out


def _source_case_forms(facts, allowed: str) -> set[str]:
    """The distinctive one-word names of facts (hybrid.fidelity.foreign_facts.source_words) in every case a draft
    may write them."""
    words = [w for w in source_words(facts, allowed) if " " not in w] if facts else []
    return {f for w in words for f in (w, w.lower(), w.upper(), w[:1].upper() + w[1:].lower())}


def precedent_fact_ban_ids(tokenizer, facts, allowed: str) -> list[int]:
    """Token ids that open a capitalized word of a precedent's own facts (its parties and defined roles:
    "the Company", "CERES", "Customer") that the deal's text never uses: banned everywhere in a draft
    written beside or from that precedent, so its facts cannot come back through the model's own
    prose. A word counts as the deal's only as the deal writes it: "Company" is banned beside "a
    Delaware limited liability company". Generic contract words and pieces shorter than MIN_STEM
    letters are never banned. A distinctive word of the facts (hybrid.fidelity.foreign_facts.source_words)
    that is one token in some case ("ebix", "EGAIN") is banned in that case too."""
    # as the deal writes them: "a limited liability company" keeps no "Company"
    written = set(_WORD_RE.findall(allowed))
    out = set()
    for form in _source_case_forms(facts, allowed):
        for text in (" " + form, form):
            if len(ids := tokenizer.encode(text)) == 1:
                out.add(ids[0])
    for fact in facts:
        for w in _WORD_RE.findall(fact):
            if not w[0].isupper() or len(w) < 3 or w in written or w.lower() in _GENERIC:
                continue
            for text in (" " + w, w):
                ids = tokenizer.encode(text)
                if ids and (len(ids) == 1 or len(tokenizer.decode(ids[:1]).strip()) >= MIN_STEM):
                    out.add(ids[0])
    return sorted(out)
