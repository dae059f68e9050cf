"""A precedent's own words (hybrid.precedents.originals): a user clause as its file had it, kept beside the library
and dropped with it; a shipped clause as its corpus document holds it, cut as the library cut it."""

from hybrid.precedents.library import build_library
from hybrid.precedents.originals import original_text
from hybrid.precedents.user_store import load_originals, remove_library
from tests.sample_contract import firm_library

FIRM = """MUTUAL NONDISCLOSURE AGREEMENT

This Agreement is made between Pelican Bay Holdings LLC ("Pelican") and Osprey Partners Inc. ("Osprey").

1. Confidentiality. Pelican shall hold Osprey's confidential information in strict confidence, as agreed at the
offsite, and use it only to evaluate the proposed collaboration between the parties.

2. Term. This Agreement lasts for three years from the date it is signed by both parties, and its obligations
survive for two further years after it ends for any reason whatsoever.
"""


def test_a_user_clause_keeps_its_files_words_and_loses_them_with_its_library(tmp_path, monkeypatch):
    library = firm_library(tmp_path, monkeypatch, FIRM)
    (clause,) = [p for p in library.precedents if p.clause_type == "confidentiality"]
    own = original_text(library, {**clause.provenance()})
    assert own.startswith("Pelican shall hold Osprey's confidential information") and "[PARTY" not in own
    assert "[PARTY_A] shall hold [PARTY_B]" in clause.body  # the body holds markers where the file held the names
    remove_library("mine")
    assert load_originals("mine") == {} and original_text(library, clause.provenance()) is None


def test_a_shipped_clause_is_its_corpus_sections_words(cuad_corpus):
    from tests.conftest import cuad_entry

    library = build_library(cuad_corpus({}, [cuad_entry("g")]), progress=False)
    with_facts = [p for p in library.precedents if p.facts and "[PARTY_A]" in p.body]
    assert with_facts
    p = with_facts[0]
    own = original_text(library, p.provenance())
    assert own and "[PARTY_A]" not in own and any(f in own for f in p.facts)
    assert original_text(library, {**p.provenance(), "doc_id": "cuad/contracts/none.txt"}) is None
