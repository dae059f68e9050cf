"""The draft-level consistency pass (hybrid.draft.consistency): whole sentences within a budget, no doubled
words, cross-references true of the draft, a Definitions section that defines only what the draft
uses and does not define elsewhere. Sentences come from the baseline drafts' failures and from the
train split (bonterms mutual NDA, CUAD)."""

import math
import subprocess
import sys

import pytest

from hybrid.draft.consistency import (
    consistency_pass,
    cut_to_sentence,
    dangling_references,
    definition_entries,
    doubled_words,
    ends_mid_sentence,
    find_references,
    fix_references,
    inline_definitions,
    prune_definitions,
    reading_checks,
    remove_doubled_words,
    sentence_boundaries,
)
from hybrid.precedents.definitions import entries

# ---------------------------------------------------------------------------------------------
# Sentences

BOUNDARIES = [
    # (text, the sentences it is cut into at its boundaries)
    (
        "Acme Robotics, Inc. and Borealis Analytics LLC agree. Each Party shall comply.",
        ["Acme Robotics, Inc. and Borealis Analytics LLC agree.", " Each Party shall comply."],
    ),
    (
        "Keystone Polymers Corp. shall supply the Products. The Buyer shall pay.",
        ["Keystone Polymers Corp. shall supply the Products.", " The Buyer shall pay."],
    ),
    ("Beta Co. Ltd. shall deliver. Then it ends.", ["Beta Co. Ltd. shall deliver.", " Then it ends."]),
    (
        "as defined in Section 2.1 of this Agreement. The Parties agree.",
        ["as defined in Section 2.1 of this Agreement.", " The Parties agree."],
    ),
    (
        "The laws of the U.S. apply to L.L.C. members. Each member signs.",
        ["The laws of the U.S. apply to L.L.C. members.", " Each member signs."],
    ),
    ("materials, e.g. designs, i.e. drawings. Next one.", ["materials, e.g. designs, i.e. drawings.", " Next one."]),
    ("designs, plans, etc. and other materials. Next.", ["designs, plans, etc. and other materials.", " Next."]),
    (
        "designs, plans, etc. The Recipient shall return them.",
        ["designs, plans, etc.", " The Recipient shall return them."],
    ),
    (
        "Mr. Smith and Dr. Jones vs. Acme sign No. 5 under Sec. 4 and Art. 2. Done.",
        ["Mr. Smith and Dr. Jones vs. Acme sign No. 5 under Sec. 4 and Art. 2.", " Done."],
    ),
    ("John A. Smith signs. Done.", ["John A. Smith signs.", " Done."]),
    ("1. Definitions\n2. Term. The term is two years.", ["1. Definitions\n2. Term.", " The term is two years."]),
    (
        "(a) the Supplier shall deliver;\n(b) the Buyer shall pay.",
        ["(a) the Supplier shall deliver;", "\n(b) the Buyer shall pay."],
    ),
    (
        "Confidential Information is provided without warranties, \u201cAS IS\u201d and with all faults.\u201d Then.",
        [
            "Confidential Information is provided without warranties, \u201cAS IS\u201d and with all faults.\u201d",
            " Then.",
        ],
    ),
    ("Notices:\nAll notices shall be in writing.", ["Notices:", "\nAll notices shall be in writing."]),
    ("Is that clear? Yes! Good.", ["Is that clear?", " Yes!", " Good."]),
    ("A fee of $1.5 million is due. Paid.", ["A fee of $1.5 million is due.", " Paid."]),
    (
        "except pursuant to Section 5. The Recipient will comply.",
        ["except pursuant to Section 5.", " The Recipient will comply."],
    ),
    (
        'the Supplier\'s facility (the "Facility"). It ships.',
        ['the Supplier\'s facility (the "Facility").', " It ships."],
    ),
    (
        "as set forth in Exhibit A. The Buyer pays.",
        ["as set forth in Exhibit A. The Buyer pays."],
    ),  # an initial: conservative
    ("trade names and trademarks; (iv)", []),
]


@pytest.mark.parametrize("text,sentences", BOUNDARIES)
def test_sentence_boundaries_skip_abbreviations_initials_numbers_and_list_markers(text, sentences):
    ends = sentence_boundaries(text)
    assert [text[a:b] for a, b in zip([0] + ends, ends)] == sentences


NDA_GOVERNING_LAW = (
    "This Agreement is governed by and construed in accordance with the laws of the State of Delaware. "
    "The parties will adjudicate any such action in the Courts and each party consents to the exclusive "
    "jurisdiction and venue of the Courts for these purposes. This Agreement is no and either party may "
    "seek equitable relief or enforcement of such judgment in"
)


def _chars(n):
    return lambda s: len(s) <= n


@pytest.mark.parametrize(
    "text,fits,expected",
    [
        # the exact failure: a clause cut at its token budget mid-sentence ends at its last whole sentence
        (
            NDA_GOVERNING_LAW,
            _chars(len(NDA_GOVERNING_LAW) - 1),
            NDA_GOVERNING_LAW[: NDA_GOVERNING_LAW.index("purposes.") + 9],
        ),
        (
            NDA_GOVERNING_LAW,
            _chars(120),
            "This Agreement is governed by and construed in accordance with the laws of the State of Delaware.",
        ),
        (NDA_GOVERNING_LAW, _chars(10_000), NDA_GOVERNING_LAW),  # fits whole: unchanged, mid-sentence or not
        (NDA_GOVERNING_LAW, _chars(40), None),  # no sentence fits
        (
            "Acme Robotics, Inc. and Borealis Analytics LLC shall meet. More text.",
            _chars(40),
            None,
        ),  # not cut at "Inc."
        (
            "Each Party shall comply. The Supplier shall deliver the Products on time.",
            lambda s: len(s.split()) <= 6,
            "Each Party shall comply.",
        ),
        (
            "(a) the Supplier shall deliver;\n(b) the Buyer shall pay the price within thirty days.",
            _chars(50),
            "(a) the Supplier shall deliver;",
        ),  # a paragraph's end is a boundary
    ],
)
def test_cut_to_sentence_keeps_the_longest_whole_sentence_prefix_that_fits(text, fits, expected):
    assert cut_to_sentence(text, fits) == expected


@pytest.mark.parametrize("n_sentences", [1, 2, 7, 200, 1000])
def test_cut_to_sentence_asks_fits_a_logarithmic_number_of_times(n_sentences):
    text = " ".join(f"Sentence number {i} ends here." for i in range(n_sentences)) + " And a cut"
    calls = []

    def fits(s):
        calls.append(len(s))
        return len(s) <= len(text) // 2

    out = cut_to_sentence(text, fits)
    assert len(calls) <= 2 + math.ceil(math.log2(n_sentences + 1))
    assert out is None or (out.endswith("ends here.") and len(out) <= len(text) // 2)
    if n_sentences >= 2:  # the longest: one more sentence would not fit
        nxt = text.find(".", len(out) + 1) + 1
        assert len(text[:nxt]) > len(text) // 2


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Either party may seek equitable relief or enforcement of such judgment in", True),  # the exact failure
        ("trade names and trademarks; (iv)", True),
        ('for the purpose of evaluating a potential joint development (the "Purpose")', True),
        ("Each Party shall comply with all applicable laws and", True),
        (
            "... or their nature are beyond termination or expiration of this Agreement will survive such termination or expiration.",
            False,
        ),
        (
            "Confidential Information is provided without warranties, \u201cAS IS\u201d and with all faults.\u201d",
            False,
        ),
        ('Confidential Information is provided without warranties, "AS IS" and with all faults.)', False),
        ("**Disclaimer. Confidential Information is provided without warranties.**", False),
        ('NEITHER ACME, NOR ITS OFFICERS (ACME AND SUCH OTHER PERSONS, THE "ACME, INC.', True),  # open bracket
        ("The fee (as set out in the order) is due. (b) Each party shall pay its own costs (taxes aside).", False),
        ("Notices:", False),
        ("(a) the Supplier shall deliver;", False),
        ("Is that clear?", False),
        ("all rights.\n\n3) Subject to termination has to be in effect.", False),
        ("", False),
        ("  \n ", False),
        ("Survival", False),  # heading only
        ("Representations and Warranties", False),
        ("## 5. Survival", False),
    ],
)
def test_ends_mid_sentence_is_true_only_for_a_body_cut_inside_a_sentence(text, expected):
    assert ends_mid_sentence(text) is expected


# ---------------------------------------------------------------------------------------------
# Doubled words

DOUBLED = [
    # (text, after removal) — the baseline drafts' repeats first
    (
        'Confidential Information is provided without warranties, "AS IS" with with all faults.',
        'Confidential Information is provided without warranties, "AS IS" with all faults.',
    ),
    ("as identified in the applicable Business Business.", "as identified in the applicable Business."),
    ("the Service Service Levels apply", "the Service Levels apply"),
    (
        "authorized representatives. Any any provision of this Agreement",
        "authorized representatives. Any provision of this Agreement",
    ),
    ("The other Party Party will promptly notify", "The other Party will promptly notify"),
    ("the other Party Party's obligations", "the other Party's obligations"),
    ("(as defined in this Section Section); (b)", "(as defined in this Section); (b)"),
    (
        "shall commence the THE Effective Date",
        "shall commence the Effective Date",
    ),  # case-insensitive, first casing kept
    ("with with with all faults", "with all faults"),
    ("the Buyer shall\nshall pay", "the Buyer shall pay"),  # a line break inside a paragraph
    ("he had had notice", "he had notice"),  # nothing is exempt
    ("provided that, that notice", "provided that, that notice"),  # punctuation between: no repeat
    ("the end of the paragraph\n\nthe next paragraph", "the end of the paragraph\n\nthe next paragraph"),
    ("within 12 12 months", "within 12 12 months"),  # numbers
    ("[PARTY] [PARTY] shall", "[PARTY] [PARTY] shall"),  # role markers
    ("a non-disclosure disclosure", "a non-disclosure disclosure"),
    ("in the theory of the case", "in the theory of the case"),
]


