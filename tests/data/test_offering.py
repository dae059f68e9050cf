from hybrid.data.facts import DealFacts, adapt
from hybrid.data.offering import apply_offering, deal_offering
from hybrid.skeleton.deal import deal_from_template
from hybrid.templates.template import load_template

SAAS = ["Agreement", "Effective Date", "Provider", "Customer", "Cloud Service", "Customer Content"]


def test_a_standard_forms_product_is_the_deals_cloud_service():
    pairs = deal_offering(SAAS)
    text = "Customer will not submit Prohibited Data to the Product. The Product's uptime; THE PRODUCT IS AS IS."
    want = (
        "Customer will not submit Prohibited Data to the Cloud Service. The Cloud Service's uptime; "
        "THE CLOUD SERVICE IS AS IS."
    )
    assert apply_offering(text, pairs) == want


def test_a_word_inside_a_longer_name_or_in_lower_case_stays():
    pairs = deal_offering(SAAS)
    text = "Work Product, Product Specifications, Service Level Credits, Customer Service, a product, WORK PRODUCT"
    assert apply_offering(text, pairs) == text


def test_only_a_word_of_the_same_subject_changes_and_a_defined_word_stays():
    assert apply_offering("the Goods and the Product", deal_offering(["Supplier", "Buyer", "Products"])) == (
        "the Products and the Product"  # a singular "Product" is the Definitions' business (singular of Products)
    )
    assert deal_offering(["Agreement", "Party"]) == ()
    assert ("Service", "Cloud Service") not in deal_offering([*SAAS, "Service"])


def test_the_saas_template_adapts_a_precedents_product():
    t = load_template("saas-agreement")
    deal = deal_from_template(t, dict(t.example))
    assert ("Product", "Cloud Service") in deal.offering
    out = adapt("[PARTY_A] will make the Product available.", deal)
    assert out == "Provider will make the Cloud Service available."
    assert adapt("the Product", DealFacts()) == "the Product"
