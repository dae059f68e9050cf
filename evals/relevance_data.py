"""A clause-relevance validation that lawyers wrote the answers to: CUAD categories as queries.

Owns: turning CUAD's lawyer labels (cuad/master_clauses.csv: per contract, the clause texts
labelled with each of 41 categories) and the category descriptions (cuad/CUAD_v1_README.txt)
into graded retrieval queries, split into a fixed `dev` part (for fitting) and a `heldout` part
(the final figure). Knows nothing about scorers or models.

Only train/val documents of the corpus manifest are read; test documents never enter either
part. The two parts are disjoint by manifest `group` (the contracting company), so no company's
clauses sit on both sides.

One query instance per (document d, category C) with at least one clause of d labelled C:
- query: C's name ("Non-Compete"), its README description (a lawyer's question), or a short
  drafting request written here from that description (DRAFTING_REQUESTS), rotated by a hash of
  (d, C) so that each part holds all three forms;
- pool: every labelled clause of d plus every labelled clause of POOL_OTHER_DOCS other
  documents of the same part, same doc type where the part has them (their C clauses count too);
- gains: 3 for a clause labelled C, 1 for a clause labelled with another category of C's CUAD
  group (the README's "Group": categories whose clauses overlap or build on each other, e.g.
  Non-Compete / Exclusivity / No-Solicit of Customers), 0 otherwise.

A "clause" is one labelled context string, deduplicated within its document (a text labelled
with several categories is one candidate carrying all its labels). Contexts under MIN_WORDS
words (bare dates, names) are dropped, and so are the categories whose contexts are names or
dates rather than clauses (SKIPPED).

Deterministic: every choice is a hash of names, never a random generator. Built once and cached
as JSON under <repo>/.cache/relevance/ ($HYBRID_CACHE moves it, as for the corpus cache).
"""

import ast
import csv
import hashlib
import json
import os
from collections import defaultdict
from pathlib import Path

from hybrid.data.corpus import corpus_root, load_manifest
from hybrid.data.cuad import file_key

__all__ = [
    "VERSION", "PARTS", "SKIPPED", "DRAFTING_REQUESTS", "MIN_WORDS", "POOL_OTHER_DOCS",
    "parse_categories", "load_labelled_clauses", "build", "load",
]

VERSION = 1  # bump when the construction changes: the cache file is named after it
PARTS = ("dev", "heldout")
HELDOUT_SHARE = 0.4  # share of train/val companies whose documents form the held-out part
MIN_WORDS = 6  # shorter contexts are names and dates, not clauses
POOL_OTHER_DOCS = 2  # documents whose clauses join a query's pool besides its own document
GAIN_LABELLED, GAIN_GROUP = 3, 1
SKIPPED = ("Document Name", "Parties", "Agreement Date")  # contexts are names or dates

# README spellings -> master_clauses.csv column names, where they differ
_ALIASES = {
    "Notice to Terminate Renewal": "Notice Period To Terminate Renewal",
    "Right of First Refusal, Offer or Negotiation (ROFR/ROFO/ROFN)": "Rofr/Rofo/Rofn",
    "Price Restriction": "Price Restrictions",
    "Affiliate IP License-Licensor": "Affiliate License-Licensor",
    "Affiliate IP License-Licensee": "Affiliate License-Licensee",
    "Unlimited/All-You-Can-Eat License": "Unlimited/All-You-Can-Eat-License",
}

