"""Contract templates: load, validate (jsonschema), validate user fields, render skeletons.

Owns: the Template and Skeleton types, the template meta-schema check (hybrid/template_schema.json
plus the cross-references a JSON Schema cannot express), field validation and the `{field}`
placeholder substitution. Knows nothing about models, tokenizers or grammars (no model imports).

A template argument is an id from templates/ or a path to a template JSON file. Placeholders are
`{name}` with a lower-case identifier naming a declared field; they are replaced by a regex from
the validated fields only: no str.format, no attribute access, nothing executed. Any other use of
braces in a template's text (`{party_a.__class__}`, `{0}`, a stray `{`) is refused at load.

Structure beyond the JSON Schema (also checked at load): a clause may carry a `frame`, a sentence
with placeholders that opens its body (locked in the span, the filler writes after it), and
`required_when`, fields whose presence makes the clause required in every outline. The optional
clause types of the canonical outline schema (build_outline_schema) are read as an ordered list:
an outline takes each at most once (unless `outline_rules.repeatable`), in that order
(`OutlineStructure`, which hybrid.grammar turns into the planner's grammar).
"""

import copy
import difflib
import json
import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import jsonschema
from jsonschema.exceptions import best_match

from hybrid.data.clauses import CLAUSE_TYPES
from hybrid.data.document import SECTION_SEPARATOR, Segment, heading_line
from hybrid.errors import FieldError, TemplateError
from hybrid.foreign_facts import allowed_text
from hybrid.textsafe import check_field_value

__all__ = [
    "TEMPLATES_DIR",
    "HEADING_PATTERN",
    "TITLE_PATTERN",
    "Template",
    "Span",
    "Skeleton",
    "OutlineStructure",
    "FRAME_CHARS_PER_TOKEN",
    "FRAME_MIN_FILL",
    "load_template",
    "list_templates",
    "build_outline_schema",
    "substitute",
]

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"
_META_SCHEMA = json.loads((Path(__file__).with_name("template_schema.json")).read_text())
_META_VALIDATOR = jsonschema.Draft202012Validator(_META_SCHEMA)

# Bounded strings by pattern, not maxLength (xgrammar #800). No '"' or '\\' in the class, so the
# JSON text of a heading never needs an escape; no trailing space or punctuation, since
# heading_line() appends the "." itself.
HEADING_PATTERN = "^[A-Z]([A-Za-z0-9 ,'&/()-]{0,58}[A-Za-z0-9)])?$"
TITLE_PATTERN = "^[A-Z]([A-Za-z0-9 ,'&/()-]{0,78}[A-Za-z0-9)])?$"
_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_BRACES = re.compile(r"\{[^{}]*\}|[{}]")  # every braced group or stray brace; each must be a _PLACEHOLDER
FRAME_CHARS_PER_TOKEN = 2
"""Characters per token assumed for a frame at load (placeholders at their field's longest value).
The BPE tokenizers here average about 4 characters per token on contract English; 2 leaves room
for names and numbers that split badly. The exact token count is checked again when the
skeleton is tokenized (hybrid.skeleton.from_template), against the real values."""
FRAME_MIN_FILL = 16
"""Span tokens a frame must leave to the filler (and the span's closing <eos>)."""
_NUMBER_WIDTH = 24  # characters of the longest str() of a finite float


def substitute(text: str, values: dict) -> str:
    """Replace each `{name}` by str(values[name]); a name not in values is a KeyError (caller bug)."""
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)


def _pointer(path) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _fmt(v) -> str:
    return json.dumps(v, ensure_ascii=False)


@dataclass
class Span:
    """One masked clause body of a skeleton: what the filler writes and what it must respect."""

    section: int  # index into the outline's sections
    clause: str  # clause type
    heading: str
    budget: int  # length budget in tokens
    required_terms: list[str]  # strings the body should contain (placeholders substituted)
    locked: list[str]  # strings that must appear verbatim where used (party names, defined terms)
    frame: str = ""  # the clause's opening sentence with the deal's facts; pinned at the span's start
    frame_fields: list[str] = field(default_factory=list)  # the fields the frame states


@dataclass
class Skeleton:
    """Ordered segments in the canonical Document layout; every "body" segment is empty (a span)."""

    template_id: str
    outline: dict
    fields: dict
    segments: list[Segment]
    spans: list[Span]  # spans[i] belongs to the i-th "body" segment
    deal_text: str = ""  # everything the deal states (hybrid.foreign_facts.allowed_text): what a draft may name

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.segments)

    def body_segments(self) -> list[Segment]:
        return [s for s in self.segments if s.kind == "body"]


