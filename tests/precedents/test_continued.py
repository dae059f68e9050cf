"""hybrid.precedents.continued: a precedent joined by the sections after it in its source on the same subject."""

from hybrid.precedents.continued import continued, room_words
from hybrid.precedents.library import Library, Precedent


def _p(n: int, clause: str, body: str, doc: str = "nda.md") -> Precedent:
    return Precedent(f"{doc}#{n}", doc, "bonterms", "CC-BY-4.0", "MUTUAL NDA", clause, f"Heading {n}", body)


DEFINE = "[PARTY_A] defines Confidential Information broadly here."
USE = "[PARTY_B] will use Confidential Information only for the Purpose."
EXCEPT = "These obligations do not apply to public information."
TERM = "This Agreement lasts two years."
LIB = Library(
    [
        _p(1, "confidentiality", DEFINE),
        _p(2, "confidentiality", USE),
        _p(3, "confidentiality", EXCEPT),
        _p(4, "termination", TERM),
        _p(5, "confidentiality", "Return all Confidential Information."),
        _p(2, "confidentiality", "Another contract's clause.", doc="other.txt"),
    ],
    "fp",
)


def test_the_sections_after_a_precedent_on_its_subject_join_it_while_they_fit():
    first = LIB.precedents[0]
    out = continued(LIB, first, "confidentiality", room=100)
    assert out.body == f"{DEFINE}\n\n{USE}\n\n{EXCEPT}"  # not the Term section, nor what follows it
    assert [c["id"] for c in out.citations()] == ["nda.md#1", "nda.md#2", "nda.md#3"]
    assert out.id == first.id and out.heading == first.heading
    # the room decides how many whole sections join
    short = continued(LIB, first, "confidentiality", room=len(DEFINE.split()) + len(USE.split()))
    assert short.body == f"{DEFINE}\n\n{USE}"
    assert continued(LIB, first, "confidentiality", room=len(DEFINE.split())) is first
    # a precedent of another type than the span's, none, or one whose next section is of another type stays
    assert continued(LIB, first, "definitions", room=100) is first
    assert continued(LIB, None, "confidentiality", room=100) is None
    assert continued(LIB, LIB.precedents[4], "confidentiality", room=100) is LIB.precedents[4]


def test_a_precedent_flipped_to_the_deals_roles_has_the_sections_after_it_flipped():
    first = LIB.precedents[0]
    flipped = Precedent(**{**first.__dict__, "body": DEFINE.replace("[PARTY_A]", "[PARTY_B]")})
    out = continued(LIB, flipped, "confidentiality", room=100)
    assert out.body.split("\n\n")[1] == USE.replace("[PARTY_B]", "[PARTY_A]")


def test_room_words_leaves_the_frame_its_words():
    assert room_words(640) == 448 and room_words(640, "Each Party shall keep it secret.") == 442
    assert room_words(8, "a frame longer than the room it has left here") == 0
