"""How often a precedent's cross-reference is taken to the right section of its source contract.

    python benchmarks/references.py [--out FILE]

A draft renumbers a precedent's "Section 12" to its own section of the clause type that section 12 of the source
contract has (hybrid.draft.revise.source_sections); a wrong map sends the reader to the wrong clause. Two checks
whose truth is written in the source itself, over every clause of the library (train split):
- self references: "this Section 12" in a clause names the clause itself, so 12 must map to its own clause type;
- titled references: "Section 10 (Confidentiality)" names its heading, so 10 must map to the clause type that
  heading has (hybrid.data.clauses.classify_heading; headings no rule knows are left out).
Arms, in the same run: "written" (the shipped map: the numbers the source wrote, Section.numbers, and for a source
that numbers none its place in the layout; a titled reference in a draft goes by its heading first,
hybrid.draft.revise's title resolver, which this does not count) and "layout" (the map before: every source
by its place in the layout, the number ingestion gives its sections in document order). One JSON line.
"""

import argparse
import re
import sys
import time
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.machine import add_run_args, emit, machine  # noqa: E402

_SELF = re.compile(r"\bthis\s+(?:Section|Article|Clause)\s+(\d{1,3})(?!\d)", re.I)


def _check(lib, maps: dict) -> dict:
    from hybrid.data.clauses import classify_heading
    from hybrid.text.references import find_references

    out = {arm: {"self_right": 0, "titled_right": 0, "titled_numbered_right": 0} for arm in maps}
    n_self = n_titled = n_numbered = 0
    numbered = {p.doc_id for p in lib.precedents if p.numbers}
    for p in lib.precedents:
        for m in _SELF.finditer(p.body):
            n_self += 1
            for arm, mp in maps.items():
                out[arm]["self_right"] += mp.get(p.doc_id, {}).get(str(int(m.group(1)))) == p.clause_type
        for ref in find_references(p.body):
            for top, title in zip(ref.tops, ref.titles):
                clause = classify_heading(title) if title else "other"
                if clause == "other":
                    continue
                n_titled += 1
                n_numbered += p.doc_id in numbered
                for arm, mp in maps.items():
                    right = mp.get(p.doc_id, {}).get(top) == clause
                    out[arm]["titled_right"] += right
                    out[arm]["titled_numbered_right"] += right and p.doc_id in numbered
    for arm in out:
        out[arm]["self_share"] = round(out[arm]["self_right"] / max(n_self, 1), 4)
        out[arm]["titled_share"] = round(out[arm]["titled_right"] / max(n_titled, 1), 4)
        out[arm]["titled_numbered_share"] = round(out[arm]["titled_numbered_right"] / max(n_numbered, 1), 4)
    return {"self_references": n_self, "titled_references": n_titled, "titled_in_numbered_sources": n_numbered, **out}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_args(ap)
    args = ap.parse_args()
    from hybrid.draft.revise import source_sections
    from hybrid.precedents.library import load_library

    t0 = time.perf_counter()
    lib = load_library()
    layout = SimpleNamespace(
        precedents=[SimpleNamespace(id=p.id, doc_id=p.doc_id, clause_type=p.clause_type, numbers=[])
                    for p in lib.precedents]
    )
    maps = {"written": source_sections(lib), "layout": source_sections(layout)}
    found = _check(lib, maps)
    numbered = {p.doc_id for p in lib.precedents if p.numbers}
    ratio = found["written"]["self_share"] / max(found["layout"]["self_share"], 1e-9)
    result = {"benchmark": "references", **machine(), "precedents": len(lib),
              "sources": len({p.doc_id for p in lib.precedents}), "sources_with_written_numbers": len(numbered),
              **found, "self_share_ratio_written_over_layout": round(ratio, 3),
              "wall_seconds": round(time.perf_counter() - t0, 1)}
    emit(result, args.out)


if __name__ == "__main__":
    main()
