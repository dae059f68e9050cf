"""split_document on real excerpts of each format: CUAD numbered, ARTICLE style, flattened,
Markdown policy, Bonterms Markdown, Common Paper plain text."""

import re
from pathlib import Path

import pytest

from hybrid.data.clean import NUMBERED_LINE, clean_markdown, clean_text, strip_numbering
from hybrid.data.sections import MAX_HEADING_CHARS, looks_markdown, split_document, tidy_heading

EXCERPTS = Path(__file__).parent / "excerpts"


def split(name: str, doc_type: str = "TEST AGREEMENT"):
    raw = (EXCERPTS / name).read_text(encoding="utf-8")
    markdown = name.endswith(".md")
    text = clean_markdown(raw) if markdown else clean_text(raw)
    return split_document(text, doc_type=doc_type, markdown=markdown)


def headings(parts) -> list[str]:
    return [h for h, _ in parts]


def test_cuad_numbered_sections_with_inline_headings():
    title, preamble, parts, tail = split("cuad_numbered_2themart.txt")
    assert title == "CO-BRANDING AND ADVERTISING AGREEMENT"
    assert preamble.startswith("THIS CO-BRANDING AND ADVERTISING AGREEMENT")
    assert headings(parts) == [
        "Definitions", "Development and Implementation", "Promotion", "Payment", "Rights and Standards",
        "Disclaimer of Warranties", "Term and Termination", "Indemnity", "Limitation on Liability",
        "Confidential Information", "General Provisions",
    ]
    bodies = dict(parts)
    assert bodies["Definitions"].startswith('(a) "CONTENT" means')  # sub-clauses stay in the body
    # sub-numbering cleaned
    assert "\nREPORTING. Within two (2) weeks" in bodies["Payment"] and "5.2" not in bodies["Payment"]
    assert bodies["Indemnity"].startswith('Each party (the "Indemnifying Party")')  # heading cut off the same line
    assert tail.startswith("2THEMART.COM, INC.") and "EXHIBIT A" in tail  # signature block without IN WITNESS


def test_article_style_top_level_is_the_article():
    title, preamble, parts, tail = split("cuad_article_sandridge.txt")
    assert title == "OPERATIONS AND MAINTENANCE AGREEMENT"
    assert "RECITALS" in preamble and preamble.rstrip().endswith("hereby agree as follows:")
    assert headings(parts) == ["Definitions", "Engagement of Operator", "Term; Resignation or Removal of Operator",
                               "Duties as Operator", "Cost Reimbursement"]
    engagement = dict(parts)["Engagement of Operator"]
    assert engagement.startswith("Engagement.") and "\nOwner Cooperation." in engagement and "2.3" not in engagement
    assert tail.startswith("IN WITNESS WHEREOF")
    assert not any("IN WITNESS" in body for _, body in parts)


def test_flattened_document_yields_numbered_sections():
    title, preamble, parts, tail = split("cuad_flattened_kubient.txt")
    assert title == "MASTER SERVICES AGREEMENT"
    assert preamble.startswith("This Master Services Agreement")
    assert headings(parts)[:3] == ["Kubient Services", "Kubient License", "Kubient License Definitions"]
    assert '(b) "Auction Platform" means' in dict(parts)["Kubient License Definitions"]


def test_markdown_policy_uses_front_matter_free_title_and_second_level_headings():
    title, preamble, parts, tail = split("policy_basecamp_privacy.md", doc_type="POLICY")
    assert title == "PRIVACY POLICY"
    assert preamble.startswith("Last updated: April 20, 2023")
    assert "title:" not in preamble and "](#" not in preamble  # front matter and link targets gone
    assert headings(parts) == ["What we collect and why", "When we access or disclose your information",
                               "Your rights with respect to your information"]
    assert "Identity and access" in dict(parts)["What we collect and why"]  # ### becomes a plain line
    assert not any(line.startswith("#") for _, body in parts for line in body.split("\n"))
    assert tail == ""


def test_markdown_lettered_headings_lose_their_letters_and_tables_their_rules():
    title, preamble, parts, tail = split("policy_github_tos.md", doc_type="POLICY")
    assert title == "GITHUB TERMS OF SERVICE"
    assert "Definitions" in headings(parts) and "Account Terms" in headings(parts)
    assert "---" not in dict(parts)["Summary"]
    assert "Account Controls" in dict(parts)["Account Terms"]


