"""hybrid.fidelity.foreign_facts and the fidelity metrics: facts a draft states that its deal does not
(corpus party names, statutes, places, the source contract's own names, amounts, durations,
exhibits, years, numbers, proper nouns) are found, the deal's own facts and standard boilerplate
are not, references are found but never counted, the reranker's "foreign" check costs what they
cost, and the metrics count them."""

import re

import pytest

from evals.metrics import (
    duplicate_clause_types,
    fields_in_place,
    foreign_facts,
    foreign_per_1000_words,
    junk_numbering_lines,
    terms_in_clauses,
)
from hybrid.fidelity.foreign_facts import allowed_text, build_party_list, party_names
from hybrid.rank.rerank import ContractSpec, contract_checks
from hybrid.skeleton.tokenized import SpanSlot
from hybrid.templates.template import load_template

NDA = load_template("mutual-nda")
ALLOWED = allowed_text(NDA, NDA.example)

FOREIGN = [
    # (sentence as the shipped model writes it, kind, foreign text); the NDA's law is Delaware, terms 2 and 3 years
    ("This Agreement is governed by the laws of the State of New York.", "place", "New York"),
    ("Each party submits to the courts of Ontario.", "place", "Ontario"),
    ("The fee is $5,000 payable on signature.", "amount", "$5,000"),
    ("Interest accrues at 15% per year.", "amount", "15%"),
    ("Either Party may terminate on thirty (30) days notice.", "duration", "thirty (30) days"),
    ("The restriction lasts for 5 years after closing.", "duration", "5 years"),
    ("The obligations bind GitHub and its successors.", "name", "GitHub"),
    ("GitHub may use the information.", "name", "GitHub"),
    ("Nothing in the Franchise Agreement applies.", "name", "Franchise Agreement"),
    ("The Licensee shall protect it.", "name", "Licensee"),
    ("Information shared with the Corporation is protected.", "name", "Corporation"),
    ("No rights in the Licensed IP are granted.", "name", "Licensed IP"),
    ("Neither party is affiliated with Google Inc.", "party", "Google Inc"),
    # an NDA of ours has no exhibits
    ("Each Party shall keep it confidential under Section 3 and Exhibit A.", "exhibit", "Exhibit A"),
]  # fmt: skip

DEAL = [
    # the deal's own facts and generic contract words: never foreign
    "This Agreement is governed by the laws of the State of Delaware.",
    "This Agreement remains in effect for 2 years from the Effective Date.",
    "The obligations continue for 3 years after termination.",
    "Acme Robotics, Inc. and Borealis Analytics LLC agree to the Purpose.",
    "Each Party shall keep the Confidential Information confidential under Section 3.",
    "Notwithstanding the foregoing, THE INFORMATION IS PROVIDED AS IS.",
    "The Parties shall meet in March 2025 as set out in clause (ii).",
    "Confidentiality and Proprietary Rights survive.",
    "as set out in Section.1 If the Party so requests, under Section.2 Subject to the Purpose",  # stray numbers
    "each Party's rights",
]


@pytest.mark.parametrize("sentence, kind, text", FOREIGN)
def test_a_fact_the_deal_does_not_state_is_foreign(sentence, kind, text):
    found = foreign_facts(sentence, ALLOWED, party_names())
    assert {"kind": kind, "text": text} in found, found


@pytest.mark.parametrize("sentence", DEAL)
def test_the_deals_own_facts_are_not_foreign(sentence):
    assert foreign_facts(sentence, ALLOWED, party_names()) == []


def test_years_and_months_agree():
    allowed = allowed_text(NDA, dict(NDA.example, nda_term="2 years"))
    assert foreign_facts("It lasts twenty-four (24) months.", allowed) == []
    assert foreign_facts("It lasts 25 months.", allowed) == [{"kind": "duration", "text": "25 months"}]


NEW_KINDS = ("statute", "source", "exhibit", "year", "number")

LANHAM = "Except as governed by the United States Trademark Act of 1946 (LANHAM ACT; 15 U.S.C. § 1051)."