@pytest.mark.parametrize("text,expected", DOUBLED)
def test_remove_doubled_words_deletes_each_immediate_repeat(text, expected):
    out, removed = remove_doubled_words(text)
    assert out == expected
    assert len(removed) == (text != expected)


def test_doubled_words_reports_the_repeat_with_its_space():
    text = '"AS IS" with with all faults and Service service levels.'
    assert doubled_words(text) == [(12, 17, "with"), (40, 48, "Service")]
    assert text[12:17] == " with" and text[40:48] == " service"
    out, removed = remove_doubled_words("nothing doubled here")
    assert out == "nothing doubled here" and removed == []


# ---------------------------------------------------------------------------------------------
# Cross-references

FIND = [
    # (text, [(reference text, top-level numbers, role)])
    ("in accordance with Section 8.", [("Section 8", ("8",), "reference")]),
    ("pursuant to Section 8.2(a), the", [("Section 8.2(a)", ("8",), "reference")]),
    ("Sections 4 through 6 shall survive", [("Sections 4 through 6", ("4", "5", "6"), "reference")]),
    ("Sections 4 and 5", [("Sections 4 and 5", ("4", "5"), "reference")]),
    ("under Section 4.1 or 4.2", [("Section 4.1 or 4.2", ("4",), "reference")]),
    ("set forth in Article IV", [("Article IV", ("4",), "reference")]),
    ("EXCEPT AS SET FORTH IN ARTICLE XII, THE", [("ARTICLE XII", ("12",), "reference")]),
    ("Paragraph 3 applies", [("Paragraph 3", ("3",), "reference")]),
    ("as defined in clause 12.1.", [("clause 12.1", ("12",), "reference")]),
    ("UNDER SECTION 8 OR", [("SECTION 8", ("8",), "reference")]),
    (
        "The provisions of Sections 1, 2.5-2.7, 8.4-8.6, and the terms",
        [("Sections 1, 2.5-2.7, 8.4-8.6", ("1", "2", "8"), "reference")],
    ),
    (
        "Section 10.4 (Surviving Provisions); and Section 11",
        [("Section 10.4 (Surviving Provisions); and Section 11", ("10", "11"), "reference")],
    ),
    (
        "except pursuant to Section 5 (Permitted Disclosures), (c)",
        [("Section 5 (Permitted Disclosures)", ("5",), "reference")],
    ),
    ("Section 5.2 and Section 5.4 hereof", [("Section 5.2 and Section 5.4", ("5",), "reference")]),
    ("as provided in Section 5 of this Agreement", [("Section 5", ("5",), "reference")]),
    ("to any provided in this Section 17, shall be addressed", [("Section 17", ("17",), "self")]),
    ("Section 1.1 Definitions. As used in this Agreement", [("Section 1.1 Definitions. ", ("1",), "label")]),
    # not references to the draft's sections
    ("comply with Section 22(c) of the Investment Company Act of 1940", []),
    ("within the meaning of 12 U.S.C. Section 1467a(m).", []),
    ("no reportable event under Section 4043(c) of ERISA has occurred", []),
    ("assurances as provided by Section 2-609 of the [___] Uniform Commercial Code", []),  # its state a blank
    ("as provided by Section 4 of the [___] and Section 5", [("Section 4", ("4",), "reference"),
                                                         ("Section 5", ("5",), "reference")]),
    ("entered into pursuant to Section 3.2 of the Strategic Alliance Agreement", []),
    ("as set forth in Section 3 of Exhibit A", []),
    ("Supplier may terminate upon Section 6 (six) months prior notice", []),
    ("under Section 409A of the Code", []),
    ("the terms of this Section apply", []),
    ("a 10.3.2b reference to Section 10.3.2b", []),
]


@pytest.mark.parametrize("text,expected", FIND)
def test_find_references_names_the_draft_sections_a_text_points_to(text, expected):
    refs = find_references(text)
    assert [(r.text, r.tops, r.role) for r in refs] == expected
    assert all(text[r.start : r.end] == r.text for r in refs)


