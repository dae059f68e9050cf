"""hybrid.precedents.subject_term: a contract base's own name for the goods, written as the template's."""

from hybrid.precedents.subject_term import base_subject, on_subject, subject_term

SUPPLY = ('This Supply Agreement (the "Agreement") is entered into as of {effective_date} (the "Effective Date") by '
          'and between {party_a} (the "Supplier") and {party_b} (the "Buyer") for the manufacture and supply of '
          '{products} (the "Products").')
BASE = ['"API" shall mean the active pharmaceutical ingredient known as mometasone furoate. "Buyer" means the buyer.',
        "Supplier shall manufacture and supply API to Buyer. Buyer shall purchase API from Supplier.",
        "Supplier shall supply the API within ninety days. The API is delivered DDP. Supplier shall manufacture API."]


def test_the_templates_subject_and_its_verbs_come_from_its_preamble():
    assert subject_term(SUPPLY) == ("Products", ("manufact", "suppl"))
    jv = 'by and between {party_a} and {party_b}, who agree to form {venture_name} (the "Venture")'
    assert subject_term(jv) is None


def test_the_bases_subject_is_the_term_it_writes_after_those_verbs():
    assert base_subject(BASE, "Products", ("manufact", "suppl"), ["Buyer", "Supplier"]) == "API"
    # once or twice is a mention, not the base's goods
    assert base_subject(BASE[1:2], "Products", ("manufact", "suppl")) is None
    # the template's own word in another number or form is no other deal's ("Product", "Franchise" of "Franchised")
    assert base_subject(["supply Product to it. " * 4], "Products", ("suppl",)) is None
    assert base_subject(["operate the Franchise. " * 4], "Franchised Business", ("operat",)) is None


def test_the_bases_term_is_written_as_the_templates_and_its_definition_goes():
    text = on_subject(" ".join(BASE), "API", "Products")
    assert "API" not in text and "mometasone" not in text
    assert "Supplier shall manufacture and supply Products to Buyer." in text
    assert "The Products are delivered DDP." in text  # a plural term takes a plural verb
    assert '"Buyer" means the buyer.' in text
    assert on_subject("No subject here.", "API", "Products") == "No subject here."
