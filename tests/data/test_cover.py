"""A standard form's cover page is not its terms (hybrid.data.cover, applied by hybrid.data.corpus.build_document)."""

from hybrid.data.corpus import build_document, corpus_root, load_manifest
from hybrid.data.cover import drop_cover_page, run_in_parts

COVER = "Discloser\n{discloser_name}\nPurpose\n{purpose}\nSignature\n{recipient_signatory_name}\nDate\n\n"
TERMS = "\n".join(
    f"{h}. The Recipient shall keep the Confidential Information of the Discloser safe and use it only for the "
    f"Purpose, and {h.lower()} applies as these terms say for as long as this NDA is in effect. " * 3
    for h in ("Introduction", "Exceptions", "Return or Destruction", "Proprietary Rights", "Disclaimer")
)


def test_the_terms_after_a_cover_page_are_kept_and_the_cover_page_goes():
    text = drop_cover_page(COVER + TERMS)
    # what follows the last blank's line stays (a signature label such as "Date" is no clause: the sectioning skips it)
    assert text.split("Introduction.", 1)[0].split() == ["Date"] and "{" not in text and "Discloser\n" not in text


def test_a_text_with_no_terms_after_its_placeholders_is_kept_whole():
    short = COVER + "Exceptions. None apply here.\n"
    assert drop_cover_page(short) == short
    assert drop_cover_page(TERMS) == TERMS  # no placeholder: no cover page


def test_run_in_headed_paragraphs_become_parts():
    lead, parts = run_in_parts("Date\n\n" + TERMS)
    assert lead == "Date"
    assert [h for h, _ in parts] == ["Introduction", "Exceptions", "Return or Destruction", "Proprietary Rights",
                                     "Disclaimer"]
    assert parts[2][1].startswith("The Recipient shall keep")
    # a few emphasized words inside one clause are not its sections
    assert run_in_parts("Notices. All notices go by email.\nSeverability. Each part stands.") == ("", [])


def _document(name):
    root = corpus_root()
    entry = next(e for e in load_manifest(root) if e["path"].endswith(name))
    return build_document(entry, (root / entry["path"]).read_text(encoding="utf-8"))


def test_the_one_way_nda_form_is_sectioned_into_its_terms():
    doc = _document("common-paper-one-way-nda.txt")
    headings = [s.heading for s in doc.sections]
    assert {"Exceptions", "Return or Destruction of Confidential Information", "Disclaimer"} <= set(headings)
    assert not any("{" in s.body for s in doc.sections)


def test_a_cloud_service_agreement_starts_at_its_terms_not_its_cover_page_labels():
    doc = _document("common-paper-cloud-service-agreement.txt")
    headings = [s.heading for s in doc.sections]
    assert headings[0] == "Service" and "Pilot" not in headings and "Increased Cap Amount" not in headings
    assert "Limitation of Liability" in headings and "Indemnification" in headings
