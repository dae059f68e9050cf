"""The clause library: train split only, facts normalized to markers, BM25 retrieval, cache + fingerprint, CLI."""

import json
import random

import pytest

from hybrid.cli.main import main
from hybrid.common.errors import ConfigError
from hybrid.data.clauses import own_clause
from hybrid.data.document import Document, Section
from hybrid.data.facts import FALLBACK, MARKERS, OTHER_DATE, DealFacts, adapt, normalize
from hybrid.data.precedent_pairs import PairMix, corrupt, with_precedents
from hybrid.precedents.library import (
    Library,
    Precedent,
    PrecedentError,
    build_library,
    default_library_path,
    load_library,
)

from conftest import CUAD_EXCERPT_NAME as CUAD_NAME
from conftest import cuad_entry


@pytest.fixture
def corpus(cuad_corpus):
    """train: a CUAD contract + a Common Paper agreement; val and test: files that must stay out of the library."""
    files = {"sa/sla.txt": "commonpaper_software_license.txt", "sa/val.md": "bonterms_cloud_terms.md",
             "sa/test.txt": "TEST AGREEMENT\n\n1. Governing Law. Held out: never read me, governed by Ohio law.\n"}
    entries = [
        cuad_entry(group="c:a", license="CC-BY-4.0"),
        {
            "path": "sa/sla.txt",
            "source": "commonpaper",
            "license": "CC-BY-4.0",
            "doc_type": "SOFTWARE LICENSE AGREEMENT",
            "group": "cp:s",
            "split": "train",
        },
        {"path": "sa/val.md", "source": "bonterms", "doc_type": "CLOUD TERMS", "group": "b:c", "split": "val"},
        {"path": "sa/test.txt", "source": "cuad", "doc_type": "TEST AGREEMENT", "group": "c:t", "split": "test"},
    ]
    return cuad_corpus(files, entries)


@pytest.fixture
def library(corpus) -> Library:
    return build_library(corpus, progress=False)


def test_library_holds_train_clauses_only_with_provenance(library):
    docs = {p.doc_id for p in library.precedents}
    assert docs == {f"cuad/contracts/{CUAD_NAME}", "sa/sla.txt"}
    p = next(p for p in library.precedents if p.source == "commonpaper")
    assert (p.license, p.doc_type) == ("CC-BY-4.0", "SOFTWARE LICENSE AGREEMENT")
    assert p.heading and p.clause_type and p.id.startswith("sa/sla.txt#")
    assert all(len(p.body.split()) >= 12 for p in library.precedents)


