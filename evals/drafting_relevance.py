"""A clause-relevance validation phrased as drafting requests, graded by how much of the request a clause meets.

Owns: turning CUAD's lawyer-labelled clauses of the corpus's **train split only** into queries a
lawyer would write ("a limitation of liability clause, that applies to both sides and excluding
confidentiality breaches"), their candidate pools and graded gains, split into a `fit` slice
(what weights may be fit on) and a `heldout` slice (never fit on). Knows nothing about scorers.

Construction, per CUAD category C of evals.drafting_facets.FACETS:
- a seed is a clause labelled C in a train document whose text states at least one facet of C
  (evals.drafting_facets.facets_of), those stating two or more first, at most one per document
  and MAX_PER_CATEGORY per slice; the query names C as a drafter does (one of HEADS[C]) and
  asks for K of the seed's facets (K = 1 if it states one, else 2 or 3, by hash), each in the
  request words of the facet table, not in the clause's own words;
- the pool: every labelled clause of the seed's document (other clause types of one contract: the
  distractors), every labelled clause of POOL_DOCS other documents of the slice (same doc type where
  there are enough; 0 now) and POOL_SAME clauses labelled C from further documents of the slice:
  mostly clauses of the right type that meet more or less of the request, as in a lawyer-rated pool
  for one drafting request, so that the type alone does not settle the ranking. (With 2 whole other
  documents and 12 same-type clauses instead, 4 in 5 candidates were of another type and BM25 on the
  clause's name did most of the ranking.)

Known bias, measured: the request words of many facets share terms with the clauses that state them
("choosing Texas law", "for breaches of confidentiality"), so term coverage of the request alone
scores high here (NDCG@5 0.675 on heldout, MiniLM alone 0.579), which a lawyer-rated set with freer
wording need not share. Read this validation with evals.relevance_data beside it, not instead of it.

Rubric (the gain of a pool clause x for a query asking for K facets of category C):
- 3: x is labelled C by CUAD's lawyers and its text states every requested facet;
- 2: x is labelled C and states at least half of them but not all (only for K >= 2);
- 1: x is labelled C and states fewer than half (the right kind of clause, not the position asked);
- 0: x is not labelled C (another clause type, whatever words it shares with the request).

What the grade captures: the clause type as lawyers labelled it, and the presence of the specific
position by deterministic detectors over the clause text. What it does not: negation or scope (a
clause that puts confidentiality *inside* the cap still "states" the confidentiality facet), which
side a term favours, drafting quality, and relevant clauses CUAD did not label with C (graded 0).
The seed is in its own pool (graded 3), as a lawyer's rated pool holds the clause they had in mind.

Slices: by manifest `group` (the filing company, the corpus's own split unit), a company's
documents in `heldout` when sha1(SEED, group) falls under HELDOUT_SHARE; documents, pools and seeds
of one slice never come from the other. Deterministic: every choice is a hash of names. Built once
and cached as JSON under <repo>/.cache/relevance/ ($HYBRID_CACHE moves it, "off" keeps none).
"""

import hashlib
import os
from collections import defaultdict
from pathlib import Path

from evals.drafting_facets import FACETS, HEADS, facets_of
from evals.relevance_data import SKIPPED, cached, load_labelled_clauses, parse_categories
from hybrid.data.corpus import corpus_root, load_manifest
from hybrid.data.cuad import file_key

__all__ = ["VERSION", "SLICES", "SEED", "HELDOUT_SHARE", "POOL_DOCS", "POOL_SAME", "gain", "request", "build", "load"]

VERSION = 2  # bump when the construction changes: the cache file is named after it
SLICES = ("fit", "heldout")
SEED = "drafting-relevance-1"  # the fixed seed of every hash below
HELDOUT_SHARE = 0.35  # share of train companies whose documents form the held-out slice
MAX_PER_CATEGORY = 14  # queries per category and slice (hash-chosen seeds, one per document)
POOL_DOCS = 0  # other documents whose labelled clauses all join a query's pool (0: none, as in a lawyer's pool)
POOL_SAME = 40  # clauses of the query's category from further documents


def _h(*parts) -> int:
    return int.from_bytes(hashlib.sha1("\x1f".join(map(str, (SEED, *parts))).encode()).digest()[:8], "big")


def gain(category: str, asked: list[str], labels, text: str) -> int:
    """The rubric's grade (module docstring) of a clause with CUAD labels `labels` and text `text`."""
    if category not in labels:
        return 0
    met = len(set(asked) & facets_of(category, text))
    if met == len(asked):
        return 3
    return 2 if 2 * met >= len(asked) else 1