def test_bonterms_bold_numbered_paragraphs_are_sections():
    title, preamble, parts, tail = split("bonterms_cloud_terms.md", doc_type="CLOUD TERMS")
    assert title == "BONTERMS CLOUD TERMS (VERSION 1.0)"
    assert headings(parts) == ["The Agreement", "Cloud Service", "Users", "Affiliates", "Data"]
    data = dict(parts)["Data"]
    assert data.startswith("Use of Customer Data.") and "**" not in data


def _nda_sections(markdown: str) -> list[tuple[str, str]]:
    return split_document(clean_markdown(markdown), doc_type="MUTUAL NDA", markdown=True)[2]


def test_a_bold_section_whose_bold_holds_its_first_sentence_is_its_own_section():
    # Bonterms Mutual NDA's "9. **Disclaimer. Confidential Information is provided ... faults.**" had joined section 8
    text = (
        "# Mutual NDA\n\n1. **Proprietary Rights**. Discloser retains all of its rights.\n\n"
        "2. **Disclaimer. Confidential Information is provided without warranties, \"AS IS\" and with all faults.**\n\n"
        "3. **General**. Waivers must be in writing.\n"
    )
    sections = _nda_sections(text)
    assert [h for h, _ in sections] == ["Proprietary Rights", "Disclaimer", "General"]
    assert sections[1][1] == 'Confidential Information is provided without warranties, "AS IS" and with all faults.'


def test_a_standard_forms_footer_is_no_text_of_its_last_section():
    text = (
        "# Mutual NDA (Version 1.0)\n\n1. **Disclaimer**. As is.\n\n2. **General**. Waivers must be in writing.\n"
        "\u201cNDA\u201d means this Mutual NDA (Version 1.0).\n\nMutual NDA (Version 1.0). <br />\n"
        "\u00a9 2021. Free to use under CC BY 4.0.<br />\nLearn more: Bonterms.<br />\n"
        "The publisher of this form does not provide legal advice.\n"
    )
    sections = _nda_sections(text)
    assert sections[-1][1].endswith("this Mutual NDA (Version 1.0).")  # a definition naming the form stays


def test_a_bullet_before_a_list_marker_goes_and_the_marker_stays():
    text = (
        "# Mutual NDA\n\n1. **Permitted Disclosures**.\n\n- (a) Representatives. Recipient may disclose.\n"
        "- (b) Required by Law. Recipient may disclose.\n\n2. **General**. Waivers must be in writing.\n\n"
        "- a bullet without a marker stays\n"
    )
    sections = _nda_sections(text)
    items = "(a) Representatives. Recipient may disclose.\n(b) Required by Law. Recipient may disclose."
    assert sections[0][1] == items
    assert sections[1][1].endswith("- a bullet without a marker stays")


def test_common_paper_title_case_heading_lines_are_sections():
    title, preamble, parts, tail = split("commonpaper_software_license.txt", doc_type="SOFTWARE LICENSE AGREEMENT")
    assert title == "SOFTWARE LICENSE AGREEMENT"
    assert headings(parts) == ["Software", "Restrictions & Obligations", "Payment & Taxes", "Term & Termination"]
    assert dict(parts)["Software"].startswith("License. During the Subscription Period")


@pytest.mark.parametrize("name", sorted(p.name for p in EXCERPTS.iterdir() if p.suffix in (".txt", ".md")))
def test_headings_are_short_printable_ascii_and_bodies_nonempty(name):
    title, _, parts, _ = split(name)
    assert title and title == title.upper() and len(title) <= 100
    for heading, body in parts:
        assert 0 < len(heading) <= MAX_HEADING_CHARS and re.fullmatch(r"[ -~]+", heading), heading
        assert heading == heading.strip() and not heading.endswith((".", ":"))
        assert body.strip(), heading


def test_fallback_title_is_the_doc_type_and_text_without_markers_is_all_preamble():
    title, preamble, parts, tail = split_document("The parties agree to cooperate.\n", doc_type="Supply Agreement")
    assert (title, preamble, parts, tail) == ("SUPPLY AGREEMENT", "The parties agree to cooperate.", [], "")


def test_headless_numbered_paragraphs_stay_as_text_of_the_previous_section_without_their_number():
    text = ("SERVICES AGREEMENT\n\n1. Services. Provider will provide the services.\n\n"
            "2. Provider will also provide reports.\n\n3. Fees. Customer will pay the fees.\n\n"
            "4. Term. One year.\n")
    _, _, parts, _ = split_document(text)
    assert headings(parts) == ["Services", "Fees", "Term"]
    assert "\n\nProvider will also provide reports." in dict(parts)["Services"] and "2." not in dict(parts)["Services"]


