"""`hybrid library add DIR` on real train-split contracts (text and DOCX): their clauses become a named library,
bad files (binary, empty, unreadable, not a Word file) are reported by name and skipped, drafting with the
library cites the user's files and sections, and an unknown library is refused before anything is written."""

import json
import os
from pathlib import Path

import docx
import pytest

from hybrid import Drafter
from hybrid.cli.main import main
from hybrid.common.errors import HybridError
from hybrid.draft.provenance import citation_line
from hybrid.precedents.library import Library, Precedent
from hybrid.precedents.user import USER_LICENSE, load_user_library, preferring, user_libraries
from hybrid.templates.template import load_template

CORPUS = Path(os.environ.get("HYBRID_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus"))
T = load_template("mutual-nda")


def _train_contracts(n: int = 5) -> list[Path]:
    """n CUAD contracts of the train split (1,500-3,000 words, one per company, no amendments: an amendment
    has no sections of its own)."""
    if not (CORPUS / "manifest.jsonl").is_file():
        pytest.skip(f"corpus not found at {CORPUS}")
    rows = [json.loads(line) for line in (CORPUS / "manifest.jsonl").read_text().splitlines()]
    picked, groups = [], set()
    for r in rows:
        if (r["split"] == "train" and r["source"] == "cuad" and 1500 < r["words"] < 3000 and r["group"] not in groups
                and "AMENDMENT" not in r["doc_type"]):
            groups.add(r["group"])
            picked.append(CORPUS / r["path"])
        if len(picked) == n:
            return picked
    pytest.skip("not enough train contracts")


@pytest.fixture
def firm_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "contracts"
    folder.mkdir()
    files = _train_contracts()
    for i, f in enumerate(files[:-1]):
        (folder / f"contract-{i}.txt").write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    document = docx.Document()  # the last one as a Word file, one paragraph per line
    for line in files[-1].read_text(encoding="utf-8").splitlines():
        document.add_paragraph(line)
    document.save(str(folder / "contract-4.docx"))
    (folder / "scan.txt").write_bytes(b"%PDF\x00\x01\x02" * 50)
    (folder / "empty.md").write_text("  \n")
    (folder / "latin1.txt").write_bytes("Vertrag \xfcber".encode("latin-1"))
    (folder / "broken.docx").write_text("not a zip")
    (folder / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    return folder


def test_library_add_segments_the_contracts_and_skips_bad_files_by_name(firm_folder, capsys):
    code = main(["library", "add", str(firm_folder), "--name", "firm", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert sorted(a["file"] for a in report["added"]) == [f"contract-{i}.{'docx' if i == 4 else 'txt'}"
                                                          for i in range(5)]
    assert all(a["clauses"] >= 3 for a in report["added"])
    skipped = {s["file"]: s["reason"] for s in report["skipped"]}
    assert skipped.keys() == {"scan.txt", "empty.md", "latin1.txt", "broken.docx", "gone.txt"}
    assert "binary" in skipped["scan.txt"] and skipped["empty.md"] == "empty" and "UTF-8" in skipped["latin1.txt"]
    assert "DOCX" in skipped["broken.docx"] and "unreadable" in skipped["gone.txt"]
    for name in skipped:
        assert f"skipped {name}: " in err
    lib = load_user_library("firm")
    assert user_libraries() == ["firm"] and len(lib) == report["precedents"]
    assert all(p.license == USER_LICENSE and p.source == "library:firm" for p in lib.precedents)
    assert all("Acme" not in p.body for p in lib.precedents)
    assert any("[PARTY_A]" in p.body or "[DATE]" in p.body for p in lib.precedents)  # facts normalized
    # adding the folder again replaces its clauses instead of doubling them
    assert main(["library", "add", str(firm_folder), "--name", "firm"]) == 0
    assert len(load_user_library("firm")) == len(lib)


def _shipped() -> Library:
    body = "[PARTY_A] and [PARTY_B] agree to this clause from [DATE] for [DURATION] under the laws of [LAW] in full."
    return Library([Precedent(f"train/s{i}.txt#1", f"train/s{i}.txt", "cuad", "CC-BY-4.0", "MUTUAL NDA", c,
                              c.title(), body) for i, c in enumerate(T.clause_types)], "fp")


def test_drafting_prefers_the_users_library_and_cites_its_files(firm_folder, tiny_model, tokenizer, capsys):
    assert main(["library", "add", str(firm_folder), "--name", "firm"]) == 0
    user = load_user_library("firm")
    covered = {p.clause_type for p in user.precedents} & set(T.clause_types)
    assert covered, "the contracts cover none of mutual-nda's clause types"
    drafter = Drafter(tiny_model, tokenizer, library=preferring(user, _shipped()))
    d = drafter.draft(T, T.example, n=2, steps=2, seed=0, outline=T.example_outline())[0]
    files = {p.doc_id for p in user.precedents}
    for s in d.sections:
        (cite,) = s["precedents"]
        if s["clause"] in covered:
            assert cite["doc_id"] in files and cite["source"] == "library:firm"
            section = cite["id"].rpartition("#")[2]
            assert f"{cite['doc_id']}, section {section}" in citation_line(cite)
            assert f"{cite['doc_id']}, section {section}" in d.markdown  # the footnote cites the user's file
        else:
            assert cite["doc_id"].startswith("train/s")


def test_unknown_or_badly_named_library_is_refused_before_anything_is_written(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "out"
    assert main(["draft", "mutual-nda", "--example", "--library", "nope", "--out", str(out)]) == 2
    assert "unknown library 'nope'" in capsys.readouterr().err and not out.exists()
    assert main(["library", "add", str(tmp_path), "--name", "../up"]) == 2
    assert "library name" in capsys.readouterr().err and not (tmp_path / "cache").exists()
    with pytest.raises(HybridError, match="no contract under"):
        from hybrid.precedents.user import add_folder

        (tmp_path / "only").mkdir()
        (tmp_path / "only" / "empty.txt").write_text("")
        add_folder(tmp_path / "only", "firm")
    assert not (tmp_path / "cache").exists()
