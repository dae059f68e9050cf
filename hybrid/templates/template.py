"""Contract templates: load, validate user fields and outlines, render skeletons.

Owns: the Template type, finding and loading a template file, field validation (with messages naming the field)
and outline validation. What it renders (the Skeleton and Span types) and the `{field}` placeholder substitution are
hybrid.templates.rendered's, importable from here. The checks a template file must pass at load are
hybrid.templates.rules; the outline schema's shape and its readers are hybrid.templates.outline_schema. Knows nothing
about models, tokenizers or grammars (no model imports).

A template argument is an id from templates/ or a path to a template JSON file. Placeholders are `{name}` with a
lower-case identifier naming a declared field; they are replaced by a regex from the validated fields only: no
str.format, no attribute access, nothing executed. Any other use of braces in a template's text
(`{party_a.__class__}`, `{0}`, a stray `{`) is refused at load.

Structure beyond the JSON Schema (also checked at load): a clause may carry a `frame`, a sentence with placeholders
that opens its body (locked in the span, the filler writes after it), and `required_when`, fields whose presence
makes the clause required in every outline. The canonical outline schema's (build_outline_schema) optional clause
types are an ordered list: an outline takes each at most once (unless `outline_rules.repeatable`), in that order
(`OutlineStructure`, which hybrid.plan.grammar turns into the planner's grammar).
"""

import copy
import difflib
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from jsonschema.exceptions import best_match

from hybrid.common.errors import FieldError, TemplateError
from hybrid.common.jsonl import JSONInputError, strict_json
from hybrid.common.textsafe import check_field_value, check_kind, shown
from hybrid.data.document import SECTION_SEPARATOR, Segment, heading_line
from hybrid.fidelity.foreign_facts import allowed_text
from hybrid.templates.field_errors import field_message, unreadable_value
from hybrid.templates.field_errors import fmt as _fmt
from hybrid.templates.frames import compose_frames, unstated_terms
from hybrid.templates.outline_schema import (
    HEADING_PATTERN,
    TITLE_PATTERN,
    OutlineStructure,
    build_outline_schema,
    clause_values,
    example_sections,
    outline_structure,
    required_clauses,
)
from hybrid.templates.rendered import Skeleton, Span, substitute
from hybrid.templates.rules import (
    FRAME_CHARS_PER_TOKEN,
    FRAME_MIN_FILL,
    PLACEHOLDER,
    check_template_data,
    pointer,
    schema_message,
)
from hybrid.templates.safe_schema import validator

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
    "parse_template",
    "unknown_template",
    "list_templates",
    "build_outline_schema",
    "substitute",
]

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


def _given(values: dict, name: str) -> bool:
    v = values.get(name)
    return v is not None and not (isinstance(v, str) and not v.strip())