# What a drafter would type, written from each category's description (keys: CSV column names).
DRAFTING_REQUESTS = {
    "Effective Date": "clause stating the date on which the agreement becomes effective",
    "Expiration Date": "term clause: the agreement expires at the end of the initial term",
    "Renewal Term": "automatic renewal for successive one-year terms after the initial term",
    "Notice Period To Terminate Renewal": "either party may prevent renewal by written notice before the term ends",
    "Governing Law": "governing law clause choosing the laws of a state",
    "Most Favored Nation": "most favored customer pricing: buyer gets any better terms offered to a third party",
    "Competitive Restriction Exception": "carve-outs from the non-compete and exclusivity restrictions",
    "Non-Compete": "covenant not to compete with the other party in the territory",
    "Exclusivity": "exclusive dealing: buy all requirements only from the supplier, no competing products",
    "No-Solicit Of Customers": "non-solicitation of the other party's customers and partners",
    "No-Solicit Of Employees": "no hiring or soliciting the other party's employees during the term",
    "Non-Disparagement": "neither party shall disparage the other or harm its reputation",
    "Termination For Convenience": "either party may terminate without cause on written notice",
    "Rofr/Rofo/Rofn": "right of first refusal before selling or licensing to a third party",
    "Change Of Control": "termination or consent right if a party undergoes a change of control or merger",
    "Anti-Assignment": "no assignment of this agreement without the other party's prior written consent",
    "Revenue/Profit Sharing": "revenue share: pay the other party a percentage of net revenues",
    "Price Restrictions": "prices may not be increased during the term",
    "Minimum Commitment": "minimum purchase commitment of units per year",
    "Volume Restriction": "additional fees if usage exceeds the licensed volume",
    "Ip Ownership Assignment": "intellectual property created under the agreement is assigned to the company",
    "Joint Ip Ownership": "jointly developed intellectual property is owned jointly by both parties",
    "License Grant": "grant of a license to use the licensor's trademarks and technology",
    "Non-Transferable License": "the license is non-transferable and may not be sublicensed",
    "Affiliate License-Licensor": "license that includes intellectual property of the licensor's affiliates",
    "Affiliate License-Licensee": "license extends to the licensee's affiliates",
    "Unlimited/All-You-Can-Eat-License": "unlimited enterprise-wide license with no usage limits",
    "Irrevocable Or Perpetual License": "perpetual, irrevocable license",
    "Source Code Escrow": "source code deposited in escrow and released on bankruptcy or insolvency",
    "Post-Termination Services": "obligations after termination: transition services, wind-down, final payments",
    "Audit Rights": "right to audit the other party's books and records",
    "Uncapped Liability": "liability not limited for breach of confidentiality or IP infringement",
    "Cap On Liability": "limitation of liability to the fees paid in the prior twelve months",
    "Liquidated Damages": "liquidated damages or termination fee payable on breach",
    "Warranty Duration": "warranty that the products will be free from defects for one year",
    "Insurance": "each party shall maintain commercial general liability insurance",
    "Covenant Not To Sue": "covenant not to sue or challenge the validity of the licensed intellectual property",
    "Third Party Beneficiary": "no third party beneficiaries; a named third party may enforce the agreement",
}


_COLUMNS = {c.lower(): c for c in (*DRAFTING_REQUESTS, *SKIPPED)}


def _h(*parts) -> int:
    return int.from_bytes(hashlib.sha1("\x1f".join(map(str, parts)).encode()).digest()[:8], "big")


def parse_categories(readme_text: str) -> dict[str, dict]:
    """{CSV column name: {"description", "group"}} from the README's Category List; group None for "-"."""
    lines = [line.strip() for line in readme_text.replace("\r", "").split("\n")]
    out, name, desc = {}, None, None
    for line in lines:
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "Category":
            name = _ALIASES.get(value, value)
            name = _COLUMNS.get(name.lower(), name)  # the README and the CSV differ in case too
        elif key == "Description" and name:
            desc = value
        elif key == "Group" and name and desc is not None:
            out[name] = {"description": desc, "group": None if value in ("-", "") else value}
            name = desc = None
    return out


def _norm(text: str) -> str:
    return " ".join(text.split())


def load_labelled_clauses(csv_path: Path, categories: dict) -> dict[str, dict[str, set]]:
    """{file_key: {clause text: set of category names}} for the categories given."""
    csv.field_size_limit(1 << 30)
    out: dict[str, dict[str, set]] = {}
    with open(csv_path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in categories if c not in (reader.fieldnames or ())]
        assert not missing, f"{csv_path}: no column for categories {missing}"
        for row in reader:
            clauses: dict[str, set] = defaultdict(set)
            for cat in categories:
                try:
                    contexts = ast.literal_eval(row[cat] or "[]")
                except (ValueError, SyntaxError):
                    contexts = []
                for text in contexts:
                    text = _norm(str(text))
                    if len(text.split()) >= MIN_WORDS:
                        clauses[text].add(cat)
            out[file_key(row["Filename"])] = dict(clauses)
    return out


