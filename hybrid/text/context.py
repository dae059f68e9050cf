"""What a text pass may read: one context per phase, built once by the step that runs the phase.

Owns `StartContext` (one precedent edit: the deal, the words the deal allows, the precedent's own facts, the span's
frame, heading, the draft's other clause types, whether it is a whole base's section, and the tokenizer and room the
fit cuts to), `ReviseContext` (one section of a finished draft: its index, its dict, the draft's clause types, what
the consistency pass knows of the whole draft, the reference resolvers, the section's changes so far) and
`WholeContext` (every section at once: the live bodies, the preamble, the terms kept, a memo a pass fills on its
first section). Plain data: the fields' types live in the layers that fill them.
"""

from dataclasses import dataclass, field

__all__ = ["StartContext", "ReviseContext", "WholeContext"]


@dataclass
class StartContext:
    deal: object = None  # hybrid.data.facts.DealFacts
    allowed: str = ""  # the text whose facts are the deal's (fact spans elsewhere are another deal's)
    own: tuple = ()  # the precedent's own facts
    lower: object = None  # words another deal's terms may be written in lower case with (None: none)
    frame: str = ""  # the frame sentence that opens the span
    heading: str | None = None  # the span's section heading (None: every run-in heading goes)
    others: frozenset = frozenset()  # the clause types of the draft's other sections
    whole: bool = False  # a section of a whole base: keeps all it can mend
    tokenizer: object = None  # what "fit" measures the room with
    room: int | None = None  # tokens the start may take (None: whole)

    def key(self) -> tuple:
        """What the start's memo tells contexts apart by (the tokenizer and room excepted: the fit is not memoized)."""
        return (repr(self.deal), self.allowed, tuple(self.own), id(self.lower), self.frame, self.heading,
                frozenset(self.others), self.whole)


@dataclass
class ReviseContext:
    index: int
    section: dict
    clauses: list
    draft: dict  # party_defined, lacks, has_term, trade, guard: hybrid.draft.consistency.consistency_pass
    resolve: object = None  # number -> this draft's section number, or None
    by_title: object = None  # heading -> this draft's section number, or None
    changes: list = field(default_factory=list)  # the section's changes so far, in order
    relist: bool = False  # a removal left a list to letter again: the next "relist" pass does, and clears it


@dataclass
class WholeContext:
    sections: list
    bodies: list  # live: each section's body as the passes before left it
    preamble: str = ""
    keep: tuple = ()  # terms the Definitions keeps even unused
    index: int = 0
    memo: dict = field(default_factory=dict)  # pass name -> what it computed on its first section
