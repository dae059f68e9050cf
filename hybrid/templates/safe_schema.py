"""jsonschema over a template's own schemas, held to what a template may do: read nothing, and never freeze.

Owns: `validator(schema)`, the Draft 2020-12 validator every schema a template brings (its fields, its outline
schema) is checked with: its referencing.Registry refuses every retrieval (a `$ref` jsonschema cannot resolve
inside the schema is an error, never a file read or a URL fetched), and its `pattern` keyword runs in the
`regex` package under a time bound (PATTERN_SECONDS for one pattern on one value, PATTERNS_SECONDS for all of
one validation's patterns together: a pattern that still backtracks gives up instead of freezing the process,
and the value is then refused, PATTERN_TIMEOUT starting its message). Run at load: `check_patterns` refuses the
shapes of pattern that backtrack exponentially or compile without bound (PATTERN_RULE), so the time bound is a
backstop for the polynomial ones (^\\d*\\d*\\d*$); `check_field_refs`: every `$ref` of a template's fields points
inside them ('#/...'), resolves there to a schema, and that schema holds no `$ref` of its own (no chain, so no
loop). The keywords that would move a reference's base or dialect ($id, $anchor, $dynamicRef, $schema) are none
of a field's: the meta-schema's field entry is closed (hybrid.templates.template_schema.json). Knows nothing
about a template's other parts (hybrid.templates.rules calls it).
"""

import re
import re._constants as _sre_constants  # Python's own reader of a pattern: check_patterns walks its tree
import re._parser as _sre_parser
import time
from contextvars import ContextVar

import jsonschema
import regex
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.exceptions import NoSuchResource, Unresolvable
from referencing.jsonschema import DRAFT202012

from hybrid.common.errors import TemplateError
from hybrid.common.textsafe import shown

__all__ = ["validator", "check_field_refs", "check_patterns", "pattern_problem", "pointer", "NO_RETRIEVAL",
           "PATTERN_SECONDS", "PATTERNS_SECONDS", "PATTERN_TIMEOUT", "PATTERN_RULE"]

PATTERN_SECONDS = 0.25
"""The longest one `pattern` may take on one value; a sound pattern takes microseconds on 2,000 characters."""
PATTERNS_SECONDS = 1.0
"""The longest all of one validation's patterns may take together (a template of 40 fields, each with a slow
pattern, would otherwise take 40 x PATTERN_SECONDS on every request)."""
PATTERN_TIMEOUT = "pattern gave up"
PATTERN_CHARS = 500  # the shipped templates' longest pattern is 62 characters
PATTERN_COUNT = 1000  # the largest {m,n}: `regex` compiles a count by unrolling it (a{1000}{1000}{1000}: gigabytes)
PATTERN_RULE = (f"a template's pattern is a plain regular expression of at most {PATTERN_CHARS} characters that may "
                "repeat (*, +, {m,n}) a character, a class or a group of plain parts, never a group holding "
                "another quantifier or an alternation ('(a+)+', '(a|aa)*' take exponential time: write '[a-z]+', "
                f"'[ab]*'), with no count above {PATTERN_COUNT}, no backreference, lookaround or conditional")
_DEADLINE: ContextVar[float | None] = ContextVar("pattern_deadline", default=None)


def _refuse(uri: str):
    raise NoSuchResource(ref=uri)


NO_RETRIEVAL = Registry(retrieve=_refuse)
"""A registry that retrieves nothing: jsonschema's own meta-schemas are all a template's schema may name
outside itself."""


def _pattern(validator, pattern, instance, schema):
    """jsonschema's `pattern` (re.search semantics), matched by `regex` within PATTERN_SECONDS."""
    if not validator.is_type(instance, "string"):
        return
    deadline = _DEADLINE.get()
    seconds = PATTERN_SECONDS if deadline is None else min(PATTERN_SECONDS, max(deadline - time.monotonic(), 0.001))
    try:
        found = regex.search(pattern, instance, timeout=seconds)
    except TimeoutError:
        yield ValidationError(f"{PATTERN_TIMEOUT} after {seconds:.2f} s on {shown(instance)}: {pattern!r} "
                              "backtracks too much")
        return
    except regex.error as e:
        yield ValidationError(f"pattern {pattern!r} cannot be read ({e})")
        return
    if found is None:
        yield ValidationError(f"{shown(instance)} does not match {pattern!r}")


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})


