"""hybrid.draft.revise: the consistency pass on the drafting path, and its resolver of cross-references."""

from types import SimpleNamespace

from hybrid.draft.revise import EMPTY_DEFINITIONS, revise, source_ids, source_sections
from hybrid.text.defined_terms import INDEX_LEAD


def _spans(*clauses):
    return [SimpleNamespace(clause=c, heading=c.title(), budget=128) for c in clauses]


def test_a_reference_to_the_source_section_is_renumbered_to_the_drafts_own_section():
    lib = SimpleNamespace(
        precedents=[
            SimpleNamespace(id="src.txt#8", clause_type="confidentiality"),
            SimpleNamespace(id="src.txt#3.1", clause_type="payment"),
        ]
    )
    sources = source_sections(lib)
    assert sources == {"src.txt": {"8": "confidentiality", "3": "payment"}}
    spans = _spans("payment", "confidentiality", "general")
    prov = [[[{"doc_id": "src.txt"}], [{"doc_id": "x"}], [{"doc_id": "src.txt"}]]]
    bodies = [
        [
            "Fees are due.",
            "Keep it secret.",
            "Except as provided in Section 8, either party may assign this Agreement. "
            "Nothing in Section 12 limits this.",
        ]
    ]
    out, reports = revise(bodies, spans, "Preamble.", prov, sources)
    assert "Section 2" in out[0][2] and "Section 8" not in out[0][2] and "Section 12" not in out[0][2]
    assert reports[0]["totals"]["references_renumbered"] == 1 and reports[0]["totals"]["references_removed"] == 1


def test_a_body_cut_mid_sentence_ends_at_its_last_whole_sentence_and_doubled_words_go():
    out, reports = revise(
        [["Either party may terminate with with notice. The parties will adjudicate any such action in"]],
        _spans("termination"),
        "",
    )
    assert out[0][0] == "Either party may terminate with notice."
    assert reports[0]["totals"]["sentences_cut"] == 1 and reports[0]["totals"]["doubled_words_removed"] == 1


def test_a_definitions_section_the_draft_does_not_use_reads_a_general_sentence():
    out, _ = revise(
        [['"Zebra Product" means a striped product.', "The parties agree."]], _spans("definitions", "general"), ""
    )
    assert out[0][0] == EMPTY_DEFINITIONS


def test_an_emptied_definitions_section_indexes_where_the_draft_defines_the_terms_it_uses():
    preamble = 'This Agreement (the "Agreement") is made by Acme Inc. ("Supplier") and Beta LLC ("Buyer").'
    bodies = [
        '"Zebra Product" means a striped product.',
        'The initial term is three years (the "Initial Term"). Supplier may renew the Initial Term. '
        'Each renewal (a "Renewal Term") is one year.',
        "Buyer may terminate during the Initial Term on notice to Supplier.",
    ]
    out, reports = revise([bodies], _spans("definitions", "term", "termination"), preamble)
    lines = out[0][0].split("\n\n")
    # used outside their defining place: "Initial Term" (Section 2 defines it, 3 uses it), the parties' names;
    # "Renewal Term" is used nowhere else and "Agreement" nowhere after the preamble (headings are not searched)
    assert lines == [
        INDEX_LEAD,
        '"Buyer" and "Supplier" have the meanings given in the preamble.',  # one sentence per place
        '"Initial Term" has the meaning given in Section 2.',
    ]
    assert reports[0]["sections"][0]["indexed"] == ["Buyer", "Supplier", "Initial Term"]  # in the order listed
    assert reports[0]["totals"]["definitions_indexed"] == 3


def test_a_trailing_run_in_heading_is_dropped():
    out, _ = revise(
        [["Either party may assign this Agreement.\nApplicable Law and Counterparts."]], _spans("general"), ""
    )
    assert out[0][0] == "Either party may assign this Agreement."


def test_a_run_in_heading_the_sentence_cut_leaves_last_goes_too():
    # seen in the equipment lease: "... pursuant to this Agreement.\n\nRenewal." after the cut took the renewal text
    out, _ = revise(
        [["The lease term is 36 months.\n\nRenewal. The Lessee may renew the lease for one"]], _spans("term"), ""
    )
    assert out[0][0] == "The lease term is 36 months."


