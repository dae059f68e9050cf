"""What a template file must satisfy, checked once at load.

Owns: the template meta-schema (hybrid/templates/template_schema.json), the placeholder syntax
(`{name}`, a lower-case field name; braces nowhere else), and the cross-references a JSON
Schema cannot express: every placeholder names a declared field, every required field is
placed in some text, every clause type of the outline schema is known and has an entry, every
`$ref` of the outline schema names an entry of its `$defs` and none leads back to itself, every `$ref` of
the fields stays inside them and every `pattern` keeps to safe_schema.PATTERN_RULE (hybrid.templates.safe_schema,
whose validator every template schema is read with), frames
fit their budgets at their fields' longest values, `required_when` and `outline_rules` name what
exists, every `roles` entry names a party the preamble defines, a field's `x-kind` suits its type,
and the template's own text (preamble, signature block, frames, terms) meets the contract-text rules
field values meet (hybrid.common.textsafe). Knows nothing about rendering, user fields or models
(hybrid.templates.template uses it).
"""

import json
import math
import re
from pathlib import Path

import jsonschema
from jsonschema.exceptions import best_match

from hybrid.common.errors import TemplateError
from hybrid.common.textsafe import check_text, kind_problem, shown
from hybrid.data.clauses import CLAUSE_TYPES
from hybrid.templates.outline_schema import clause_values, outline_structure
from hybrid.templates.safe_schema import NO_RETRIEVAL, check_field_refs, check_patterns, pointer

__all__ = ["check_template_data", "FIELD_KEYWORDS", "TEMPLATE_VALUES", "PLACEHOLDER", "FRAME_CHARS_PER_TOKEN",
           "FRAME_MIN_FILL", "pointer", "schema_message"]

_META_SCHEMA = json.loads((Path(__file__).with_name("template_schema.json")).read_text())
_META_VALIDATOR = jsonschema.Draft202012Validator(_META_SCHEMA, registry=NO_RETRIEVAL)
FIELD_KEYWORDS = tuple(_META_SCHEMA["$defs"]["field"]["properties"])
"""The keywords a template's field may use (the meta-schema's field entry is closed: no other keyword)."""
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_BRACES = re.compile(r"\{[^{}]*\}|[{}]")  # every braced group or stray brace; each must be a PLACEHOLDER
FRAME_CHARS_PER_TOKEN = 2
"""Characters per token assumed for a frame at load (placeholders at their field's longest value).
The BPE tokenizers here average about 4 characters per token on contract English; 2 leaves room
for names and numbers that split badly. The exact token count is checked again when the
skeleton is tokenized (hybrid.skeleton.tokenized.from_template), against the real values."""
FRAME_MIN_FILL = 16
"""Span tokens a frame must leave to the filler (and the span's closing <eos>)."""
_NUMBER_WIDTH = 24  # characters of the longest str() of a finite float
TEMPLATE_VALUES = 10_000
"""The most JSON values (objects, arrays, strings, numbers, ...) a template may hold. The largest shipped one holds
under 700; the meta-schema reads every value, even of a list already past its maxItems, so a 200,000-item enum
took seconds before it was refused."""


def schema_message(err) -> str:
    """A jsonschema error's message with the offending value cut to a readable length (a 5 MB
    preamble is not a 5 MB error line)."""
    try:
        return err.message.replace(repr(err.instance), shown(err.instance))
    except RecursionError:
        return err.message[:200]


