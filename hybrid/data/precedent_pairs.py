"""Precedent-conditioned training windows, and the precedent layout shared with drafting.

Owns: how a precedent sits in a document (PRECEDENT_PREFIX, precedent_segment: one "heading"
segment of the span's own section, right after its heading line and before its body), the
target deal's facts of a real document (deal_from_document) and precedent_windows(); the training
mix of precedents (PairMix) is a config of hybrid.common.config. Knows nothing about models or losses.

Why a "heading" segment: the fill mask already lets a span see every skeleton token while the
skeleton never sees spans (so the drafting cache stays exact), and condition dropout / the
unconditional guidance rows already hide a span's own "heading" tokens from it. A precedent
tagged as part of its section's heading is therefore hidden exactly when the heading is, with
no change to the backbone, the loss or the sampler.

The mix (measured on the corpus: a test clause shares only a small share of its word 4-grams
with the best train clause of its type, so a cross-document precedent carries style, not text;
the figure: benchmarks/results/figures-without-a-result-file.md):
- own: the clause's own body, its facts normalized to markers and written back with the
  target's facts (as drafting writes the user's), then words dropped and neighbours swapped:
  copying pays, but only with repair (adapt-and-repair);
- cross: the best BM25 precedent of the same clause type from another train document (as
  drafting retrieves), facts adapted to the target's: teaches loose use;
- none: no precedent (precedent dropout), so the model still fills without one and the
  unconditional branch sees precedent-free sections.
"""

import random

from hybrid.common.config import PairMix  # re-exported: the mix is a training config (hybrid.common.config)
from hybrid.data.document import Document, Segment
from hybrid.data.facts import DealFacts, adapt, normalize, party_names

__all__ = ["PRECEDENT_PREFIX", "MAX_PRECEDENT_WORDS", "PairMix", "precedent_segment", "deal_from_document",
           "with_precedents", "precedent_windows", "corrupt"]

PRECEDENT_PREFIX = "Precedent: "
MAX_PRECEDENT_WORDS = 80  # ~110 tokens: a 512-token window still holds the heading, precedent and most of a body


def precedent_segment(texts: list[str], section: int) -> Segment:
    """The skeleton text of a span's precedents ("Precedent: ...\\n" per precedent), tagged as its heading."""
    return Segment("".join(f"{PRECEDENT_PREFIX}{t.strip()}\n" for t in texts), "heading", section)


def _role(names: list[str]) -> str | None:
    """How a document's clauses name a party: its defined short name (last found), else its full name."""
    return names[-1] if names else None


def deal_from_document(doc: Document) -> DealFacts:
    """The facts of a real document as a deal: parties (defined names), effective date, governing law."""
    a, b = party_names(doc.fields, doc.preamble)
    return DealFacts(party_a=_role(a), party_b=_role(b), date=doc.fields.get("effective_date"),
                     law=doc.fields.get("governing_law"))


def corrupt(text: str, rng: random.Random, drop: float, swap: float) -> str:
    """Drop each word with prob `drop`, then swap neighbours with prob `swap` (newlines kept as words)."""
    words = [w for w in text.replace("\n", " \n ").split(" ") if w and rng.random() >= drop]
    for i in range(len(words) - 1):
        if rng.random() < swap:
            words[i], words[i + 1] = words[i + 1], words[i]
    return " ".join(words).replace(" \n ", "\n")


def _cut(text: str, max_words: int) -> str:
    words = text.split()
    return text if len(words) <= max_words else " ".join(words[:max_words]) + " ..."


class _Augmented:
    """A Document stand-in whose segments() include precedents (all hybrid.data.windows reads)."""

    def __init__(self, segments: list[Segment]):
        self._segments = segments

    def segments(self) -> list[Segment]:
        return self._segments


def with_precedents(
    doc: Document, library, mix: PairMix, rng: random.Random, max_words: int = MAX_PRECEDENT_WORDS
) -> tuple[_Augmented, list[str]]:
    """The document's segments with one precedent (or none) inserted before each body; the kinds drawn."""
    deal = deal_from_document(doc)
    query_extra = " ".join(str(v) for v in doc.fields.values())
    out, kinds = [], []
    for seg in doc.segments():
        if seg.kind == "body":
            s = doc.sections[seg.section]
            r = rng.random()
            text, kind = None, "none"
            if r < mix.own:
                own = adapt(normalize(s.body, doc.fields, doc.preamble).text, deal)
                text, kind = corrupt(_cut(own, max_words), rng, mix.drop_words, mix.swap_words), "own"
            elif r < mix.own + mix.cross:
                hits = library.retrieve(s.clause_type, f"{s.heading} {query_extra}", doc_type=doc.doc_type, k=1,
                                        seed=rng.randrange(1 << 30), variant=rng.randrange(4), exclude_doc=doc.path)
                if hits:
                    text, kind = hits[0].adapted(deal, max_words), "cross"
            if text and text.strip():
                out.append(precedent_segment([text], seg.section))
            else:
                kind = "none"
            kinds.append(kind)
        out.append(seg)
    return _Augmented(out), kinds


def precedent_windows(docs: list[Document], tok, library, length: int, stride: int, seed: int, mix: PairMix):
    """hybrid.data.windows.document_windows over the documents with precedents inserted (Rows)."""
    from hybrid.data.windows import document_windows

    rng = random.Random(seed)
    augmented = [with_precedents(d, library, mix, rng)[0] for d in docs]
    return document_windows(augmented, tok, length, stride, seed=seed)
