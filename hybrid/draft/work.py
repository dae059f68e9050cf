"""How much a draft may write: the bound on a request's total work, checked where the request is built.

Owns: MAX_DRAFT_TOKENS and `outline_tokens` (the sections and span tokens of a template's largest outline, or of the
outline a request gives). A draft's work and memory grow with what its variants write (sections x budget x n); a
64-section template of 1,024-token budgets at n = 8 (524,288 tokens) held a CPU for minutes and gigabytes of memory.
hybrid.draft.request.DraftRequest refuses a request past the bound, so the command line, the Python API and the web
page refuse it alike, before any work.
"""

__all__ = ["MAX_DRAFT_TOKENS", "outline_tokens"]

MAX_DRAFT_TOKENS = 1 << 18
"""Span tokens one draft may write over all its variants (sections x budget x n): every shipped template fits at
n = 64 (the largest writes at most 16 sections of 256 tokens a variant)."""


def outline_tokens(template, outline: dict | None = None) -> tuple[int, int]:
    """(sections, span tokens) of one variant at most: the given outline's sections at their clause types' budgets,
    else the template's largest outline (the most sections its outline schema allows, the largest budgets first,
    a clause type at most once unless repeatable; an outline schema of another shape: as many sections as it has
    clause types, each at the largest budget)."""
    budgets = {c: spec["budget"] for c, spec in template.clauses.items()}
    if outline is not None:
        slots = [budgets.get(s["clause"], 0) for s in outline["sections"]]
        return len(slots), sum(slots)
    s = template.structure
    if s is None:
        return len(budgets), len(budgets) * max(budgets.values(), default=0)
    fixed = [budgets[c] for c in (*s.lead, *s.tail)]
    pool = sorted((budgets[c] for c in s.optional for _ in range(s.max_sections if c in s.repeatable else 1)),
                  reverse=True)
    slots = fixed + pool[: max(0, s.max_sections - len(fixed))]
    return len(slots), sum(slots)