WIDENED = [
    # (sentence, kind, foreign text): what the check did not see before it was widened; the deal is the NDA's
    ("3000 pagers shall be delivered each month.", "number", "3000"),
    ("The Supplier shall ship 1,000 units per order.", "number", "1,000"),
    ("The minimum purchase volume of the Product is 50,000 units within three (3) years.", "number", "50,000"),
    ("Orders received after 5:00 p.m. ship the next business day.", "number", "5:00"),
    ("Each page carries 12 point type.", "number", "12"),
    ("Provider shall allow the Recipient to use it at no cost, until December 31, 2021.", "year", "December 31, 2021"),
    ("Delivery is FCA (Incoterms 2010) at the Supplier's facility.", "year", "2010"),
    ("The prices are set out in Exhibit 1,1999 of the Agreement.", "year", "1999"),
    ("The prices are set out in Exhibit 1,1999 of the Agreement.", "exhibit", "Exhibit 1"),
    ("The names shall be set out in Exhibit A attached hereto.", "exhibit", "Exhibit A"),
    ("It covers all Wireless Products set forth on Exhibits B, C, D, and G.", "exhibit", "Exhibits B, C, D, and G"),
    ("The entities are listed on Schedule 2.1 hereto.", "exhibit", "Schedule 2.1"),
    ("Except as set forth in Annex 2, the terms apply.", "exhibit", "Annex 2"),
    ("It is covered by the terms listed in SCHEDULE 1.", "exhibit", "SCHEDULE 1"),
    ("Except to the extent governed by the Lanham Act, the Parties agree.", "statute", "Lanham Act"),
    (LANHAM, "statute", "LANHAM ACT"),
    (LANHAM, "statute", "15 U.S.C. § 1051"),
    (LANHAM, "statute", "United States Trademark Act of 1946"),
    ("All Shares shall be registered under the Securities Act of 1933, as amended.", "statute",
     "Securities Act of 1933"),
    ("Licenses of rights to intellectual property as defined under Section 101 of the United States Bankruptcy Code.",
     "statute", "Section 101 of the United States Bankruptcy Code"),
    ("The licenses are licenses for purposes of Section 365(n) of the Bankruptcy Code.", "statute",
     "Section 365(n) of the Bankruptcy Code"),
    ("ALL WARRANTIES UNDER THE UNIFORM COMMERCIAL CODE ARE DISCLAIMED.", "statute", "UNIFORM COMMERCIAL CODE"),
    ("Each Party shall comply with HIPAA and its regulations.", "statute", "HIPAA"),
    ("The Shares may be sold pursuant to Rule 144 under the Securities Act.", "statute", "Rule 144"),
    ("The Supplier complies with the Americans with Disabilities Act, as amended.", "statute",
     "Americans with Disabilities Act"),
]  # fmt: skip

BOILERPLATE = [
    # real clause sentences of the corpus's train split (and marker forms drafts hold): the widened kinds see nothing
    "A party wishing to renew this Agreement shall give the other party notice thereof no less than thirty (30) days "
    "before the expiration of the term then in effect.",
    "This Agreement may be executed in any number of counterparts, and each such counterpart shall be deemed to be an "
    "original instrument.",
    "This Agreement may be executed in two (2) counterparts, each of which shall be deemed an original.",
    "Technical support, including emergency support, will be available on call twenty-four (24) hours a day.",
    # a miss: a number in words, restated in digits, is left alone
    "Licensee shall maintain at least one hundred (100) Sales Representatives.",
    "Upon the expiration of the Royalty Term, the license granted under Section 2.1 of this Agreement shall become "
    "non-exclusive.",
    "The obligations of the parties with respect to the Service Agreement are as set forth in Sections 3.6 and 4.",
    "Sections 1, 7, 8.5 [EFFECTS OF TERMINATION], 9, 10, 11 and 12 shall survive expiration or termination of this "
    "Agreement.",
    "Sections 4 through 20 survive any termination.",
    "Such fees shall be in lieu of, and not in addition to, payment pursuant to subparagraph 2(a) and 2(b).",
    "Such amendment will be effective upon compliance with Article VIII herein.",
    "Nothing in clauses (a) or (b) limits Section 8.2(c).",
    "The Receiving Party shall (1) protect and (2) not disclose it, and (iii) return it.",
    "1. Definitions. The terms below apply.\n2. Term. It lasts 2 years.",
    "8.1 Term. This Agreement remains in effect for 2 years.",
    "The payment is due no later than December 31 of each year.",
    "The Provider will provide the services required, either directly or through one or more of its distributors.",
    "It was caused by the negligent act or omission or the willful misconduct of the Supplier.",
    "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY NEGLIGENT ACT OR OMISSION.",
    "Corio agrees to hold the Source Code in strict confidence under the Business Code of Conduct.",
    "Neither Party is liable for an Act of God, war or riot, or for the Annual Convention.",
    "The goods classified EAR99 are described in the Form 10-K; payment falls on the 15th day; support is 24/7.",
    "This Agreement is entered into as of 2025-03-01 and its terms of 2 years and 3 years apply.",
]  # fmt: skip