@dataclass
class Template:
    id: str
    title: str
    description: str
    doc_type: str
    fields: dict  # JSON Schema of the user's inputs
    example: dict
    outline_schema: dict
    clauses: dict  # clause type -> {"heading", "budget", "required_terms"}
    preamble: str
    signature_block: str
    defined_terms: list[str] = field(default_factory=list)
    grounding: dict = field(default_factory=dict)
    outline_rules: dict = field(default_factory=dict)
    path: str = ""

    @cached_property
    def _field_validator(self):
        return jsonschema.Draft202012Validator(self.fields)

    @cached_property
    def _outline_validator(self):
        return jsonschema.Draft202012Validator(self.outline_schema)

    @property
    def required_fields(self) -> list[str]:
        return list(self.fields["required"])

    @property
    def clause_types(self) -> list[str]:
        """Every clause type the outline schema allows, in first-mention order."""
        return list(dict.fromkeys(_clause_values(self.outline_schema)))

    @property
    def required_clauses(self) -> list[str]:
        """Clause types present in every outline the schema accepts (a `const` in every alternative)."""
        return _required_clauses(self.outline_schema)

    @property
    def free_title(self) -> bool:
        return bool(self.outline_rules.get("free_title", False))

    @cached_property
    def structure(self) -> "OutlineStructure | None":
        """The outline schema read as build_outline_schema's shape, or None for another shape."""
        return _structure(self.outline_schema, self.outline_rules.get("repeatable", []))

    def required_when(self, values: dict) -> list[str]:
        """Clause types the given fields make required (`required_when`), in template order."""
        return [c for c, spec in self.clauses.items() if any(_given(values, f) for f in spec.get("required_when", []))]

    def field_clauses(self) -> dict[str, list[str]]:
        """Where each field's value belongs: "preamble" when the preamble states it, and every
        clause type whose frame states it (fields placed nowhere are left out)."""
        out: dict[str, list[str]] = {}
        for name in _PLACEHOLDER.findall(self.preamble):
            out.setdefault(name, ["preamble"])
        for ctype, spec in self.clauses.items():
            for name in dict.fromkeys(_PLACEHOLDER.findall(spec.get("frame", ""))):
                out.setdefault(name, []).append(ctype)
        return out

    def outline_problems(self, outline: dict, values: dict) -> list[str]:
        """What the outline breaks beyond outline_schema: a repeated clause type the template does
        not allow to repeat, a clause the fields make required but missing, a title not the
        template's (unless free_title). Empty: none."""
        clauses = [s["clause"] for s in outline["sections"]]
        repeatable = set(self.outline_rules.get("repeatable", []))
        out = []
        seen = set()
        for i, c in enumerate(clauses):
            if c in seen and not (c in repeatable and clauses[i - 1] == c):
                out.append(f"clause type {c!r} repeated at /sections/{i}")
            seen.add(c)
        for c in self.required_when(values):
            if c not in seen:
                fields_ = [f for f in self.clauses[c].get("required_when", []) if _given(values, f)]
                out.append(f"clause type {c!r} missing; required when {', '.join(fields_)} is given")
        if not self.free_title and outline["title"] != self.title:
            out.append(f"title {outline['title']!r} is not the template's {self.title!r}")
        return out

    def validate_fields(self, fields: dict) -> dict:
        """The validated fields with defaults filled in; FieldError names the first problem."""
        if not isinstance(fields, dict):
            raise FieldError(f"fields must be a JSON object of name -> value, got {type(fields).__name__}.")
        props = self.fields["properties"]
        unknown = [k for k in fields if k not in props]
        if unknown:
            k = unknown[0]
            close = difflib.get_close_matches(k, list(props), n=3)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            raise FieldError(
                f"unknown field {k!r} for template {self.id!r}; allowed fields: {', '.join(props)}.{hint}"
            )
        missing = [k for k in self.required_fields if k not in fields and "default" not in props[k]]
        if missing:
            raise FieldError(
                f"missing required field {missing[0]!r} for template {self.id!r} "
                f"(required: {', '.join(self.required_fields)}; see `hybrid plan {self.id} --example`)."
            )
        out = {k: copy.deepcopy(v["default"]) for k, v in props.items() if "default" in v}
        out.update(fields)
        for k, v in out.items():  # NaN passes minimum/maximum, and infinity reads "Infinity": first
            if isinstance(v, float) and not math.isfinite(v) and props[k].get("type") in ("number", "integer"):
                check_field_value(k, v)
        for err in sorted(self._field_validator.iter_errors(out), key=lambda e: list(e.path)):
            raise FieldError(self._field_message(err))
        for k, v in out.items():
            check_field_value(k, v, multiline=bool(props[k].get("multiline", False)))
        return out

    def _field_message(self, err) -> str:
        name = err.path[0] if err.path else "?"
        spec = self.fields["properties"].get(name, {})
        got = err.instance
        if err.validator == "type":
            return f"field {name!r} must be of type {spec.get('type')}, got {_fmt(got)} ({type(got).__name__})."
        if err.validator == "maxLength":
            return f"field {name!r} is too long: {len(got)} characters, at most {spec['maxLength']} allowed."
        if err.validator == "enum":
            return f"field {name!r} must be one of {', '.join(_fmt(v) for v in spec['enum'])}, got {_fmt(got)}."
        if err.validator in ("minimum", "maximum"):
            return f"field {name!r} must be in [{spec['minimum']}, {spec['maximum']}], got {_fmt(got)}."
        if err.validator == "pattern":
            hint = spec.get("description", f"a string matching {spec['pattern']}")
            return f"field {name!r} must be {hint}, got {_fmt(got)}."
        return f"field {name!r} is invalid: {err.message}."

    def coerce_field_strings(self, raw: dict[str, str]) -> dict:
        """Command-line strings converted to the declared field types (integer/number); not validated."""
        props = self.fields["properties"]
        out = {}
        for k, v in raw.items():
            kind = props.get(k, {}).get("type")
            if kind in ("integer", "number") and isinstance(v, str):
                try:
                    out[k] = int(v) if kind == "integer" else float(v)
                except ValueError:
                    raise FieldError(f"field {k!r} must be of type {kind}, got {_fmt(v)}.") from None
                if not math.isfinite(out[k]):
                    raise FieldError(f"field {k!r} must be a finite number, got {_fmt(v)}.")
            else:
                out[k] = v
        return out

    def validate_outline(self, outline: dict) -> None:
        """Raise TemplateError (naming the JSON pointer) when outline breaks outline_schema."""
        err = best_match(self._outline_validator.iter_errors(outline))
        if err is not None:
            raise TemplateError(
                f"outline does not satisfy template {self.id!r} at {_pointer(err.absolute_path)}: {err.message}"
            )

    def example_outline(self) -> dict:
        """A valid outline built from the template's own default headings (for tests and docs)."""
        sections = _example_sections(self.outline_schema, self.clauses)
        return {"title": self.title, "sections": sections}

    def with_template_headings(self, outline: dict) -> dict:
        """The outline with the template's title and each section's heading replaced by its clause
        type's default heading (the planner's choice of sections and order kept). Validated."""
        self.validate_outline(outline)
        sections = [{**sec, "heading": self.clauses[sec["clause"]]["heading"]} for sec in outline["sections"]]
        out = {**copy.deepcopy(outline), "title": self.title, "sections": sections}
        self.validate_outline(out)
        return out

    def render_skeleton(self, outline: dict, fields: dict, *, frames: bool = True) -> Skeleton:
        """The document skeleton for an outline: fixed text + one empty body span per section.

        frames: each span carries its clause's frame rendered from the fields (hybrid.skeleton
        locks it at the span's start); a frame naming a field that was not given is left out, and
        a clause type that appears twice gets its frame once. frames=False: the behaviour before
        frames existed (benchmarks compare the two).
        """
        self.validate_outline(outline)
        values = self.validate_fields(fields)
        locked = list(dict.fromkeys([str(values["party_a"]), str(values["party_b"])] + [substitute(t, values) for t in self.defined_terms]))
        segs = [Segment(f"{outline['title']}\n\n", "text"), Segment(f"{substitute(self.preamble, values)}\n\n", "text")]
        spans = []
        framed: set[str] = set()
        for i, sec in enumerate(outline["sections"]):
            spec = self.clauses[sec["clause"]]
            frame, frame_fields = "", []
            if frames and spec.get("frame") and sec["clause"] not in framed:
                names = _PLACEHOLDER.findall(spec["frame"])
                if all(_given(values, n) for n in names):
                    frame, frame_fields = substitute(spec["frame"], values), list(dict.fromkeys(names))
                    framed.add(sec["clause"])
            segs.append(Segment(heading_line(str(i + 1), sec["heading"]), "heading", i))
            segs.append(Segment("", "body", i))
            segs.append(Segment(SECTION_SEPARATOR, "text"))
            spans.append(
                Span(
                    section=i,
                    clause=sec["clause"],
                    heading=sec["heading"],
                    budget=spec["budget"],
                    required_terms=[substitute(t, values) for t in spec["required_terms"]],
                    locked=locked,
                    frame=frame,
                    frame_fields=frame_fields,
                )
            )
        segs.append(Segment(substitute(self.signature_block, values), "text"))
        return Skeleton(self.id, copy.deepcopy(outline), values, segs, spans, allowed_text(self, values))

    def summary(self) -> dict:
        return {"id": self.id, "title": self.title, "path": self.path, "required_fields": self.required_fields}