def check_template_data(data: dict, where: str) -> None:
    """TemplateError naming the file and JSON pointer of the first rule a template's JSON breaks:
    the meta-schema, then what it cannot say (references, text, placeholders, clause coverage,
    frames, outline rules, field kinds)."""
    _check_size(data, where)
    err = best_match(_META_VALIDATOR.iter_errors(data))
    if err is not None:
        raise _meta_schema_error(err, where)
    _check_refs(data["outline_schema"], where)  # before anything follows a $ref
    check_field_refs(data["fields"], where)
    check_patterns(data["fields"], where, "fields")  # before anything compiles one
    check_patterns(data["outline_schema"], where, "outline_schema")
    props = data["fields"]["properties"]
    required = set(data["fields"]["required"])
    for name in data["fields"]["required"]:
        if name not in props:
            raise TemplateError(f"{where}: /fields/required names {name!r}, which is not under /fields/properties.")
    _check_kinds(props, where)
    texts = [("/preamble", data["preamble"]), ("/signature_block", data["signature_block"])]
    texts += [(f"/defined_terms/{i}", t) for i, t in enumerate(data.get("defined_terms", []))]
    texts += [(f"/{key}/{term}", t) for key in ("definitions", "positions") for term, t in data.get(key, {}).items()]
    for ctype, spec in data["clauses"].items():
        texts += [(f"/clauses/{ctype}/required_terms/{i}", t) for i, t in enumerate(spec["required_terms"])]
        if "frame" in spec:
            texts.append((f"/clauses/{ctype}/frame", spec["frame"]))
    for ptr, text in [("/title", data["title"]), *texts]:  # drafts print these verbatim: the rules of a field value
        check_text(f"{where}: {ptr}", text, multiline=ptr in ("/preamble", "/signature_block"), error=TemplateError)
    for ptr, text in texts:
        if ptr.endswith("/frame"):
            continue  # frames: _check_clause_rules, which names the clause
        _check_braces(text, ptr, where)
        for m in PLACEHOLDER.finditer(text):
            name = m.group(1)
            if name not in props:
                raise TemplateError(
                    f"{where}: placeholder {{{name}}} at {ptr} names no field (fields: {', '.join(props)})."
                )
            if name not in required and "default" not in props[name]:
                raise TemplateError(
                    f"{where}: placeholder {{{name}}} at {ptr} uses an optional field without a default."
                )
    _check_clause_rules(data, where)
    _check_roles(data, where)
    placed = {name for _, text in texts for name in PLACEHOLDER.findall(text)}
    unplaced = [name for name in data["fields"]["required"] if name not in placed]
    if unplaced:
        raise TemplateError(
            f"{where}: required field {unplaced[0]!r} is placed in no text of the template (no {{{unplaced[0]}}} in "
            "the preamble, signature block, a frame or a term): a draft would ask for it and never state it."
        )
    for ctype in clause_values(data["outline_schema"]):
        if ctype not in CLAUSE_TYPES:
            raise TemplateError(
                f"{where}: /outline_schema names clause type {ctype!r}, not one of {', '.join(CLAUSE_TYPES)}."
            )
        if ctype not in data["clauses"]:
            raise TemplateError(
                f"{where}: clause type {ctype!r} is in /outline_schema but has no entry under /clauses."
            )
    try:
        jsonschema.Draft202012Validator.check_schema(data["outline_schema"])
        jsonschema.Draft202012Validator.check_schema(data["fields"])
    except jsonschema.SchemaError as e:
        raise TemplateError(f"{where}: invalid JSON Schema at {pointer(e.absolute_path)}: {e.message}") from None


def _meta_schema_error(err, where: str) -> TemplateError:
    """The TemplateError of the meta-schema's best error: the file, the pointer, the field when it is in one (and a
    field's keywords when it used another)."""
    at = tuple(err.absolute_path)
    whose = f"field {at[2]!r}: " if len(at) > 2 and at[:2] == ("fields", "properties") else ""
    known = ""
    if whose and len(at) == 3 and err.validator == "additionalProperties":
        known = f"; a field's keywords are {', '.join(FIELD_KEYWORDS)}"
    return TemplateError(f"{where}: {whose}breaks the template meta-schema at {pointer(at) if at else '/'}: "
                         f"{schema_message(err)}{known}")


