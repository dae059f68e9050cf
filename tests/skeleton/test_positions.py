"""A template's `definitions`: the deal's meaning of a term its base defines, in place of the base's."""

from dataclasses import dataclass

from hybrid.skeleton.positions import own_definitions, redefine
from hybrid.templates.template import load_template


@dataclass(frozen=True)
class _Section:
    body: str


def test_a_term_the_base_defines_takes_the_deals_meaning_and_nothing_else_changes():
    body = ('"Beta Product" means an early version of the Product.\n"Cloud Service" means the product described in the '
            'Order Form.\n(c) "Customer Content" shall mean data submitted by Customer.\nThe Cloud Service is hosted.')
    out = redefine(body, "Cloud Service", "the hosting of the Application.")
    assert out.splitlines()[1] == '"Cloud Service" means the hosting of the Application.'
    assert out.splitlines()[0] == body.splitlines()[0] and out.splitlines()[3] == body.splitlines()[3]
    out = redefine(out, "Customer Content", "data and the Application")
    assert out.splitlines()[2] == '(c) "Customer Content" shall mean data and the Application.'
    assert redefine(body, "Software", "the Host's tools") == body  # a term the base does not define: left alone


def test_the_hosting_template_redefines_the_cloud_service_form_so_the_customer_keeps_its_application():
    """Seed 263 and 269 readers: the cloud service form's "Cloud Service" (its vendor's product) and "Customer Content"
    made the Customer's own platform read as the Host's ("Host retains all right, title, and interest in and to the
    Product")."""
    template = load_template("hosting")
    values = dict(template.example)
    defs = _Section(body='"Cloud Service" means the product described in the Order Form.\n"Customer Content" '
                                'means data, information, or materials submitted by or on behalf of Customer.')
    other = _Section(body="Provider retains all right, title, and interest in and to the Product.")
    new_defs, same = own_definitions([defs, other], template, values)
    assert same is other
    assert '"Cloud Service" means the hosting and operation of the Application that the Host provides' in new_defs.body
    assert "including the Application" in new_defs.body


def test_a_filed_contracts_definition_of_a_preamble_term_reads_the_deals_value():
    """Igene's joint venture defined "EFFECTIVE DATE" as "[___] a.m. Eastern standard time on [___]" against the deal's
    2025-10-01 (a cold reader at seed 619): a filed contract's definition of a term the template's preamble defines
    from a field reads the deal's value, in any case; a party's role is left as the contract defines it, and a standard
    form's definitions stay (written for any deal)."""
    from dataclasses import replace as dc_replace

    from hybrid.precedents.library import Precedent
    from hybrid.skeleton.positions import preamble_meanings

    t = load_template("joint-venture")
    assert preamble_meanings(t, t.example) == {"Effective Date": "2025-10-01", "Venture": "Granite Solar Ventures LLC"}
    body = '"EFFECTIVE DATE" means [___] a.m. Eastern standard time on [___].\n\n"PARTY" means each of the parties.'
    p = Precedent("d#1", "d", "cuad", "CC-BY-4.0", "JOINT VENTURE AGREEMENT", "definitions", "Definitions", body)
    out = own_definitions([p], t, t.example, contract=True)[0].body
    assert out == '"EFFECTIVE DATE" means 2025-10-01.\n\n"PARTY" means each of the parties.'
    assert own_definitions([p], t, t.example)[0] is p
    assert own_definitions([dc_replace(p, body="no definitions here")], t, t.example, contract=True)[0].body == (
        "no definitions here")


def test_a_colon_definition_of_a_preamble_term_reads_the_deals_value():
    """Fuse Medical's distributor agreement defines in the English and Australian style, a term and a colon:
    "Territory: means the territory set out in Schedule 2." lost its pointer to the schedule the deal lacks and read
    "Territory: means the territory." (seed 733); it reads the deal's territory now, as does "Products: As defined in
    Schedule 1 ...". A sentence that merely opens with the term and a colon elsewhere is no definition."""
    from hybrid.precedents.library import Precedent

    t = load_template("distributor")
    body = ("Products: As defined in Schedule 1 and includes any other products the Supplier permits.\n\n"
            "Term: the term of this agreement. Territory: means the territory set out in Schedule 2.\n\n"
            "The Territory: is where the Distributor sells.")
    p = Precedent("d#1", "d", "cuad", "CC-BY-4.0", "DISTRIBUTOR AGREEMENT", "definitions", "Definitions", body)
    out = own_definitions([p], t, t.example, contract=True)[0].body
    assert out == ("Products: the Vireo line of portable ultrasound scanners and accessories.\n\n"
                   "Term: the term of this agreement. Territory: means Canada.\n\n"
                   "The Territory: is where the Distributor sells.")


def test_a_filed_contracts_name_for_the_franchised_premises_is_the_deals_term():
    """A restaurant franchisor's agreement, the base for a bakery cafe, names what is franchised "the Franchised
    Restaurant" some 150 times; as another deal's term it read "operate the [___]" throughout (session 38). Written as
    the deal's preamble term "Franchised Business", in the singular and the plural; a term of another first word or
    noun stays, as does a standard form's text."""
    from hybrid.precedents.library import Precedent
    from hybrid.skeleton.positions import same_unit

    t = load_template("franchise")
    body = ("You shall operate the Franchised Restaurant only at the Location. Other Franchised Restaurants may open. "
            "Use the Franchised Marks and the Licensed Restaurant.")
    p = Precedent("d#1", "d", "cuad", "CC-BY-4.0", "FRANCHISE AGREEMENT", "obligations", "Operations", body)
    out = own_definitions([p], t, t.example, contract=True)[0].body
    assert out == ("You shall operate the Franchised Business only at the Location. Other Franchised Businesses may "
                   "open. Use the Franchised Marks and the Licensed Restaurant.")
    assert own_definitions([p], t, t.example)[0] is p
    assert same_unit("the Licensed Store and Licensed Stores", "Licensed Location") == (
        "the Licensed Location and Licensed Locations")
    assert same_unit("THE STATE IN WHICH THE FRANCHISED RESTAURANT IS LOCATED", "Franchised Business") == (
        "THE STATE IN WHICH THE FRANCHISED BUSINESS IS LOCATED")