@pytest.mark.parametrize("sentence, kind, text", WIDENED)
def test_numbers_years_exhibits_and_statutes_the_deal_does_not_state_are_foreign(sentence, kind, text):
    found = foreign_facts(sentence, ALLOWED, party_names())
    assert {"kind": kind, "text": text} in found, found


@pytest.mark.parametrize("sentence", BOILERPLATE)
def test_boilerplate_numbers_references_and_markers_are_not_foreign(sentence):
    found = [f for f in foreign_facts(sentence, ALLOWED, party_names()) if f["kind"] in NEW_KINDS]
    assert found == []


def test_a_duration_or_amount_is_one_fact_not_also_a_number():
    assert foreign_facts("Either Party may terminate on thirty (30) days notice for $5,000.", ALLOWED) == [
        {"kind": "duration", "text": "thirty (30) days"}, {"kind": "amount", "text": "$5,000"}]


def test_references_are_found_but_never_foreign():
    from hybrid.fidelity.foreign_facts import NOT_FOREIGN, find_facts

    text = "as set out in Section 8.2 and Sections 4 through 20 and Article IV and clause (b)"
    refs = [f.text for f in find_facts(text) if f.kind == "reference"]
    assert refs == ["Section 8.2", "Sections 4 through 20", "Article IV", "clause (b)"]
    assert NOT_FOREIGN == ("reference",)
    assert foreign_facts(text, ALLOWED) == []


@pytest.mark.parametrize(
    "template, sentence",
    [
        ("supply", "The prices are fixed per the price list in Exhibit A for 12 months."),  # its exhibit and term
        ("supply", "Delivery is FCA (Incoterms 2020)."),
        ("hosting", "Availability is 99.9% and the fee is USD 3,500."),
    ],
)
def test_a_deal_that_writes_an_exhibit_year_or_number_allows_it(template, sentence):
    t = load_template(template)
    assert foreign_facts(sentence, allowed_text(t, t.example)) == []


def test_a_number_of_the_deals_date_is_no_number_the_deal_states():
    # the NDA's date is 2025-03-01
    assert foreign_facts("It ships 1 unit.", ALLOWED) == [{"kind": "number", "text": "1"}]
    assert foreign_facts("It ships 2 units.", ALLOWED) == []  # its term is 2 years


def test_a_statute_the_deal_names_is_not_foreign():
    allowed = ALLOWED + "\nThe Defend Trade Secrets Act of 2016 notice applies."
    assert foreign_facts("Under the Defend Trade Secrets Act, immunity applies.", allowed) == []
    assert foreign_facts("Under the Defend Trade Secrets Act, immunity applies.", ALLOWED) == [
        {"kind": "statute", "text": "Defend Trade Secrets Act"}]


SOURCE = [
    # (sentence, the source contract's own facts, foreign text or None): its names in any case, never its English words
    ("Links to the Insurance Center and to the ebix Site.", ["EBIX.COM"], "ebix"),
    ("eGain will provide Customer with access.", ["eGain Communications Corporation"], "eGain"),
    ("EGAIN SHALL NOT BE LIABLE.", ["eGain Communications Corporation"], "EGAIN"),
    ("It was signed by Zorbix Capital Group, Ltd.", ["Zorbix Capital Group, Ltd."], "Zorbix Capital Group, Ltd"),
    ("The sponsorship of the gainsco team.", ["the GAINSCO", "Racing"], "gainsco"),
    ("Each Party shall share information about the Products.", ["About", "the About Network", "about"], None),
    ("It is a Delaware corporation in the racing business.", ["eGain Communications Corporation", "the Racing"], None),
    ("Acme shall comply.", ["Acme Robotics, Inc."], None),  # the deal's own party
    ("It lasts thirty (30) days.", ["thirty (30) days", "$5,000"], None),  # a duration or amount is its own kind
    # a coded name: a restaurant franchisor's "our parent, bw-3, Inc." (session 38)
    ("All sums due to us, our parent, bw-3, Inc. and others.", ["bw-3 FRANCHISE SYSTEMS, INC."], "bw-3"),
]  # fmt: skip


