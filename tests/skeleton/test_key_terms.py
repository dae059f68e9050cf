"""A form's text about its cover page made true of the draft's Key Terms section (hybrid.skeleton.key_terms)."""

from hybrid.skeleton.key_terms import on_key_terms, term_words

LAW = ("This NDA is governed by the laws of the State of Governing Law, without regard to the conflict of laws "
       "provisions of such Governing Law. Any legal suit, action, or proceeding relating to this NDA must be "
       "instituted in the federal or state courts located in Jurisdiction. Each party irrevocably submits to the "
       "exclusive jurisdiction of such Jurisdiction in any such suit, action, or proceeding.")


def test_an_open_forum_is_the_courts_of_the_governing_laws_state_and_the_variables_read_as_words():
    """The one-way NDA's "federal or state courts located in [___]" and "the exclusive jurisdiction of such
    jurisdiction" were the seed-257 reader's first fault; the other Common Paper drafts name the governing law's
    courts."""
    out = on_key_terms(LAW, {"governing_law": "the State of New York"}, set())
    assert "governed by the laws of the State of New York" in out
    assert "the conflict of laws provisions of such law." in out
    assert "federal or state courts located in the State of New York." in out
    assert "the exclusive jurisdiction of such courts in any such suit" in out
    # no governing law stated: a blank to complete, not a guess
    assert "courts located in [___]." in on_key_terms(LAW, {}, set())


def test_an_ordering_document_includes_the_key_terms_and_a_term_they_state_is_defined_by_them():
    body = ('"Order" means an order for Customer\'s access to the Cloud Service that is executed by the parties.\n\n'
            '"Subscription Term" means the term identified in an Order.')
    out = on_key_terms(body, {}, {term_words("Subscription Term")})
    assert '"Order" means an order for Customer\'s access to the Cloud Service that is executed by the parties. The ' \
           'Key Terms section of this Agreement is an Order.' in out
    assert '"Subscription Term" means the term identified in the Key Terms or an Order.' in out
    # Common Paper's contractor form: its fees and notices "set forth in the SOW" had pointed at no document
    sow = on_key_terms('"SOW" means the ordering document that incorporates these Terms and identifies the Services.',
                       {}, set())
    assert sow.endswith("identifies the Services. The Key Terms section of this Agreement is an SOW.")


def test_a_document_the_cover_page_was_the_first_of_is_the_key_terms_or_a_later_one():
    """'"SOW" means the Key Terms section of this Agreement' beside "Client or its Affiliates may enter SOWs" read as
    circular (seed-223, 257 and 263 consulting readers); the Key Terms themselves are that section alone."""
    sow = on_key_terms('"SOW" means the Key Terms that includes the key business details for this Agreement that are '
                       'not defined in the Key Terms or Standard Terms.', {}, set())
    assert sow == ('"SOW" means the Key Terms section of this Agreement or another document the parties sign that '
                   'refers to this Agreement, each of which includes the key business details for this Agreement.')
    own = on_key_terms('"Key Terms" means the Key Terms that includes the key legal details.', {}, set())
    assert own == '"Key Terms" means the Key Terms section of this Agreement, which includes the key legal details.'


def test_the_forms_own_terms_are_the_terms_as_written_adapted_from_the_published_version():
    """'"Standard Terms" means these Common Paper ... Standard Terms Version 1.0, which are posted at https://...' read
    as incorporating a web text that differs from the signed one (seed-257 and 263 readers)."""
    out = on_key_terms('"Standard Terms" means these Common Paper Software License Standard Terms Version 1.0, which '
                       'are posted at https://commonpaper.com/standards/software-license-agreement/1.0.', {}, set())
    assert out == ('"Standard Terms" means these terms as written in this Agreement, adapted from the Common Paper '
                   'Software License Standard Terms Version 1.0 posted at '
                   'https://commonpaper.com/standards/software-license-agreement/1.0.')
    assert on_key_terms('"Bonterms Cloud Terms" means these Bonterms Cloud Terms (Version 1.0).', {}, set()) == (
        '"Bonterms Cloud Terms" means these terms as written in this Agreement, adapted from the Bonterms Cloud Terms '
        '(Version 1.0).')


def test_a_variable_the_form_provides_for_none_of_reads_none_identified_and_another_stays_a_blank():
    from hybrid.skeleton.key_terms import PART_VALUE, variable_value

    text = ("Provider will implement the Security Measures identified in this Agreement. If no Security Measures are "
            "identified, Provider will use appropriate measures. Customer will comply with any Acceptable Use Policy "
            "(AUP) identified in this Agreement. The parties will adhere to the DPA, if any. Client will comply with "
            "Client Obligations, if any. Consultant assigns the Deliverables at the Time of Assignment.")
    assert variable_value("Security Measures", None, text) == "none identified"
    assert variable_value("Acceptable Use Policy", None, text) == "none identified"
    assert variable_value("Client Obligations", None, text) == "none identified"
    assert variable_value("Time of Assignment", None, text) == "[___]"  # the form provides for no absence
    assert variable_value("Time of Assignment", "upon payment", text) == "upon payment"
    assert variable_value("Standard Terms", None, text) == PART_VALUE