FIX = [
    # (text, {source section: draft section}, own number, fixed text)
    # unresolved: the sentence still reads
    (
        "except as provided in Section 8, the Supplier shall",
        {},
        None,
        "except as provided in this Agreement, the Supplier shall",
    ),
    ("as set forth in Section 8.", {}, None, "as set forth in this Agreement."),
    ("as described in Section 8.", {}, None, "as described in this Agreement."),
    ("Buyer has been subject to Section 3.2(c), and", {}, None, "Buyer has been subject to this Agreement, and"),
    (
        "may be adjusted as set forth in Section 3.2; provided that",
        {},
        None,
        "may be adjusted as set forth in this Agreement; provided that",
    ),
    (
        "terminated in accordance with the provisions of Section 10.",
        {},
        None,
        "terminated in accordance with the provisions of this Agreement.",
    ),
    ("the fees are payable under Section 8 hereof.", {}, None, "the fees are payable under this Agreement."),
    (
        "as provided in Subsection 11(d) of this Agreement. All rights.",
        {},
        None,
        "as provided in this Agreement. All rights.",
    ),
    ("as provided in Section 7 hereof, and", {}, None, "as provided in this Agreement, and"),
    (
        "the terms set forth in Section 5.2 and Section 5.4 hereof, Supplier",
        {},
        None,
        "the terms set forth in this Agreement, Supplier",
    ),
    ("except pursuant to Section 5 (Permitted Disclosures), (c)", {}, None, "except pursuant to this Agreement, (c)"),
    ("the meaning described in the Section 6 and", {}, None, "the meaning described in this Agreement and"),
    ('"Change Order" (as defined in Section 4.2(b)) means', {}, None, '"Change Order" means'),
    ("the fees (see Section 8) are due", {}, None, "the fees are due"),
    # an exception of a section the draft lacks excepts nothing: "Except for claims arising under this Agreement, in
    # no event will either party be liable" had undone a sponsorship's consequential damages waiver
    ("Except for claims arising under Section 19, in no event will either party be liable.", {}, None,
     "In no event will either party be liable."),
    ("No party is liable for lost profits, other than under Section 19.", {}, None,
     "No party is liable for lost profits."),
    ("Except for claims arising under Section 19, in no event", {"19": "7"}, None,
     "Except for claims arising under Section 7, in no event"),
    # a part of its own section by the part's heading where the section is made of headed parts ("this Section" had
    # widened "The liability cap in Section 7.1(a)" to every cap, seed 263), else "this Section"
    ("Liability Caps.\nEach party's liability is capped.\nIncreased Claims are capped higher.\nExceptions. The liability "
     "cap in Section 7.1(a) does not apply to Increased Claims. Section 7.1 applies to all claims.", {"7": "8"}, "8",
     "Liability Caps.\nEach party's liability is capped.\nIncreased Claims are capped higher.\nExceptions. The liability "
     "cap in the first paragraph under \"Liability Caps\" in Section 8 does not apply to Increased Claims. Section 8 (Liability "
     "Caps) applies to all claims."),
    ("Mutual. Each party warrants its authority.\nLicensor Warranty. The Software conforms.\nExclusions. The "
     "warranty in Section 5.2 does not apply to misuse. This Section 5 applies.", {}, "6",
     "Mutual. Each party warrants its authority.\nLicensor Warranty. The Software conforms.\nExclusions. The "
     "warranty in Section 6 (Licensor Warranty) does not apply to misuse. This Section applies."),
    # a lettered item written in one paragraph is its clause ("the warranty in this Section" had widened the form's
    # 6.3(c), seed 263 and 281); an item after a lead-in ending in a colon is counted from the lead-in's first item
    ("Mutual. Each party warrants its authority.\nFrom Consultant. Consultant "
     "warrants that: (a) it is competent; (b) it owns the Deliverables; and (c) the Deliverables conform.\nRemedy. If "
     "Consultant breaches the warranty in Section 6.2(c), Client may terminate.", {"6": "7"}, "7",
     "Mutual. Each party warrants its authority.\nFrom Consultant. Consultant "
     "warrants that: (a) it is competent; (b) it owns the Deliverables; and (c) the Deliverables conform.\nRemedy. If "
     "Consultant breaches the warranty in clause (c) under \"From Consultant\" in Section 7, Client may terminate."),
    ("Term. This Agreement lasts 6 months.\nTermination.\nEither party may terminate for breach.\nEither party may "
     "terminate for force majeure.\nEffect of Termination. Upon termination:\nAll SOWs end.\nExcept where Client "
     "terminates pursuant to Section 5.2(a), Provider will refund fees, as Section 5.3(a) says.", {"5": "6"}, "6",
     "Term. This Agreement lasts 6 months.\nTermination.\nEither party may terminate for breach.\nEither party may "
     "terminate for force majeure.\nEffect of Termination. Upon termination:\nAll SOWs end.\nExcept where Client "
     "terminates pursuant to the first paragraph under \"Termination\" in Section 6, Provider will refund fees, as "
     "the first item under \"Effect of Termination\" in Section 6 says."),
    # a section opening with a line of its own (a frame, which may stand for the first part): not counted
    ("This Agreement lasts 6 months.\nTermination.\nEither party may terminate for breach.\nEither party may "
     "terminate for force majeure.\nEffect of Termination. Upon termination:\nAll SOWs end unless terminated under "
     "Section 5.2(a).", {"5": "6"}, "6",
     "This Agreement lasts 6 months.\nTermination.\nEither party may terminate for breach.\nEither party may "
     "terminate for force majeure.\nEffect of Termination. Upon termination:\nAll SOWs end unless terminated under "
     "this Section."),
    ("Each party's liability is capped. The liability cap in Section 7.1(a) does not apply to Increased Claims.",
     {"7": "8"}, "8", "Each party's liability is capped. The liability cap in this Section does not apply to Increased "
     "Claims."),
    ("the fees (Section 8) are due", {}, None, "the fees are due"),
    (
        "(which notice, notwithstanding Section 17, will be addressed to",
        {},
        None,
        "(which notice, notwithstanding any other provision of this Agreement, will be addressed to",
    ),
    (
        "Notwithstanding Section 9(b), NAI will not be liable",
        {},
        None,
        "Notwithstanding any other provision of this Agreement, NAI will not be liable",
    ),
    (
        "Section 1.1 Definitions. As used in this Agreement, capitalized terms",
        {},
        None,
        "As used in this Agreement, capitalized terms",
    ),
    # the clause itself
    ("to any provided in this Section 17, shall be", {}, None, "to any provided in this Section, shall be"),
    (
        "Without limitation of those contained in this clause 2.2, any",
        {},
        None,
        "Without limitation of those contained in this clause, any",
    ),
    ("This Section 8 applies.", {}, None, "This Section applies."),
    # a coordinated subject keeps its other part
    (
        "Paragraphs 1, 2, 3, 13 through 23 and all accrued obligations to pay will survive the Term.",
        {},
        None,
        "All accrued obligations to pay will survive the Term.",
    ),
    # the draft's own number, with a part the draft does not number ("this Section 2.1(d)" in its section 2)
    ("as permitted pursuant to this Section 2.1(d) must", {}, "2", "as permitted pursuant to this Section must"),
    ("as permitted pursuant to this Section 2 must", {}, "2", "as permitted pursuant to this Section 2 must"),
    (
        "as determined in accordance with the terms of this Section 3.",
        {},
        "3",
        "as determined in accordance with the terms of this Section 3.",
    ),
    # a sentence's subject: no rewrite keeps its meaning, so it is left (and reported)
    (
        "The last sentence of Section 14 and Sections 4 through 20 shall survive.",
        {},
        None,
        "The last sentence of Section 14 and Sections 4 through 20 shall survive.",
    ),
    ("Section 9(b) shall not apply.", {}, None, "Section 9(b) shall not apply."),
    (
        "This Agreement are. The provisions of Sections 1, 2.5-2.7, 8.4-8.6, and the terms",
        {},
        None,
        "This Agreement are. The provisions of Sections 1, 2.5-2.7, 8.4-8.6, and the terms",
    ),
    # resolved: the draft's bare top-level section
    ("pursuant to Section 8.2(a), the", {"8": "5"}, None, "pursuant to Section 5, the"),
    (
        "except pursuant to Section 5 (Permitted Disclosures), (c)",
        {"5": "4"},
        None,
        "except pursuant to Section 4, (c)",
    ),
    ("under Sections 4 and 5", {"4": "3", "5": "6"}, None, "under Sections 3 and 6"),
    ("under Sections 4 and 5", {"4": "3"}, None, "under Section 3"),
    (
        "Sections 4 through 20 shall survive",
        {"4": "2", "7": "3", "9": "4", "12": "6"},
        None,
        "Sections 2 through 4 and 6 shall survive",
    ),
    ("as set forth in Article IV,", {"4": "2"}, None, "as set forth in Section 2,"),
    ("UNDER SECTION 8 OR", {"8": "5"}, None, "UNDER SECTION 5 OR"),
    (
        "subject to Section 3.2(c) above, the",
        {"3": "4"},
        None,
        "subject to Section 4, the",
    ),  # the draft's order is not the source's
    (
        "the terms set forth in Section 5.2 and Section 5.4 hereof",
        {"5": "4"},
        None,
        "the terms set forth in Section 4 hereof",
    ),
    (
        "Section 10.4 (Surviving Provisions); and Section 11 survive",
        {"10": "7", "11": "8"},
        None,
        "Sections 7 and 8 survive",
    ),
    # a part of the clause itself, which names its own source number ("this Clause 10") that ingestion numbered 9
    (
        "The licence granted in Clause 10.2 above will expire. Any breach of this Clause 10 is material.",
        {"9": "5"},
        "5",
        "The licence granted in this Clause will expire. Any breach of this Clause is material.",
    ),
    (
        "THE CAP IN SECTION 8.1 APPLIES. THIS SECTION 8 SURVIVES.",
        {"8": "2"},
        "4",
        "THE CAP IN THIS SECTION APPLIES. THIS SECTION SURVIVES.",
    ),
    (  # "subparagraphs", a number written "2.(a)(1)", and a list going on in its parts
        "shall be exclusive as to the products described in subparagraphs 2.(a)(1) and (2) of this Agreement, but",
        {},
        None,
        "shall be exclusive as to the products described in this Agreement, but",
    ),
    # a reference into the section it stands in (a precedent joined from its source's next sections)
    (
        "except pursuant to Section 5 (Permitted Disclosures), (c)",
        {"5": "1"},
        "1",
        "except pursuant to this Section, (c)",
    ),
    ("UNDER SECTION 8 OR", {"8": "5"}, "5", "UNDER THIS SECTION OR"),
    # a number with a letter (the sponsorship draft at fcdc3f3: "In addition to paragraph 17A above, ...")
    ("B. In addition to paragraph 17A above, Sponsor shall", {}, None, "B. In addition to this Agreement, Sponsor shall"),
    ("under Sections 4 and 5", {"4": "1", "5": "6"}, "1", "under Sections 1 and 6"),  # not the section alone
    # a roman article's lettered part, as a restaurant franchisor's agreement numbers (session 38)
    ("pursuant to Paragraph XVII.I. of this Agreement, all signs", {"17": "18"}, None,
     "pursuant to Section 18 of this Agreement, all signs"),
    ("described in Section IV(A) by the terms of Paragraph XIX.A.1., at", {"4": "5", "19": "20"}, None,
     "described in Section 5 by the terms of Section 20, at"),
    # nothing to change
    ("as provided in Section 5.", {"5": "5"}, None, "as provided in Section 5."),
    (
        "comply with Section 22(c) of the Investment Company Act of 1940",
        {},
        None,
        "comply with Section 22(c) of the Investment Company Act of 1940",
    ),
    ("as set forth in Section 3 of Exhibit A", {}, None, "as set forth in Section 3 of Exhibit A"),
]


@pytest.mark.parametrize("text,mapping,own,expected", FIX)
def test_fix_references_renumbers_what_resolves_and_rewrites_what_does_not(text, mapping, own, expected):
    out, changes = fix_references(text, mapping.get, own=own)
    assert out == expected
    if out == text:
        assert all(c["action"] == "left" for c in changes)


def test_fix_references_reports_every_change():
    text = "as provided in Section 8, and pursuant to Section 3.2(c). Section 9 shall survive."
    out, changes = fix_references(text, {"3": "2"}.get)
    assert out == "as provided in this Agreement, and pursuant to Section 2. Section 9 shall survive."
    assert changes == [
        {"old": "Section 8", "new": "this Agreement", "action": "removed", "rule": "phrase", "numbers": ["8"]},
        {
            "old": "Section 3.2(c)",
            "new": "Section 2",
            "action": "renumbered",
            "rule": "resolved",
            "numbers": ["3.2(c)"],
        },
        {"old": "Section 9", "new": "Section 9", "action": "left", "rule": "subject", "numbers": ["9"]},
    ]
    assert (
        fix_references(text, None)[0]
        == "as provided in this Agreement, and pursuant to this Agreement. Section 9 shall survive."
    )


def test_dangling_references_are_those_the_final_draft_cannot_follow():
    bodies = [
        "as set forth in Section 2.",
        "as provided in this Section 2, and in this Section.",
        "under Section 9 and this Section 1.",
    ]
    assert dangling_references(bodies, 3) == [
        {"section": 3, "text": "Section 9", "tops": ["9"]},
        {"section": 3, "text": "Section 1", "tops": ["1"]},
    ]
    assert dangling_references(["as provided in Section 0 and Section 1."], 1) == [
        {"section": 1, "text": "Section 0 and Section 1", "tops": ["0", "1"]}
    ]
    assert dangling_references(["Section 1.1 Definitions. As used herein:"], 1) == []
    assert dangling_references(["comply with Section 22(c) of the Investment Company Act"], 1) == []


# ---------------------------------------------------------------------------------------------
# Defined terms

PREAMBLE = (
    'This Mutual Non-Disclosure Agreement (the "Agreement") is entered into as of 2025-03-01 (the "Effective Date") '
    'by and between Acme Robotics, Inc. and Borealis Analytics LLC (each a "Party"), who wish to exchange Confidential '
    'Information for the purpose of evaluating a potential joint development (the "Purpose").'
)


@pytest.mark.parametrize(
    "text,expected",
    [
        (PREAMBLE, {"Agreement", "Effective Date", "Party", "Purpose"}),
        ('"Confidential Information" means information disclosed by a Party.', {"Confidential Information"}),
        ("\u201cConfidential Information\u201d means information.", {"Confidential Information"}),
        ('Keystone Polymers Corp. (the "Supplier") and Aurora Home Goods, Inc. (the "Buyer")', {"Supplier", "Buyer"}),
        ('containers (collectively, the "Products")', {"Products"}),
        ('Acme and Beta (each a "Party" and together the "Parties")', {"Party", "Parties"}),
        ('that the Discloser identifies as "confidential" or "proprietary"', set()),
        ('(including "AS IS" disclaimers)', set()),
        ('"Affiliate" has the meaning set forth in Section 7.', set()),
        # the mutual NDA's preamble: a draft's Definitions defined both again ("defined twice" for a reader)
        ('A Party disclosing it is the "Disclosing Party" and a Party receiving it is the "Receiving Party".',
         {"Disclosing Party", "Receiving Party"}),
        ('the company (hereinafter "Licensee") and the other (hereinafter referred to as "Licensor")',
         {"Licensee", "Licensor"}),
        ('information marked as "Confidential" is', set()),  # a marking, no term: marked is no defining verb
    ],
)
def test_inline_definitions_are_the_terms_a_text_defines(text, expected):
    assert inline_definitions(text) == expected