def _check_size(data: dict, where: str) -> None:
    """TemplateError when the template holds more than TEMPLATE_VALUES JSON values, naming its longest list or
    object (a huge enum, say)."""
    count, longest = 0, (0, ())
    stack: list = [(data, ())]
    while stack:
        node, path = stack.pop()
        count += 1
        if isinstance(node, (dict, list)):
            longest = max(longest, (len(node), path), key=lambda n: n[0])
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((v, (*path, k)) for k, v in items if isinstance(v, (dict, list)))
            count += sum(not isinstance(v, (dict, list)) for v in (node.values() if isinstance(node, dict) else node))
    if count > TEMPLATE_VALUES:
        raise TemplateError(f"{where}: holds {count} JSON values, more than the {TEMPLATE_VALUES} a template may; "
                            f"its longest list or object is at {pointer(longest[1]) if longest[1] else '/'} "
                            f"({longest[0]} entries).")


def _refs(node, path=()):
    """(JSON pointer path, target) of every $ref under `node`."""
    stack = [(node, path)]
    while stack:
        n, p = stack.pop()
        if isinstance(n, dict):
            if isinstance(n.get("$ref"), str):
                yield p, n["$ref"]
            stack.extend((v, (*p, k)) for k, v in n.items())
        elif isinstance(n, list):
            stack.extend((v, (*p, i)) for i, v in enumerate(n))


def _check_refs(schema: dict, where: str) -> None:
    """Every $ref of the outline schema names an entry of its root $defs, and no entry reaches
    itself through $refs (a loop would hang every reader of the schema, and xgrammar cannot
    compile a reference to nothing: both used to surface only after the model loaded)."""
    defs = schema.get("$defs", {})
    edges: dict[str, list[str]] = {}
    for path, ref in _refs(schema):
        name = ref.rsplit("/", 1)[-1]
        if not ref.startswith("#/$defs/") or name not in defs:
            raise TemplateError(
                f"{where}: $ref {ref!r} at {pointer(('outline_schema', *path))} names no entry of "
                "/outline_schema/$defs "
                f"(entries: {', '.join(defs) or 'none'})."
            )
        if len(path) >= 2 and path[0] == "$defs":
            edges.setdefault(path[1], []).append(name)
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for nxt in edges.get(name, []):
            if state.get(nxt) == 1:
                loop = " -> ".join(f"#/$defs/{n}" for n in [*trail[trail.index(nxt):], nxt])
                raise TemplateError(
                    f"{where}: /outline_schema/$defs/{nxt} refers back to itself through $ref ({loop}); "
                    "an outline schema cannot be recursive."
                )
            if state.get(nxt) is None:
                visit(nxt, [*trail, nxt])
        state[name] = 2

    for name in edges:  # depth <= number of $defs, and the meta-schema keeps a template's nesting shallow
        if state.get(name) is None:
            visit(name, [name])


_DEFINED_NAME = re.compile(r'"([^"]+)"')  # a name the preamble defines: (the "Supplier")


def _check_roles(data: dict, where: str) -> None:
    """Each `roles` entry names a party role the preamble defines, and no party both pays and is paid
    (a role named nowhere in the draft would make every role check silently pass)."""
    roles = data.get("roles", {})
    defined = _DEFINED_NAME.findall(data["preamble"])
    for key, role in roles.items():
        if role not in defined:
            raise TemplateError(
                f"{where}: /roles/{key} is {role!r}, which the preamble does not define "
                f"(defined: {', '.join(defined) or 'none'})."
            )
    if roles.get("pays") and roles.get("pays") == roles.get("paid"):
        raise TemplateError(f"{where}: /roles names {roles['pays']!r} as both pays and paid.")


_KIND_TYPES = {"percent": ("integer", "number")}  # every other kind but text: string