class _Bounded:
    """jsonschema's validator whose iter_errors runs all its patterns within PATTERNS_SECONDS together."""

    def __init__(self, schema):
        self._validator = _Validator(schema, registry=NO_RETRIEVAL)

    def iter_errors(self, instance) -> list[ValidationError]:
        token = _DEADLINE.set(time.monotonic() + PATTERNS_SECONDS)
        try:
            return list(self._validator.iter_errors(instance))
        finally:
            _DEADLINE.reset(token)


def validator(schema) -> _Bounded:
    """The validator of a schema a template brings: no retrieval, time-bounded patterns (`iter_errors` only)."""
    return _Bounded(schema)


def pointer(path) -> str:
    """A JSON pointer ("/clauses/term/frame") of a jsonschema error path."""
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _nodes(node, path=()):
    """(path, object) of every JSON object under `node`, itself included, in document order."""
    stack = [(node, path)]
    while stack:
        n, p = stack.pop()
        if isinstance(n, dict):
            yield p, n
            stack.extend(reversed([(v, (*p, k)) for k, v in n.items()]))
        elif isinstance(n, list):
            stack.extend(reversed([(v, (*p, i)) for i, v in enumerate(n)]))


def check_field_refs(fields: dict, where: str) -> None:
    """TemplateError naming the field of the first `$ref` under the template's fields that could reach beyond them,
    resolves to nothing, or leads on to another `$ref`."""
    root = NO_RETRIEVAL.resolver_with_root(DRAFT202012.create_resource(fields))
    for path, node in _nodes(fields):
        at = pointer(("fields", *path))
        whose = f"field {path[1]!r}: " if len(path) > 1 and path[0] == "properties" else ""
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


_REPEATS = (_sre_constants.MAX_REPEAT, _sre_constants.MIN_REPEAT, _sre_constants.POSSESSIVE_REPEAT)
_REFUSED = {_sre_constants.GROUPREF: "a backreference", _sre_constants.GROUPREF_EXISTS: "a conditional",
            _sre_constants.ASSERT: "a lookaround", _sre_constants.ASSERT_NOT: "a lookaround"}


def _parts(value):
    """The sub-patterns inside one parsed item's argument (a group's body, a repeat's, each alternative)."""
    if isinstance(value, _sre_parser.SubPattern):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _parts(v)


def _shape_problem(items, repeated: bool) -> str | None:
    """What of PATTERN_RULE a parsed pattern breaks; `repeated`: it sits inside a repeat of more than once."""
    for op, value in items:
        if op in _REFUSED:
            return f"it holds {_REFUSED[op]}"
        if op in _REPEATS:
            low, high = value[0], value[1]
            if low > PATTERN_COUNT or (high != _sre_constants.MAXREPEAT and high > PATTERN_COUNT):
                return f"it counts past {PATTERN_COUNT}"
            if repeated:
                return "it repeats a group that holds another quantifier"
        if op is _sre_constants.BRANCH and repeated:
            return "it repeats a group that holds an alternation"
        inner = repeated or (op in _REPEATS and value[1] > 1)
        for part in _parts(value):
            problem = _shape_problem(part, inner)
            if problem:
                return problem
    return None


def pattern_problem(pattern: str) -> str | None:
    """Why `pattern` breaks PATTERN_RULE ("it repeats a group that holds another quantifier"), or None."""
    if len(pattern) > PATTERN_CHARS:
        return f"it is {len(pattern)} characters long"
    try:
        tree = _sre_parser.parse(pattern)
        return _shape_problem(tree, False)
    except (re.error, RecursionError, OverflowError) as e:
        return f"it cannot be read ({e})"


def check_patterns(schema: dict, where: str, at: str) -> None:
    """TemplateError naming the field (or the outline schema's pointer) of the first `pattern` under `schema` (the
    template's /fields or /outline_schema, named by `at`) that breaks PATTERN_RULE. Run before anything compiles
    a pattern."""
    for path, node in _nodes(schema):
        pattern = node.get("pattern")
        if not isinstance(pattern, str):
            continue
        problem = pattern_problem(pattern)
        if problem:
            whose = f"field {path[1]!r}: " if at == "fields" and len(path) > 1 and path[0] == "properties" else ""
            raise TemplateError(f"{where}: {whose}pattern {shown(pattern)} at {pointer((at, *path))}/pattern is "
                                f"refused: {problem}; {PATTERN_RULE}.")