def build_outline_schema(lead: list[str], optional: list[str], tail: list[str], min_sections: int, max_sections: int) -> dict:
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


def _given(values: dict, name: str) -> bool:
    v = values.get(name)
    return v is not None and not (isinstance(v, str) and not v.strip())


def _structure(schema: dict, repeatable) -> OutlineStructure | None:
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


def _clause_values(schema: dict) -> list[str]:
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


def _required_clauses(schema: dict) -> list[str]:
    per_branch = []
    for b in _section_branches(schema):
        consts = [_item_clause(schema, it)[0] for it in b.get("prefixItems", [])]
        per_branch.append([c for c in consts if c])
    common = set.intersection(*(set(c) for c in per_branch)) if per_branch else set()
    return [c for c in per_branch[0] if c in common] if per_branch else []


def _example_sections(schema: dict, clauses: dict) -> list[dict]:
    """Sections of the shortest branch, each clause from its const or the first enum value not yet used."""
    branch = min(_section_branches(schema), key=lambda b: b.get("minItems", 0))
    used, out = set(), []
    for item in branch.get("prefixItems", []):
        const, options = _item_clause(schema, item)
        clause = const or next((c for c in options if c not in used), options[0])
        used.add(clause)
        out.append({"heading": clauses[clause]["heading"], "clause": clause})
    return out


