"""A redline strikes the precedent's own words (as the corpus or the user's library holds them), never the text with
the deal's names already in it; a section the engine composed says so instead of a redline; a long source is
redlined only where the section came from (the redline DOCX stays within 3x the draft's pages); changes are dated."""

import math
import re

import docx
import pytest

from hybrid.draft.provenance import COMPOSED, INDEX, NO_ORIGINAL, attach_sources, used_part
from hybrid.draft.result import Draft
from hybrid.precedents.library import Library, Precedent
from hybrid.templates.template import load_template

NDA = load_template("mutual-nda")
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
CITE = {"id": "firm/c.txt#3", "doc_id": "firm/c.txt", "heading": "Records", "source": "firm", "license": "CC-BY-4.0"}
OWN = "Consultant shall keep accurate records of the Services for three years after the Effective Date."
BODY = "Borealis Analytics LLC shall keep accurate records of the Services for 2 years after the Effective Date."


def _library(originals: dict) -> Library:
    lib = Library([Precedent(CITE["id"], CITE["doc_id"], "firm", "CC-BY-4.0", "CONSULTING AGREEMENT", "other",
                             "Records", "[PARTY_A] shall keep accurate records of the Services for [DURATION].")], "fp")
    lib.originals = originals
    return lib


def _draft(*sections) -> Draft:
    return Draft(1, "", "AGREEMENT", "This Agreement is made.", [dict(s) for s in sections], "Signed.", {}, 0.0, {})


def _section(body=BODY, precedents=(CITE,), **extra) -> dict:
    return {"number": "1", "heading": "Records", "clause": "other", "body": body, "precedents": list(precedents),
            **extra}


def _attach(d: Draft, library: Library) -> None:
    attach_sources([d], library, NDA, NDA.example)


def _struck(edit) -> list[str]:
    return [w for op, w in edit["redline"] if op == "delete"]


def test_the_struck_text_is_the_precedents_own_words_not_the_deals():
    d = _draft(_section())
    _attach(d, _library({CITE["id"]: OWN}))
    (edit,) = d.edits
    assert edit["source_text"] == OWN and edit["origin"] is None
    struck = _struck(edit)
    assert struck == ["Consultant", "three"]
    assert all(w.strip() in OWN for w in struck)
    assert not any("Borealis" in w for w in struck)  # the deal's name is an insertion, never the precedent's text
    assert ("equal", " shall keep accurate records of the Services for ") in edit["redline"]
    # what the engine started from (the precedent with the deal's facts in) is kept apart, never redlined against
    assert d.sections[0]["start_text"].startswith(NDA.example["party_a"])


@pytest.mark.parametrize("section, library, note", [
    (_section(indexed=["Services"]), {CITE["id"]: OWN}, INDEX),
    (_section(precedents=()), {}, COMPOSED + " from the template"),
    (_section(precedents=(CITE, {**CITE, "id": "firm/d.txt#2"})), {CITE["id"]: OWN}, COMPOSED + " from entries of 2"),
    (_section(), {}, NO_ORIGINAL + ": the corpus it came from is not on this machine."),
    (_section(precedents=({**CITE, "source": "library:firm"},)), {}, NO_ORIGINAL + ": library 'firm' was added before"),
    (_section(body="Nothing here is like the other text at all."), {CITE["id"]: OWN}, COMPOSED + ": rewritten"),
])
def test_a_section_without_its_precedents_words_says_why_instead_of_a_redline(section, library, note):
    d = _draft(section)
    _attach(d, _library(library))
    (edit,) = d.edits
    assert edit["redline"] is None and edit["source_text"] is None
    assert edit["origin"].startswith(note)


def _pages(path) -> float:
    """benchmarks/redline_pages.py's estimate: ceil(characters / 90) lines a paragraph, struck text included, 46 a
    page."""
    lines = 0
    for p in docx.Document(str(path)).element.body.iter(f"{W}p"):
        lines += max(1, math.ceil(len("".join(t.text or "" for t in p.iter(f"{W}t", f"{W}delText"))) / 90))
    return lines / 46