def _check_kinds(props: dict, where: str) -> None:
    """A field's x-kind suits its type and range (a percent is a number within [0, 100]; a date,
    duration, money or jurisdiction is a string), and each of its enum values is one."""
    for name, spec in props.items():
        ptr = f"/fields/properties/{name}"
        bounds = [(k, spec[k]) for k in ("minimum", "maximum", "default") if isinstance(spec.get(k), float)]
        for k, v in bounds:  # NaN passes every comparison a range check makes
            if not math.isfinite(v):
                raise TemplateError(f"{where}: {ptr}/{k} must be a finite number, got {v!r}.")
        if "minimum" in spec and "maximum" in spec and spec["minimum"] > spec["maximum"]:
            raise TemplateError(
                f"{where}: {ptr} allows no value: minimum {spec['minimum']} is above maximum {spec['maximum']}."
            )
        kind = spec.get("x-kind", "text")
        if kind == "text":
            continue
        types = _KIND_TYPES.get(kind, ("string",))
        values = spec.get("enum")
        if values is None and spec.get("type") not in types:
            raise TemplateError(
                f"{where}: {ptr} has x-kind {kind!r}, which needs type {' or '.join(types)}, got {spec.get('type')!r}."
            )
        if kind == "percent" and values is None and not (0 <= spec["minimum"] <= spec["maximum"] <= 100):
            raise TemplateError(
                f"{where}: {ptr} has x-kind 'percent' but allows [{spec['minimum']}, {spec['maximum']}], "
                "outside [0, 100]."
            )
        for i, v in enumerate(values or []):
            why = kind_problem(kind, v)
            if why is not None and v not in spec.get("x-also", ()):
                raise TemplateError(f"{where}: {ptr}/enum/{i} is not a {kind} ({why}): {shown(v)}.")


def _check_braces(text: str, ptr: str, where: str) -> None:
    for m in _BRACES.finditer(text):
        if not PLACEHOLDER.fullmatch(m.group(0)):
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

    return len(PLACEHOLDER.sub("", text)) + sum(longest(n) for n in PLACEHOLDER.findall(text))


def _check_clause_rules(data: dict, where: str) -> None:
    """Frames (placeholders, length against the budget), required_when, outline_rules."""
    props = data["fields"]["properties"]
    allowed = set(clause_values(data["outline_schema"]))
    for ctype, spec in data["clauses"].items():
        frame = spec.get("frame")
        if frame is not None:
            ptr = f"/clauses/{ctype}/frame"
            _check_braces(frame, ptr, where)
            for name in PLACEHOLDER.findall(frame):
                if name not in props:
                    raise TemplateError(
                        f"{where}: clause {ctype!r}: frame placeholder {{{name}}} at {ptr} names no field (fields: "
                        f"{', '.join(props)})."
                    )
            bound = -(-_worst_case_chars(frame, props) // FRAME_CHARS_PER_TOKEN)
            room = spec["budget"] - FRAME_MIN_FILL
            if bound > room:
                raise TemplateError(
                    f"{where}: clause {ctype!r}: frame at {ptr} may take {bound} tokens with its placeholders "
                    f"({', '.join('{' + n + '}' for n in PLACEHOLDER.findall(frame)) or 'none'}) at their longest "
                    f"(at {FRAME_CHARS_PER_TOKEN} characters per token), more than its budget {spec['budget']} minus "
                    f"{FRAME_MIN_FILL} tokens for the filler allows ({room}); shorten the frame or raise the budget."
                )
        for i, name in enumerate(spec.get("required_when", [])):
            if name not in props:
                raise TemplateError(
                    f"{where}: clause {ctype!r}: /clauses/{ctype}/required_when/{i} names field {name!r}, which is not "
                    f"a "
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
            raise TemplateError(
                f"{where}: /outline_rules/repeatable names clause {ctype!r}, which /outline_schema never allows."
            )
    st = outline_structure(data["outline_schema"], rules.get("repeatable", []))
    if st is not None:
        fixed = set(st.lead + st.tail)
        need = [c for c, s in data["clauses"].items() if s.get("required_when") and c not in fixed]
        if len(st.lead) + len(st.tail) + len(need) > st.max_sections:
            raise TemplateError(
                f"{where}: required_when makes {len(need)} optional clauses required ({', '.join(need)}); with "
                f"{len(st.lead) + len(st.tail)} lead/tail clauses that exceeds max_sections={st.max_sections}."
            )
