"""`hybrid library add DIR`, `hybrid library list` and `hybrid library remove NAME`: a firm's own contracts as
precedents (hybrid.precedents.user, kept on disk by hybrid.precedents.user_store).

Owns: these subcommands' arguments and output: one line per file added (its clause count) on stdout, one line
per file skipped (its name, escaped to one line, and why) on stderr, or one JSON object with --json; one line per
library listed, a damaged one (or one under a name reserved since it was added) with what is wrong and the command
that repairs it, the others listed as ever.
"""

import json
import sys

__all__ = ["add_parsers"]


def _cmd_add(args) -> int:
    from hybrid.precedents.user import add_folder

    path, library, added, skipped = add_folder(args.dir, args.name, args.doc_type or "", replace=args.replace)
    for s in skipped:
        print(f"skipped {s['file']}: {s['reason']}", file=sys.stderr)
    if args.json:
        print(json.dumps({"library": args.name, "path": str(path), "precedents": len(library), "added": added,
                          "skipped": skipped}, ensure_ascii=False))
    else:
        for a in added:
            print(f"added {a['file']}: {a['clauses']} clauses")
        print(f"library {args.name}: {len(library)} clauses -> {path} (draft with --library {args.name})")
    return 0


def _cmd_list(args) -> int:
    from hybrid.precedents.user_store import statuses

    rows = statuses()
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        if r["status"] == "ok":
            print(f"{r['name']}: {r['precedents']} clauses from {r['files']} files")
        else:
            print(f"{r['name']}: {r['status']} ({r['why']}); {r['repair']}")
    return 0


def _cmd_remove(args) -> int:
    from hybrid.precedents.user_store import remove_library

    remove_library(args.name)
    print(json.dumps({"removed": args.name}) if args.json else f"library {args.name} removed")
    return 0


def add_parsers(subparsers) -> None:
    p = subparsers.add_parser("library", help="your own precedents: add a folder of contracts, list or remove the "
                              "libraries",
                              description="Segment your own contracts (Markdown, text, DOCX) into clauses with the "
                              "corpus pipeline, normalize their facts and keep them as a named library beside the "
                              "shipped one; `hybrid draft --library NAME` and the workbench then prefer them.")
    sub = p.add_subparsers(dest="library_command", required=True)
    a = sub.add_parser("add", help="add the contracts under DIR to a library (bad files are reported and skipped)")
    a.add_argument("dir", help="folder of .md, .txt and .docx contracts (searched recursively)")
    a.add_argument("--name", default="firm", help="library name (default: firm)")
    a.add_argument("--doc-type", default=None, help="their doc type, e.g. 'MUTUAL NDA' (retrieval prefers it)")
    a.add_argument("--replace", action="store_true",
                   help="make the library afresh from DIR alone, dropping what it held (this repairs a damaged one); "
                   "without it, DIR's files are added to the library or replace their earlier clauses")
    a.add_argument("--json", action="store_true", help="one JSON object on stdout")
    a.set_defaults(func=_cmd_add)
    s = sub.add_parser("list", help="the libraries added so far")
    s.add_argument("--json", action="store_true", help="one JSON line on stdout")
    s.set_defaults(func=_cmd_list)
    r = sub.add_parser("remove", help="delete a library (its file only: your contracts stay where they are)")
    r.add_argument("name", help="the library's name")
    r.add_argument("--json", action="store_true", help="one JSON line on stdout")
    r.set_defaults(func=_cmd_remove)
