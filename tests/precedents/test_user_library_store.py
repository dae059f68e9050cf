"""The named user libraries on disk (issue 52, items 11, 13, 14 and 15): a damaged library (cut short, a number for a
clause's body, ...) is refused naming that library and the commands that repair it, before the model loads; it never
breaks `library list` or another library; `--name shipped` and the other reserved names are refused with the
reason, and a library stored under one before is listed so that it can be removed; a file whose name holds a line
break is skipped, its name shown escaped on one line."""

import json

import pytest

from hybrid.cli.main import main
from hybrid.precedents.user_store import DamagedLibrary, load_user_library, user_libraries, user_library_path
from tests.sample_contract import nda_text as _contract


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "contracts"
    root.mkdir()
    (root / "nda.md").write_text(_contract())
    return root


def _run(argv, capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def _one_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hybrid: error: "), err
    return lines[0]


def _body_a_number(data):
    data["precedents"][0]["body"] = 42


def _facts_a_number(data):
    data["precedents"][-1]["facts"] = [7]


def _not_a_list(data):
    data["precedents"] = {"a": 1}


def _a_newline_in_a_file_name(data):
    data["precedents"][0]["id"] = "a\nb.md#1"


def _unknown_field(data):
    data["precedents"][0]["secret"] = "TOP-SECRET-VALUE"


DAMAGE = {  # how a library file was damaged -> what the message says is wrong
    "body is a number": (_body_a_number, "clause 1 of 4: its 'body' is a number, not text"),
    "facts hold a number": (_facts_a_number, "clause 4 of 4: its 'facts' is not a list of text"),
    "clauses not a list": (_not_a_list, "not a library file"),
    "a line break in a file name": (_a_newline_in_a_file_name, "clause 1 of 4: its file name holds a line break"),
    "a field of another version": (_unknown_field, "clause 1 of 4: a field this version does not know"),
    "cut short": (None, "not a whole JSON file: cut short or overwritten"),
}


def _damage(name: str, how) -> bytes:
    path = user_library_path(name)
    if how is None:
        path.write_bytes(path.read_bytes()[:150])
    else:
        data = json.loads(path.read_text())
        how(data)
        path.write_text(json.dumps(data))
    return path.read_bytes()


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_library_is_refused_naming_it_and_its_repair_before_the_model_loads(case, folder, tmp_path,
                                                                                        monkeypatch, capsys):
    how, why = DAMAGE[case]
    assert _run(["library", "add", str(folder), "--name", "firm"], capsys)[0] == 0
    _damage("firm", how)

    def load(*a, **k):
        raise AssertionError("the model was loaded: the damaged library was taken for a good one")

    monkeypatch.setattr("hybrid.draft.drafter.Drafter.from_pretrained", load)
    out = tmp_path / "out"
    code, _, err = _run(["draft", "mutual-nda", "--example", "--library", "firm", "--out", str(out)], capsys)
    line = _one_error(err)
    assert code == 2 and f"library 'firm' is damaged ({why}" in line
    assert "hybrid library add DIR --name firm --replace" in line and "hybrid library remove firm" in line
    assert "precedents --build" not in line and "TOP-SECRET" not in line and str(tmp_path) not in line
    assert not out.exists()
    with pytest.raises(DamagedLibrary):
        load_user_library("firm")


def test_one_damaged_library_never_breaks_the_others(folder, capsys):
    for name in ("firm", "cut"):
        assert _run(["library", "add", str(folder), "--name", name], capsys)[0] == 0
    damaged = _damage("cut", None)

    code, out, err = _run(["library", "list"], capsys)
    assert code == 0 and not err
    cut, firm = out.strip().splitlines()
    assert firm == "firm: 4 clauses from 1 files"
    assert cut.startswith("cut: damaged (not a whole JSON file")
    assert "hybrid library add DIR --name cut --replace" in cut
    assert "precedents --build" not in out
    code, out, _ = _run(["library", "list", "--json"], capsys)
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["firm"]["status"] == "ok" and rows["cut"]["status"] == "damaged"
    assert "--name cut" in rows["cut"]["repair"]

    code, _, err = _run(["library", "add", str(folder), "--name", "cut"], capsys)  # extending it would lose it
    line = _one_error(err)
    assert code == 2 and "library 'cut' is damaged" in line and "--replace" in line
    assert user_library_path("cut").read_bytes() == damaged  # untouched
    assert _run(["library", "add", str(folder), "--name", "other"], capsys)[0] == 0  # the others work on

    assert _run(["library", "add", str(folder), "--name", "cut", "--replace"], capsys)[0] == 0
    assert len(load_user_library("cut")) == 4
    assert _run(["library", "remove", "cut"], capsys)[0] == 0
    assert user_libraries() == ["firm", "other"]
    code, _, err = _run(["library", "remove", "cut"], capsys)
    assert code == 2 and "unknown library 'cut'" in _one_error(err)


def test_reserved_names_are_refused_with_the_reason(folder, tmp_path, monkeypatch, capsys):
    code, _, err = _run(["library", "add", str(folder), "--name", "shipped"], capsys)
    line = _one_error(err)
    assert code == 2 and "'shipped' is reserved: it names the shipped library" in line
    assert not (tmp_path / "cache").exists()

    # a library added under the name before it was reserved: never offered, listed so that it can be removed
    assert _run(["library", "add", str(folder), "--name", "firm"], capsys)[0] == 0
    legacy = user_library_path("firm").with_name("shipped.json")
    legacy.write_bytes(user_library_path("firm").read_bytes())
    assert user_libraries() == ["firm"]
    code, out, _ = _run(["library", "list"], capsys)
    assert "shipped: reserved name" in out and "hybrid library remove shipped" in out

    seen = {}
    monkeypatch.setattr("hybrid.cli.draft_run.draft_into", lambda out, args, request, library=None:
                        seen.update(library=library) or 0)
    assert _run(["draft", "mutual-nda", "--example", "--library", "shipped", "--out", str(tmp_path / "o")],
                capsys)[0] == 0
    assert seen == {"library": None}  # --library shipped: the shipped library, as on the workbench
    assert _run(["library", "remove", "shipped"], capsys)[0] == 0 and not legacy.exists()


def test_the_workbench_offers_the_libraries_that_load_and_says_why_not_the_others(folder, capsys):
    from hybrid.serve.libraries import Libraries

    for name in ("firm", "cut"):
        assert _run(["library", "add", str(folder), "--name", name], capsys)[0] == 0
    _damage("cut", None)
    user_library_path("firm").with_name("shipped.json").write_bytes(user_library_path("firm").read_bytes())
    libraries = Libraries()
    assert libraries.names() == ("shipped", "firm")
    assert libraries.names() == ("shipped", "firm")  # warned once per state of the damaged file
    err = capsys.readouterr().err
    assert err.startswith("warning: library 'cut' is damaged") and "--name cut --replace" in err
    assert err.strip().endswith("The workbench does not offer it.") and len(err.strip().splitlines()) == 1


def test_a_file_name_with_a_line_break_is_skipped_and_shown_on_one_line(folder, capsys):
    for name in ("two\nlines.md", "rtl\u202edm.txt", "tab\there.md"):
        (folder / name).write_text(_contract("Zanzibar Quokka Trust"))
    code, out, err = _run(["library", "add", str(folder), "--name", "firm"], capsys)
    assert code == 0 and out.splitlines()[0] == "added nda.md: 4 clauses"
    lines = err.splitlines()
    assert len(lines) == 3 and all(s.startswith("skipped ") and "rename the file" in s for s in lines), err
    assert {s.split(": ")[0] for s in lines} == {"skipped two\\nlines.md", "skipped rtl\\u202edm.txt",
                                                 "skipped tab\\there.md"}
    assert {p.doc_id for p in load_user_library("firm").precedents} == {"nda.md"}
    code, out, _ = _run(["library", "add", str(folder), "--name", "firm", "--json"], capsys)
    assert "two\\\\nlines.md" in out and "\u202e" not in out
