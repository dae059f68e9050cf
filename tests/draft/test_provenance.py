"""Sources and edits as data: the word redline gives back both texts, a draft's Markdown and DOCX keep provenance out
of the contract text (footnotes, Word comments), and the redline DOCX holds the deletions and insertions."""

import docx
from hypothesis import given
from hypothesis import strategies as st

from hybrid.draft.provenance import citation_line, word_redline, written_words
from hybrid.draft.result import Draft

CITE = {"id": "firm/nda.txt#4", "doc_id": "firm/nda.txt", "heading": "Confidentiality", "source": "firm",
        "license": "CC-BY-4.0"}


@given(st.text(alphabet="ab \n.,", max_size=60), st.text(alphabet="ab \n.,", max_size=60))
def test_the_redline_gives_back_the_source_and_the_draft(source, text):
    ops = word_redline(source, text)
    assert "".join(t for op, t in ops if op != "insert") == source
    assert "".join(t for op, t in ops if op != "delete") == text
    assert all(op in ("equal", "delete", "insert") and t for op, t in ops)


def test_the_redline_marks_what_the_engine_changed():
    ops = word_redline("Each party shall keep it secret for 2 years.",
                       "Each party shall keep it confidential for 3 years.")
    assert ("delete", "secret") in ops and ("insert", "confidential") in ops
    assert ("delete", "2") in ops and ("insert", "3") in ops and ops[0] == ("equal", "Each party shall keep it ")


def _draft() -> Draft:
    sections = [
        {"number": "1", "heading": "Confidentiality", "clause": "confidentiality", "precedents": [CITE],
         "body": "Each party shall keep it confidential for 3 years.",
         "source_text": "Each party shall keep it secret for 2 years."},
        {"number": "2", "heading": "Governing Law", "clause": "governing_law", "body": "Delaware law governs."},
    ]
    return Draft(1, "", "NDA", "This Agreement is made.", sections, "Signed.", {}, 0.0, {})


def test_the_words_a_draft_writes_are_counted_word_by_word_whatever_its_paragraphs():
    """A base's lettered paragraphs joined at the start made a redline count the whole paragraph as written
    (a restaurant franchise at 32% "model words" against 2.4% word by word, session 38): the count is a flat diff of
    the words, the redline's paragraph units are for layout."""
    source = "A.\n\nYou will keep the books of the Franchised Restaurant for 10 years.\n\nB.\n\nYou will pay us."
    text = "You will keep the books of the Franchised Business for [___].\n\nYou will pay us."
    assert written_words(source, text) == 2  # "Business", "[___]."
    paragraph_units = sum(len(w.split()) for op, w in word_redline(source.lower(), text.lower()) if op == "insert")
    assert paragraph_units > written_words(source, text)
    assert written_words(text, text) == 0


def test_sources_and_edits_are_data_and_out_of_the_contract_text(tmp_path):
    d = _draft()
    assert d.sources == [{"number": "1", "heading": "Confidentiality", "citations": [CITE]},
                         {"number": "2", "heading": "Governing Law", "citations": []}]
    edits = d.edits
    assert ("insert", "confidential") in edits[0]["redline"] and edits[1]["redline"] is None
    assert citation_line(CITE) == "Confidentiality (firm/nda.txt, section 4; firm, CC-BY-4.0)"
    md = d.markdown
    assert "## 1. Confidentiality[^s1]" in md and md.rstrip().endswith(
        "[^s1]: Source: Confidentiality (firm/nda.txt, section 4; firm, CC-BY-4.0).")
    assert md.count("firm/nda.txt") == 1  # only in the footnote
    document = docx.Document(str(d.to_docx(tmp_path / "d.docx")))
    assert not any("firm/nda" in p.text for p in document.paragraphs)
    (comment,) = document.comments
    assert comment.author == "hybrid"
    assert comment.text == "Source: Confidentiality (firm/nda.txt, section 4; firm, CC-BY-4.0)."


def test_the_redline_docx_tracks_deletions_and_insertions(tmp_path):
    document = docx.Document(str(_draft().to_docx(tmp_path / "r.docx", redline=True)))
    body = document.element.body
    ns = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}
    deleted = ["".join(t.text for t in d.iterfind(".//w:delText", ns)) for d in body.iterfind(".//w:del", ns)]
    inserted = ["".join(t.text for t in i.iterfind(".//w:t", ns)) for i in body.iterfind(".//w:ins", ns)]
    assert "secret" in deleted and "2" in deleted and "confidential" in inserted and "3" in inserted
    assert len(document.comments) == 1  # the sources stay a comment in the redline too
    plain = docx.Document(str(_draft().to_docx(tmp_path / "p.docx")))
    assert not list(plain.element.body.iterfind(".//w:ins", ns))  # the redline is optional


def test_hybrid_draft_redline_needs_docx_and_writes_tracked_changes(tmp_path, capsys, tiny_model, tokenizer,
                                                                     monkeypatch):
    from hybrid.cli.main import main
    from hybrid.draft.drafter import Drafter

    out = tmp_path / "md"
    assert main(["draft", "mutual-nda", "--example", "--redline", "--out", str(out)]) == 2
    assert "--redline" in capsys.readouterr().err and not out.exists()
    from hybrid.precedents.library import Library, Precedent
    from hybrid.templates.template import load_template

    t = load_template("mutual-nda")
    lib = Library([Precedent(f"firm/a.txt#{i}", "firm/a.txt", "firm", "CC-BY-4.0", "MUTUAL NDA", c, c,
                             "[PARTY_A] and [PARTY_B] keep this clause from [DATE] under the laws of [LAW] always.")
                   for i, c in enumerate(t.clause_types, 1)], "fp")
    lib.originals = {p.id: "Zebulon and Quill keep this clause from 1 May 2019 under the laws of England always."
                     for p in lib.precedents}
    monkeypatch.setattr(Drafter, "from_pretrained",
                        classmethod(lambda cls, *a, **k: Drafter(tiny_model, tokenizer, library=lib)))
    out = tmp_path / "docx"
    assert main(["draft", "mutual-nda", "--example", "-n", "1", "--steps", "2", "--format", "docx", "--redline",
                 "--out", str(out)]) == 0
    document = docx.Document(str(out / "draft-1.docx"))
    import json

    cited = json.loads((out / "drafts.json").read_text())["drafts"][0]["precedents"]
    assert "<w:ins " in document.element.xml and "<w:del " in document.element.xml
    assert len(document.comments) == len(cited) and all("firm/a.txt, section" in c.text for c in document.comments)


def test_an_indexed_definitions_section_credits_no_precedent_with_its_words(tmp_path):
    # the consistency pass emptied the Definitions (no entry of its precedent was used) and wrote an index of the
    # draft's own terms: its footnote and Word comment say so, they do not name the precedent as the source
    from hybrid.draft.stages import PrecedentStart, finish_drafts

    d = _draft()
    d.sections[0]["precedents"] = None
    prep = PrecedentStart(None, {}, True, None, [[[CITE], []]])
    finish_drafts([d], {}, prep, [{"sections": [{"indexed": ["Buyer"]}, {}]}], None, {})
    assert d.sections[0]["indexed"] == ["Buyer"] and "indexed" not in d.sections[1]
    note = d.markdown.rstrip().splitlines()[-1]
    assert note.startswith("[^s1]: Index of the terms this draft defines elsewhere, written by the engine")
    assert "Source:" not in d.markdown and "Confidentiality (firm/nda.txt, section 4" in note
    (comment,) = docx.Document(str(d.to_docx(tmp_path / "d.docx"))).comments
    assert comment.text.startswith("Index of the terms")
