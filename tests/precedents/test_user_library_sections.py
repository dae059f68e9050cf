"""`hybrid library add` on forms without numbered sections: Common Paper's one-way NDA and independent contractor
agreement (run-in headed paragraphs, some under unnumbered line headings, after a cover page of `{placeholders}`)
and a Word file whose sections are marked only by heading styles: each section becomes a clause."""

import json
import os
import shutil
from pathlib import Path

import docx
import pytest

from hybrid.cli.main import main
from hybrid.precedents.user import load_user_library

FORMS = Path(os.environ.get("HYBRID_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus"))
FORMS = FORMS / "standard-agreements"
NDA, CONTRACTOR = "common-paper-one-way-nda.txt", "common-paper-independent-contractor-agreement.txt"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    return tmp_path


def _add(folder: Path, capsys) -> dict:
    code = main(["library", "add", str(folder), "--name", "forms", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_common_paper_forms_give_a_clause_per_run_in_section(cache, capsys):
    if not (FORMS / NDA).is_file():
        pytest.skip(f"corpus not found at {FORMS}")
    folder = cache / "forms"
    folder.mkdir()
    for name in (NDA, CONTRACTOR):
        shutil.copy(FORMS / name, folder / name)
    report = _add(folder, capsys)
    assert report["skipped"] == []
    by_file = {}
    for p in load_user_library("forms").precedents:
        by_file.setdefault(p.doc_id, {})[p.heading] = p
    nda = by_file[NDA]
    assert list(nda) == ["Introduction", "Use and Protection of Confidential Information", "Exceptions",
                         "Disclosures Required by Law", "Term and Termination",
                         "Return or Destruction of Confidential Information", "Proprietary Rights", "Disclaimer",
                         "Governing Law and Jurisdiction", "Equitable Relief", "General"]
    assert nda["Exceptions"].body.startswith("The Recipient's obligations in this NDA do not apply")
    assert all("[PARTY_" not in p.body for p in nda.values())  # the cover page's "NDA" is no party
    contractor = by_file[CONTRACTOR]
    assert len(contractor) >= 30  # "Services & Restrictions" alone held five clauses
    assert contractor["Non-Solicitation"].body.startswith("During the term of this Agreement")
    assert contractor["Mutual"].clause_type == "warranties"  # typed by "Representations & Warranties" above it
    assert contractor["Liability Cap"].clause_type == "limitation_of_liability"


def test_word_heading_styles_are_section_breaks(cache, capsys):
    folder = cache / "word"
    folder.mkdir()
    document = docx.Document()
    document.add_paragraph("Consulting Agreement", style="Title")
    clauses = {
        "Services": "The Consultant shall perform the services described in each statement of work with due care.",
        "Fees": "The Client shall pay each undisputed invoice within thirty days after it receives the invoice.",
        "Confidentiality": "Each party shall keep the other party's confidential information secret and use it "
                           "only to perform this agreement.",
    }
    for level, (heading, body) in enumerate(clauses.items(), 1):
        document.add_paragraph(heading, style=f"Heading {min(level, 2)}")
        document.add_paragraph(body)
    document.save(str(folder / "consulting.docx"))
    assert _add(folder, capsys)["added"] == [{"file": "consulting.docx", "clauses": 3}]
    got = {p.heading: (p.clause_type, p.body) for p in load_user_library("forms").precedents}
    assert got.keys() == clauses.keys()
    assert got["Fees"][0] == "payment" and got["Fees"][1] == clauses["Fees"]
