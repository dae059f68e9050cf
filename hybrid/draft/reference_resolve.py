"""Which draft section one source reference means: by the very heading it names, by the exact source section, by
its heading's clause type, by its number (in that order of trust).

Owns `Exact` (a number resolver's answer known from the reference's own source document), `Headed` (a title
resolver's answer for a title the draft has a section of) and `resolve_one`. Pure: the resolvers come from the
revise step (hybrid.draft.revise)."""

__all__ = ["Exact", "Headed", "resolve_one"]


class Exact(str):
    """A resolver's answer known from the reference's own source document: the draft section drafted from the very
    source section the number names. It is asked before the heading, which for a part ("Section 8.4 (Exceptions)" of
    a Limitation of Liability) names no clause type of its own (read as one, it had pointed at Confidentiality)."""


class Headed(str):
    """A title resolver's answer for a title the draft has a section of that very heading: that section, whatever
    number the source gave it."""


def resolve_one(number: str, title: str, resolve, resolve_title) -> "str | None":
    """The draft section of one source number: the section of the very heading the reference names (Headed: the
    CSA with SLA's "Section 14 (Definitions)" where its parse numbers Definitions 16), else the exact one where the
    resolver knows it (Exact), else by its heading's clause type (resolve_title: a section number, "" for a heading
    that names a clause the draft lacks, None for one it cannot place), else by the number."""
    by_title = resolve_title(title) if resolve_title and title else None
    if isinstance(by_title, Headed):
        return by_title
    exact = resolve(number) if resolve else None
    if isinstance(exact, Exact):
        return exact
    if by_title is not None:
        return by_title or None
    return exact
