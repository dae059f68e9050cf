"""Corpus statistics: how much structure the ingestion recovered.

Owns: corpus_summary() (a pure function of a list of Documents) and the command line
`python -m hybrid.data.summary [--split train] [--source cuad] [--corpus PATH] [--json]`.
Knows nothing about cleaning rules; it only counts what hybrid.data.corpus produced.
"""

import argparse
import json
import sys
from collections import Counter

from hybrid.data.document import Document

__all__ = ["MIN_SECTIONS", "corpus_summary", "main"]

MIN_SECTIONS = 3  # a document "has structure" when it yields at least this many sections


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def corpus_summary(docs: list[Document]) -> dict:
    """Counts per corpus, per source and per doc_type, and the clause-type distribution of sections."""
    clause_types = Counter(s.clause_type for d in docs for s in d.sections)
    n_sections = sum(clause_types.values())
    by_source: dict[str, dict] = {}
    for d in docs:
        row = by_source.setdefault(d.source, {"docs": 0, f"docs_with_{MIN_SECTIONS}_sections": 0, "sections": 0})
        row["docs"] += 1
        row[f"docs_with_{MIN_SECTIONS}_sections"] += len(d.sections) >= MIN_SECTIONS
        row["sections"] += len(d.sections)
    for row in by_source.values():
        row[f"share_with_{MIN_SECTIONS}_sections"] = _share(row[f"docs_with_{MIN_SECTIONS}_sections"], row["docs"])
    with_min = sum(len(d.sections) >= MIN_SECTIONS for d in docs)
    return {
        "docs": len(docs),
        f"docs_with_{MIN_SECTIONS}_sections": with_min,
        f"share_with_{MIN_SECTIONS}_sections": _share(with_min, len(docs)),
        "sections": n_sections,
        "sections_per_doc": round(n_sections / len(docs), 2) if docs else 0.0,
        "chars": sum(len(d.text) for d in docs),
        "other_share": _share(clause_types.get("other", 0), n_sections),
        "clause_types": dict(clause_types.most_common()),
        "by_source": dict(sorted(by_source.items())),
        "doc_types": dict(Counter(d.doc_type for d in docs).most_common()),
    }


def _print_table(summary: dict, out) -> None:
    k = MIN_SECTIONS
    print(f"docs {summary['docs']}  with >= {k} sections {summary[f'docs_with_{k}_sections']} "
          f"({summary[f'share_with_{k}_sections']:.1%})  sections {summary['sections']} "
          f"({summary['sections_per_doc']}/doc)  chars {summary['chars']:,}", file=out)
    print(f"\n{'source':<22}{'docs':>6}{f'>={k} sec':>10}{'share':>8}{'sections':>10}", file=out)
    for source, row in summary["by_source"].items():
        print(f"{source:<22}{row['docs']:>6}{row[f'docs_with_{k}_sections']:>10}"
              f"{row[f'share_with_{k}_sections']:>8.1%}{row['sections']:>10}", file=out)
    print(f"\nclause types (other: {summary['other_share']:.1%} of sections)", file=out)
    for name, count in summary["clause_types"].items():
        print(f"  {name:<26}{count:>6}  {count / max(summary['sections'], 1):6.1%}", file=out)
    print("\ndoc types (top 15)", file=out)
    for name, count in list(summary["doc_types"].items())[:15]:
        print(f"  {name:<40}{count:>5}", file=out)


def main(argv: list[str] | None = None) -> int:
    """Print the summary of the chosen splits (default train) as a table, or as JSON with --json."""
    from hybrid.common.errors import HybridError
    from hybrid.data.corpus import load_documents

    parser = argparse.ArgumentParser(prog="python -m hybrid.data.summary", description=main.__doc__)
    parser.add_argument("--split", action="append", help="train, val or test; repeat for several (default train)")
    parser.add_argument("--source", action="append", help="only these manifest sources (repeatable)")
    parser.add_argument("--corpus", help="corpus directory (default $HYBRID_CORPUS, else ../shared/corpus)")
    parser.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    args = parser.parse_args(argv)
    try:
        docs = load_documents(args.corpus, splits=tuple(args.split or ("train",)), sources=args.source)
    except HybridError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.exit_code
    summary = corpus_summary(docs)
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        _print_table(summary, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