def _query(cat: str, info: dict, form: str) -> str:
    if form == "name":
        return cat.replace("Ip ", "IP ").replace("Rofr/Rofo/Rofn", "Right of first refusal, offer or negotiation")
    if form == "description":
        return info["description"]
    return DRAFTING_REQUESTS[cat]


def build(root: str | os.PathLike | None = None, max_per_category: int = 12) -> dict:
    """The validation as a JSON-able dict: {"version", "texts", "labels", "parts": {part: [query]}},
    each query {"id", "category", "form", "query", "doc", "pool": [text index], "gains": [int]}.
    At most max_per_category queries per category and part (chosen by hash), to bound the cost."""
    root = corpus_root(root)
    cats = parse_categories((root / "cuad" / "CUAD_v1_README.txt").read_text(encoding="utf-8", errors="replace"))
    cats = {c: v for c, v in cats.items() if c not in SKIPPED}
    assert set(cats) == set(DRAFTING_REQUESTS), (
        f"categories without a drafting request: {set(cats) ^ set(DRAFTING_REQUESTS)}"
    )
    labelled = load_labelled_clauses(root / "cuad" / "master_clauses.csv", cats)
    docs = [e for e in load_manifest(root) if e["source"] == "cuad" and e["split"] in ("train", "val")]
    part_of = {e["path"]: "heldout" if _h("part", e["group"]) % 1000 < HELDOUT_SHARE * 1000 else "dev" for e in docs}

    texts, labels, index = [], [], {}
    doc_clauses: dict[str, list[int]] = {}
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
            doc_clauses[e["path"]] = ids
    docs = [e for e in docs if e["path"] in doc_clauses]

    parts = {}
    for part in PARTS:
        mine = [e for e in docs if part_of[e["path"]] == part]
        by_type = defaultdict(list)
        for e in mine:
            by_type[e["doc_type"]].append(e["path"])
        per_cat = defaultdict(list)
        for e in mine:
            cats_here = sorted({c for i in doc_clauses[e["path"]] for c in labels[i]})
            for cat in cats_here:
                per_cat[cat].append(e)
        queries = []
        for cat in sorted(per_cat):
            chosen = sorted(per_cat[cat], key=lambda e: _h("pick", cat, e["path"]))[:max_per_category]
            group = cats[cat]["group"]
            related = {c for c, v in cats.items() if group and v["group"] == group and c != cat}
            for e in sorted(chosen, key=lambda e: e["path"]):
                same = [p for p in by_type[e["doc_type"]] if p != e["path"]]
                others = same if len(same) >= POOL_OTHER_DOCS else [x["path"] for x in mine if x["path"] != e["path"]]
                others = sorted(others, key=lambda p: _h("pool", cat, e["path"], p))[:POOL_OTHER_DOCS]
                pool = list(dict.fromkeys(i for p in [e["path"], *others] for i in doc_clauses[p]))
                gains = [GAIN_LABELLED if cat in labels[i] else GAIN_GROUP if labels[i] & related else 0 for i in pool]
                form = ("name", "description", "request")[_h("form", cat, e["path"]) % 3]
                queries.append(
                    {
                        "id": f"{part}:{cat}:{e['path']}",
                        "category": cat,
                        "form": form,
                        "query": _query(cat, cats[cat], form),
                        "doc": e["path"],
                        "pool": pool,
                        "gains": gains,
                    }
                )
        parts[part] = queries
    return {"version": VERSION, "texts": texts, "labels": [sorted(s) for s in labels], "parts": parts}


def cache_path(name: str) -> Path | None:
    """$HYBRID_CACHE/relevance/NAME (else <repo>/.cache/relevance/NAME); None when HYBRID_CACHE turns caching off."""
    base = os.environ.get("HYBRID_CACHE", "")
    if base.lower() in ("0", "off", "none", "false"):
        return None
    return (Path(base) if base else Path(__file__).resolve().parents[1] / ".cache") / "relevance" / name


def cached(name: str, build, root=None) -> dict:
    """build(root), from the cache file NAME when it is there (written atomically on the first build)."""
    path = cache_path(name)
    if path is not None and path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    data = build(root)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp-{os.getpid()}")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(path)
    return data


def load(root: str | os.PathLike | None = None) -> dict:
    """build(), from the cache when it is there (written atomically on the first build)."""
    return cached(f"cuad-relevance-v{VERSION}.json", build, root)