@pytest.mark.parametrize("sentence, names, text", SOURCE)
def test_the_source_contracts_own_names_are_foreign_in_any_case(sentence, names, text):
    found = [f for f in foreign_facts(sentence, ALLOWED, party_names(), names) if f["kind"] == "source"]
    assert found == ([{"kind": "source", "text": text}] if text else [])


def test_common_words_are_lower_case_words_of_several_groups_of_the_train_split(tmp_path):
    import json

    from hybrid.fidelity.foreign_facts import build_common_words, common_words

    for name, text in {"a.txt": "about the ebix site", "b.txt": "about the racing", "c.txt": "racing ebix"}.items():
        (tmp_path / name).write_text(text)
    entries = [{"path": "a.txt", "group": "g1", "split": "train"}, {"path": "b.txt", "group": "g2", "split": "train"},
               {"path": "c.txt", "group": "g1", "split": "test"}]  # c: not train, so "ebix" stays one group's
    lines = [json.dumps({"source": "x", "doc_type": "x", **e}) + "\n" for e in entries]
    (tmp_path / "manifest.jsonl").write_text("".join(lines))
    assert build_common_words(tmp_path)["words"] == ["about", "the"]
    shipped = common_words()
    assert len(shipped) > 5000 and {"about", "racing", "corporation"} <= shipped and not {"ebix", "egain"} & shipped


def test_a_corpus_party_named_in_the_deal_is_not_foreign():
    allowed = allowed_text(NDA, dict(NDA.example, party_b="Google Inc"))
    assert foreign_facts("Google Inc shall comply.", allowed, party_names()) == []


def test_shipped_party_list_is_built_from_cuad_and_filtered(tmp_path):
    names = party_names()
    assert len(names) > 1000 and "Google Inc" in names
    assert not any(n.lower() in ("an individual", "the seller") for n in names)
    csv = tmp_path / "m.csv"
    csv.write_text('Filename,Parties-Answer\na.pdf,"Acme Widgets Inc. (""Acme""); an individual (""Consultant"")"\n'
                   'b.pdf,"CyberShop; Company; Transporter and Shipper shall collectively be referred to herein '
                   'as the"\n')  # fmt: skip
    assert build_party_list(csv) == ["Acme Widgets Inc", "CyberShop"]


def _spans(n):
    return [SpanSlot(i, 0, 10, i, clause="general") for i in range(n)]


def test_reranker_foreign_check_costs_per_fact_and_is_off_without_a_deal():
    spec = ContractSpec.from_template(NDA, NDA.example)
    clean = [
        "Each Party shall protect the Confidential Information of the other Party with reasonable care always."
    ] * 2
    dirty = [clean[0], "The Corporation shall pay $5,000 under the laws of New York within thirty (30) days."]
    good = contract_checks("\n".join(clean), clean, _spans(2), spec)["foreign"]
    bad = contract_checks("\n".join(dirty), dirty, _spans(2), spec)["foreign"]
    words = len(re.findall(r"\w+", "\n\n".join(dirty)))  # 31
    assert good == 1.0 and bad == pytest.approx(1 / (1 + 100 * 4 / words))  # Corporation, $5,000, New York, 30 days
    assert contract_checks("\n".join(dirty), dirty, _spans(2), ContractSpec())["foreign"] == 1.0


def test_foreign_rate_is_per_1000_whitespace_words():
    texts = ["word " * 995 + "the State of New York"]
    assert foreign_per_1000_words(texts, [ALLOWED]) == pytest.approx(1.0)
    assert foreign_per_1000_words([], []) is None


METRICS = [
    (junk_numbering_lines, (["8.1 Term. This shall", "ok\n1.1.1\n  15.3 Assignment.", "(a) fine\n3M Company"],), 3),
    (duplicate_clause_types, (["termination", "notices", "termination", "survival", "survival"],), 2),
    (terms_in_clauses, (["for 2 years", "Delaware law"], [["2 years", "3 years"], ["Delaware"]]), (2, 3)),
    (fields_in_place, ({"a": "2 years", "b": 7}, {"a": ["termination", "preamble"], "b": ["payment"]},
                       {"termination": "lasts 2 years", "preamble": "x", "payment": "pay 7"}), (2, 3)),
]  # fmt: skip


