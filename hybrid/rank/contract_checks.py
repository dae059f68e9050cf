"""The contract checks of a finished draft, each in [0, 1] with 1 = no defect.

Owns: ContractSpec (what a draft is held to: its parties, defined terms, required clauses, what
the deal states), `contract_checks` (parties, terms, consistency, clauses, numbering,
repetition, foreign facts: text only) and the "fit" check (`section_fit`: each section's own
body is, of the draft's bodies, the most relevant to its heading and clause type, judged by a
hybrid.precedents.relevance scorer passed in). Knows nothing about models, likelihood or the weights that
combine the checks (hybrid.rank.rerank).
"""

import re
from dataclasses import dataclass, field

from hybrid.common.cancel import checkpoint
from hybrid.fidelity.foreign_facts import foreign_facts

__all__ = ["ContractSpec", "contract_checks", "section_spec", "section_fit", "TEXT_CHECKS", "word_ngrams"]

TEXT_CHECKS = ("parties", "terms", "consistency", "clauses", "numbering", "repetition", "foreign")  # contract_checks
_WORD = re.compile(r"\w+")
_TOP_LEVEL = re.compile(r"^(\d+)\.\s+\S", re.M)  # a line that reads as a top-level numbered section
_SECTION_REF = re.compile(r"\bSections?\s+(\d+)")


@dataclass
class ContractSpec:
    """What the checks hold a draft to (from its template and fields)."""

    parties: list[str] = field(default_factory=list)  # full legal names, verbatim
    defined_terms: list[str] = field(default_factory=list)  # placeholders already substituted
    required_clauses: list[str] = field(default_factory=list)  # clause types every outline must have
    # everything the deal states (hybrid.fidelity.foreign_facts.allowed_text); "" = no foreign-facts check
    allowed: str = ""
    corpus_parties: tuple[str, ...] = ()  # party names of corpus contracts (hybrid.fidelity.foreign_facts.party_names)
    # facts of the source contracts drafted from (hybrid.skeleton.from_precedents.source_facts)
    source_names: tuple[str, ...] = ()

    @classmethod
    def from_template(cls, template, fields: dict, source_names=()) -> "ContractSpec":
        from hybrid.fidelity.foreign_facts import allowed_text, party_names
        from hybrid.templates.template import substitute

        values = template.validate_fields(fields)
        parties = [str(values[k]) for k in ("party_a", "party_b") if values.get(k)]
        return cls(parties, [substitute(t, values) for t in template.defined_terms], list(template.required_clauses),
                   allowed_text(template, values), party_names(), tuple(source_names))


def _count(pattern: str, text: str, flags=0) -> int:
    return len(re.findall(pattern, text, flags))


def word_ngrams(text: str, n: int) -> list[tuple]:
    words = [w.lower() for w in _WORD.findall(text)]
    return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]


def contract_checks(
    text: str, bodies: list[str], spans, spec: ContractSpec, ngram: int = 5, min_words: int = 5
) -> dict:
    """The contract checks of one draft, each in [0, 1] (1 = no defect).

    text: the whole document; bodies[i]: the i-th clause body; spans[i]: its SpanSlot (clause,
    required_terms). Single-word defined terms ("Party", "Agreement") are left out of the
    consistency check: their lower-case forms are ordinary English ("a third party").
    """
    assert len(bodies) == len(spans), f"{len(bodies)} bodies for {len(spans)} spans"
    joined = "\n\n".join(bodies)

    party = []
    for name in spec.parties:
        present = name in text
        lead = next((w for w in re.findall(r"[A-Za-z][\w&'-]*", name) if len(w) >= 3 and w.lower() != "the"), None)
        uses = _count(rf"\b{re.escape(lead)}\b", joined) if lead else 0
        full = joined.count(name) if lead and name.startswith(lead) else uses
        party.append(float(present) * (min(full, uses) / uses if uses else 1.0))

    required = [(t, b) for b, s in zip(bodies, spans) for t in s.required_terms]
    terms = sum(t in b for t, b in required) / len(required) if required else 1.0

    good = seen = 0
    for term in spec.defined_terms:
        if len(term.split()) < 2:
            continue
        seen += _count(rf"\b{re.escape(term)}\b", joined, re.I)
        good += _count(rf"\b{re.escape(term)}\b", joined)
    consistency = good / seen if seen else 1.0

    filled = {s.clause for b, s in zip(bodies, spans) if len(_WORD.findall(b)) >= min_words}
    items = [c in filled for c in spec.required_clauses] + [len(_WORD.findall(b)) >= min_words for b in bodies]
    clauses = sum(items) / len(items) if items else 1.0

    S = len(spans)
    found = [int(m.group(1)) for m in _TOP_LEVEL.finditer(text)]
    lcs = _lcs(found, list(range(1, S + 1)))
    numbering = lcs / max(len(found), S) if S else 1.0
    refs = [int(m.group(1)) for m in _SECTION_REF.finditer(joined)]
    if refs:
        numbering *= sum(1 <= r <= S for r in refs) / len(refs)

    total = repeated = 0
    grams = [word_ngrams(b, ngram) for b in bodies]
    for i, g in enumerate(grams):
        others = set().union(*(set(x) for j, x in enumerate(grams) if j != i))
        seen_here: set = set()
        for gram in g:
            repeated += gram in seen_here or gram in others
            seen_here.add(gram)
        total += len(g)
    repetition = 1.0 - repeated / total if total else 1.0

    foreign = 1.0
    if spec.allowed:
        n = len(foreign_facts(joined, spec.allowed, spec.corpus_parties, spec.source_names))
        foreign = 1.0 / (1.0 + 100.0 * n / max(len(_WORD.findall(joined)), 1))

    return {
        "parties": sum(party) / len(party) if party else 1.0,
        "terms": terms,
        "consistency": consistency,
        "clauses": clauses,
        "numbering": numbering,
        "repetition": repetition,
        "foreign": foreign,
    }


def _lcs(a: list, b: list) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def section_spec(slot) -> str:
    """What a section's body should be about: its heading and its clause type in words."""
    words = slot.clause.replace("_", " ") if slot.clause and slot.clause != "other" else ""
    return " ".join(x for x in (slot.heading, words) if x).strip()


def section_fit(relevance, specs: list[str], bodies: list[str], min_words: int = 5) -> float:
    """Share of sections whose own body ranks first among the draft's bodies for the section's spec
    (relevance: a hybrid.precedents.relevance.RelevanceScorer). Sections without a spec or with a body under
    min_words words are left out (the clauses check already counts empty bodies); 1.0 when fewer
    than two sections take part, since there is nothing to confuse a body with."""
    assert len(specs) == len(bodies), f"{len(specs)} specs for {len(bodies)} bodies"
    take = [i for i, (q, b) in enumerate(zip(specs, bodies)) if q and len(_WORD.findall(b)) >= min_words]
    if len(take) < 2:
        return 1.0
    texts = [bodies[i] for i in take]
    hits = 0
    for k, i in enumerate(take):
        checkpoint()  # each spec embeds and scores every body
        scores = relevance.score(specs[i], texts)
        hits += max(range(len(texts)), key=lambda j: (scores[j], j == k)) == k
    return hits / len(take)
