"""clean_text on real CUAD excerpts (tests/data/excerpts/, copied verbatim from the corpus)."""

import re
from pathlib import Path

import pytest

from hybrid.data.clean import REDACTION, clean_markdown, clean_text, strip_markdown_inline, to_ascii

EXCERPTS = Path(__file__).parent / "excerpts"


def excerpt(name: str) -> str:
    return (EXCERPTS / name).read_text(encoding="utf-8")


def paragraphs(text: str) -> list[str]:
    return [p for p in text.split("\n\n") if p.strip()]


def test_every_redaction_mark_becomes_exactly_three_stars():
    raw = excerpt("cuad_redactions.txt")
    assert "[*****]" in raw and "[* * *]" in raw and "{*****}" in raw and "[...***...]" in raw  # the fixture's variety
    out = clean_text(raw)
    assert out.count(REDACTION) >= 20
    leftover = re.sub(re.escape(REDACTION), "", out)
    assert not re.search(r"\*{2,}|\* \*|[\[{]\s*\*|\*\s*[\]}]", leftover), leftover
    assert "[Redacted]" not in out
    assert "Discount*" in out  # a footnote asterisk on a word is not a redaction


@pytest.mark.parametrize("raw, expected", [
    # every redaction mark becomes [***]
    ("a fee of [*****] per unit", "a fee of [***] per unit"),
    ("within [ * ] days", "within [***] days"),
    ("the [...***...] of companies", "the [***] of companies"),
    ("no later than [\u2026***\u2026] following", "no later than [***] following"),
    ("Tier 1 {*****} {*****}", "Tier 1 [***] [***]"),
    ("give a *** discount", "give a [***] discount"),
    ("[[***] and [***][***] then", "[***] and [***] then"),
    # typographic characters become their ASCII forms
    ("\u201cAgreement\u201d", '"Agreement"'),
    ("the Party\u2019s rights", "the Party's rights"),
    ("2010\u20132012", "2010-2012"),
    ("data\u2014and it is your data", "data - and it is your data"),
    ("wait\u2026", "wait..."),
    ("a\u00a0b\u2003c", "a b c"),
    ("co\u00adoperate", "cooperate"),
    ("\u2022 first item", "- first item"),
])
def test_redaction_and_character_table(raw, expected):
    assert clean_text(raw).strip() == expected


def test_confidential_treatment_banners_are_dropped_but_clauses_about_it_stay():
    out = clean_text(excerpt("cuad_banners.txt"))
    assert not re.search(r"confidential treatment (has been |is )?requested", out, re.I)
    assert "INDICATES MATERIAL THAT HAS BEEN OMITTED" not in out
    assert "filed separately with the" not in out.lower()
    assert "has been excluded from this exhibit" not in out
    assert "CO-BRANDING AND ADVERTISING AGREEMENT" in out
    assert "REAL ESTATE EDUCATION TRAINING PROGRAM DEVELOPMENT AGREEMENT" in out  # text after an inline legend survives
    assert "seek to obtain confidential treatment for any information required to be disclosed" in out


def test_page_numbers_source_stamps_and_underlines_are_dropped():
    raw = excerpt("cuad_numbered_2themart.txt")
    assert "Source: 2THEMART COM INC" in raw
    out = clean_text(raw)
    assert "Source:" not in out
    hyperion = clean_text(excerpt("cuad_pages_hyperion.txt"))
    lines = hyperion.split("\n")
    assert not [ln for ln in lines if re.fullmatch(r"\s*\d{1,3}\s*", ln)], "bare page numbers left"
    assert "---" not in hyperion and "- - -" not in hyperion
    table_of_contents = clean_text(excerpt("cuad_article_sandridge.txt"))
    assert "TABLE OF CONTENTS" not in table_of_contents and "PAGE ARTICLE I" not in table_of_contents


def test_a_page_number_between_dashes_is_page_noise():
    """LimeEnergy's distributor agreement numbers its pages "Page -2-": the seed-313 distributor draft read
    "Page -[___]-" between its notice and entire-agreement paragraphs."""
    from hybrid.data.page_noise import drop_noise_lines

    lines = ["Notices. Any notice shall be in writing.", "Page -2-", "PAGE 3", "page \u20134\u2013",
             "Page - 12 -", "Entire Agreement. This Agreement is the whole agreement."]
    assert [ln for ln in drop_noise_lines(lines) if ln] == [lines[0], lines[-1]]
    kept = ["Page -2- of the Schedule lists the prices.", "Page A-3"]
    assert [ln for ln in drop_noise_lines(kept) if ln] == kept


def test_a_sentence_cut_by_a_page_break_is_joined_again():
    out = clean_text(excerpt("cuad_numbered_2themart.txt"))
    # "... calculated by mutual" | page break + Source stamp | "consent of the parties ..."
    assert re.search(r"\S consent of the parties after good faith discussions", out)
    assert "\nconsent of the parties" not in out