@pytest.mark.parametrize("fn, args, expected", METRICS)
def test_fidelity_metrics(fn, args, expected):
    assert fn(*args) == expected


class _Vocab:
    """A tokenizer stand-in: these strings are one token each, anything else is two."""

    ONE = {" Texas": 5, "Texas": 6, " York": 7, " Delaware": 8, " Virginia": 9, " Ontario": 10}

    def encode(self, text):
        return [self.ONE[text]] if text in self.ONE else [1, 2]


@pytest.mark.parametrize(
    "law, banned, kept",
    [
        ("the State of Delaware", {5, 6, 7, 9, 10}, {8}),
        ("the State of West Virginia", {5, 6, 7, 8, 10}, {9}),  # Virginia is part of the deal's place
        ("the State of New York", {5, 6, 8, 9, 10}, {7}),
    ],
)
def test_place_bans_cover_single_token_places_the_deal_does_not_name(law, banned, kept):
    from hybrid.fidelity.foreign_facts import place_ban_ids

    ids = set(place_ban_ids(_Vocab(), allowed_text(NDA, dict(NDA.example, governing_law=law))))
    assert banned <= ids and not (kept & ids)


def test_the_drafter_never_writes_a_banned_place_token(tiny_model, tokenizer, monkeypatch):
    from hybrid import Drafter, DraftRequest
    from hybrid.common.sampling import BannedTokens, SamplingParams

    assert isinstance(SamplingParams(banned_tokens=[3]).processors()[0], BannedTokens)
    outline = {"title": NDA.title, "sections": [{"heading": NDA.clauses[c]["heading"], "clause": c} for c in
               ("confidentiality", "termination", "notices", "remedies", "governing_law", "general")]}  # fmt: skip
    drafter = Drafter(tiny_model, tokenizer)
    sk = NDA.render_skeleton(outline, NDA.example)
    request = DraftRequest.of(NDA, NDA.example, n=2, steps=2, seed=4, temperature=1.0, precedent_mode="off")
    free = drafter._fill(request, sk, 1.0, None)
    common = sorted({t for f in free for ids in f.tokens for t in ids})[:40]  # tokens the tiny model does write
    monkeypatch.setattr("hybrid.fidelity.ban_ids.place_ban_ids", lambda tok, allowed: common)
    fills = drafter._fill(request, sk, 1.0, None)
    frame_ids = {t for s in sk.spans if s.frame for t in tokenizer.encode(s.frame)}
    written = {t for f in fills for ids in f.tokens for t in ids} - frame_ids  # frames are locked, not sampled
    assert common and not (written & set(common))


def test_name_bans_cover_mid_sentence_terms_of_other_deals_only(monkeypatch):
    import hybrid.fidelity.ban_ids as ff
    from hybrid.tokenizer.bpe import HybridTokenizer

    bodies = ["the Licensor shall notify the Licensor and the Company. Each party agrees. Each day."] * 6
    tokenizer = HybridTokenizer.train(bodies * 20, vocab_size=400)  # whole words become tokens
    data = ff.build_capitalized_terms(tokenizer, bodies, min_count=5)
    pieces = {tokenizer.decode([tokenizer.hf.token_to_id(p)]) for p in data["pieces"]}
    assert any(p.strip().startswith(("Lic", "Com")) for p in pieces) and not any(
        p.strip().startswith("Each") for p in pieces
    )
    monkeypatch.setattr(ff, "_capitalized_terms", lambda: data)
    allowed = "The Company shall pay."
    banned = {tokenizer.decode([i]) for i in ff.name_ban_ids(tokenizer, allowed)}
    company = set(tokenizer.encode(" Company"))
    assert banned and not (company & set(ff.name_ban_ids(tokenizer, allowed)))  # the deal's own word stays
    monkeypatch.setattr(ff, "_capitalized_terms", lambda: {**data, "vocab_sha": "another tokenizer"})
    assert ff.name_ban_ids(tokenizer, allowed) == []