def test_clean_text_comes_back_unchanged():
    body = "This Agreement is governed by the laws of the State of Delaware."
    out, reports = revise([[body]], _spans("governing_law"), "")
    assert out[0][0] == body and not any(reports[0]["totals"].values())


def test_a_capitals_clause_with_no_sentence_end_closes_before_its_last_coordinated_clause():
    cut = (
        "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY INDIRECT OR CONSEQUENTIAL DAMAGES, WHETHER OR NOT SUCH "
        "PARTY HAS BEEN WARNED OF THE POSSIBILITY OF ANY SUCH LOSS OR DAMAGE, AND EVEN IF ANY OF THE LIMITED "
        "REMEDIES IN THIS AGREEMENT"
    )
    out, reports = revise([[cut]], _spans("limitation_of_liability"), "")
    assert out[0][0].endswith("POSSIBILITY OF ANY SUCH LOSS OR DAMAGE.")
    assert reports[0]["totals"]["sentences_cut"] == 1


def test_a_clause_break_never_drops_into_a_carve_out_nor_leaves_a_stub():
    from hybrid.common.sentences import cut_to_clause

    # a comma before "except" is no break: cutting there would drop the exception
    carve_out = "Neither party shall be liable for any indirect damages of any kind whatsoever, except for"
    assert cut_to_clause(carve_out) is None
    assert cut_to_clause("Licensee shall pay, and Licensor shall invoice the fees monthly in") is None  # < 12 words
    assert cut_to_clause("(i) deliver the goods to the buyer at the agreed place and time; (ii) bear the costs of") == (
        "(i) deliver the goods to the buyer at the agreed place and time."
    )


def test_inc_in_capitals_ends_no_sentence_and_no_break_falls_inside_brackets():
    from hybrid.common.sentences import cut_to_clause, sentence_boundaries

    caps = 'NEITHER ORION PAYMENTS, INC. NOR ITS AFFILIATES (ORION PAYMENTS, INC. AND SUCH OTHER PERSONS, THE "GROUP")'
    assert sentence_boundaries(caps) == []
    bracket = "the supplier, its officers, its directors, its employees and its agents (each a Person, and together the"
    assert len(bracket.split(", and")[0].split()) >= 12 and cut_to_clause(bracket) is None


def test_a_source_that_numbers_its_sections_is_resolved_by_the_numbers_it_wrote():
    # the source skipped a heading: its section written "10" is the 9th in the layout, and "Section 9" of it
    # (a headless numbered paragraph) sits in the text of its 8th
    lib = SimpleNamespace(
        precedents=[
            SimpleNamespace(id="src.txt#8", doc_id="src.txt", clause_type="confidentiality", numbers=["8", "9"]),
            SimpleNamespace(id="src.txt#9", doc_id="src.txt", clause_type="payment", numbers=["10"]),
            SimpleNamespace(id="old.txt#4", doc_id="old.txt", clause_type="notices", numbers=[]),
        ]
    )
    sources = source_sections(lib)
    assert sources == {"src.txt": {"8": "confidentiality", "9": "confidentiality", "10": "payment"},
                       "old.txt": {"4": "notices"}}  # a source without numbers: by its place in the layout
    spans = _spans("payment", "confidentiality", "general")
    prov = [[[{"doc_id": "src.txt"}], [{"doc_id": "x"}], [{"doc_id": "src.txt"}]]]
    bodies = [["Fees are due.", "Keep it secret.", "Subject to Section 10 and Section 9.2, either party may assign."]]
    out, _ = revise(bodies, spans, "Preamble.", prov, sources)
    assert out[0][2] == "Subject to Sections 1 and 2, either party may assign."