def test_a_build_reports_each_document_and_a_raise_stops_it(corpus):
    seen = []
    build_library(corpus, progress=False, on_doc=lambda i, total: seen.append((i, total)))
    assert seen == [(0, 2), (1, 2)]  # the two train documents, counted before each

    def stop(i, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_library(corpus, progress=False, on_doc=stop)


def test_precedent_party_names_dates_and_laws_become_markers(library):
    cuad = [p for p in library.precedents if p.source == "cuad"]
    text = " ".join(p.body for p in cuad)
    for own in ("2TheMart", "i-Escrow", "I-ESCROW", "June 21, 1999"):
        assert own not in text, own
    assert "[PARTY_A]" in text and "[PARTY_B]" in text
    assert any("2TheMart" in p.facts for p in cuad)


FOREIGN = [
    # (precedent body, its fields, its preamble, foreign strings that must not survive)
    ("Acme Widgets, Inc. shall pay Beta Corp. Ten Thousand Dollars ($10,000) by March 3, 2019, and Acme shall give "
     "thirty (30) days notice. This Agreement is governed by the laws of the State of New York.",
     {"party_a": "Acme Widgets, Inc.", "party_b": "Beta Corp."}, 'Acme Widgets, Inc. ("Acme") and Beta Corp. ("Beta")',
     ["Acme", "Beta", "10,000", "Ten Thousand", "March 3, 2019", "thirty (30) days", "New York"]),
    ("The Distributor shall pay the Company a royalty of five percent (5%) of Net Sales within 45 days after "
     "December 31, 2020. THIS AGREEMENT SHALL BE GOVERNED BY THE LAWS OF ONTARIO, CANADA.",
     {}, 'Zed Ltd. (the "Company") and Yo LLC (the "Distributor")',
     ["Distributor", "Company", "5%", "45 days", "December 31, 2020", "ONTARIO", "CANADA"]),
]


@pytest.mark.parametrize("body,fields,preamble,foreign", FOREIGN)
def test_a_precedent_full_of_foreign_facts_leaks_none_after_substitution(body, fields, preamble, foreign):
    n = normalize(body, fields, preamble)
    deal = DealFacts(party_a="Northwind LLC", party_b="Contoso Ltd.", date="May 1, 2025", amount="$2,500",
                     percent="7%", duration="2 years", law="the State of Delaware")
    out = adapt(n.text, deal)
    for f in foreign:
        assert f.lower() not in out.lower(), (f, out)
    assert "Northwind LLC" in out and "Contoso Ltd." in out and "Delaware" in out
    assert not any(m in out for m in MARKERS)  # every marker replaced (a term the deal lacks is a BLANK)


def test_a_marker_the_deal_does_not_give_becomes_a_neutral_phrase_never_the_precedents_value():
    n = normalize("Fees of $99,000 are due on January 5, 2021.", {}, "")
    out = adapt(n.text, DealFacts())
    assert out == f"Fees of {FALLBACK['[AMOUNT]']} are due on {OTHER_DATE}."  # a due date is no effective date
    assert set(n.facts) == {"$99,000", "January 5, 2021"}
    made = normalize("This Agreement is dated as of January 5, 2021.", {}, "").text
    dated = adapt(made, DealFacts(date="2025-07-01"))
    assert dated == "This Agreement is dated as of 2025-07-01."  # the date it is made: the deal's
    assert adapt("It expires on [DATE].", DealFacts(date="2025-07-01")) == f"It expires on {OTHER_DATE}."


@pytest.mark.parametrize("source,expected", [
    ("This Agreement shall be governed by the laws of the People's Republic of China.",
     "This Agreement shall be governed by the laws of the State of Ohio."),
    ("Any dispute shall be finally settled by arbitration in Hong Kong.",
     "Any dispute shall be finally settled by arbitration in the State of Ohio."),
    ('"Territory" shall be defined as the People\'s Republic of China.', '"Territory" shall be defined as [___].'),
    ("Distributor may use the name Supplier of Texas in its advertising.",
     "Distributor may use the name Supplier of [___] in its advertising."),
])
def test_a_place_is_the_deals_governing_law_only_where_the_precedent_names_its_law_or_forum(source, expected):
    # another deal's address, territory or place of business is no governing law: "Supplier of the State of
    # Minnesota", "the People's the State of Ohio" (readers at seeds 283 and 313)
    n = normalize(source, {}, "")
    assert "[LAW]" in n.text
    assert adapt(n.text, DealFacts(law="the State of Ohio")) == expected


def test_a_redaction_in_a_precedent_is_a_blank_to_complete_not_a_hole_for_the_filler():
    body = "A breach not corrected within [***] after written notice, or [***] units a year, ends it."
    p = Precedent("d#1", "d", "cuad", "CC-BY-4.0", "SUPPLY AGREEMENT", "termination", "Term", body)
    out = p.adapted(DealFacts())
    assert out == "A breach not corrected within [___] after written notice, or [___] units a year, ends it."
    # a list item that was nothing but a redaction goes whole
    p.body = "Supplier shall:\n(a) [***].\n(b) ship the Product.\n[***]\n(c) keep records."
    assert p.adapted(DealFacts()) == "Supplier shall:\n(b) ship the Product.\n(c) keep records."


def test_a_small_word_glued_to_a_role_is_spaced_so_the_role_is_the_deals():
    from hybrid.data.roles import deal_roles

    body = "Customer shall qualify the suppliers ofCustomer materials, and theProducts stay iPhone-free."
    p = Precedent("d#1", "d", "cuad", "CC-BY-4.0", "SUPPLY AGREEMENT", "products", "Supply", body)
    out = p.adapted(DealFacts(roles=deal_roles("Supplier", "Buyer")))
    assert out == "Buyer shall qualify the suppliers of Buyer materials, and the Products stay iPhone-free."


def test_a_line_of_capitals_that_heads_another_clause_ends_the_precedent():
    body = (
        "Buyer may buy similar products from others.\n\nATTORNEY FEES\n\nShould either party sue, the prevailing "
        "party recovers its fees."
    )
    assert own_clause(body, "exclusivity") == "Buyer may buy similar products from others."
    assert own_clause(body.replace("ATTORNEY FEES", "ARTICLE XI"), "exclusivity").endswith("from others.")
    numbered = "Buyer may buy from others:\n(b) [***] 19. ATTORNEY FEES\n\nShould either party sue, it recovers fees."
    assert own_clause(numbered, "exclusivity") == "Buyer may buy from others:\n(b) [***]"
    # its own type's heading, a heading no rule knows, and any part of a General section stay
    assert own_clause(body.replace("ATTORNEY FEES", "EXCLUSIVE RIGHTS"), "exclusivity") == body.replace(
        "ATTORNEY FEES", "EXCLUSIVE RIGHTS"
    )
    assert own_clause(body.replace("ATTORNEY FEES", "INSTALLATION"), "exclusivity").endswith("its fees.")
    assert own_clause(body, "general") == body
    # a line of capitals inside a paragraph in capitals is no heading
    caps = "THE WARRANTIES ABOVE ARE EXCLUSIVE.\nLIMITATION OF LIABILITY\nAND ALL OTHER WARRANTIES ARE DISCLAIMED."
    assert own_clause(caps, "warranties") == caps


def _lib(*specs) -> Library:
    return Library(
        [Precedent(f"d{i}#1", f"d{i}", "src", "CC0", dt, ct, h, b) for i, (dt, ct, h, b) in enumerate(specs)], "fp"
    )


SMALL_SPECS = (
    (
        "MUTUAL NDA",
        "governing_law",
        "Governing Law",
        "This NDA is governed by the laws of [LAW] without regard to conflicts.",
    ),
    (
        "DISTRIBUTOR AGREEMENT",
        "governing_law",
        "Governing Law",
        "The laws of [LAW] govern this agreement and the courts of [LAW].",
    ),
    (
        "DISTRIBUTOR AGREEMENT",
        "governing_law",
        "Jurisdiction",
        "Exclusive jurisdiction of the courts; venue; arbitration rules.",
    ),
    ("DISTRIBUTOR AGREEMENT", "notices", "Notices", "Notices must be in writing and delivered by courier."),
)
SMALL = _lib(*SMALL_SPECS)


def test_retrieval_prefers_the_same_doc_type_and_falls_back_to_any():
    assert [p.doc_id for p in SMALL.retrieve("governing_law", "governing law", doc_type="MUTUAL NDA", k=1)] == ["d0"]
    two = SMALL.retrieve("governing_law", "governing law", doc_type="MUTUAL NDA", k=2)
    assert len(two) == 2 and {p.doc_type for p in two} == {"MUTUAL NDA", "DISTRIBUTOR AGREEMENT"}
    assert SMALL.retrieve("governing_law", "jurisdiction venue", k=1)[0].doc_id == "d2"  # BM25 ranks by the query
    assert SMALL.retrieve("governing_law", "governing law", k=3, exclude_doc="d0")[0].doc_id != "d0"
    assert SMALL.retrieve("insurance", "anything") == []


class _PreferWord:
    """A relevance scorer that ranks texts holding `word` first (and records what it was shown)."""

    def __init__(self, word):
        self.word, self.seen = word, []

    def score(self, query, texts):
        self.seen.append(list(texts))
        return [float(self.word in t) for t in texts]


def test_a_relevance_scorer_reorders_bm25s_shortlist():
    lib = _lib(*SMALL_SPECS)
    bm25 = lib.retrieve("governing_law", "governing law courts", k=1)[0].doc_id
    pick = _PreferWord("arbitration")
    assert lib.retrieve("governing_law", "governing law courts", k=1, relevance=pick)[0].doc_id == "d2" != bm25
    assert all("[LAW]" not in t for t in pick.seen[0])  # the encoder sees precedents without their markers
    lib.use_relevance(pick)  # what drafting does (with hybrid.precedents.relevance's scorer)
    assert lib.retrieve("governing_law", "governing law courts", k=1)[0].doc_id == "d2"
    assert lib.retrieve("governing_law", "governing law courts", k=1, relevance=None)[0].doc_id == bm25


def test_retrieval_is_deterministic_for_a_seed_and_variants_may_differ():
    lib = _lib(
        *[("X", "notices", f"Notices {i}", f"notice courier email mail writing {'word ' * i}") for i in range(12)]
    )
    a = [p.id for p in lib.retrieve("notices", "notice courier", k=2, seed=3, variant=1)]
    assert a == [p.id for p in lib.retrieve("notices", "notice courier", k=2, seed=3, variant=1)]
    draws = {tuple(p.id for p in lib.retrieve("notices", "notice courier", k=2, seed=3, variant=v)) for v in range(8)}
    assert len(draws) > 1


@pytest.mark.parametrize(
    "kwargs,match",
    [({"clause_type": "bogus"}, "clause type must be one of"), ({"clause_type": "notices", "k": 0}, "k must be")],
)
def test_bad_retrieval_arguments_name_the_argument(kwargs, match):
    with pytest.raises(PrecedentError, match=match):
        SMALL.retrieve(**kwargs)


def test_library_is_built_on_first_use_cached_and_refused_after_the_corpus_changes(corpus):
    assert not default_library_path().exists()
    lib = load_library(corpus=corpus, progress=False)
    assert default_library_path().is_file() and len(load_library(corpus=corpus).precedents) == len(lib)
    with open(corpus / "manifest.jsonl", "a") as f:  # a new corpus version
        f.write(
            json.dumps({"path": "sa/new.txt", "source": "x", "doc_type": "Y", "group": "g", "split": "train"}) + "\n"
        )
    (corpus / "sa" / "new.txt").write_text(
        "NEW\n\n1. Notices. All notices shall be in writing and sent by email or courier today.\n"
    )
    with pytest.raises(PrecedentError, match="another corpus version"):
        load_library(corpus=corpus)


def test_a_missing_library_file_is_a_clear_error(corpus, tmp_path):
    with pytest.raises(PrecedentError, match="not found.*--build"):
        load_library(tmp_path / "nope.json", corpus=corpus)
    with pytest.raises(PrecedentError, match="not found"):
        load_library(corpus=corpus, build=False)


def test_cli_builds_and_browses_with_json(corpus, capsys):
    assert main(["precedents", "--build", "--corpus", str(corpus)]) == 0
    capsys.readouterr()
    assert main(["precedents", "license", "--corpus", str(corpus), "-k", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["precedents"]) == 1 and {"doc_id", "heading", "source", "license", "body"} <= set(
        out["precedents"][0]
    )


@pytest.mark.parametrize("argv", [["precedents", "notices", "-k", "-1"], ["precedents", "notices", "-k", "x"]])
def test_cli_bad_k_exits_2_at_parse_time(corpus, argv, capsys):
    try:
        code = main(argv + ["--corpus", str(corpus)])
    except SystemExit as e:  # plain argparse exits; hybrid.cli.main may return the code instead
        code = e.code
    assert code == 2 and "-k" in capsys.readouterr().err


def test_cli_without_clause_type_or_build_exits_2(corpus, capsys):
    assert main(["precedents", "--corpus", str(corpus)]) == 2
    assert "--build" in capsys.readouterr().err


def _doc() -> Document:
    sections = [
        Section(
            "1",
            "Confidentiality",
            "confidentiality",
            "Acme shall keep all Confidential Information secret for two (2) years.",
        ),
        Section("2", "Notices", "notices", "Notices to Acme must be in writing and delivered by hand or courier."),
    ]
    return Document("x.txt", "cuad", "MUTUAL NDA", "train", "g", "NDA", 'Acme Inc. ("Acme") and Beta', sections,
                    fields={"party_a": "Acme Inc.", "party_b": "Beta"})


def test_training_windows_put_a_precedent_right_before_its_span_as_that_sections_heading():
    lib = _lib(
        ("MUTUAL NDA", "notices", "Notices", "Notices to [PARTY_A] shall be sent by registered mail to [PARTY_B].")
    )
    aug, kinds = with_precedents(_doc(), lib, PairMix(own=0.5, cross=0.5, none=0.0), random.Random(1))
    segs = aug.segments()
    for i, seg in enumerate(segs):
        if seg.kind == "body" and kinds[seg.section] != "none":
            prev = segs[i - 1]
            assert prev.kind == "heading" and prev.section == seg.section and prev.text.startswith("Precedent: ")
    assert "sent by registered mail" in "".join(s.text for s in segs) or "cross" not in kinds


def test_own_clause_precedents_are_corrupted_copies_and_a_none_mix_adds_nothing():
    aug, kinds = with_precedents(_doc(), SMALL, PairMix(own=0.0, cross=0.0, none=1.0), random.Random(0))
    assert kinds == ["none", "none"] and [s.text for s in aug.segments()] == [s.text for s in _doc().segments()]
    text = "one two three four five six seven eight nine ten"
    assert corrupt(text, random.Random(0), 0.0, 0.0) == text
    assert corrupt(text, random.Random(0), 0.3, 0.0) != text


@pytest.mark.parametrize("spec", ["0.5:0.5", "0.5:0.6:0.2", "a:b:c"])
def test_bad_precedent_mix_is_a_config_error(spec):
    with pytest.raises(ConfigError, match="precedent mix"):
        PairMix.parse(spec)


def test_library_words_are_the_words_its_bodies_write_often_enough():
    from hybrid.precedents.library import Library, Precedent

    def p(body):
        return Precedent("d#1", "d", "cuad", "CC-BY-4.0", "nda", "term", "Term", body)

    lib = Library([p("The [PARTY_A] shall deliver goods."), p("Goods delivered on time; the term is 3 years.")], "fp")
    assert lib.words() == {"the", "goods"}  # twice or more, lower case, markers and numbers are no words
    assert {"deliver", "delivered", "time", "years"} <= lib.words(min_count=1) and "party_a" not in lib.words(
        min_count=1
    )


def test_a_defined_name_far_from_a_party_is_not_that_partys_alias():
    """'an attachment listed herein ("Attachment")' after both parties named the document, not the
    customer: before, every defined name after a party's full name was taken as its alias, so a
    precedent's "the Attachment" became the deal's party and "Attachment" counted as a leaked fact."""
    from hybrid.data.facts import party_names

    preamble = (
        'This Hosting Agreement ("Agreement") between International Business Machines Corporation ("IBM") and '
        'The Quantum Group Inc., ("Customer"), sets forth the terms under which IBM will provide hosting and related '
        "services to Customer, including the documents referenced herein and the following attachments: Attachment A - "
        "Services; Attachment B - Hosting Components; and Attachment C - Charges. In the event of a conflict between "
        'these terms and an attachment listed herein ("Attachment"), these terms prevail. ("Premium Shares")'
    )
    a, b = party_names(
        {"party_a": "International Business Machines Corporation", "party_b": "The Quantum Group Inc."}, preamble
    )
    assert "IBM" in a and "Customer" in b
    assert "Attachment" not in a + b and "Premium Shares" not in a + b
    n = normalize(
        "Customer shall review each Attachment; IBM shall host.",
        {"party_a": "International Business Machines Corporation", "party_b": "The Quantum Group Inc."},
        preamble,
    )
    assert n.text == "[PARTY_B] shall review each Attachment; [PARTY_A] shall host.", n.text
    assert "Attachment" not in n.facts


def test_a_partys_alias_follows_any_mention_of_its_name():
    """The alias after a later mention of the name counts ("Widgets" below), not only after the first
    (the title's), and a mention of the other party in between does not steal it."""
    from hybrid.data.facts import party_names

    preamble = (
        "Supply Agreement between Acme Widgets Corp and Beta LLC. This Agreement is made by Beta LLC, a Delaware "
        'company ("Vendor"), and Acme Widgets Corp, a Texas corporation with offices at 1 Main Street, Austin '
        '("Widgets"). The goods delivered hereunder ("Goods").'
    )
    a, b = party_names({"party_a": "Acme Widgets Corp", "party_b": "Beta LLC"}, preamble)
    assert "Widgets" in a and "Vendor" in b and "Widgets" not in b and "Goods" not in a + b


def test_a_period_spelled_in_two_number_words_is_replaced_whole():
    # seen in a harness draft: "shall extend for a period of twenty four (24) months" read "twenty [___]"
    n = normalize("This Agreement shall extend for a period of twenty four (24) months or until terminated.", {}, "")
    assert n.text == "This Agreement shall extend for a period of [DURATION] or until terminated."
    assert n.facts == ["twenty four (24) months"]
    # a word before a one-word number is no part of the period (a draft read "renewed for additional [___] periods,
    # unless ... received no later [___] prior" when it was)
    assert normalize("for a period of twenty (20) years", {}, "").text == "for a period of [DURATION]"
    n = normalize("renewed for successive one (1) year periods, unless notice is received no later than six (6) months "
                  "prior to expiry", {}, "")
    assert n.text == ("renewed for successive [DURATION] periods, unless notice is received no later than "
                      "[DURATION] prior to expiry")


def test_a_standard_forms_own_periods_rates_and_cited_laws_stay_as_it_writes_them():
    """A standard form has no deal: "within 30 days after the invoice date", "99.9% of the time", "1.5% per month"
    are its positions, "the United Kingdom" a law it cites. As markers they were blanks in every form-based draft
    ("all amounts are due within [___] after the invoice date"); a contract's own are still another deal's facts."""
    text = ("All amounts are due within 30 days after the invoice date. Late payments bear 1.5% per month. Uptime is "
            "99.9% of the time. GDPR as applied in the United Kingdom. Liability will not exceed US$1,000.")
    form = normalize(text, {}, "", own_terms=True)
    assert form.text == text and form.facts == []
    contract = normalize(text, {}, "").text
    assert "within [DURATION] after" in contract and "[PERCENT] per month" in contract and "[LAW]" in contract
    # a form's fill-in fields still become the deal's facts
    assert normalize("The law of {governing_law} governs.", {}, "", own_terms=True).text == "The law of [LAW] governs."


def test_the_library_keeps_a_standard_forms_own_periods(library, corpus):
    import re

    from hybrid.data.corpus import load_documents

    doc = next(d for d in load_documents(corpus, splits=("train",)) if d.source == "commonpaper")
    periods = {m.group(0) for s in doc.sections for m in re.finditer(r"\b\d+ days\b", s.body)}
    assert periods, "the Common Paper excerpt states no period: the test reads nothing"
    bodies = " ".join(p.body for p in library.precedents if p.source == "commonpaper")
    assert all(period in bodies for period in periods) and "[DURATION]" not in bodies
