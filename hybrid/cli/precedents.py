"""`hybrid precedents`: build and browse the clause library (hybrid.precedents.library).

Owns: that subcommand's parser and output only. Results go to stdout (one JSON object with
--json); the build's progress bar goes to stderr. Errors are HybridErrors (exit 2, via hybrid.cli.main).
"""

import json
import sys
from pathlib import Path

from hybrid.common.options import SEED, int_range, integer, number

__all__ = ["add_parsers", "add_draft_arguments"]


def add_draft_arguments(parser) -> None:
    """`hybrid draft --precedents K --precedent-guidance W --precedent-start T` (unset: edit from 1 precedent at
    T = 0; see hybrid.draft.request.DraftRequest, which checks them)."""
    parser.add_argument("--precedents", type=integer, default=None, metavar="K",
                        help="k precedents of the train split per section; each section cites them. Default 1 "
                        "(edited, see --precedent-start) with --filler diffusion or ar-batched, 0 with --filler ar; "
                        "0 = draft from scratch")
    parser.add_argument(
        "--precedent-guidance",
        type=number,
        default=None,
        metavar="W",
        help="added to the guidance weight; the unconditional rows hide the heading and the precedents, "
        "so W > 0 follows the precedent more (0 = off, default; needs the precedents beside the span: "
        "--precedent-start 1)",
    )
    parser.add_argument(
        "--precedent-start",
        type=number,
        default=None,
        metavar="T",
        help="edit from precedent: each variant's section starts as a precedent of its own (variant 1 "
        "the best fit, the others the next good ones), adapted to the deal, cut at a sentence end within "
        "the budget, each other word masked with probability T (0: only the precedent's own facts are rewritten); "
        "the filler writes only the masked words (a word no contract uses is written again, then given back), "
        "and the clause ends where its precedent ends; the deal's facts are kept, the precedent's foreign "
        "facts always rewritten. Default 0 (see the README) when precedents are on and W is 0; "
        "1 = off: the precedents sit before the span and the filler writes it from scratch beside them. "
        "Needs --filler diffusion or ar-batched",
    )


def _cmd_precedents(args) -> int:
    from hybrid.data.clauses import CLAUSE_TYPES
    from hybrid.precedents.library import PrecedentError, build_library, default_library_path, load_library

    if args.build:
        lib = build_library(args.corpus, progress=True)
        path = lib.save(args.library or default_library_path())
        summary = {"built": str(path), "precedents": len(lib), "fingerprint": lib.fingerprint}
        if args.clause_type is None:
            print(json.dumps(summary) if args.json else f"built {len(lib)} precedents -> {path}")
            return 0
        print(f"built {len(lib)} precedents -> {path}", file=sys.stderr)
    elif args.clause_type is None:
        raise PrecedentError(f"give a clause type (one of {', '.join(CLAUSE_TYPES)}) or --build.")
    else:
        lib = load_library(args.library, corpus=args.corpus, progress=True)
    hits = lib.use_relevance().retrieve(
        args.clause_type, args.query or "", doc_type=args.doc_type, k=args.k, seed=args.seed, variant=args.variant
    )
    if args.json:
        print(
            json.dumps(
                {
                    "clause_type": args.clause_type,
                    "doc_type": args.doc_type,
                    "query": args.query,
                    "precedents": [
                        {
                            **p.provenance(),
                            "doc_type": p.doc_type,
                            "clause_type": p.clause_type,
                            "body": p.body,
                            "facts": p.facts,
                        }
                        for p in hits
                    ],
                }
            )
        )
        return 0
    if not hits:
        print(f"no precedents of type {args.clause_type}", file=sys.stderr)
    for i, p in enumerate(hits, 1):
        print(f"[{i}] {p.heading} ({p.doc_type}; {p.source}, {p.license})\n    {p.doc_id}\n")
        print(p.body.strip() + "\n")
    return 0


def add_parsers(sub) -> None:
    p = sub.add_parser(
        "precedents",
        help="browse (or --build) the clause library of the train split",
        description="The top-k precedents of CLAUSE_TYPE from the train split, their own facts replaced "
        "by role markers ([PARTY_A], [DATE], ...), ranked by BM25 against --query; the same doc type is "
        "preferred when it has k clauses of that type. The library is built on first use and cached.",
    )
    p.add_argument(
        "clause_type", nargs="?", default=None, help="clause type, e.g. governing_law (see hybrid.data.clauses)"
    )
    p.add_argument("--doc-type", default=None, help="prefer precedents of this doc type, e.g. 'MUTUAL NDA'")
    p.add_argument("--query", default=None, help="text to rank by (heading, clause spec, deal facts)")
    p.add_argument("-k", type=int_range(1), default=3, help="how many precedents (>= 1, default 3)")
    p.add_argument("--seed", type=SEED, default=0, help="seed for --variant > 0 draws, 0 .. 2^64-1 (default 0)")
    p.add_argument(
        "--variant", type=int_range(0, 1 << 20), default=0, help="0 = the top k; v > 0 = a seeded draw from the top 4k"
    )
    p.add_argument(
        "--build", action="store_true", help="(re)build the library from the corpus first (progress on stderr)"
    )
    p.add_argument(
        "--library", type=Path, default=None, help="library file (default: the cache under .cache/precedents)"
    )
    p.add_argument("--corpus", default=None, help="corpus root (default: $HYBRID_CORPUS or ../shared/corpus)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(func=_cmd_precedents)