def test_a_long_source_is_redlined_only_where_the_section_came_from(tmp_path):
    # another contract's Definitions: 400 entries, some 12,000 words; the section kept 8 of them, one changed
    entries = [f'"Term {i}" means the thing numbered {i} that the Supplier provides under a Statement of Work '
               f'agreed between the parties from time to time, as amended.' for i in range(400)]
    source = "\n\n".join(entries)
    assert len(source.split()) > 10_000
    body = "\n\n".join(entries[200:208]).replace("the Supplier", "Acme Robotics, Inc.", 1)
    d = _draft(_section(body=body))
    _attach(d, _library({CITE["id"]: source}))
    (edit,) = d.edits
    assert edit["source_text"] == "\n\n".join(entries[200:208])
    assert edit["origin"].startswith("Redlined against the part of its source it came from")
    assert all(w.strip() in source for w in _struck(edit)) and "Supplier" in "".join(_struck(edit))
    plain, red = d.to_docx(tmp_path / "p.docx"), d.to_docx(tmp_path / "r.docx", redline=True)
    assert _pages(red) <= 3 * _pages(plain)
    deleted = [" ".join("".join(t.text for t in x.iter(f"{W}delText")).split())
               for x in docx.Document(str(red)).element.body.iter(f"{W}del")]
    assert deleted and all(x in " ".join(source.split()) for x in deleted)


def test_used_part_keeps_the_replaced_ends_and_drops_the_unused_words_beyond():
    # a replaced end is kept whole ("Cover Page." struck, not "Cover" alone) ...
    assert used_part("disclosed on the Cover Page.", "disclosed in this Agreement.") == (
        "disclosed on the Cover Page.", 0, 0)
    # ... up to LEFT_OUT words more than replace it; the words beyond are no part of the section
    head, tail = " ".join(f"h{i}" for i in range(100)), " ".join(f"t{i}" for i in range(100))
    part, before, after = used_part(f"{head} x y z {tail}", "Q y z R")
    assert part.endswith("x y z t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15 t16 t17 t18 t19 t20")
    assert part.startswith("h80 h81") and (before, after) == (80, 79)
    assert used_part("a b", "c d") == (None, 0, 0)


def test_tracked_changes_carry_a_date(tmp_path):
    from datetime import datetime, timezone

    from hybrid.draft.docx_export import build_document

    doc = build_document("T", "P", [{"heading": "H", "body": "b", "redline": [("delete", "x"), ("insert", "y")]}],
                         date=datetime(2026, 3, 1, 9, 30, tzinfo=timezone.utc))
    changes = [*doc.element.body.iter(f"{W}ins"), *doc.element.body.iter(f"{W}del")]
    assert len(changes) == 2 and {c.get(f"{W}date") for c in changes} == {"2026-03-01T09:30:00Z"}
    d = _draft(_section())
    _attach(d, _library({CITE["id"]: OWN}))
    red = docx.Document(str(d.to_docx(tmp_path / "r.docx", redline=True))).element.body
    dates = [c.get(f"{W}date") for c in [*red.iter(f"{W}ins"), *red.iter(f"{W}del")]]
    assert dates and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", x) for x in dates)


def test_two_whole_long_sections_are_redlined_in_seconds_not_minutes():
    # 600 definitions (15,600 words) against the same with 50 of them edited: word by word over the whole took 138 s
    import time

    from hybrid.draft.provenance import word_redline

    entries = [f'"Term {i}" means the thing numbered {i} that the Supplier provides under a Statement of Work agreed '
               f'between the parties from time to time, as amended.' for i in range(600)]
    source = "\n\n".join(entries)
    text = source.replace("the Supplier", "Acme Robotics, Inc.", 50)
    t = time.perf_counter()
    ops = word_redline(source, text)
    assert time.perf_counter() - t < 10
    assert "".join(w for op, w in ops if op != "insert") == source
    assert "".join(w for op, w in ops if op != "delete") == text
    assert " ".join(w for op, w in ops if op == "delete").split() == ["the", "Supplier"] * 50


def test_a_trailing_heading_cut_from_a_section_does_not_shift_the_redline():
    """A cloud form's 2,000-word section lost its trailing heading ("Service Level Agreement") in the revise, and the
    redline, pairing the paragraphs from the end, showed 2,038 of its words as the engine's."""
    from hybrid.draft.provenance import word_redline

    p0 = " ".join(f"Clause {i} binds the parties." for i in range(60))
    p1 = " ".join(f"Term {i} survives termination." for i in range(60))
    source = f"{p0}\n\n{p1}\n\nService Level Agreement"
    text = f"{p0.replace('Clause 3 binds', 'Clause 3 holds')}\n\n{p1.replace('Term 7 survives', 'Term 7 outlives')}"
    inserted = [w for op, w in word_redline(source, text) if op == "insert"]
    assert " ".join(inserted).split() == ["holds", "outlives"]