def test_a_reference_with_its_source_heading_goes_to_the_section_that_heading_names():
    # a standard form's flattened headings carry no numbers; its "Section 10 (Confidentiality)" names the clause
    cp = SimpleNamespace(id="cp.txt#10", doc_id="cp.txt", clause_type="payment", numbers=[])
    lib = SimpleNamespace(precedents=[cp])
    spans = _spans("payment", "confidentiality", "general")
    prov = [[[{"doc_id": "cp.txt"}], [{"doc_id": "x"}], [{"doc_id": "cp.txt"}]]]
    bodies = [["Fees are due.", "Keep it secret.", "A breach of Section 10 (Confidentiality) ends this Agreement."]]
    out, _ = revise(bodies, spans, "Preamble.", prov, source_sections(lib))
    # the draft's section has that very heading, which the reference keeps ("Section 12" alone had lost the form's
    # titles: "Sections 4 and 12" for "Section 3 (Privacy & Security) and Section 11 (Confidentiality)", seed 281)
    assert out[0][2] == "A breach of Section 2 (Confidentiality) ends this Agreement."
    # a heading no clause type matches falls back on the number
    bodies = [["Fees are due.", "Keep it secret.", "A breach of Section 10 (Zebra Matters) ends this Agreement."]]
    out, _ = revise(bodies, spans, "Preamble.", prov, source_sections(lib))
    assert out[0][2] == "A breach of Section 1 ends this Agreement."
    # a heading that names a clause the draft lacks is not sent by its number to another clause
    bodies = [["Fees are due.", "Keep it secret.", "Except as provided in Section 10 (Indemnification), it ends."]]
    out, _ = revise(bodies, spans, "Preamble.", prov, source_sections(lib))
    assert out[0][2] == "Except as provided in this Agreement, it ends."


def test_a_reference_by_heading_goes_to_the_section_of_that_heading_not_the_first_of_its_type():
    # a base draft keeps its base's headings: Bonterms' "Section 5 (Permitted Disclosures)" is the draft's Permitted
    # Disclosures (section 3 here), not its first confidentiality section
    spans = [SimpleNamespace(clause="confidentiality", heading=h, budget=128)
             for h in ("Confidential Information", "Use and Protection", "Permitted Disclosures")]
    sources = {"nda.md": {"2": "confidentiality", "3": "confidentiality", "5": "confidentiality"}}
    prov = [[[{"doc_id": "nda.md"}], [{"doc_id": "nda.md"}], [{"doc_id": "nda.md"}]]]
    bodies = [["Information disclosed.",
               "Recipient will not disclose it, except pursuant to Section 5 (Permitted Disclosures).",
               "Recipient may disclose it to its advisers."]]
    out, _ = revise(bodies, spans, "Preamble.", prov, sources)
    assert "except pursuant to Section 3" in out[0][1] and "Section 1" not in out[0][1]


def test_a_base_drafts_reference_goes_to_the_section_drafted_from_that_very_source_section():
    # Common Paper's "Except as provided in Section 8.4 (Exceptions)" sits in its Limitation of Liability (section 8);
    # read by its heading, "Exceptions" named Confidentiality. The draft holds the base's section 8 as its section 2
    lib = SimpleNamespace(precedents=[
        SimpleNamespace(id="csa.txt#8", doc_id="csa.txt", clause_type="limitation_of_liability", numbers=[]),
        SimpleNamespace(id="csa.txt#10", doc_id="csa.txt", clause_type="confidentiality", numbers=[]),
    ])
    spans = [SimpleNamespace(clause=c, heading=h, budget=128) for c, h in (
        ("confidentiality", "Confidentiality"), ("limitation_of_liability", "Limitation of Liability"))]
    prov = [[[{"doc_id": "csa.txt", "id": "csa.txt#10"}], [{"doc_id": "csa.txt", "id": "csa.txt#8"}]]]
    bodies = [["Keep it secret.",
               "Except as provided in Section 8.4 (Exceptions), liability is capped. "
               "Section 8.2 (Damages Waiver) does not apply to a breach of Section 10 (Confidentiality)."]]
    out, _ = revise(bodies, spans, "Preamble.", prov, source_sections(lib), ids=source_ids(lib))
    assert out[0][1] == ("Except as provided in Section 2 (Exceptions), liability is capped. "
                         "Section 2 (Damages Waiver) does not apply to a breach of Section 1 (Confidentiality).")


def test_a_statutes_section_is_no_reference_to_the_agreement():
    from hybrid.text.references import find_references

    text = ('deemed "commercial items" according to FAR section 12.212 and DFAR section 227.7202, and "documentation" '
            "according to DFAR section 252.227-7014(a)(1), as Section 4 says.")
    assert [r.text for r in find_references(text)] == ["Section 4"]