DEFS = (
    "Section 1.1 Definitions. As used in this Agreement, capitalized terms shall have the meanings set forth below:\n\n"
    '"Affiliate" of any Person means a Person that controls, or is controlled by, such Person.\n\n'
    '"Business Day" means a day other than a Saturday, Sunday or bank holiday in the State of Delaware.\n\n'
    '"Person" means any individual, partnership, corporation, trust or governmental entity.'
)


def test_definition_entries_are_hybrid_definitions_entries():
    assert definition_entries(DEFS) == entries(DEFS)[1]
    assert [t for t, _ in definition_entries(DEFS)] == ["Affiliate", "Business Day", "Person"]


PRUNE = [
    # (body, other text, keep, body after, [(dropped term, reason)])
    (
        DEFS,
        "Either Party may disclose to its Affiliates.",
        (),  # Person: used only by the Affiliate entry, which stays
        DEFS.replace(
            '"Business Day" means a day other than a Saturday, Sunday or bank holiday in the State of Delaware.\n\n', ""
        ),
        [("Business Day", "unused")],
    ),
    (
        DEFS,
        "notice on any Business Day to any Person",
        (),
        DEFS.replace(
            '"Affiliate" of any Person means a Person that controls, or is controlled by, such Person.\n\n', ""
        ),
        [("Affiliate", "unused")],
    ),
    (DEFS, "Either Party may disclose to its Affiliates.", ("Business Day",), DEFS, []),
    (
        DEFS,
        "a person or personnel, and an affiliate",
        (),
        "",
        [("Affiliate", "unused"), ("Business Day", "unused"), ("Person", "unused")],
    ),
    ('"Affiliate" means an Affiliate of a Party.', "", (), "", [("Affiliate", "unused")]),  # its own text is no use
    (
        '"Control" means control of an Affiliate.\n"Affiliate" means an entity under common Control.',
        "nothing",
        (),
        "",
        [("Control", "unused"), ("Affiliate", "unused")],
    ),  # junk that only uses itself goes
    (
        '"Party" means a signatory.\n\n"Law" means any statute.',
        "the Parties agree to comply with Law",
        (),
        '"Party" means a signatory.\n\n"Law" means any statute.',
        [],
    ),  # "Parties" uses "Party"
    (
        '"Confidential Information" means all non-public information.\n\n"Person" means any individual.',
        '"Confidential Information" means information disclosed by any Person.',
        ("Confidential Information",),
        '"Person" means any individual.',
        [("Confidential Information", "defined elsewhere")],
    ),
    (
        '"Effective Date" means the date of the last signature.\n\n"Person" means any individual.',
        PREAMBLE + " any Person",
        (),
        '"Person" means any individual.',
        [("Effective Date", "defined elsewhere")],
    ),
    (
        '"Person" means any individual.\n\n"Law" means any statute.\n\n"Person" means an entity.',
        "any Person under Law",
        (),
        '"Person" means any individual.\n\n"Law" means any statute.',
        [("Person", "defined twice")],
    ),
    # several entries in one paragraph
    (
        '(a) "Affiliate" means X; (b) "Person" means Y; (c) "Law" means Z.',
        "Affiliates under Law",
        (),
        '(a) "Affiliate" means X; (c) "Law" means Z.',
        [("Person", "unused")],
    ),
    (
        '(a) "Affiliate" means X; (b) "Person" means Y; (c) "Law" means Z.',
        "any Person under Law",
        (),
        '(a) "Person" means Y; (c) "Law" means Z.',
        [("Affiliate", "unused")],
    ),
    (
        '(a) "Affiliate" means X; (b) "Person" means Y; (c) "Law" means Z.',
        "any Affiliate or Person",
        (),
        '(a) "Affiliate" means X; (b) "Person" means Y.',
        [("Law", "unused")],
    ),
    (
        'Definitions. "Affiliate" means X. "Person" means Y. "Law" means Z.',
        "any Affiliate or Person",
        (),
        'Definitions. "Affiliate" means X. "Person" means Y.',
        [("Law", "unused")],
    ),
    # a head in capitals is used in title case: the seed-347 joint venture's "PARENT" went as unused beside
    # "Parent hereby guarantees", and "Parent" read as undefined; a capitals head is no use of a lower-case word
    (
        "\"PARENT\" means the first Party's parent.\n\n\"LEASE\" means the site lease.",
        "Parent hereby guarantees the lease.",
        (),
        "\"PARENT\" means the first Party's parent.",
        [("LEASE", "unused")],
    ),
    # nothing to read as entries, or nothing to drop: unchanged
    (
        "The terms used herein have their ordinary meanings.",
        "",
        (),
        "The terms used herein have their ordinary meanings.",
        [],
    ),
]


@pytest.mark.parametrize("body,other,keep,expected,dropped", PRUNE)
def test_prune_definitions_keeps_what_the_draft_uses_and_defines_nowhere_else(body, other, keep, expected, dropped):
    out, gone = prune_definitions(body, other, keep=keep)
    assert out == expected
    assert [(d["term"], d["reason"]) for d in gone] == dropped


# ---------------------------------------------------------------------------------------------
# The pass

# clean standard-form clauses (train split: bonterms mutual NDA), as a draft holds them
CLEAN = [
    {
        "heading": "Confidential Information",
        "clause": "confidential_information",
        "body": "\u201cConfidential Information\u201d means information (including technical or business information, product designs "
        "or roadmaps, requirements, pricing, security and compliance documentation, technology, inventions or know-how) "
        "disclosed by or on behalf of Discloser to Recipient in connection with the Purpose, in any form, which (a) "
        "Discloser identifies to Recipient as \u201cconfidential\u201d or \u201cproprietary\u201d or (b) should be reasonably "
        "understood as confidential or proprietary due to its nature and the circumstances of its disclosure.",
    },
    {
        "heading": "Definitions",
        "clause": "definitions",
        "body": 'As used in this Agreement:\n\n"Affiliate" means any entity that controls, is controlled by or is under common '
        'control with a Party.\n\n"Representatives" means a Party\'s employees, agents, advisors and contractors.',
    },
    {
        "heading": "Use and Protection",
        "clause": "obligations",
        "body": "Recipient will: (a) use Confidential Information only for the Purpose, (b) not disclose Confidential Information "
        "to third parties without Discloser\u2019s prior approval, except pursuant to Section 4, and (c) protect "
        "Confidential Information using at least the same precautions Recipient uses for its own similar information.",
    },
    {
        "heading": "Permitted Disclosures",
        "clause": "permitted_disclosures",
        "body": "Recipient may disclose Confidential Information to its Representatives and Affiliates having a legitimate need "
        "to know for the Purpose, provided these Representatives are bound by confidentiality obligations no less "
        "protective of Discloser than this Section 4 and this Agreement.",
    },
    {
        "heading": "Governing Law and Courts",
        "clause": "governing_law",
        "body": "The Governing Law governs this Agreement and any action arising out of or relating to this Agreement, without "
        "reference to conflict of law rules. The Parties will adjudicate any such action in the courts and each Party "
        "consents to the exclusive jurisdiction and venue of the courts for these purposes. Nonetheless, either Party "
        "may seek equitable relief or enforcement of a judgment in any court of competent jurisdiction.",
    },
]


def test_a_clean_draft_comes_back_byte_identical():
    bodies, report = consistency_pass(CLEAN, preamble=PREAMBLE, resolve_ref=lambda i, n: n)
    assert bodies == [s["body"] for s in CLEAN]
    assert all(r["changes"] == [] and not r["emptied"] for r in report["sections"])
    assert set(report["totals"].values()) == {0}
    unresolved, _ = consistency_pass(CLEAN, preamble=PREAMBLE)  # the same draft whose "Section 4" names nothing
    assert [b != s["body"] for b, s in zip(unresolved, CLEAN)] == [False, False, True, False, False]


BASELINE = [  # the first mutual-nda baseline draft's failures, shortened
    {
        "heading": "Confidential Information",
        "clause": "confidential_information",
        "body": '"Confidential Information" means information disclosed by or on behalf of a Party in connection with the Purpose.',
    },
    {
        "heading": "Definitions",
        "clause": "definitions",
        "body": "Section 1.1 Definitions. As used in this Agreement, capitalized terms not otherwise defined shall have the meanings "
        'set forth below:\n\n"Affiliate" of any Person means a Person that controls, or is controlled by, such Person.\n\n'
        '"Business Day" means a day other than a Saturday or Sunday.\n\n'
        '"Confidential Information" means all non-public information.\n\n'
        '"Person" means any individual or entity.',
    },
    {
        "heading": "Proprietary Rights",
        "clause": "ip",
        "body": 'Confidential Information is provided without warranties, "AS IS" with with all faults, and no Party or its '
        "Affiliates grants any license, except as provided in Section 8 and subject to Section 12.2(a).",
    },
    {
        "heading": "Survival",
        "clause": "survival",
        "body": "Sections 6 and 9 shall survive any termination of this Agreement.",
    },
]