def _check_cross_references(data: dict, where: str) -> None:
    """What the meta-schema cannot say: placeholders, clause coverage, a valid example."""
    props = data["fields"]["properties"]
    required = set(data["fields"]["required"])
    for name in data["fields"]["required"]:
        if name not in props:
            raise TemplateError(f"{where}: /fields/required names {name!r}, which is not under /fields/properties.")
    texts = [("/preamble", data["preamble"]), ("/signature_block", data["signature_block"])]
    texts += [(f"/defined_terms/{i}", t) for i, t in enumerate(data.get("defined_terms", []))]
    for ctype, spec in data["clauses"].items():
        texts += [(f"/clauses/{ctype}/required_terms/{i}", t) for i, t in enumerate(spec["required_terms"])]
    for ptr, text in texts:
        _check_braces(text, ptr, where)
        for m in _PLACEHOLDER.finditer(text):
            name = m.group(1)
            if name not in props:
                raise TemplateError(f"{where}: placeholder {{{name}}} at {ptr} names no field (fields: {', '.join(props)}).")
            if name not in required and "default" not in props[name]:
                raise TemplateError(f"{where}: placeholder {{{name}}} at {ptr} uses an optional field without a default.")
    _check_clause_rules(data, where)
    for ctype in _clause_values(data["outline_schema"]):
        if ctype not in CLAUSE_TYPES:
            raise TemplateError(f"{where}: /outline_schema names clause type {ctype!r}, not one of {', '.join(CLAUSE_TYPES)}.")
        if ctype not in data["clauses"]:
            raise TemplateError(f"{where}: clause type {ctype!r} is in /outline_schema but has no entry under /clauses.")
    try:
        jsonschema.Draft202012Validator.check_schema(data["outline_schema"])
        jsonschema.Draft202012Validator.check_schema(data["fields"])
    except jsonschema.SchemaError as e:
        raise TemplateError(f"{where}: invalid JSON Schema at {_pointer(e.absolute_path)}: {e.message}") from None


def _check_braces(text: str, ptr: str, where: str) -> None:
    for m in _BRACES.finditer(text):
        if not _PLACEHOLDER.fullmatch(m.group(0)):
            raise TemplateError(
                f"{where}: placeholder {m.group(0)!r} at {ptr} is not allowed: a placeholder is {{name}} with a "
                f"lower-case field name (letters, digits, _), and braces appear nowhere else."
            )


def _worst_case_chars(text: str, props: dict) -> int:
    """Length of text with every placeholder at its field's longest value."""
    def longest(name):
        spec = props[name]
        if "enum" in spec:
            return max(len(str(v)) for v in spec["enum"])
        return spec["maxLength"] if spec.get("type") == "string" else _NUMBER_WIDTH

    return len(_PLACEHOLDER.sub("", text)) + sum(longest(n) for n in _PLACEHOLDER.findall(text))