def test_foreign_acronyms_are_isolated_caps_words_the_deal_never_writes():
    from hybrid.fidelity.foreign_facts import foreign_acronyms

    text = "receipt of LBIO of all payments; THE SOFTWARE IS PROVIDED AS IS; Acme LLC under Section IV and the NDA"
    assert [text[a:b] for a, b in foreign_acronyms(text, "Acme LLC NDA")] == ["LBIO"]
    assert foreign_acronyms(text, "Acme LLC NDA LBIO") == []
    # a trade abbreviation any deal writes is no other deal's name: a tax, a file format, a trade term
    trade = "the price includes VAT; Buyer sends the CAD files; delivery FOB the plant of LBIO"
    assert [trade[a:b] for a, b in foreign_acronyms(trade, "Acme LLC")] == ["LBIO"]
    # a term allowed in the plural is allowed in the singular: a supply base's "Current SOPs" writes "the SOP"
    # (its order of priority had read "(2nd) the [___]")
    sop = "the SOP and the JSC"
    assert [sop[a:b] for a, b in foreign_acronyms(sop, 'the "Current SOPs"')] == ["JSC"]


def test_boilerplate_defined_terms_are_generic_words_and_a_name_beside_them_is_not():
    """A composed Definitions section (hybrid.precedents.definitions) defines "Governmental Authority" whatever the
    deal."""
    from hybrid.fidelity.foreign_facts import BOILERPLATE_TERMS

    text = ("approved by any Governmental Authority, an Affiliate or a Third Party, and Intellectual Property Rights "
            "of the Zebulon Authority.")
    found = [f["text"] for f in foreign_facts(text, "Acme Robotics, Inc. and Borealis Analytics LLC")]
    assert found == ["Zebulon Authority"]
    assert "Governmental Authority" in BOILERPLATE_TERMS


def test_the_plural_of_a_deal_word_is_not_foreign_but_another_name_still_is():
    from hybrid.fidelity.foreign_facts import foreign_facts

    t = load_template("franchise")
    allowed = allowed_text(t, t.example)
    text = "The Franchisor may grant rights to other Franchisees outside the Territory."
    assert foreign_facts(text, allowed, party_names()) == []
    found = foreign_facts("The Franchisor may sell to Zorblax Holdings in the Territory.", allowed, party_names())
    assert [f.text for f in found if f.kind == "name"]


def test_confidential_information_after_a_deal_role_is_no_foreign_name():
    from hybrid.fidelity.foreign_facts import foreign_facts, party_names

    text = "Licensor may disclose Licensee's Confidential Information to provide the Product and Services."
    found = [f.text for f in foreign_facts(text, "Licensor Licensee Acme Robotics, Inc.", party_names(), ())]
    assert found == ["Product and Services"]  # a cover-page term of the source stays foreign


def test_a_capitalized_word_opening_a_list_item_is_no_name():
    # "d) Counterparts." in a sponsorship's General at 677867e counted as another deal's name, and its heading went
    assert foreign_facts("d) Counterparts. This Agreement may be executed in counterparts.", "") == []
    assert foreign_facts("(d) Counterparts. It binds.", "") == []
    assert foreign_facts("Buyer pays Zanzibar Holdings.", "") == [{"kind": "name", "text": "Zanzibar Holdings"}]


SUPPLY = load_template("supply")


@pytest.mark.parametrize("sentence", [
    'The other Party (referred to at times in this Section as the "Receiving Party") requests it.',
    "The Disclosing Party's Confidential Information stays with the Recipient.",
])
def test_a_role_either_party_takes_by_turns_is_no_deals_name(sentence):
    """A supply deal names no Disclosing Party, yet its base's confidentiality clause may define one: a role both
    parties take by turns (hybrid.data.roles.TURN_ROLES) is no other deal's name. A party's role the deal does not
    use still is ("Licensee" in a supply deal)."""
    allowed = allowed_text(SUPPLY, SUPPLY.example)
    assert foreign_facts(sentence, allowed, party_names()) == []
    assert {"kind": "name", "text": "Licensee"} in foreign_facts("The Licensee shall pay.", allowed, party_names())


def test_a_courts_case_number_is_another_deals_fact():
    """A joint venture base's warranty "except for the Lawsuit ... case no. S97-2358" had kept the number: a code
    with digits in it is no bare number, but after "case no." it is another deal's lawsuit."""
    from hybrid.fidelity.foreign_facts import find_facts

    text = "the lawsuit styled Archer v. Igene, case no. S97-2358, and Civil Action No. 1:19-cv-00123 shall survive."
    numbers = [f.text for f in find_facts(text) if f.kind == "number"]
    assert numbers == ["S97-2358", "1:19-cv-00123"]
    assert [f.text for f in find_facts("a model no. EAR99 product", ()) if f.kind == "number"] == []