def test_a_list_of_parts_with_their_headings_is_renumbered_item_by_item_keeping_each_heading():
    # Common Paper's survival clause names parts of sections; renumbered to bare sections ("Sections 2 and 3") it
    # revived the whole of each, the access grant with them, which a cold reading found
    lib = SimpleNamespace(precedents=[
        SimpleNamespace(id=f"csa.txt#{n}", doc_id="csa.txt", clause_type=c, numbers=[])
        for n, c in (("1", "services"), ("2", "restrictions"), ("5", "termination"))])
    spans = [SimpleNamespace(clause=c, heading=h, budget=128) for c, h in (
        ("other", "Key Terms"), ("services", "Service"), ("restrictions", "Restrictions"), ("termination", "Term"))]
    prov = [[[], *([{"doc_id": "csa.txt", "id": f"csa.txt#{n}"}] for n in ("1", "2", "5"))]]
    bodies = [["Terms.", "Use it.", "Do not misuse it.",
               "The following survive: Section 1.4 (Feedback and Usage Data), Section 2.1 (Restrictions on Customer) "
               "and Section 5.5 (Effect of Termination)."]]
    out, _ = revise(bodies, spans, "Preamble.", prov, source_sections(lib), ids=source_ids(lib))
    assert out[0][3] == ("The following survive: Section 2 (Feedback and Usage Data), Section 3 (Restrictions on "
                         "Customer), and Section 4 (Effect of Termination).")


def test_parts_of_the_section_it_stands_in_keep_their_names_and_this_opens_a_sentence_with_a_capital():
    from hybrid.text.references import fix_references

    # Bonterms' "Sections 16.1 (General Cap) and 16.2 (...) will not apply" in its own section 16 had read "this Section
    # will not apply to Enhanced Claims": the cap switched off by the very section that sets it
    text = ("This Section 16 limits liability. Exceptions. Sections 16.1 (General Cap) and 16.2 (Consequential Damages "
            "Waiver) will not apply to Enhanced Claims.")
    out, _ = fix_references(text, lambda n: "9" if n == "16" else None, own="9")
    assert "Section 9 (General Cap) and Section 9 (Consequential Damages Waiver) will not apply" in out
    out, _ = fix_references("Terms. Section 16.3 shall govern.", lambda n: "9", own="9")
    assert out == "Terms. This Section shall govern."


def test_a_perpetual_term_does_not_renew_and_a_perpetual_licence_within_a_term_keeps_the_renewal():
    """The software licence's "Subscription Period: perpetual." beside "automatically renew for additional
    Subscription Periods unless ... before the Non-Renewal Notice Date" (seed-223 and 257 readings)."""
    from hybrid.text.wording import drop_renewal, perpetual

    assert perpetual("The Licensor grants the Licensee a license to use the X software. The term of the license is "
                     "perpetual.")
    assert not perpetual("Consultant grants Client a non-exclusive, perpetual license to the Pre-Existing Materials.")
    text = ("For each Order Form, the Agreement will start on the Order Date, continue through the Subscription "
            "Period, and automatically renew for additional Subscription Periods unless one party gives notice. "
            "This Agreement will automatically renew for successive one-year terms. Licensee pays.")
    out, gone = drop_renewal(text)
    assert out == ("For each Order Form, the Agreement will start on the Order Date and continue through the "
                   "Subscription Period. Licensee pays.")
    assert gone == ["This Agreement will automatically renew for successive one-year terms.",
                    "and automatically renew for additional Subscription Periods unless one party gives notice"]


def test_a_heading_in_capitals_after_a_reference_holds_no_roman_numeral():
    """"Section 13 (GENERAL LIABILITY INSURANCE)" had read as sections 13 and 50 (the "L" of "GENERAL"), and the
    coherence benchmark counted 72 dangling references in franchise drafts that had none."""
    from hybrid.text.references import dangling_references, find_references

    ref = find_references("not limited by the insurance required under Section 13 (GENERAL LIABILITY INSURANCE).")[0]
    assert ref.tops == ("13",)
    assert dangling_references(["x"] * 12 + ["under Section 13 (GENERAL LIABILITY INSURANCE)."], 13) == []
    assert find_references("as set out in Article IV.")[0].tops == ("4",)  # a roman numeral still reads as one