def test_a_conspicuous_sentence_cut_by_a_page_break_is_joined_again():
    # the Stamps.com co-branding agreement's limitation of liability: a draft's clause opened on the fragment
    # "CONSEQUENTIAL, INCIDENTAL, ..." after the sentence before it had been cut
    raw = (
        "14. Limitation of Liability. The parties agree that NEITHER PARTY WILL BE LIABLE FOR ANY LOST PROFITS. "
        "IN NO EVENT WILL EITHER PARTY BE LIABLE FOR\n\nSource: STAMPS.COM INC, 10-Q, 11/14/2000\n\n\n\n"
        "CONSEQUENTIAL, INCIDENTAL, SPECIAL, INDIRECT, OR EXEMPLARY DAMAGES ARISING OUT OF THIS AGREEMENT.\n\n"
        "15. Term and Termination.\n"
    )
    out = clean_text(raw)
    assert "BE LIABLE FOR CONSEQUENTIAL, INCIDENTAL, SPECIAL" in out
    assert "AGREEMENT.\n\n15. Term and Termination." in out  # a numbered section still starts its own paragraph
    # a capital letter is a name, not the article: "Exhibit A" | "Exhibit B Product Prices" stay apart
    listing = "The schedules and exhibits attached to this Agreement are listed below: Exhibit A\n\nExhibit B Prices\n"
    assert clean_text(listing).count("\n\n") == 1


def test_one_line_document_is_split_into_sections_and_items():
    raw = excerpt("cuad_flattened_kubient.txt")
    assert raw.count("\n") == 1 and len(raw) > 4000
    out = paragraphs(clean_text(raw))
    assert len(out) >= 15
    starts = [p[:20] for p in out]
    assert any(s.startswith("1. Kubient Services.") for s in starts)
    assert any(s.startswith("2. Kubient License.") for s in starts)
    assert any(s.startswith('(a) "Auction" means') for s in starts)
    assert max(len(p) for p in out) < 1500


def test_runs_of_spaces_that_stood_for_line_breaks_are_rewrapped():
    out = clean_text(excerpt("cuad_wrapped_accuray.txt"))
    paras = paragraphs(out)
    assert "DISTRIBUTOR AGREEMENT" in paras
    assert "RECITALS" in paras
    assert any(p.startswith("This Multiple LINAC and Multi-Modality Distributor Agreement") for p in paras)
    assert "Multi-Modality Purchases" in out  # hyphenated line wrap joined without a space
    assert "  " not in out


def test_output_whitespace_is_normalized():
    for path in sorted(EXCERPTS.glob("cuad_*.txt")):
        out = clean_text(path.read_text(encoding="utf-8"))
        assert out.endswith("\n") and not out.endswith("\n\n"), path.name
        assert "\n\n\n" not in out, path.name
        assert not re.search(r"[ \t]+$", out, re.M), path.name
        assert "\u00a0" not in out and "\t" not in out and "\r" not in out, path.name


def test_empty_and_blank_input_give_empty_output():
    assert clean_text("") == ""
    assert clean_text(" \n\n \t\n") == ""


def test_markdown_keeps_headings_and_drops_horizontal_rules_and_comments():
    raw = "---\ntitle: X\n---\n<!-- note -->\n# Terms\n\n***\n\n## Fees\n\nYou **will** pay.\n"
    out = clean_markdown(raw)
    assert out.startswith("---\ntitle: X\n---\n")
    assert "# Terms" in out and "## Fees" in out
    assert "[***]" not in out and "<!--" not in out


@pytest.mark.parametrize("raw, expected", [
    ("see [our terms](https://example.com/terms) now", "see our terms now"),
    ("**Agreement** and __Terms__", "Agreement and Terms"),
    ("| a | b |", "a | b"),
    ("* item", "- item"),
    ("`code` here", "code here"),
])
def test_strip_markdown_inline_table(raw, expected):
    assert strip_markdown_inline(raw) == expected


def test_to_ascii_folds_accents_and_drops_other_symbols():
    assert to_ascii("Pi\u00f1on Gathering\u2122  Company") == "Pinon Gathering Company"


def test_a_list_of_titled_section_references_after_a_colon_stays_one_paragraph():
    """The professional services form's survival list ("... of the Agreement: Section 2.1 (Deliverables), Section 2.3
    (Pre-Existing Materials), ...", 719 characters) had been split before its first "Section", which a draft then
    renumbered as a bare "3 (Deliverables)". A section's heading after a sentence still starts a paragraph."""
    items = ", ".join(f"Section {n}.{k} (Heading Number {n}{k})" for n in range(2, 9) for k in (1, 2, 3))
    survive = f"The following sections will survive expiration or termination of the Agreement: {items}."
    assert len(survive) > 700
    assert [p.strip() for p in paragraphs(clean_text(survive))] == [survive]
    headed = f"{survive} Section 9.1 Termination. Either party may terminate this Agreement on notice."
    assert paragraphs(clean_text(headed))[-1].startswith("Section 9.1 Termination.")


def test_an_ordinal_a_pdf_split_is_one_word_again():
    """A master supply agreement's order of priority read "(4t h) the main body of this Agreement"."""
    text = clean_text("(3rd) the SOP; and (4t h) the main body, from the 1s t day of June at 12t h Street.\n")
    assert text == "(3rd) the SOP; and (4th) the main body, from the 1st day of June at 12th Street.\n"
    assert clean_text("the 5 t h item at 4t hat\n") == "the 5 t h item at 4t hat\n"