def request(category: str, asked: list[str], key: str) -> str:
    """The query: a drafter's name for the clause, then the requested facets in request words."""
    words = {f: w for f, w, _ in FACETS[category]}
    asks = [words[f] for f in asked]
    tail = asks[0] if len(asks) == 1 else ", ".join(asks[:-1]) + " and " + asks[-1]
    heads = HEADS[category]
    return f"{heads[_h('head', key) % len(heads)]}, {tail}"


def _asked(category: str, text: str, key: str) -> list[str]:
    """K of the seed's facets (table order), K = 1 when it states one, else 2 or 3 by hash."""
    have = [f for f, _, _ in FACETS[category] if f in facets_of(category, text)]
    k = 1 if len(have) == 1 else min(len(have), 2 + _h("k", key) % 2)
    chosen = set(sorted(have, key=lambda f: _h("facet", key, f))[:k])
    return [f for f in have if f in chosen]


def _documents(root: Path) -> tuple[list[dict], list[str], list[set], dict[str, list[int]]]:
    """(train CUAD manifest entries with labelled clauses, texts, labels per text, {path: text ids})."""
    cats = parse_categories((root / "cuad" / "CUAD_v1_README.txt").read_text(encoding="utf-8", errors="replace"))
    missing = set(FACETS) - set(cats)
    assert not missing, f"facet categories not in the CUAD README: {missing}"
    cats = {c: v for c, v in cats.items() if c not in SKIPPED}  # names and dates, not clauses
    labelled = load_labelled_clauses(root / "cuad" / "master_clauses.csv", cats)
    docs = [e for e in load_manifest(root) if e["source"] == "cuad" and e["split"] == "train"]
    texts, labels, index, clauses = [], [], {}, {}
    for e in docs:
        ids = []
        for text, cs in sorted(labelled.get(file_key(e["path"]), {}).items()):
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
                labels.append(set())
            labels[index[text]] |= cs
            ids.append(index[text])
        if ids:
            clauses[e["path"]] = ids
    return [e for e in docs if e["path"] in clauses], texts, labels, clauses


def _slice(docs, texts, labels, clauses, part: str) -> list[dict]:
    mine = [e for e in docs if (_h("slice", e["group"]) % 1000 < HELDOUT_SHARE * 1000) == (part == "heldout")]
    by_type = defaultdict(list)
    for e in mine:
        by_type[e["doc_type"]].append(e["path"])
    queries = []
    for cat in FACETS:
        seeds = [(e, i) for e in mine for i in clauses[e["path"]] if cat in labels[i] and facets_of(cat, texts[i])]
        # seeds stating two or more facets first: a drafter's request names a position, not one word
        seeds.sort(key=lambda s: (len(facets_of(cat, texts[s[1]])) < 2, _h("seed", cat, s[0]["path"], s[1])))
        seen = set()
        for e, i in seeds:
            if len(seen) == MAX_PER_CATEGORY:
                break
            if e["path"] in seen:
                continue
            seen.add(e["path"])
            key = f"{part}:{cat}:{e['path']}"
            asked = _asked(cat, texts[i], key)
            same = [p for p in by_type[e["doc_type"]] if p != e["path"]]
            others = same if len(same) >= POOL_DOCS else [x["path"] for x in mine if x["path"] != e["path"]]
            others = sorted(others, key=lambda p: _h("pool", key, p))[:POOL_DOCS]
            pool = [j for p in [e["path"], *others] for j in clauses[p]]
            rest = [j for x in mine if x["path"] not in {e["path"], *others} for j in clauses[x["path"]]
                    if cat in labels[j]]
            pool += sorted(rest, key=lambda j: _h("same", key, j))[:POOL_SAME]
            pool = list(dict.fromkeys(pool))
            queries.append({
                "id": key, "category": cat, "facets": asked, "query": request(cat, asked, key),
                "doc": e["path"], "seed": i, "pool": pool,
                "gains": [gain(cat, asked, labels[j], texts[j]) for j in pool],
            })
    return queries


def build(root: str | os.PathLike | None = None) -> dict:
    """The validation as a JSON-able dict: {"version", "texts", "labels", "slices": {slice: [query]}}, each
    query {"id", "category", "facets", "query", "doc", "seed": text index, "pool": [text index], "gains"}."""
    docs, texts, labels, clauses = _documents(corpus_root(root))
    slices = {part: _slice(docs, texts, labels, clauses, part) for part in SLICES}
    return {"version": VERSION, "texts": texts, "labels": [sorted(s) for s in labels], "slices": slices}


def load(root: str | os.PathLike | None = None) -> dict:
    """build(), from the cache when it is there (written atomically on the first build)."""
    return cached(f"drafting-relevance-v{VERSION}.json", build, root)