def _check_clause_rules(data: dict, where: str) -> None:
    """Frames (placeholders, length against the budget), required_when, outline_rules."""
    props = data["fields"]["properties"]
    allowed = set(_clause_values(data["outline_schema"]))
    for ctype, spec in data["clauses"].items():
        frame = spec.get("frame")
        if frame is not None:
            ptr = f"/clauses/{ctype}/frame"
            _check_braces(frame, ptr, where)
            for name in _PLACEHOLDER.findall(frame):
                if name not in props:
                    raise TemplateError(
                        f"{where}: clause {ctype!r}: frame placeholder {{{name}}} at {ptr} names no field (fields: {', '.join(props)})."
                    )
            bound = -(-_worst_case_chars(frame, props) // FRAME_CHARS_PER_TOKEN)
            room = spec["budget"] - FRAME_MIN_FILL
            if bound > room:
                raise TemplateError(
                    f"{where}: clause {ctype!r}: frame at {ptr} may take {bound} tokens with its placeholders "
                    f"({', '.join('{' + n + '}' for n in _PLACEHOLDER.findall(frame)) or 'none'}) at their longest "
                    f"(at {FRAME_CHARS_PER_TOKEN} characters per token), more than its budget {spec['budget']} minus "
                    f"{FRAME_MIN_FILL} tokens for the filler allows ({room}); shorten the frame or raise the budget."
                )
        for i, name in enumerate(spec.get("required_when", [])):
            if name not in props:
                raise TemplateError(
                    f"{where}: clause {ctype!r}: /clauses/{ctype}/required_when/{i} names field {name!r}, which is not a "
                    f"declared field (fields: {', '.join(props)})."
                )
        if spec.get("required_when") and ctype not in allowed:
            raise TemplateError(
                f"{where}: clause {ctype!r} has required_when but /outline_schema never allows it "
                f"(allowed: {', '.join(sorted(allowed))})."
            )
    rules = data.get("outline_rules", {})
    for ctype in rules.get("repeatable", []):
        if ctype not in allowed:
            raise TemplateError(f"{where}: /outline_rules/repeatable names clause {ctype!r}, which /outline_schema never allows.")
    st = _structure(data["outline_schema"], rules.get("repeatable", []))
    if st is not None:
        fixed = set(st.lead + st.tail)
        need = [c for c, s in data["clauses"].items() if s.get("required_when") and c not in fixed]
        if len(st.lead) + len(st.tail) + len(need) > st.max_sections:
            raise TemplateError(
                f"{where}: required_when makes {len(need)} optional clauses required ({', '.join(need)}); with "
                f"{len(st.lead) + len(st.tail)} lead/tail clauses that exceeds max_sections={st.max_sections}."
            )


def _from_dict(data: dict, where: str) -> Template:
    err = best_match(_META_VALIDATOR.iter_errors(data))
    if err is not None:
        raise TemplateError(f"{where}: breaks the template meta-schema at {_pointer(err.absolute_path) if err.absolute_path else '/'}: {err.message}")
    _check_cross_references(data, where)
    t = Template(**{k: v for k, v in data.items()}, path=where)
    try:
        t.validate_fields(t.example)
    except FieldError as e:
        raise TemplateError(f"{where}: /example is not valid for /fields: {e}") from None
    return t


def _template_files() -> dict[str, Path]:
    return {p.stem: p for p in sorted(TEMPLATES_DIR.glob("*.json"))}


def load_template(id_or_path) -> Template:
    """A template by id (templates/<id>.json) or by path to a JSON file."""
    if isinstance(id_or_path, Template):
        return id_or_path
    arg = str(id_or_path)
    files = _template_files()
    if arg in files:
        path = files[arg]
    elif arg.endswith(".json") or "/" in arg or Path(arg).is_file():
        path = Path(arg)
        if not path.is_file():
            raise TemplateError(f"template file not found: {arg}")
    else:
        close = difflib.get_close_matches(arg, list(files), n=3, cutoff=0.4)
        hint = f" Closest: {', '.join(close)}." if close else ""
        raise TemplateError(f"unknown template {arg!r}.{hint} Available: {', '.join(files)}.")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise TemplateError(f"cannot read template file {path}: {e}") from None
    except json.JSONDecodeError as e:
        raise TemplateError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}): {e.msg}") from None
    if not isinstance(data, dict):
        raise TemplateError(f"{path}: breaks the template meta-schema at /: a template must be a JSON object.")
    template = _from_dict(data, str(path))
    if path.resolve().parent == TEMPLATES_DIR and template.id != path.stem:
        raise TemplateError(f"{path}: /id is {template.id!r} but a file in templates/ must be named <id>.json.")
    return template


def list_templates() -> list[Template]:
    return [load_template(p) for p in _template_files().values()]