def test_consistency_pass_fixes_references_then_doubled_words_then_definitions():
    source_to_draft = {2: {"12": "1"}}  # section 3's precedent: its source's section 12 is the draft's section 1

    def resolve(i, n):
        return source_to_draft.get(i, {}).get(n)

    bodies, report = consistency_pass(BASELINE, preamble=PREAMBLE, resolve_ref=resolve)
    assert bodies[0] == BASELINE[0]["body"]
    assert bodies[1] == (
        "As used in this Agreement, capitalized terms not otherwise defined shall have the meanings set forth below:\n\n"
        '"Affiliate" of any Person means a Person that controls, or is controlled by, such Person.\n\n'
        '"Person" means any individual or entity.'
    )
    assert bodies[2] == (
        'Confidential Information is provided without warranties, "AS IS" with all faults, and no Party or its '
        "Affiliates grants any license, except as provided in this Agreement and subject to Section 1."
    )
    assert bodies[3] == BASELINE[3]["body"]  # a sentence's subject: left, reported
    assert report["totals"] == {
        "references_renumbered": 1,
        "references_removed": 2,
        "references_left": 1,
        "references_merged": 0,
        "doubled_words_removed": 1,
        "definitions_dropped": 2,
        "restated_sentences_removed": 0,
        "absent_clause_sentences_removed": 0,
        "conflicting_sentences_removed": 0,
        "repeated_clauses_removed": 0,
        "defined_terms_capitalized": 0,
        "paragraphs_repaired": 0,
        "undefined_terms_lowered": 0,
        "protections_kept": 0,
        "notice_blocks_blanked": 0,
        "blank_fees_named": 0,
        "key_terms_dropped": 0,
        "blank_pointers_named": 0,
        "prices_to_agree_removed": 0,
        "contributions_restated_removed": 0,
        "definition_pointers_fixed": 0,
        "blanks_to_complete": 0,
    }
    changes = report["sections"][1]["changes"]
    assert [(c["kind"], c["old"], c.get("reason")) for c in changes] == [  # every removal says why
        ("reference", "Section 1.1 Definitions. ", "refers to a section the draft does not have"),
        ("definition", "Business Day", "unused"),
        ("definition", "Confidential Information", "defined elsewhere"),
    ]
    assert {"kind": "doubled_word", "old": "with with", "new": "with", "action": "removed",
            "reason": "the word written twice"} in report["sections"][2]["changes"]
    assert report["sections"][3]["changes"][0]["action"] == "left"
    import json

    assert json.loads(json.dumps(report)) == report


def test_definitions_are_pruned_against_the_fixed_sections():
    sections = [
        {
            "heading": "Definitions",
            "clause": "definitions",
            "body": '"Affiliate" means a controlled entity.\n\n"Permitted Disclosures" means disclosures to advisers.',
        },
        {
            "heading": "Use",
            "clause": "obligations",
            "body": "No Affiliate may disclose it, except pursuant to Section 5 (Permitted Disclosures).",
        },
    ]
    bodies, report = consistency_pass(
        sections, preamble=PREAMBLE
    )  # the draft has no section 5: its heading goes with it
    assert bodies == [
        '"Affiliate" means a controlled entity.',
        "No Affiliate may disclose it, except pursuant to this Agreement.",
    ]
    assert report["totals"]["definitions_dropped"] == 1


def test_a_definitions_section_nothing_uses_is_emptied_and_says_so():
    sections = [BASELINE[0], {**BASELINE[1], "body": '"Business Day" means a day other than a Saturday or Sunday.'}]
    bodies, report = consistency_pass(sections, preamble=PREAMBLE)
    assert bodies[1] == "" and report["sections"][1]["emptied"] is True and report["sections"][0]["emptied"] is False
    bodies, report = consistency_pass(sections, preamble=PREAMBLE, keep_definitions=("Business Day",))
    assert bodies[1] == sections[1]["body"] and not report["sections"][1]["emptied"]


def test_reading_checks_count_what_a_reader_trips_on():
    bodies = [
        "Either party may seek equitable relief or enforcement of such judgment in",
        'Provided "AS IS" with with all faults, as set forth in Section 8.',
        "Survival",
        "Sections 1 and 2 survive.",
        "Buyer shall order by written notice, unless Supplier otherwise indicates in writing\n\nB. Ship the units.",
    ]
    checks = reading_checks(bodies, 5)
    words = sum(len(b.split()) for b in bodies)
    assert checks == {
        "mid_sentence_endings": 1,
        "broken_paragraphs": 3,  # the unterminated paragraph, "B." out of sequence, "Survival" alone as a body
        "dangling_references": 1,
        "doubled_words": 1,
        "doubled_words_per_1000_words": round(1000 / words, 3),
        "words": words,
    }
    assert reading_checks([], 0) == {
        "mid_sentence_endings": 0,
        "broken_paragraphs": 0,
        "dangling_references": 0,
        "doubled_words": 0,
        "doubled_words_per_1000_words": 0.0,
        "words": 0,
    }