def test_a_column_of_bare_numbers_does_not_outrank_the_heading_lines():
    """A PDF extraction put a form's numbers apart from its headed sections ("2.\n3.\n4." between them): the
    headings are the sections, as they were when the column made a chain of numbers with nothing under them."""
    body = "Each participant will contribute to the capital of the venture in cash or in property of agreed value."
    text = ("JOINT VENTURE AGREEMENT\n\nFormation\n" + body + "\nA.\nB.\n1.\nPurpose\n" + body +
            "\nCapital Contributions\n" + body + "\n2.\n3.\n4.\nProfit and Loss\n" + body + "\n5.\n6.\n"
            "Dissolution\n" + body + "\n" + body + "\n")
    _, _, parts, _ = split_document(text)
    assert headings(parts) == ["Formation", "Purpose", "Capital Contributions", "Profit and Loss", "Dissolution"]


def test_a_heading_alone_on_its_line_in_sentence_case_heads_its_section():
    """An Australian distributor's "3. Distributor's undertakings" and "5. Prices and payment" stand alone on their
    lines in sentence case: each heads a section, where they had gone into "Appointment" (and the term clause of
    "11. Duration and termination" into the GST section before it)."""
    body = "The Distributor shall promote the Products in the Territory at its own cost and in good faith."
    text = ("DISTRIBUTORSHIP AGREEMENT\n\n1. Appointment\n\n" + body + "\n\n2. Distributor's undertakings\n\n"
            + body + "\n\n3. Prices and payment\n\n" + body + "\n\n4. Duration and termination\n\n" + body + "\n")
    _, _, parts, _ = split_document(text)
    assert headings(parts) == ["Appointment", "Distributor's undertakings", "Prices and payment",
                               "Duration and termination"]
    assert dict(parts)["Prices and payment"] == body


def test_section_with_empty_body_is_merged_into_the_next():
    text = ("LICENSE AGREEMENT\n\n1. Definitions.\n\n2. Grant. Licensor grants a license.\n\n"
            "3. Term. One year.\n\n4. Fees. None.\n")
    _, _, parts, _ = split_document(text)
    assert headings(parts) == ["Grant", "Term", "Fees"]
    assert dict(parts)["Grant"].startswith("Definitions")


@pytest.mark.parametrize("raw, expected", [
    ("LIMITATION OF LIABILITY", "Limitation of Liability"),
    ("  Term and Termination.  ", "Term and Termination"),
    ("**Confidentiality**:", "Confidentiality"),
    ("GRANT OF IP RIGHTS", "Grant of IP Rights"),
    ("License Grant10", "License Grant"),
    ("x" * 81, ""),
    ("1.2", ""),
])
def test_tidy_heading_table(raw, expected):
    assert tidy_heading(raw) == expected


def test_markdown_detection_needs_two_headings_or_front_matter():
    assert looks_markdown("# A\n\n## B\n")
    assert looks_markdown("---\ntitle: x\n---\ntext")
    assert not looks_markdown("TERMS\n\n# # #\n")


@pytest.mark.parametrize("name", sorted(p.name for p in EXCERPTS.iterdir() if p.suffix in (".txt", ".md")))
def test_no_body_line_opens_with_a_section_number(name):
    for heading, body in split(name)[2]:
        for line in body.split("\n"):
            assert not NUMBERED_LINE.match(line), (heading, line)
        assert "\n\n\n" not in body


STRIP = [
    # lines as they occur in train-split CUAD bodies (2TheMart co-branding, SandRidge O&M, AUL servicing)
    ("8.1 TERM. The term of this Agreement shall continue", "TERM. The term of this Agreement shall continue"),
    ("18.3.1 The term \"Fund\" includes a Fund's distributor", "The term \"Fund\" includes a Fund's distributor"),
    ("5.1. Use of Customer Data. Subject to this Agreement", "Use of Customer Data. Subject to this Agreement"),
    ("Intro.\n\n1.1.1\n\nNext paragraph.", "Intro.\n\nNext paragraph."),
    ("3. Fees. Customer will pay", "Fees. Customer will pay"),
    ("(a) \"CONTENT\" means all text", "(a) \"CONTENT\" means all text"),
    ("3M Company shall deliver", "3M Company shall deliver"),
    ("2025 budget approved", "2025 budget approved"),
    ("as set out in Section 3.1 of the Agreement", "as set out in Section 3.1 of the Agreement"),
    ("1.5 million units", "1.5 million units"),
]


