"""The messages of a field value a template refuses: each names the field, what it must be and what it got.

Owns: `fmt` (a value as JSON in a message, cut to a readable length), `field_message` (a jsonschema error on a
template's fields, worded from the keyword that failed, which may sit under a `$ref` rather than in the field's
own spec) and `unreadable_value` (a value no check can read: an integer of more digits than Python writes, a
list nested deeper than the interpreter recurses). Knows nothing about where the values come from
(hybrid.templates.template uses it).
"""

import json
import sys

from hybrid.common.errors import FieldError
from hybrid.common.textsafe import shown
from hybrid.templates.rules import schema_message
from hybrid.templates.safe_schema import PATTERN_TIMEOUT

__all__ = ["fmt", "field_message", "unreadable_value"]


def fmt(v) -> str:
    """A value as JSON in a message, cut to a readable length (hybrid.common.textsafe.shown)."""
    try:
        text = json.dumps(v, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return shown(v)
    return text if len(text) <= 80 else f"{text[:80]}... ({len(text)} characters)"


_LISTED = 12  # the values of an enum a message lists before it says how many more there are


def _one_of(values: list) -> str:
    """An enum's values as a message lists them: the first _LISTED, then how many more."""
    more = f" (and {len(values) - _LISTED} more)" if len(values) > _LISTED else ""
    return f"one of {', '.join(fmt(v) for v in values[:_LISTED])}{more}"


def _expected(spec: dict) -> str:
    if "type" in spec:
        return f"of type {spec['type']}"
    return _one_of(spec["enum"]) if isinstance(spec.get("enum"), list) else "valid"


def unreadable_value(name: str, value, spec: dict) -> FieldError | None:
    """FieldError for a value that neither JSON nor jsonschema's messages can write (they would raise ValueError or
    RecursionError, not say what is wrong); None for any other value."""
    try:
        json.dumps(value)
    except TypeError:
        return None  # not JSON at all (a set, a date): the type check says so
    except ValueError:
        what = (f"an integer of more than {sys.get_int_max_str_digits()} digits" if isinstance(value, int)
                else f"a {type(value).__name__} that cannot be written as JSON")
    except RecursionError:
        what = f"a {type(value).__name__} too deeply nested to read"
    else:
        return None
    return FieldError(f"field {name!r} must be {_expected(spec)}, got {what}.")


def field_message(err, props: dict) -> str:
    """The message of a jsonschema error on the fields: the field's name, what the failing keyword asks
    (err.validator_value, wherever the keyword sits) and the value."""
    name = err.path[0] if err.path else "?"
    spec, got, asked = props.get(name, {}), err.instance, err.validator_value
    if err.validator == "type":
        return f"field {name!r} must be of type {asked}, got {fmt(got)} ({type(got).__name__})."
    if err.validator == "maxLength":
        return f"field {name!r} is too long: {len(got)} characters, at most {asked} allowed."
    if err.validator == "enum":
        return f"field {name!r} must be {_one_of(asked)}, got {fmt(got)}."
    if err.validator in ("minimum", "maximum"):
        low, high = err.schema.get("minimum", "-inf"), err.schema.get("maximum", "inf")
        return f"field {name!r} must be in [{low}, {high}], got {fmt(got)}."
    if err.validator == "pattern" and err.message.startswith(PATTERN_TIMEOUT):
        return (f"field {name!r} could not be checked against its pattern within the time allowed: the template's "
                f"pattern {shown(asked)} backtracks too much on {fmt(got)}; fix the template's pattern.")
    if err.validator == "pattern":
        hint = spec.get("description", f"a string matching {asked}")
        return f"field {name!r} must be {hint}, got {fmt(got)}."
    return f"field {name!r} is invalid: {schema_message(err)}."
