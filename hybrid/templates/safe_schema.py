"""jsonschema over a template's own schemas, held to what a template may do: read nothing, and never freeze.

Owns: `validator(schema)`, the Draft 2020-12 validator every schema a template brings (its fields, its outline
schema) is checked with: its referencing.Registry refuses every retrieval (a `$ref` jsonschema cannot resolve
inside the schema is an error, never a file read or a URL fetched), and its `pattern` keyword runs in the
`regex` package under a time bound (PATTERN_SECONDS: a catastrophic pattern such as ^(a+)+$ gives up on a
value instead of backtracking for minutes; the value is then refused, PATTERN_TIMEOUT starting its message).
And `check_field_refs`, run at load: every `$ref` of a template's fields points inside them ('#/...'), resolves
there to a schema, and that schema holds no `$ref` of its own (no chain, so no loop); the keywords that would
move a reference's base or dialect ($id, $anchor, $dynamicRef, $dynamicAnchor, $schema) are refused. Knows
nothing about a template's other parts (hybrid.templates.rules calls it).
"""

import jsonschema
import regex
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.exceptions import NoSuchResource, Unresolvable
from referencing.jsonschema import DRAFT202012

from hybrid.common.errors import TemplateError
from hybrid.common.textsafe import shown

__all__ = ["validator", "check_field_refs", "pointer", "NO_RETRIEVAL", "PATTERN_SECONDS", "PATTERN_TIMEOUT"]

PATTERN_SECONDS = 0.25
"""The longest one `pattern` may take on one value; a sound pattern takes microseconds on 2,000 characters."""
PATTERN_TIMEOUT = "pattern gave up"
_MOVING = ("$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$schema")


def _refuse(uri: str):
    raise NoSuchResource(ref=uri)


NO_RETRIEVAL = Registry(retrieve=_refuse)
"""A registry that retrieves nothing: jsonschema's own meta-schemas are all a template's schema may name
outside itself."""


def _pattern(validator, pattern, instance, schema):
    """jsonschema's `pattern` (re.search semantics), matched by `regex` within PATTERN_SECONDS."""
    if not validator.is_type(instance, "string"):
        return
    try:
        found = regex.search(pattern, instance, timeout=PATTERN_SECONDS)
    except TimeoutError:
        yield ValidationError(f"{PATTERN_TIMEOUT} after {PATTERN_SECONDS} s on {shown(instance)}: {pattern!r} "
                              "backtracks too much")
        return
    except regex.error as e:
        yield ValidationError(f"pattern {pattern!r} cannot be read ({e})")
        return
    if found is None:
        yield ValidationError(f"{shown(instance)} does not match {pattern!r}")


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})


def validator(schema):
    """The validator of a schema a template brings: no retrieval, time-bounded patterns."""
    return _Validator(schema, registry=NO_RETRIEVAL)


def pointer(path) -> str:
    """A JSON pointer ("/clauses/term/frame") of a jsonschema error path."""
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _nodes(node, path=()):
    """(path, object) of every JSON object under `node`, itself included."""
    stack = [(node, path)]
    while stack:
        n, p = stack.pop()
        if isinstance(n, dict):
            yield p, n
            stack.extend((v, (*p, k)) for k, v in n.items())
        elif isinstance(n, list):
            stack.extend((v, (*p, i)) for i, v in enumerate(n))


def check_field_refs(fields: dict, where: str) -> None:
    """TemplateError naming the field of the first `$ref` (or base-moving keyword) under the template's fields
    that could reach beyond them, resolves to nothing, or leads on to another `$ref`."""
    root = NO_RETRIEVAL.resolver_with_root(DRAFT202012.create_resource(fields))
    for path, node in _nodes(fields):
        at = pointer(("fields", *path))
        whose = f"field {path[1]!r}: " if len(path) > 1 and path[0] == "properties" else ""
        for key in _MOVING:
            if key in node:
                raise TemplateError(f"{where}: {whose}{key} at {at}/{key} is not allowed in a template's fields: "
                                    "a field refers only to another, as {\"$ref\": \"#/properties/<field>\"}.")
        ref = node.get("$ref")
        if ref is None:
            continue
        if not isinstance(ref, str) or not ref.startswith("#/"):
            raise TemplateError(f"{where}: {whose}$ref at {at}/$ref must point inside the template's fields, as "
                                "'#/properties/<field>': a template never reads a file or a URL.")
        try:
            target = root.lookup(ref).contents
        except Unresolvable:
            target = None
        if not isinstance(target, (dict, bool)):
            raise TemplateError(f"{where}: {whose}$ref {shown(ref)} at {at}/$ref names nothing in /fields that is "
                                "a schema (e.g. '#/properties/<field>').")
        if any("$ref" in n for _, n in _nodes(target)):
            raise TemplateError(f"{where}: {whose}$ref {shown(ref)} at {at}/$ref leads to another $ref: a reference "
                                "may not chain (or lead back to itself); point it at the schema itself.")