@pytest.mark.parametrize("body, cleaned", STRIP)
def test_strip_numbering_drops_line_leading_section_numbers_only(body, cleaned):
    assert strip_numbering(body) == cleaned


def test_a_sentence_broken_by_a_page_break_is_one_paragraph_but_a_new_item_is_not():
    text = (
        "AGREEMENT\n\n1. Limitation of Liability\n\n"
        "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY DAMAGES, EVEN IF ANY OF THE LIMITED REMEDIES IN THIS "
        "AGREEMENT\n\n\n\nFAIL OF THEIR ESSENTIAL PURPOSE. NEITHER PARTY SHALL BE LIABLE FOR DELAY.\n\n"
        "2. Payment\n\nThe Buyer shall pay each invoice of the Supplier within thirty days after its receipt by "
        "the Buyer\n\n(a) by wire transfer.\n\n"
        "EXCEPT FOR LIABILITY ARISING UNDER THIS AGREEMENT OR THE ORDERS, AND EXCEPT FOR LIABILITY UNDER\n\n"
        "SECTION 8 OF THIS AGREEMENT, NO LIABILITY ARISES.\n\n"
        "The Buyer shall pay the Supplier all fees due under the Orders\n\nThe Supplier shall invoice monthly.\n"
    )
    _, _, parts, _ = split_document(text, doc_type="TEST AGREEMENT", markdown=False)
    bodies = dict(parts)
    liability = next(b for h, b in bodies.items() if "Liability" in h)
    assert "IN THIS AGREEMENT FAIL OF THEIR ESSENTIAL PURPOSE." in liability
    payment = next(b for h, b in bodies.items() if "Payment" in h)
    assert "by the Buyer\n\n(a) by wire transfer." in payment  # a list item stays its own paragraph
    assert "LIABILITY UNDER SECTION 8 OF THIS AGREEMENT, NO" in payment  # a reference inside a sentence
    assert "under the Orders\n\nThe Supplier" in payment  # a capital after a mixed-case line: a new paragraph


def test_split_numbered_keeps_the_numbers_the_source_wrote():
    from hybrid.data.sections import split_numbered

    text = (
        "1. Definitions. \"Products\" means the goods listed in the order form signed by both parties.\n\n"
        "2. Supply. The Supplier shall supply the Products to the Buyer on the terms of this Agreement.\n\n"
        "3. The Buyer may order more Products at any time by written notice to the Supplier at its address.\n\n"
        "5. Payment. The Buyer shall pay each invoice within thirty days after its receipt by the Buyer.\n\n"
        "6. Notices. Notices under this Agreement are given in writing to the addresses set out above.\n"
    )
    _, _, parts, _ = split_numbered(text, doc_type="SUPPLY AGREEMENT", markdown=False)
    assert [(h, w) for h, _, w in parts] == [
        ("Definitions", ("1",)), ("Supply", ("2", "3")), ("Payment", ("5",)), ("Notices", ("6",))
    ]
    _, _, plain, _ = split_document(text, doc_type="SUPPLY AGREEMENT", markdown=False)
    assert [(h, b) for h, b, _ in parts] == plain
    _, _, md, _ = split_numbered("# Policy\n\n## Scope\n\nThis applies to all.\n\n## Use\n\nUse it well.\n")
    assert [w for _, _, w in md] == [(), ()]



def test_a_mixed_case_title_is_not_looked_for_after_body_text():
    """The Common Paper partnership agreement, its cover page dropped, opens with its sections: "Trademark License",
    a heading after two sections of body text, had been taken for the title and the sections before it for the
    preamble (the library lacked Cooperation, Payment & Taxes and Trademark License)."""
    import json

    from hybrid.data.corpus import build_document

    from conftest import CORPUS as root

    entry = next(e for e in map(json.loads, (root / "manifest.jsonl").read_text().splitlines())
                 if e["path"].endswith("common-paper-partnership-agreement.txt"))
    doc = build_document(entry, (root / entry["path"]).read_text(encoding="utf-8"))
    assert doc.title == "PARTNERSHIP AGREEMENT" and "Obligations." not in doc.preamble
    assert [s.heading for s in doc.sections][:4] == ["Cooperation", "Payment & Taxes", "Trademark License", "Privacy"]