def test_the_module_imports_no_model_code():
    code = (
        "import sys, hybrid.draft.consistency; "
        "bad = [m for m in ('torch', 'transformers', 'hybrid.model') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_reference_rewritten_inside_capitals_stays_in_capitals():
    text = "NEITHER PARTY IS LIABLE FOR DELAYS DUE TO FORCE MAJEURE, AS DEFINED IN SECTION 14."
    new, changes = fix_references(text, lambda n: None)
    assert new == "NEITHER PARTY IS LIABLE FOR DELAYS DUE TO FORCE MAJEURE, AS DEFINED IN THIS AGREEMENT."
    lower, _ = fix_references("Delays due to force majeure, as defined in Section 14, excuse it.", lambda n: None)
    assert lower == "Delays due to force majeure, as defined in this Agreement, excuse it."


def test_a_possessive_written_twice_is_a_doubled_word():
    from hybrid.text.doubled_words import remove_doubled_words

    text, found = remove_doubled_words("the Sponsor's's logo and the Sponsor’s’s marks, not the Sponsor's own")
    assert text == "the Sponsor's logo and the Sponsor’s marks, not the Sponsor's own" and len(found) == 2
    assert remove_doubled_words("the Buyer's sales")[1] == []


def test_the_report_counts_the_blanks_left_for_terms_the_deal_did_not_state():
    sections = [
        {"heading": "Payment", "clause": "payment", "body": "Buyer shall pay each invoice within [___] of receipt."},
        {"heading": "Term", "clause": "term", "body": "It runs for [___] and renews for successive [___] periods."},
    ]
    _, report = consistency_pass(sections, preamble="")
    assert [r["blanks"] for r in report["sections"]] == [1, 2]
    assert report["totals"]["blanks_to_complete"] == 3


def test_a_heading_is_no_use_of_a_defined_term():
    sections = [
        {"heading": "Definitions", "clause": "definitions",
         "body": '"Law" means any statute or regulation.\n\n"Party" means a party to this Agreement.'},
        {"heading": "Governing Law", "clause": "governing_law",
         "body": "Each Party agrees that the laws of the State of Delaware govern this Agreement."},
    ]
    bodies, report = consistency_pass(sections, preamble="")
    assert '"Party"' in bodies[0] and '"Law"' not in bodies[0]
    assert [c["old"] for c in report["sections"][0]["changes"]] == ["Law"]


def test_a_run_in_heading_inside_a_section_is_no_use_of_a_defined_term_either():
    # the seed-7 mutual NDA at fcdc3f3 kept '"Law" means ...' for "(b) Required by Law." alone
    sections = [
        {"heading": "Definitions", "clause": "definitions",
         "body": '"Law" means any statute or regulation.\n\n"Party" means a party to this Agreement.'},
        {"heading": "Confidential Information", "clause": "confidentiality",
         "body": "(b) Required by Law. Each Party may disclose it to the extent required by law."},
    ]
    bodies, _ = consistency_pass(sections, preamble="")
    assert '"Party"' in bodies[0] and '"Law"' not in bodies[0]
    sections[1]["body"] += " Each Party shall comply with any Law in force."
    assert '"Law"' in consistency_pass(sections, preamble="")[0][0]


def test_a_sentence_leaning_on_a_clause_the_draft_lacks_goes():
    survival = (
        "Obligations respecting confidentiality and indemnification survive the termination of this Agreement. "
        "Those provisions which by their nature extend beyond termination survive it."
    )
    general = (
        "This Agreement does not require either party to disclose or to receive Information.\n\n"
        "Either party may terminate this Agreement by providing [___] month's written notice to the other.\n\n"
        "Neither party may assign this Agreement without consent."
    )
    sections = [
        {"heading": "Lease Term", "clause": "term", "body": "The lease term is 36 months."},
        {"heading": "Survival", "clause": "survival", "body": survival},
        {"heading": "General", "clause": "general", "body": general},
    ]
    bodies, report = consistency_pass(sections, preamble="")
    assert bodies[1] == "Those provisions which by their nature extend beyond termination survive it."
    assert bodies[2] == "Neither party may assign this Agreement without consent."
    assert report["totals"]["absent_clause_sentences_removed"] == 3
    # where the draft holds the clause, or has no term section, the sentences stay; a body's last sentence too
    sections[0]["clause"] = "indemnification"
    sections.append({"heading": "Confidentiality", "clause": "confidentiality", "body": "Each party keeps it secret."})
    bodies, _ = consistency_pass(sections, preamble="")
    assert bodies[1] == survival and bodies[2] == general.replace("Information", "information")  # not defined here
    # the clause held in substance under another heading: an indemnity in "Liabilities" (the seed-347 joint venture)
    sections[0]["clause"] = "term"
    sections[3] = {"heading": "Liabilities", "clause": "other",
                   "body": "Each party shall indemnify and hold harmless the other from third-party claims. Each party "
                           "shall hold the other's information in strict confidence."}
    bodies, _ = consistency_pass(sections, preamble="")
    assert bodies[1] == survival
    only = [{"heading": "Exclusivity", "clause": "exclusivity", "body": "The license hereby granted is exclusive."}]
    assert consistency_pass(only, preamble="")[0] == ["The license hereby granted is exclusive."]


def test_a_capitalized_term_the_draft_never_defines_is_written_in_lower_case():
    preamble = 'Keystone Corp. (the "Supplier") supplies Aurora Inc. (the "Buyer") with containers (the "Products").'
    sections = [
        {"heading": "Supply", "clause": "products", "frame": "The laws of the State of Ohio govern.",
         "body": "Buyer shall qualify the suppliers used for the Manufacture of the Product under accepted Purchase "
                 "Orders during the Term, as Section 6 and Exhibit A set out, in "
                 "the United States. The Term Sheet binds no one. Notices go to the Buyer's Account Manager."},
        {"heading": "Definitions", "clause": "definitions", "body": '"Account Manager" means a named employee.'},
    ]
    bodies, report = consistency_pass(sections, preamble=preamble, resolve_ref=lambda i, n: n)
    assert bodies[0] == (
        "Buyer shall qualify the suppliers used for the manufacture of the Product under accepted purchase "
        "orders during the term, as Section 6 and Exhibit A set out, in "
        "the United States. The Term Sheet binds no one. Notices go to the Buyer's Account Manager."
    )  # defined ("Products", "Account Manager"), references, places and a sentence's opening keep their capitals
    assert report["totals"]["undefined_terms_lowered"] == 3
    assert [c["old"] for c in report["sections"][0]["changes"]] == ["Manufacture", "Purchase Orders", "Term"]


def test_a_lower_case_required_term_defines_nothing_and_a_reference_word_inside_a_name_is_lowered():
    # the supply template requires "purchase order" in lower case: that is no definition of "Purchase Order"
    sections = [
        {"heading": "Supply", "clause": "products", "terms": ["purchase order"],
         "body": "Buyer shall send each purchase order. Invoices go to the address in the applicable Purchase Order, "
                 "except as the Parties provide in a Purchase Schedule or in the Schedule."},
    ]
    bodies, report = consistency_pass(sections, preamble=PREAMBLE)
    assert bodies[0] == (
        "Buyer shall send each purchase order. Invoices go to the address in the applicable purchase order, "
        "except as the Parties provide in a purchase schedule or in the Schedule."
    )
    assert [c["old"] for c in report["sections"][0]["changes"]] == ["Purchase Order", "Purchase Schedule"]


def test_a_boilerplate_term_the_definitions_keep_is_capitalized_where_the_draft_writes_it_in_lower_case():
    sections = [
        {"heading": "Definitions", "clause": "definitions",
         "body": '"Third Party" means any entity other than a Party or its affiliates.\n\n'
                 '"Affiliate" means a controlled entity.\n\n"Business Day" means a weekday.'},
        {"heading": "Indemnity", "clause": "indemnification",
         "body": "Supplier shall defend third party claims against Buyer and its affiliates, and against "
                 "third-party claims, within ten business days."},
    ]
    bodies, report = consistency_pass(sections, preamble=PREAMBLE)
    assert bodies[1] == (
        "Supplier shall defend Third Party claims against Buyer and its Affiliates, and against "
        "third-party claims, within ten Business Days."
    )  # a hyphenated adjective stays as written
    assert bodies[0] == sections[0]["body"].replace("its affiliates", "its Affiliates")  # every entry is used now
    assert report["totals"]["defined_terms_capitalized"] == 4
    assert report["totals"]["definitions_dropped"] == 0


def test_a_sentence_naming_another_incoterm_than_the_deals_goes():
    frame = "The Supplier shall deliver the Products on the following terms: FCA Supplier's facility (Incoterms 2020)."
    body = (
        f"{frame} Shipment. All shipments of goods shall be made F.O.B. Supplier's office. Buyer bears the costs "
        "of transport under FCA. Risk passes on delivery."
    )
    sections = [{"heading": "Delivery", "clause": "delivery", "frame": frame, "body": body}]
    bodies, report = consistency_pass(sections, preamble=PREAMBLE)
    # the run-in heading goes with its sentence; a sentence naming the deal's own term stays
    assert bodies[0] == f"{frame} Buyer bears the costs of transport under FCA. Risk passes on delivery."
    assert report["totals"]["conflicting_sentences_removed"] == 1
    # a deal naming no Incoterm keeps every sentence
    plain = [{**sections[0], "frame": "", "body": body.replace(frame, "Supplier delivers.")}]
    assert consistency_pass(plain, preamble=PREAMBLE)[0] == [plain[0]["body"]]


def test_a_part_headed_as_another_sections_clause_goes():
    # strategic alliance draft 1 at eb18f62: "General Provisions" opened with "Entire Agreement; Modification. This
    # Agreement ... supersedes ..." beside the draft's own Entire Agreement section
    general = (
        "Entire Agreement; Modification. This Agreement supersedes all prior agreements.\n\n"
        " Any notice given by airmail under this part is received on the fifth day.\n\n"  # the part's own paragraph
        "Relationship Between the Parties. The Parties are independent contractors.\n\n"
        "Notices. Notices go to the addresses above."
    )
    sections = [
        {"heading": "Entire Agreement", "clause": "entire_agreement", "body": "This Agreement is the whole deal."},
        {"heading": "General Provisions", "clause": "general", "body": general},
        {"heading": "Indemnity", "clause": "indemnification",
         "body": "Each Party indemnifies the other against claims of any third- party or third party."},
    ]
    bodies, report = consistency_pass(sections, preamble=PREAMBLE)
    # "Notices" is no other section's clause here: it stays; a "third- party" is no Party of this Agreement
    assert bodies[1] == (
        "Relationship Between the Parties. The Parties are independent contractors.\n\n"
        "Notices. Notices go to the addresses above."
    )
    assert bodies[2] == sections[2]["body"]
    assert report["totals"]["repeated_clauses_removed"] == 1
    # a section's own part, and a body's only paragraph, stay
    only = [sections[0], {**sections[1], "body": "Entire Agreement. This Agreement supersedes all prior ones."}]
    assert consistency_pass(only, preamble=PREAMBLE)[0][1] == only[1]["body"]


def test_a_list_whose_repeated_part_went_is_lettered_again():
    # sponsorship General at b5a4006: "a) Assignment. ..." then "c) Notices. ..." after "b) Governing Law." went
    general = (
        "a) Assignment. Neither Party may assign this Agreement.\n\n"
        "b) Governing Law. This Agreement is governed by the laws of Texas.\n\n"
        "c) Notices. Notices go to the addresses above."
    )
    sections = [
        {"heading": "Governing Law", "clause": "governing_law", "body": "The laws of Texas govern."},
        {"heading": "General", "clause": "general", "body": general},
    ]
    bodies, _ = consistency_pass(sections, preamble=PREAMBLE)
    assert bodies[1] == "a) Assignment. Neither Party may assign this Agreement.\n\nb) Notices. Notices go to the " \
        "addresses above."
    assert reading_checks(bodies, 2)["broken_paragraphs"] == 0


def test_a_sentence_restating_the_governing_law_goes_where_the_draft_has_its_own_section():
    # consulting-services Miscellaneous at 32aa977: "This Agreement shall be construed and enforced in accordance with
    # and governed by the laws of the State of Illinois." under the draft's own Governing Law section
    misc = (
        "Each party agrees to perform such further acts as are necessary. This Agreement shall be construed and "
        "enforced in accordance with and governed by the laws of the State of Illinois. This Agreement may be amended "
        "by written instrument."
    )
    forum = "Notices go by mail. This Agreement is governed by the laws of Illinois and its courts have jurisdiction."
    law = {"heading": "Governing Law", "clause": "governing_law", "body": "The laws of the State of Illinois govern."}
    sections = [law, {"heading": "Miscellaneous", "clause": "general", "body": misc}]
    bodies, report = consistency_pass(sections, preamble=PREAMBLE)
    assert bodies[1] == "Each Party agrees to perform such further acts as are necessary. This Agreement may be " \
        "amended by written instrument."
    assert bodies[0] == law["body"]  # the Governing Law section's own sentence stays
    assert report["totals"]["repeated_clauses_removed"] == 1
    # the forum goes only where the draft has a dispute resolution section to hold it
    alone = consistency_pass([law, {**sections[1], "body": forum}], preamble=PREAMBLE)[0]
    assert alone[1] == forum
    disputes = {"heading": "Disputes", "clause": "dispute_resolution", "body": "Disputes go to arbitration."}
    assert consistency_pass([law, disputes, {**sections[1], "body": forum}], preamble=PREAMBLE)[0][2] == (
        "Notices go by mail."
    )
    # no Governing Law section: nothing goes
    assert consistency_pass([sections[1]], preamble=PREAMBLE)[0][0] == misc.replace("party", "Party")


def test_the_tail_of_a_longer_name_is_no_undefined_term():
    from hybrid.text.undefined_terms import lower_undefined, term_forms

    for text in ("the United Nations Convention on Contracts for the International Sale of Goods does not apply",
                 "exported under the International Traffic in Arms Regulations and the like"):
        assert lower_undefined(text, term_forms(set()), set()) == (text, [])
    assert lower_undefined("paid by Customer for the Subscription Period.", term_forms(set()), set())[1] == [
        "Subscription Period"]


def test_an_undefined_term_of_hyphenated_common_words_is_one_term():
    """The hosting form's "before the Non-Renewal Notice Date" stood undefined, unseen as a run of common words
    ("Non-Renewal" no word of the list), so no Key Terms line named it (a seed-947 and a seed-1223 reader). A hyphenated
    word of common parts counts as common; one with a rare part keeps its capitals."""
    from hybrid.text.undefined_terms import lower_undefined, term_forms

    text = "unless one party gives notice of non-renewal to the other party before the Non-Renewal Notice Date."
    assert lower_undefined(text, term_forms(set()), set())[1] == ["Non-Renewal Notice Date"]
    rare = "for the Xylo-Phonics Notice Date."
    assert lower_undefined(rare, term_forms(set()), set()) == (rare, [])


def test_a_titled_list_renumbered_keeps_its_own_or():
    """Bonterms' "breach of Section 9.1 (Compliance) or 9.2 (High-Risk Activities & Sensitive Data)", both parts of
    the draft's section 10 now, had read "... and Section 10 (High-Risk ...)": an indemnity needing both breaches."""
    from hybrid.text.references import fix_references

    text = "a claim arising from breach of Section 9.1 (Compliance) or 9.2 (High-Risk Activities & Sensitive Data)."
    new, _ = fix_references(text, {"9": "10"}.get, own="24")
    assert new == ("a claim arising from breach of Section 10 (Compliance) or Section 10 (High-Risk Activities & "
                   "Sensitive Data).")
    text = "Sections 1.4 (Feedback and Usage Data), 2.1 (Restrictions), and 5 (Payment) survive."
    new, _ = fix_references(text, {"1": "2", "2": "3", "5": "6"}.get, own="24")
    assert new.startswith("Section 2 (Feedback and Usage Data), Section 3 (Restrictions), and Section 6 (Payment)")


def test_a_colon_list_of_titled_numbers_is_renumbered_item_by_item():
    """Bonterms' survival list names "Sections" once, before its colon: its items had kept the form's numbers
    ("16 (Limitations of Liability)" in a draft whose section 16 is Intellectual Property). Each item is renumbered
    (by its heading where the resolver knows it), keeps its qualifier, and an item the draft lacks goes."""
    from hybrid.text.references import fix_references

    text = ("The following Sections will survive termination of this Agreement: 5.4 (Usage Data), 12.1 (Payment) "
            "(for amounts then due), 14.4 (Data Export & Deletion), 16 (Limitations of Liability) and 23 "
            "(Definitions).")
    new, changes = fix_references(text, {"5": "6", "12": "13", "16": "17"}.get, own="15",
                                  resolve_title={"Definitions": "24"}.get)
    assert new == ("The following Sections will survive termination of this Agreement: 6 (Usage Data), 13 (Payment) "
                   "(for amounts then due), 17 (Limitations of Liability) and 24 (Definitions).")
    assert [c["rule"] for c in changes] == ["listed"]
    # the source's own ingestion keeps such a list in its paragraph ("5.4 (Usage Data)" is no numbered paragraph)
    from hybrid.data.clean import clean_markdown

    assert "\n" not in clean_markdown(text * 3).strip()


def test_a_colon_list_whose_first_item_names_its_keyword_and_a_qualifier_is_renumbered_whole():
    """Common Paper's contractor form: "...: Section 2 (Non-Solicitation) for the time period specified, 3
    (Intellectual Property), 4.3 (Effect of Termination), ..." had kept every number after the first."""
    from hybrid.text.references import fix_references

    text = ("The following sections will survive: Section 2 (Non-Solicitation) for the time period specified, 3 "
            "(Intellectual Property), 4.3 (Effect of Termination), and 10 (Definitions).")
    new, _ = fix_references(text, {"2": "2", "3": "5", "4": "6", "10": "13"}.get, own="6")
    assert new == ("The following sections will survive: Section 2 (Non-Solicitation) for the time period specified, 5 "
                   "(Intellectual Property), 6 (Effect of Termination), and 13 (Definitions).")  # its own joins


def test_a_colon_list_of_items_each_with_its_keyword_keeps_them_and_is_renumbered_once():
    """The professional services form's survival list (seed 281): "Section 2.1 (Deliverables)" had become "3
    (Deliverables)", its list cut in two at a qualifier over 40 characters and joined by "and" twice; an item the
    draft lacks goes, and the list's own last join joins what is left. Renumbered once: "Section 3 (Deliverables)" is
    not read again as the source's section 3."""
    from hybrid.text.references import fix_references

    text = ("The following sections will survive termination: Section 2.1 (Deliverables), Section 4 (Payment & Taxes) "
            "for fees accrued or payable before expiration or termination, Section 10 (Insurance) for the time period "
            "specified, and Section 13 (Definitions), and the portions of a Cover Page referenced by these sections.")
    resolve = {"2": "3", "3": "9", "4": "5", "10": "11", "13": "14"}
    new, changes = fix_references(text, resolve.get, own="6")
    assert new == text.replace("2.1 (", "3 (").replace("4 (", "5 (").replace("10 (", "11 (").replace("13 (", "14 (")
    assert [c["rule"] for c in changes] == ["listed"]
    del resolve["10"]
    new, _ = fix_references(text, resolve.get, own="6")
    assert ("Section 3 (Deliverables), Section 5 (Payment & Taxes) for fees accrued or payable before expiration or "
            "termination, and Section 14 (Definitions), and the portions") in new


def test_an_article_of_a_numbered_regulation_is_not_the_agreements():
    """Bonterms' Sensitive Data: "enumerated in European Union Regulation 2016/679, Article 9(1)" (the GDPR's article)
    had been renumbered as the draft's "Section 10" (seed-83 reading)."""
    from hybrid.text.references import fix_references

    text = "data enumerated in European Union Regulation 2016/679, Article 9(1) or any successor legislation."
    assert fix_references(text, {"9": "10"}.get, own="24")[0] == text
    assert fix_references("as Section 9 says.", {"9": "10"}.get, own="24")[0] == "as Section 10 says."


def test_a_reference_naming_a_heading_the_draft_has_goes_to_that_section_whatever_its_number():
    """The hosting base (Common Paper's CSA with its SLA) is parsed with Definitions last, after the SLA's sections:
    the survival list's "14 (Definitions)", resolved exactly by its source number, had read "Section 14
    (Definitions)" where the draft's section 14 is Uptime (seed-83 reading). A title the draft has a section of
    that very heading wins over the number; a part's title it has no section of ("Exceptions") does not."""
    from hybrid.text.reference_resolve import Exact, Headed
    from hybrid.text.references import fix_references

    def resolve(n):
        return Exact({"5": "6", "14": "14", "8": "9"}[n]) if n in {"5", "14", "8"} else None

    def by_title(t):
        return Headed("17") if t == "Definitions" else ("9" if t == "Exceptions" else None)

    text = "The following Sections survive: 5 (Payment & Taxes) and 14 (Definitions). See Section 8.4 (Exceptions)."
    new, _ = fix_references(text, resolve, own="3", resolve_title=by_title)
    assert new == ("The following Sections survive: 6 (Payment & Taxes) and 17 (Definitions). See Section 9 "
                   "(Exceptions).")


def test_a_list_item_after_a_titled_reference_is_not_read_as_its_part():
    """Bonterms' Suspension Event: "(b) Customer is in breach of Section 9 (Usage Rules) or (c) Customer's use ...
    risks material harm" had read "(b) Customer is in breach of Section 10 Customer's use ...": "or (c)" was taken
    for a part of section 9 and went with the reference (seed-83 reading). A part list still goes on after a
    number's own part ("subparagraphs 2.(a)(1) and (2)")."""
    from hybrid.text.references import find_references, fix_references

    text = ("(b) Customer is in breach of Section 9 (Usage Rules) or (c) Customer's use of the Cloud Service risks "
            "material harm.")
    new, _ = fix_references(text, {"9": "10"}.get, own="14")
    assert "or (c) Customer's use" in new and "Section 10" in new
    assert [r.text for r in find_references("under subparagraphs 2.(a)(1) and (2) of it")] == [
        "subparagraphs 2.(a)(1) and (2)"]


def test_a_subscription_term_frame_takes_the_subscription_terms_statement_not_the_agreements_or_its_renewal():
    """Bonterms' Term and Termination after the SaaS deal's frame (seed-131 reading): the subscription's own
    12-month statement goes (the frame states it); the renewal, whose notice period was left blank, had gone as a
    'restatement' of the frame, and 'This Agreement starts on the Effective Date and continues until the end of all
    Subscription Terms' as a second term: the agreement's duration is not the subscription's."""
    from hybrid.text.wording import drop_restated, drop_second_term

    frame = ("The subscription term is 12 months from the Effective Date unless this Agreement is terminated earlier "
             "under this Section.")
    renewal = ("Each Subscription Term will renew for successive periods unless (a) the parties agree on a different "
               "renewal Order or (b) either party notifies the other of non-renewal at least [___] prior to the end of "
               "the current Subscription Term.")
    agreement = "This Agreement starts on the Effective Date and continues until the end of all Subscription Terms."
    last = "Each Subscription Term will last for an initial 12-month period unless the Order states otherwise."
    body = f"{frame} {last} {renewal}\n\n {agreement}"
    locked = ["Agreement", "Effective Date", "Provider", "Customer", "Cloud Service"]
    assert renewal not in drop_restated(body, frame, locked, ["12 months"])[1]  # the pass before this one
    kept, gone = drop_second_term(body, frame)
    assert gone == [last] and renewal in kept and agreement in kept


def test_a_second_term_with_its_renewal_keeps_the_renewal():
    """Seed 223: supply's "continues for 5 years" beside "This Agreement shall have a term of [___] from the effective
    date ... and shall automatically renew": the second term goes, its renewal stays."""
    from hybrid.text.wording import drop_second_term

    frame = "This Agreement begins on the Effective Date and continues for 5 years unless terminated earlier."
    body = ("This Agreement shall have a term of [___] from the effective date hereof and shall automatically renew "
            "for additional [___] terms unless either party gives notice. Buyer pays.")
    kept, gone = drop_second_term(body, frame)
    assert kept.startswith("This Agreement shall automatically renew for additional [___] terms")
    assert gone == ["shall have a term of [___] from the effective date hereof and"]
    sub = "The subscription term is 12 months."  # a subscription's term leaves the agreement's own alone
    assert drop_second_term(f"{sub} This Agreement will be in effect for 3 years and will renew.", sub)[1] == []


def test_a_term_that_commences_and_extends_through_a_date_is_a_second_term():
    """Seed 313: the sponsorship's "The sponsorship runs for 2 seasons from the Effective Date." stood beside GAINSCO's
    "the term of this Agreement ... shall commence on 2025-03-15 and extend through [___]" (the reader: term stated
    twice); "extend through" states how long it runs, where "extended for a period of one year" renews it."""
    from hybrid.text.term import states_term
    from hybrid.text.wording import drop_second_term

    frame = "The sponsorship runs for 2 seasons from the Effective Date."
    own = ("Subject to the provisions of Section 15 hereof, the term of this Agreement and the sponsorship described "
           "herein shall commence on 2025-03-15 and extend through [___].")
    rest = "Sponsor may terminate on notice."
    assert drop_second_term(f"{frame} {own} {rest}", frame) == (f"{frame} {rest}", [own])
    assert not states_term("This Agreement shall then be automatically extended for a period of one (1) year.")


def test_a_term_that_ends_on_the_earlier_of_a_list_is_a_second_term():
    """Seeds 401 and 433: a master supply agreement's 'The "Term" ... will commence on the Effective Date and will end
    on the earlier of: (a) ...; (b) a termination date elected by a Party in a written notice ...' stood beside the
    deal's "continues for 5 years" (both readers: the term stated twice): a sentence is read up to the list it opens.
    A term that runs until notice is given, with no list, still states no term of its own."""
    from hybrid.text.term import states_term
    from hybrid.text.wording import drop_second_term

    frame = "This Agreement begins on the Effective Date and continues for 5 years unless terminated earlier."
    own = ('The "Term" of this Agreement will commence on the Effective Date and will end on the earlier of: (a) the '
           "first anniversary of the expiration date of the last Purchase Schedule; (b) a termination date elected by a "
           "Party in a written notice delivered to the other Party; or (c) a termination date under Section 11(d).")
    rest = "The rights and obligations of the Parties will survive the expiration of this Agreement."
    assert drop_second_term(f"{frame} {own} {rest}", frame) == (f"{frame} {rest}", [own])
    assert not states_term("This Agreement shall continue until either party terminates it on thirty days' notice.")


def test_a_term_frame_takes_the_place_of_the_headed_term_it_replaces():
    """Seed 281: the professional services form's "Term. This Agreement will start on the Effective Date and continue
    until 12 months ..." went as a second term and left "Term." empty (then gone), so its "Section 5.2(a)" counted the
    parts one short and read "this Section". The frame now stands under the heading; without a heading it stays on top."""
    from hybrid.text.wording import drop_second_term, term_in_place

    frame = "This Agreement begins on the Effective Date and continues for 6 months unless terminated earlier."
    own = "This Agreement will start on the Effective Date and continue until 12 months have elapsed."
    rest = "Termination.\nEither party may terminate this Agreement if the other party fails to cure a material breach."
    kept, gone = term_in_place(f"{frame} Term. {own}\n{rest}", frame)
    assert kept == f"Term. {frame}\n{rest}" and gone == [own]
    assert term_in_place(kept, frame) == (kept, [])  # once in place, nothing more moves
    assert term_in_place(f"{frame} {own}\n{rest}", frame) == (f"{frame} {own}\n{rest}", [])  # no heading
    kept, gone = drop_second_term(f"{frame} {own}\n{rest}", frame)  # ... where the next pass takes the sentence
    assert kept == f"{frame}\n{rest}" and gone == [own]


def test_a_cloud_forms_framework_term_is_a_second_term_beside_the_deals():
    """Seed 331: hosting's "This Agreement begins on the Effective Date and continues for 24 months" stood beside
    Common Paper's "These Framework Terms will start on the Effective Date and continue for the longer of one year or
    until all Order Forms governed by the Framework Terms have ended." (the reader: three terms)."""
    from hybrid.text.wording import drop_second_term

    frame = "This Agreement begins on the Effective Date and continues for 24 months unless terminated earlier."
    own = ("These Framework Terms will start on the Effective Date and continue for the longer of one year or until all "
           "Order Forms governed by the Framework Terms have ended.")
    assert drop_second_term(f"{frame}\nFramework Terms. {own}\nEither party may terminate for breach.", frame) == (
        f"{frame}\nEither party may terminate for breach.", [f"Framework Terms. {own}"])


def test_a_franchise_frame_that_grants_then_states_the_term_takes_the_place_of_the_bases_term_only_by_its_term():
    """Seed 331: the franchise's frame "The Franchisor grants ... on the terms of this Agreement. The term of this
    Agreement is 10 years from the Effective Date." stood above IFFC's "TERM. The license hereby granted shall
    commence on the date the Franchised Restaurant opens for business ..." (the reader: the term stated twice, the two
    in conflict). A frame of several sentences states the term where one of them does ("right to operate" had read
    as no term statement), "the license hereby granted shall commence" states one, and only the frame's term sentence
    moves under "TERM."; the grant stays on top and no sentence of the frame goes as a second term."""
    from hybrid.text.term import states_term
    from hybrid.text.wording import drop_second_term, term_in_place

    grant = "The Franchisor grants the Franchisee the right to operate a bakery cafe on the terms of this Agreement."
    term = "The term of this Agreement is 10 years from the Effective Date."
    frame = f"{grant} {term}"
    own = ("The license hereby granted shall commence on the date the Franchised Restaurant opens for business and "
           "shall continue for the period of years set forth on [___] hereto.")
    assert states_term(frame) and states_term(own)
    body = f"{frame}\nGRANT. Franchisor grants a licence.\nTERM. {own}\nRENEWAL. Franchisee may renew."
    moved, gone = term_in_place(body, frame)
    assert moved == f"{grant}\nGRANT. Franchisor grants a licence.\nTERM. {term}\nRENEWAL. Franchisee may renew."
    assert gone == [own]
    assert drop_second_term(moved, frame) == (moved, [])
    on_one_line = f"{frame} GRANT. Franchisor grants a licence.\nTERM. {own}\nRENEWAL. Franchisee may renew."
    assert term_in_place(on_one_line, frame)[0] == moved  # the grant on its own line above the headed parts
    kept, gone = drop_second_term(body, frame)
    assert term in kept and gone == [f"TERM. {own}"]


def test_a_term_heading_left_alone_after_the_frame_takes_the_frame():
    """Seed 283: the partnership form's "Term. This Agreement starts on the Effective Date and continues until the
    End Date" went as a restatement of the frame and left "Term." alone on the line after it."""
    from hybrid.text.wording import term_in_place

    frame = "This Agreement continues for 3 years from the Effective Date unless terminated earlier under this Section."
    rest = "Termination. Either Party may terminate the Agreement immediately."
    for gap in (" ", "\n"):
        assert term_in_place(f"{frame}{gap}Term.\n{rest}", frame) == (f"Term. {frame}\n{rest}", [])
    assert term_in_place(f"{frame} Termination.\n{rest}", frame)[0] == f"{frame} Termination.\n{rest}"


def test_arbitration_details_without_an_agreement_to_arbitrate_go():
    """Seed 331: the supply draft kept ElectraMeccanica's "The place of arbitration shall be the State of Ohio. The
    language of arbitration shall be English." after its reference of disputes to another deal's arbitration centre
    went (the reader: "a place of arbitration with no arbitration agreement behind it"). Where a sentence refers
    disputes to arbitration, its details stay."""
    from hybrid.common.topics import absent_agreements
    from hybrid.draft.consistency import consistency_pass

    general = ("Compliance. Each party will comply with all applicable laws. The place of arbitration shall be the State "
               "of Ohio. The language of arbitration shall be English. This Agreement may be signed in counterparts.")
    sections = [{"heading": "General", "clause": "general", "body": general, "frame": ""}]
    bodies, report = consistency_pass(sections, preamble='This Agreement is between A ("Buyer") and B ("Supplier").')
    assert bodies[0] == ("Compliance. Each party will comply with all applicable laws. This Agreement may be signed "
                         "in counterparts.")
    assert report["totals"]["absent_clause_sentences_removed"] == 2
    agreed = "Any dispute shall be finally resolved by binding arbitration. " + general
    assert absent_agreements(agreed) == frozenset() and absent_agreements(general) == {"arbitration"}
    kept, _ = consistency_pass([{**sections[0], "body": agreed}], preamble="This Agreement is between A and B.")
    assert kept[0] == agreed


def test_a_sentence_cut_at_a_paragraphs_start_leaves_the_paragraph_break():
    """Seed 331: with "The place of arbitration ..." cut from the start of its paragraph, the next part's "Partial
    invalidity ..." had run on into the paragraph before ("... in the State of Ohio. Partial invalidity if ...")."""
    from hybrid.text.wording import drop_sentences

    goes = lambda piece: "arbitration" in piece  # noqa: E731
    text = ("Buyer complies in Ohio.\n\nThe place of arbitration shall be Ohio. The language of arbitration shall be "
            "English. Partial invalidity. If any provision is invalid, the rest stays.")
    assert drop_sentences(text, goes)[0] == ("Buyer complies in Ohio.\n\nPartial invalidity. If any provision is "
                                             "invalid, the rest stays.")
    assert drop_sentences("A is here. B is arbitration. C is there.", goes)[0] == "A is here. C is there."
    assert drop_sentences("A is here.\nB is arbitration.\nC is there.", goes)[0] == "A is here.\nC is there."
