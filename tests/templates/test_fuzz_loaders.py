"""Fuzzing the template and fields loaders (hypothesis): whatever the file holds, loading it returns a
template (or fields) or raises the project's error; never another exception, never a hang past 5 s.

Inputs: the seed corpus tests/fuzz_corpus/*.json (every case of issue 29, and issue 52's hostile schemas: a field
`$ref` to a file, a URL, a FIFO or /dev/zero, catastrophic patterns, a huge and a long enum; run as explicit
examples and, but for the huge one, used as bases), then mutations of a base (a key dropped, a value replaced by any
JSON value, a string by any text, a $ref pointed anywhere, a field given a hostile keyword, a number made NaN or
huge, a key written twice, a subtree nested deep), raw text, and random field values. Derandomized, so CI runs the
same inputs every time; about 2,400 of them in ~30 s on one CPU.
"""

import json
import math
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hybrid.cli.plan import read_fields_file
from hybrid.common.errors import FieldError, TemplateError
from hybrid.templates.template import Template, load_template

CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
SEEDS = sorted(CORPUS.glob("*.json"))
TEMPLATE_SEEDS = [p for p in SEEDS if p.name.startswith("template-")]
FIELDS_SEEDS = [p for p in SEEDS if p.name.startswith("fields-")]
HANG_SECONDS = 5.0
FUZZ = settings(deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


class Hung(Exception):
    pass


@contextmanager
def _within(seconds: float = HANG_SECONDS):
    def alarm(*_):
        raise Hung(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


BASE_BYTES = 50_000  # a larger seed (the huge enum) is run as an example, not mutated: each mutation would copy it
HOSTILE = [  # a field's keyword and value that must never read, fetch or freeze (issue 52)
    ("$ref", "file:///etc/passwd"),
    ("$ref", "http://127.0.0.1:9/schema.json"),
    ("$ref", "file:///dev/zero"),
    ("$ref", "/tmp/hybrid-fuzz-schema.fifo"),
    ("pattern", "^(a+)+$"),
    ("pattern", "^(a|aa)+$"),
    ("pattern", "^(?:a{1000}){1000}$"),
    ("pattern", "^(a*)\\1$"),
    ("pattern", "^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*$"),
    ("enum", [f"v{i}" for i in range(5000)]),
    ("allOf", [{"$ref": "file:///etc/passwd"}]),
]


def _bases() -> list[dict]:
    out = []
    for p in TEMPLATE_SEEDS:
        if p.stat().st_size > BASE_BYTES:
            continue
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            out.append(data)
    return out


BASES = _bases()


def _load_text(text: str):
    """load_template of a file holding `text`: a Template, or the TemplateError it raised."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "fuzz.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        with _within():
            try:
                t = load_template(path)
            except TemplateError as e:
                assert str(e).startswith(str(path)) and len(str(e)) < 2000, str(e)[:2000]
                return e
            _use(t)
            return t


def _use(t: Template) -> None:
    """What a loaded template promises: its example validates, its outline readers answer, a skeleton renders."""
    assert isinstance(t, Template)
    values = t.validate_fields(t.example)
    t.required_clauses, t.clause_types  # noqa: B018 (the readers of outline_schema)
    if t.structure is not None:  # the canonical shape: its default outline is valid and renders
        outline = t.example_outline()
        t.validate_outline(outline)
        t.render_skeleton(outline, values)


@pytest.mark.parametrize("path", TEMPLATE_SEEDS, ids=lambda p: p.stem)
def test_every_template_seed_loads_or_is_refused_naming_the_file(path):
    result = _load_text(path.read_text(encoding="utf-8"))
    assert isinstance(result, Template) == (path.stem == "template-good"), result


@pytest.mark.parametrize("path", FIELDS_SEEDS, ids=lambda p: p.stem)
def test_every_fields_seed_validates_or_is_refused_naming_the_field(path):
    t = load_template(CORPUS / "template-good.json")
    try:
        with _within():
            t.validate_fields(read_fields_file(path))
    except FieldError:
        assert path.stem != "fields-good"
    else:
        assert path.stem == "fields-good"


# --- strategies -----------------------------------------------------------------------------------

_CHARS = st.characters(codec="utf-8", categories=("L", "M", "N", "P", "S", "Z", "Cc", "Cf", "Co"))
TEXT = st.one_of(
    st.text(_CHARS, max_size=40),
    st.sampled_from(
        [
            "",
            " ",
            "{party_a}",
            "{0}",
            "{x.y}",
            "{",
            "#/$defs/heading",
            "\u202e",
            "\x1b[31m",
            "a\nb",
            "2025-13-45",
            "-3 years",
            "NaN",
        ]
    ),
)
SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True), TEXT
)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)


def _paths(root) -> list[tuple]:
    """Every path into `root` down to 100 levels (iterative: a mutation may have nested it 2,000 deep)."""
    out, stack = [], [(root, ())]
    while stack:
        node, path = stack.pop()
        out.append(path)
        if len(path) < 100:
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            stack.extend((v, (*path, k)) for k, v in items)
    return out


def _set(root, path, value):
    if not path:
        return value
    node = root
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return root


def _get(root, path):
    for p in path:
        root = root[p]
    return root


def _field_specs(data) -> list[dict]:
    fields = data.get("fields") if isinstance(data, dict) else None
    props = fields.get("properties") if isinstance(fields, dict) else None
    return [spec for spec in props.values() if isinstance(spec, dict)] if isinstance(props, dict) else []


@st.composite
def mutated_template(draw) -> str:
    data = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        op = draw(st.sampled_from(["drop", "json", "text", "ref", "hostile", "number", "nest", "swap"]))
        if op == "drop" and path:
            parent = _get(data, path[:-1])
            del parent[path[-1]]
        elif op == "json":
            data = _set(data, path, draw(JSON))
        elif op == "text":
            data = _set(data, path, draw(TEXT))
        elif op == "ref":
            target = draw(st.sampled_from(["heading", "loop", "nothing", "optional_section", "confidentiality", ""]))
            data = _set(data, path, {"$ref": f"#/$defs/{target}"})
            if draw(st.booleans()) and isinstance(data, dict) and isinstance(data.get("outline_schema"), dict):
                data["outline_schema"].setdefault("$defs", {})["loop"] = {
                    "$ref": "#/$defs/" + draw(st.sampled_from(["loop", "heading"]))
                }
        elif op == "hostile":  # on a field's spec (the node at `path` when the fields are gone)
            specs = _field_specs(data) or ([_get(data, path)] if isinstance(_get(data, path), dict) else [])
            if specs:
                key, value = draw(st.sampled_from(HOSTILE))
                draw(st.sampled_from(specs))[key] = json.loads(json.dumps(value))  # a copy: later ops change it
            if draw(st.booleans()) and isinstance(data, dict) and isinstance(data.get("example"), dict):
                data["example"]["purpose"] = "a" * 60 + "!"  # a value a slow pattern backtracks on
        elif op == "number":
            data = _set(data, path, draw(st.sampled_from([math.nan, math.inf, -math.inf, -1, 0, 2**64, 1e308, 0.5])))
        elif op == "nest":
            value = _get(data, path)
            for _ in range(draw(st.sampled_from([2, 30, 70, 2000]))):
                value = [value] if draw(st.booleans()) else {"k": value}
            data = _set(data, path, value)
        elif op == "swap" and len(paths) > 1:
            other = paths[draw(st.integers(0, len(paths) - 1))]
            if other[: len(path)] != path and path[: len(other)] != other:
                a, b = _get(data, path), _get(data, other)
                data = _set(_set(data, path, b), other, a)
    try:
        text = json.dumps(data, ensure_ascii=draw(st.booleans()), allow_nan=True)
    except RecursionError:
        text = json.dumps(BASES[0])
    if draw(st.booleans()) and text.startswith("{") and len(text) > 2:  # a key written twice, as a hand edit makes it
        key = draw(st.sampled_from(["id", "clauses", "fields", "preamble", "outline_schema"]))
        text = "{" + json.dumps(key) + ": " + json.dumps(draw(JSON), allow_nan=True) + ", " + text[1:]
    return text


RAW_TEXT = st.one_of(
    st.text(_CHARS, max_size=200),
    st.builds(lambda n, c: c[0] * n + c[1] * n, st.integers(1, 5000), st.sampled_from(["[]", "{}", '{"a": ', "[{"])),
    JSON.map(lambda v: json.dumps(v, allow_nan=True)),
)


# --- the fuzz tests ---------------------------------------------------------------------------------

@settings(FUZZ, max_examples=600)
@given(mutated_template())
def test_a_mutated_template_loads_or_is_refused_never_crashes_or_hangs(text):
    _load_text(text)


@settings(FUZZ, max_examples=600)
@given(RAW_TEXT)
def test_any_text_as_a_template_file_is_refused_never_crashes_or_hangs(text):
    _load_text(text)


FIELD_TEMPLATES = {tid: load_template(tid) for tid in ("mutual-nda", "franchise", "software-license")}


@settings(FUZZ, max_examples=800)
@given(st.sampled_from(sorted(FIELD_TEMPLATES)), st.data())
def test_any_fields_validate_or_are_refused_naming_the_field(tid, data):
    t = FIELD_TEMPLATES[tid]
    fields = dict(t.example) if data.draw(st.booleans()) else {}
    names = st.one_of(st.sampled_from(sorted(t.fields["properties"])), TEXT)
    fields.update(data.draw(st.dictionaries(names, st.one_of(JSON, TEXT, SCALAR), max_size=4)))
    raw = data.draw(st.dictionaries(names, TEXT, max_size=3))
    with _within():
        try:
            values = t.validate_fields({**fields, **t.coerce_field_strings(raw)})
        except FieldError as e:
            assert len(str(e)) < 1000, str(e)[:1000]
        else:
            assert set(values) == set(t.fields["properties"]) & set(values)
            json.dumps(values, allow_nan=False)  # what drafts.json will hold: strict JSON


@settings(FUZZ, max_examples=400)
@given(st.one_of(RAW_TEXT, st.builds(lambda v: json.dumps(v, allow_nan=True), st.dictionaries(TEXT, JSON, max_size=6))))
def test_any_fields_file_is_read_or_refused_never_crashes(text):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "deal.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        with _within():
            try:
                value = read_fields_file(path)
            except FieldError as e:
                assert str(path) in str(e) and len(str(e)) < 1000, str(e)[:1000]
            else:
                assert isinstance(value, dict)
