"""Required terms a draft is sure to state: frames composed where a template has none, refusal where it cannot.

Owns: `compose_frames` (a template's data with a frame sentence composed for every clause whose
required field terms no frame of its own states) and `unstated_terms` (the required terms no frame
states, which `load_template` refuses). Knows nothing of models or precedents.

A clause's `frame` is locked at the start of its section (hybrid.skeleton.tokenized), so what it states
is in the draft by construction; a required term nothing states is left to the filler and the
precedent, which may well not write it (a lease without its rent). A required term that is one field
(`"{monthly_rent}"`) can be stated by a sentence composed from the field's own description ("The rent
per month is USD 1,200."; a jurisdiction: "This Agreement is governed by the laws of ..."); a literal
term ("purchase order") cannot be composed into a sentence that means anything, so a template that
requires one without a frame stating it is refused at load, with the clause, the term and the fix.
"""

import copy
import re

__all__ = ["compose_frames", "unstated_terms", "field_label"]

_ONE_FIELD = re.compile(r"^\{([a-z][a-z0-9_]*)\}$")
_NOT_A_NOUN = re.compile(r"^(?:how|what|when|where|which|who|whether|if)\b|\bsuch as\b", re.I)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)


def field_label(name: str, spec: dict) -> str:
    """What a sentence calls a field: its description up to the example ("rent per month, e.g. USD
    1,200" -> "rent per month"), or its name in words where the description is no noun phrase ("how
    long the lease runs" -> "lease term")."""
    desc = re.split(r",|\(|;|\be\.g\.", str(spec.get("description", "")), maxsplit=1)[0].strip(" .:")
    desc = _ARTICLE.sub("", desc)
    if not desc or _NOT_A_NOUN.search(desc) or len(desc.split()) > 8:
        return name.replace("_", " ")
    return desc[:1].lower() + desc[1:] if not desc[1:2].isupper() else desc


def _sentence(name: str, spec: dict) -> str:
    if spec.get("x-kind") == "jurisdiction":
        return f"This Agreement is governed by the laws of {{{name}}}."
    return f"The {field_label(name, spec)} is {{{name}}}."


def _stated(term: str, frame: str) -> bool:
    return term.lower() in frame.lower()


def compose_frames(data: dict) -> dict:
    """data (a template's JSON, already checked against the meta-schema) with a frame composed for each
    clause without one whose required terms include single fields ("{monthly_rent}"): one sentence per
    such field, in order, and `required_when` those fields where the clause sets none (a clause that
    states a given fact must be in the outline). Unchanged (the same object) when no clause needs one."""
    props = data.get("fields", {}).get("properties", {})
    out = None
    for ctype, spec in data.get("clauses", {}).items():
        if spec.get("frame"):
            continue
        terms = spec.get("required_terms", [])
        names = [m.group(1) for t in terms if (m := _ONE_FIELD.match(t)) and m.group(1) in props]
        if not names:
            continue
        out = out or copy.deepcopy(data)
        target = out["clauses"][ctype]
        target["frame"] = " ".join(_sentence(n, props[n]) for n in dict.fromkeys(names))
        target.setdefault("required_when", list(dict.fromkeys(names)))
    return out if out is not None else data


def unstated_terms(data: dict) -> list[tuple[str, int, str]]:
    """(clause type, index, term) of every required term no frame of its clause states (placeholders
    compared as written: "{pricing}" is stated by a frame holding "{pricing}")."""
    out = []
    for ctype, spec in data.get("clauses", {}).items():
        frame = spec.get("frame", "")
        for i, term in enumerate(spec.get("required_terms", [])):
            if not _stated(term, frame):
                out.append((ctype, i, term))
    return out
