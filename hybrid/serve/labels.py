"""The form in a lawyer's words: each field's label, and every field's error at once.

Owns: field_label (the field's JSON Schema `title`, else its name made readable, "party_a" -> "Party A", with the
role the template's preamble gives it, "(the Consultant)") and field_errors (each field checked on its own against
the template, the others taken from its example, so one submit names every wrong or missing field; the messages
call a field by its label, not its id). Knows nothing of requests or jobs (hybrid.serve.forms uses it).
"""

import re

from hybrid.common.errors import HybridError

__all__ = ["field_label", "field_errors", "humanize"]

_ACRONYMS = {"nda": "NDA", "ip": "IP", "sla": "SLA", "id": "ID", "url": "URL", "usd": "USD", "eu": "EU", "us": "US"}


def humanize(name: str) -> str:
    """A field id as words: "party_a" -> "Party A", "nda_term" -> "NDA term" (one-letter words and known acronyms
    in capitals, the first word capitalized)."""
    words = [w for w in re.split(r"[_\-\s]+", name) if w]
    out = [_ACRONYMS.get(w.lower(), w.upper() if len(w) == 1 else w.lower()) for w in words]
    if out and out[0] == out[0].lower():
        out[0] = out[0].capitalize()
    return " ".join(out) or name


def field_label(template, name: str) -> str:
    """The label of a template's field: its schema `title`, else humanize(name) with the role the preamble names
    right after it, unless the label says it already ('{party_a} (the "Consultant")' -> "Party A (the Consultant)")."""
    spec = template.fields["properties"].get(name, {})
    if isinstance(spec.get("title"), str) and spec["title"].strip():
        return spec["title"].strip()
    label = humanize(name)
    role = re.search(r"\{" + re.escape(name) + r'\}\s*\(the\s+"([^"]{1,40})"\)', template.preamble or "")
    if role and role.group(1).lower() not in label.lower():  # not "Effective date (the Effective Date)"
        label += f" (the {role.group(1)})"
    return label


def _in_words(message: str, name: str, label: str) -> str:
    """A template's message with the field called by its label ("field 'effective_date' must be" -> "Effective date
    must be")."""
    return message.replace(f"field {name!r}", label, 1)


def field_errors(template, given: dict) -> list[dict]:
    """[{"field", "error"}] for every field of `given` (the page's strings) the template refuses and every required
    field missing, in the template's order; each value is checked with the others taken from the template's example
    (valid by construction), so one wrong field cannot hide another. Empty: every field is right on its own."""
    props, required = template.fields["properties"], set(template.required_fields)
    out = [{"field": None, "error": f"unknown field {k!r} for template {template.id!r}."} for k in given
           if k not in props]
    for name, spec in props.items():
        label = field_label(template, name)
        if name not in given:
            if name in required and "default" not in spec:
                out.append({"field": name, "error": f"{label} is required."})
            continue
        try:
            value = template.coerce_field_strings({name: given[name]})
            template.validate_fields({**template.example, **value})
        except HybridError as e:
            out.append({"field": name, "error": _in_words(str(e), name, label)})
    return out
