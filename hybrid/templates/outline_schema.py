"""The outline schema of a template: building the canonical one and reading any back.

Owns: the heading and title patterns, `build_outline_schema` (required lead clauses, optional
ones, required tail clauses: one anyOf branch per section count, the shape both xgrammar and
jsonschema read the same way), `OutlineStructure` (that shape read back, which hybrid.plan.grammar
turns into the planner's grammar) and the readers a template needs: which clause types a schema
names, which every outline must have, an example outline. Pure JSON Schema dicts in and out;
knows nothing about template files, fields or rendering (hybrid.templates.template).
"""

import re
from dataclasses import dataclass

__all__ = ["HEADING_PATTERN", "TITLE_PATTERN", "build_outline_schema", "OutlineStructure", "outline_structure",
           "clause_values", "required_clauses", "example_sections"]

# Bounded strings by pattern, not maxLength (xgrammar #800). No '"' or '\\' in the class, so the
# JSON text of a heading never needs an escape; no trailing space or punctuation, since
# heading_line() appends the "." itself.
HEADING_PATTERN = "^[A-Z]([A-Za-z0-9 ,'&/()-]{0,58}[A-Za-z0-9)])?$"
TITLE_PATTERN = "^[A-Z]([A-Za-z0-9 ,'&/()-]{0,78}[A-Za-z0-9)])?$"


def build_outline_schema(
    lead: list[str], optional: list[str], tail: list[str], min_sections: int, max_sections: int
) -> dict:
    """The canonical outline schema: required `lead` clauses first (fixed order), then optional
    sections, then required `tail` clauses (fixed order).

    xgrammar ignores `contains`, so "required clause" is expressed structurally: one anyOf branch
    per section count, each a fixed prefixItems list [lead..., optional x m, tail...]. Both
    xgrammar and jsonschema read that exactly the same way. Optional sections exclude the
    required types, so each required clause appears exactly once.
    """
    assert not set(optional) & set(lead + tail), "a clause type cannot be both required and optional"
    assert optional or min_sections == max_sections == len(lead) + len(tail), "no optional clause types"
    lo = max(min_sections, len(lead) + len(tail))
    assert lo <= max_sections, f"{len(lead) + len(tail)} required clauses exceed max_sections={max_sections}"

    def section(clause) -> dict:
        c = {"const": clause} if isinstance(clause, str) else {"enum": list(clause)}
        return {
            "type": "object",
            "properties": {"heading": {"$ref": "#/$defs/heading"}, "clause": c},
            "required": ["heading", "clause"],
            "additionalProperties": False,
        }

    defs = {"heading": {"type": "string", "pattern": HEADING_PATTERN}}
    for c in lead + tail:
        defs[c] = section(c)
    if optional:
        defs["optional_section"] = section(optional)
    branches = []
    for n in range(lo, max_sections + 1):
        items = [{"$ref": f"#/$defs/{c}"} for c in lead]
        items += [{"$ref": "#/$defs/optional_section"}] * (n - len(lead) - len(tail))
        items += [{"$ref": f"#/$defs/{c}"} for c in tail]
        branches.append({"prefixItems": items, "items": False, "minItems": n, "maxItems": n})
    return {
        "type": "object",
        "properties": {
            "title": {"type": "string", "pattern": TITLE_PATTERN},
            "sections": {"type": "array", "anyOf": branches},
        },
        "required": ["title", "sections"],
        "additionalProperties": False,
        "$defs": defs,
    }


@dataclass(frozen=True)
class OutlineStructure:
    """build_outline_schema's shape: `lead` clauses, then optional ones (each at most once unless
    repeatable, in this order), then `tail`; between min_sections and max_sections in all."""

    lead: tuple[str, ...]
    optional: tuple[str, ...]
    tail: tuple[str, ...]
    min_sections: int
    max_sections: int
    repeatable: tuple[str, ...] = ()


def outline_structure(schema: dict, repeatable) -> OutlineStructure | None:
    """Recognise the canonical outline schema; None when the branches are another shape."""
    try:
        branches = _section_branches(schema)
        shapes, options = [], None
        for b in branches:
            items = [_item_clause(schema, it) for it in b.get("prefixItems", [])]
            if not items or b.get("items") is not False or b.get("minItems") != b.get("maxItems") != len(items):
                return None
            kinds = ["c" if const else "o" for const, _ in items]
            opts = [tuple(o) for const, o in items if not const]
            if any(o != opts[0] for o in opts) or (options is not None and opts and opts[0] != options):
                return None
            options = opts[0] if opts else options
            k = "".join(kinds)
            if not re.fullmatch(r"c*o*c*", k):
                return None
            lead_n = len(k) - len(k.lstrip("c"))
            consts = [const for const, _ in items]
            shapes.append((tuple(consts[:lead_n]), tuple(c for c in consts[lead_n:] if c), len(items)))
    except (KeyError, TypeError, IndexError):
        return None
    if not shapes or len({s[:2] for s in shapes}) != 1:
        return None
    lead, tail = shapes[0][0], shapes[0][1]
    counts = sorted(s[2] for s in shapes)
    lo, hi = counts[0], counts[-1]
    if counts != list(range(lo, hi + 1)) or (options is None and lo != hi):
        return None
    return OutlineStructure(lead, tuple(options or ()), tail, lo, hi, tuple(repeatable))


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def clause_values(schema: dict) -> list[str]:
    """Clause types named by `const`/`enum` under any "clause" property of the schema."""
    out = []

    def walk(node):
        if isinstance(node, dict):
            clause = node.get("properties", {}).get("clause") if isinstance(node.get("properties"), dict) else None
            if isinstance(clause, dict):
                clause = _resolve(schema, clause)
                out.extend([clause["const"]] if "const" in clause else clause.get("enum", []))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return out


def _section_branches(schema: dict) -> list[dict]:
    sections = _resolve(schema, schema["properties"]["sections"])
    return [_resolve(schema, b) for b in sections.get("anyOf", [sections])]


def _item_clause(schema: dict, item: dict):
    clause = _resolve(schema, _resolve(schema, item).get("properties", {}).get("clause", {}))
    return clause.get("const"), clause.get("enum", [clause["const"]] if "const" in clause else [])


def required_clauses(schema: dict) -> list[str]:
    per_branch = []
    for b in _section_branches(schema):
        consts = [_item_clause(schema, it)[0] for it in b.get("prefixItems", [])]
        per_branch.append([c for c in consts if c])
    common = set.intersection(*(set(c) for c in per_branch)) if per_branch else set()
    return [c for c in per_branch[0] if c in common] if per_branch else []


def example_sections(schema: dict, clauses: dict) -> list[dict]:
    """Sections of the shortest branch, each clause from its const or the first enum value not yet used."""
    branch = min(_section_branches(schema), key=lambda b: b.get("minItems", 0))
    used, out = set(), []
    for item in branch.get("prefixItems", []):
        const, options = _item_clause(schema, item)
        clause = const or next((c for c in options if c not in used), options[0])
        used.add(clause)
        out.append({"heading": clauses[clause]["heading"], "clause": clause})
    return out
