"""Blanks to complete in a whole base (hybrid.text.blanks.blank_holes): another deal's names, places, products
and short names become "[___]", the words of contracts in general stay as written (hybrid.fidelity.ordinary_words,
on the real train split: built into .cache on first use, as hybrid.draft does). The kept sentences are those a cold
lawyer found damaged at seed 31 ("acts of [___]", "Supplier shall [___] provide a warranty")."""

import pytest

from hybrid.data.facts import BLANK
from hybrid.fidelity.foreign_facts import allowed_text
from hybrid.skeleton.deal import deal_from_template
from hybrid.templates.template import load_template
from hybrid.text.blanks import blank_holes
from hybrid.text.start import fact_holes

from conftest import CORPUS

pytestmark = pytest.mark.skipif(not (CORPUS / "manifest.jsonl").is_file(), reason="needs the corpus's train split")


@pytest.fixture(scope="module")
def supply():
    t = load_template("supply")
    return deal_from_template(t, t.example), allowed_text(t, t.example)


KEPT = [
    "Neither party is liable for a delay caused by fire, flood or acts of God.",
    "Supplier shall NOT provide a warranty for Products that Buyer has modified.",
    "Examples of these kinds of laws include the FCPA and the Foreign Corrupt Practices Act.",
    '"OFAC" means the Office of Foreign Assets Control.',
    "Titles and Headings. The headings of this Agreement are for convenience only.",
    "Supplier shall comply with the Regulatory Change procedures.",
    # a role either party takes by turns is no deal's name (hybrid.data.roles.TURN_ROLES): a master supply agreement's
    # confidentiality clause had read "a [___] represents ... to the [___]"
    "The Disclosing Party shall mark its information as confidential.",
    "The Receiving Party shall keep the Disclosing Party's information confidential.",
]


@pytest.mark.parametrize("sentence", KEPT)
def test_words_contracts_of_many_companies_write_stay(supply, sentence):
    deal, allowed = supply
    assert blank_holes(sentence, deal, allowed) == sentence
    assert fact_holes(sentence, deal, allowed) == 0  # nor does an edit mask them for the filler to rewrite


BLANKED = [
    # (sentence, what of another deal must go)
    ("Supplier shall deliver the Products to FarmaCiencia at its facility.", "FarmaCiencia"),  # a company
    ("Buyer shall pay the invoices of BNC Mortgage within the Term.", "BNC Mortgage"),
    ("Supplier shall deliver the Products to the warehouse in Menlo Park.", "Menlo Park"),  # a city
    ("Supplier shall deliver the Products to the warehouse in Chicago.", "Chicago"),  # a city many contracts write
    ("Buyer shall use the CyberKnife System only as this Agreement permits.", "CyberKnife"),  # a product
    ("Buyer shall use the LBIO Products only as this Agreement permits.", "LBIO"),  # a short name
    ("Supplier shall pay the Microsoft license fees.", "Microsoft"),  # a brand
    ("Supplier shall return all Customer Materials to Buyer.", "Customer"),  # another deal's role
    ("The Licensee shall pay the royalty to Supplier.", "Licensee"),
    ("Copies go to David Hamilton at Buyer.", "David"),  # a person
]


@pytest.mark.parametrize("sentence, foreign", BLANKED)
def test_another_deals_names_places_and_roles_stay_blanks(supply, sentence, foreign):
    deal, allowed = supply
    out = blank_holes(sentence, deal, allowed)
    assert foreign not in out and BLANK in out


NAMED = [
    # (sentence, as blanked): a company's whole name is one blank, "&" and its legal form with it; the stop of "Ltd."
    # that ends the sentence stays the sentence's (a joint venture's '"PARENT" means [___] & [___]' had gone on to the
    # filler as "Industries Ltd.", which it wrote as '":i.')
    ('"PARENT" means Tate & Lyle Industries Ltd.\n\nThe Board decides.', '"PARENT" means [___].\n\nThe Board decides.'),
    ("Notices go to Tate & Lyle North America, Inc., in writing.", "Notices go to [___], in writing."),
    ("Buyer shall pay Zanzibar Quux Ltd. within the Term.", "Buyer shall pay [___] within the Term."),
]


@pytest.mark.parametrize("sentence, expected", NAMED)
def test_another_companys_whole_name_is_one_blank(supply, sentence, expected):
    deal, allowed = supply
    assert blank_holes(sentence, deal, allowed) == expected