class ValidFields(dict):
    """Fields one template validated, defaults in: validate_fields gives them back unchanged, or validates again."""

    def __init__(self, template_id: str, values: dict):
        super().__init__(values)
        self.template_id = template_id
        self.checked = copy.deepcopy(values)

    def valid_for(self, template_id: str) -> bool:
        return self.template_id == template_id and dict(self) == self.checked


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
    roles: dict = field(default_factory=dict)  # "pays"/"paid"/"delivers"/"owns_ip"/"appointed"/"promotes" -> role
    definitions: dict = field(default_factory=dict)  # a term the base defines -> the deal's meaning of it
    positions: dict = field(default_factory=dict)  # a cover-page Variable -> the template's value for it
    path: str = ""

    @cached_property
    def _field_validator(self):
        return validator(self.fields)

    @cached_property
    def _outline_validator(self):
        return validator(self.outline_schema)

    @property
    def required_fields(self) -> list[str]:
        return list(self.fields["required"])

    @property
    def clause_types(self) -> list[str]:
        """Every clause type the outline schema allows, in first-mention order."""
        return list(dict.fromkeys(clause_values(self.outline_schema)))

    @property
    def required_clauses(self) -> list[str]:
        """Clause types present in every outline the schema accepts (a `const` in every alternative)."""
        return required_clauses(self.outline_schema)

    @property
    def free_title(self) -> bool:
        return bool(self.outline_rules.get("free_title", False))

    @cached_property
    def structure(self) -> "OutlineStructure | None":
        """The outline schema read as build_outline_schema's shape, or None for another shape."""
        return outline_structure(self.outline_schema, self.outline_rules.get("repeatable", []))

    def required_when(self, values: dict) -> list[str]:
        """Clause types the given fields make required (`required_when`), in template order."""
        return [c for c, spec in self.clauses.items() if any(_given(values, f) for f in spec.get("required_when", []))]

    def field_clauses(self) -> dict[str, list[str]]:
        """Where each field's value belongs: "preamble" when the preamble states it, and every
        clause type whose frame states it (fields placed nowhere are left out)."""
        out: dict[str, list[str]] = {}
        for name in PLACEHOLDER.findall(self.preamble):
            out.setdefault(name, ["preamble"])
        for ctype, spec in self.clauses.items():
            for name in dict.fromkeys(PLACEHOLDER.findall(spec.get("frame", ""))):
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
        """The validated fields with defaults filled in (a ValidFields: given back again, they are not validated
        twice); FieldError names the first problem."""
        if isinstance(fields, ValidFields) and fields.valid_for(self.id):
            return fields
        return ValidFields(self.id, self._validated(fields))

    def _validated(self, fields: dict) -> dict:
        if not isinstance(fields, dict):
            raise FieldError(f"fields must be a JSON object of name -> value, got {type(fields).__name__}.")
        props = self.fields["properties"]
        unknown = [k for k in fields if k not in props]
        if unknown:
            k = unknown[0]
            close = difflib.get_close_matches(k, list(props), n=3) if isinstance(k, str) else []
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            raise FieldError(
                f"unknown field {shown(k)} for template {self.id!r}; allowed fields: {', '.join(props)}.{hint}"
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
            unreadable = unreadable_value(k, v, props[k])  # a value jsonschema's own messages cannot write
            if unreadable is not None:
                raise unreadable
        for err in sorted(self._field_validator.iter_errors(out), key=lambda e: list(e.path)):
            raise FieldError(self._field_message(err))
        for k, v in out.items():
            check_field_value(k, v, multiline=bool(props[k].get("multiline", False)))
        for k, v in out.items():  # what the value states must be possible (a real date, a positive term)
            if props[k].get("x-kind", "text") != "text":
                check_kind(k, props[k]["x-kind"], v, props[k].get("x-also", ()))
        return out

    def _field_message(self, err) -> str:
        return field_message(err, self.fields["properties"])

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
                f"outline does not satisfy template {self.id!r} at {pointer(err.absolute_path)}: {schema_message(err)}"
            )

    def example_outline(self) -> dict:
        """A valid outline built from the template's own default headings (for tests and docs)."""
        sections = example_sections(self.outline_schema, self.clauses)
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

        frames: each span carries its clause's frame rendered from the fields (hybrid.skeleton.tokenized
        locks it at the span's start); a frame naming a field that was not given is left out, and
        a clause type that appears twice gets its frame once. frames=False: the behaviour before
        frames existed (benchmarks compare the two).
        """
        self.validate_outline(outline)
        values = self.validate_fields(fields)
        locked = list(
            dict.fromkeys(
                [str(values["party_a"]), str(values["party_b"])] + [substitute(t, values) for t in self.defined_terms]
            )
        )
        segs = [Segment(f"{outline['title']}\n\n", "text"), Segment(f"{substitute(self.preamble, values)}\n\n", "text")]
        spans = []
        framed: set[str] = set()
        for i, sec in enumerate(outline["sections"]):
            spec = self.clauses[sec["clause"]]
            frame, frame_fields = "", []
            if frames and spec.get("frame") and sec["clause"] not in framed:
                names = PLACEHOLDER.findall(spec["frame"])
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


def _from_dict(data: dict, where: str) -> Template:
    check_template_data(data, where)
    composed = compose_frames(data)  # required fields a frame of the template's own does not state
    if composed is not data:
        check_template_data(composed, where)  # a composed frame meets the rules a written one does
        data = composed
    for ctype, i, term in unstated_terms(data)[:1]:
        raise TemplateError(
            f"{where}: clause {ctype!r}: required term {term!r} at /clauses/{ctype}/required_terms/{i} is stated "
            "by no frame, so a draft could leave it out. Add a `frame` to the clause (the sentence that opens "
            "its section) that states it, or require a field instead (\"{field}\")."
        )
    t = Template(**{k: v for k, v in data.items()}, path=where)
    try:
        t.validate_fields(t.example)
    except FieldError as e:
        raise TemplateError(f"{where}: /example is not valid for /fields: {e}") from None
    if (
        t.structure is not None
    ):  # the canonical shape: an outline schema no outline satisfies would fail only in the planner
        try:
            t.validate_outline(t.example_outline())
        except TemplateError as e:
            raise TemplateError(
                f"{where}: /outline_schema rejects even the outline of the template's own default headings: {e}"
            ) from None
    return t


def _template_files() -> dict[str, Path]:
    return {p.stem: p for p in sorted(TEMPLATES_DIR.glob("*.json"))}


def _is_file(path) -> bool:
    try:
        return Path(path).is_file()
    except (OSError, ValueError):  # a name over 255 bytes, a NUL: not a file there can be
        return False


def unknown_template(name: str) -> TemplateError:
    """The error of a name that is no shipped template's id: the closest ids and every one."""
    ids = list(_template_files())
    close = difflib.get_close_matches(name, ids, n=3, cutoff=0.4) if len(name) <= 200 else []
    hint = f" Closest: {', '.join(close)}." if close else ""
    return TemplateError(f"unknown template {shown(name)}.{hint} Available: {', '.join(ids)}.")


def load_template(id_or_path) -> Template:
    """A template by id (templates/<id>.json) or by path to a JSON file."""
    if isinstance(id_or_path, Template):
        return id_or_path
    arg = str(id_or_path)
    files = _template_files()
    if arg in files:
        path = files[arg]
    elif arg.endswith(".json") or "/" in arg or _is_file(arg):
        path = Path(arg)
        if not _is_file(path):
            raise TemplateError(f"template file not found: {shown(arg)}")
    else:
        raise unknown_template(arg)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TemplateError(f"cannot read template file {path}: {e}") from None
    template = parse_template(text, str(path))
    if path.resolve().parent == TEMPLATES_DIR and template.id != path.stem:
        raise TemplateError(f"{path}: /id is {template.id!r} but a file in templates/ must be named <id>.json.")
    return template


def parse_template(text: str, where: str) -> Template:
    """A template from the JSON text of a template file (`where` names it in messages): parsed and checked
    against the meta-schema like load_template's, never executed; nothing is read from or written to disk."""
    try:
        data = strict_json(text)
    except JSONInputError as e:
        raise TemplateError(f"{where}: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise TemplateError(f"{where}: breaks the template meta-schema at /: a template must be a JSON object.")
    return _from_dict(data, where)


def list_templates() -> list[Template]:
    return [load_template(p) for p in _template_files().values()]
