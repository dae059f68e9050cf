"""A field's `pattern` cannot freeze the process (issue 52, item 4): the shapes that backtrack exponentially or
compile without bound are refused at load, naming the field and the rule (safe_schema.PATTERN_RULE), and the
patterns the rule lets through run within one time budget for a whole validation, however many fields have one."""

import json
import time

import pytest

from hybrid.cli.main import main
from hybrid.common.errors import FieldError, TemplateError
from hybrid.templates.safe_schema import PATTERNS_SECONDS, pattern_problem
from hybrid.templates.template import TEMPLATES_DIR, list_templates, parse_template


def _nda() -> dict:
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["id"] = "my-nda"
    return data


def _with_pattern(pattern: str, example: str = "aaaa") -> dict:
    data = _nda()
    data["fields"]["properties"]["purpose"].update(pattern=pattern, description="a run of a's")
    data["example"]["purpose"] = example
    return data


@pytest.mark.parametrize("pattern,why", [
    ("^(a+)+$", "repeats a group that holds another quantifier"),  # re: 34 s on 28 a's and a '!'
    ("^(a|aa)+$", "repeats a group that holds an alternation"),  # backtracks in the regex package too
    ("^(a?)+$", "repeats a group that holds another quantifier"),
    ("^(?:[a-z]{2,3})*$", "repeats a group that holds another quantifier"),
    ("^(?>a+)+$", "repeats a group that holds another quantifier"),
    ("^(?:a{1000}){1000}$", "repeats a group that holds another quantifier"),  # `regex` compiles it for seconds
    ("^a{1001}$", "counts past 1000"),
    ("^(a)\\1$", "holds a backreference"),
    ("^(?P<x>a)(?P=x)$", "holds a backreference"),
    ("^(?=a)a+$", "holds a lookaround"),
    ("^(?<!b)a+$", "holds a lookaround"),
    ("^" + "a" * 600 + "$", "is 602 characters long"),
    ("^[a$", "cannot be read (unterminated character set"),
])
def test_a_pattern_that_could_freeze_is_refused_at_load_naming_the_field_and_the_rule(pattern, why):
    start = time.monotonic()
    with pytest.raises(TemplateError) as e:
        parse_template(json.dumps(_with_pattern(pattern)), "t.json")
    assert time.monotonic() - start < 1
    said = str(e.value)
    assert said.startswith("t.json: field 'purpose': pattern ") and "at /fields/properties/purpose/pattern" in said
    assert f"is refused: it {why}" in said and "never a group holding another quantifier or an alternation" in said


def test_an_outline_pattern_is_held_to_the_same_rule():
    data = _nda()
    heading = data["outline_schema"]["$defs"]["heading"]
    heading["pattern"] = "^([A-Z][a-z]+ ?)+$"
    with pytest.raises(TemplateError, match="pattern .* at /outline_schema/\\$defs/heading/pattern is refused: it "
                                            "repeats a group that holds another quantifier"):
        parse_template(json.dumps(data), "t.json")


@pytest.mark.parametrize("pattern", [
    "^[A-Z][A-Za-z .,'&-]{0,78}$",
    "^([0-9]{4}-[0-9]{2}-[0-9]{2}|[A-Z][a-z]+ [0-9]{1,2}, [0-9]{4})$",  # an alternation not repeated
    "^[A-Z]([A-Za-z0-9 ,'&/()-]{0,78}[A-Za-z0-9)])?$",  # a group made optional, not repeated
    "^(?:ab)+$",  # a group of plain parts, repeated
    "^(a|b)+$",  # one character of two: Python reads it as the class [ab]
    "^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*$",  # polynomial: within the rule, held by the time budget below
])
def test_a_sound_pattern_is_kept(pattern):
    assert pattern_problem(pattern) is None


def test_every_shipped_pattern_keeps_to_the_rule():
    for t in list_templates():
        for name, spec in t.fields["properties"].items():
            assert pattern_problem(spec.get("pattern", "")) is None, (t.id, name)


def test_many_slow_patterns_share_one_time_budget():
    """Each of 12 fields' patterns (polynomial, so within the rule) gives up after 0.25 s on its value: 3 s for one
    validation before the budget, PATTERNS_SECONDS for all of them now. Sixteen groups: `regex` finishes eight on
    2,000 characters in 0.22-0.32 s depending on the CPU, so an eight-group pattern timed out on one machine and not
    on another; sixteen take about 1 s."""
    data = _nda()
    for i in range(12):
        data["fields"]["properties"][f"code_{i}"] = {"description": "digits", "type": "string", "maxLength": 2000,
                                                     "pattern": "^" + "\\d*" * 16 + "$"}
        data["example"][f"code_{i}"] = "1234"
    t = parse_template(json.dumps(data), "t.json")
    start = time.monotonic()
    with pytest.raises(FieldError, match="field 'code_0' could not be checked against its pattern"):
        t.validate_fields({**t.example, **{f"code_{i}": "1" * 1999 + "!" for i in range(12)}})
    assert time.monotonic() - start < PATTERNS_SECONDS + 1


def test_the_command_line_refuses_a_catastrophic_pattern_with_exit_2(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_with_pattern("^(a+)+$", "a" * 28 + "!")))
    start = time.monotonic()
    assert main(["plan", str(path), "--example"]) == 2
    assert time.monotonic() - start < 5
    out, err = capsys.readouterr()
    assert err.startswith("hybrid: error: ") and "field 'purpose': pattern '^(a+)+$'" in err
    assert "Traceback" not in out + err
