"""hybrid: contract drafting engine.

    from hybrid import Drafter, DraftRequest
    drafts = Drafter.from_pretrained().draft(DraftRequest.of("mutual-nda", fields, n=4, seed=0))

The names below are imported on first use, so `import hybrid.templates.template` (or the CLI) does not
pay for torch and the grammar engine until a model is needed.
"""

__all__ = ["Drafter", "Draft", "DraftRequest", "PrecedentMode", "RequestValueError", "Reranker"]

_HOME = {"Drafter": "hybrid.draft.drafter", "Draft": "hybrid.draft.result", "Reranker": "hybrid.rank.rerank",
         "DraftRequest": "hybrid.draft.request", "PrecedentMode": "hybrid.draft.request",
         "RequestValueError": "hybrid.draft.request"}


def __getattr__(name):
    if name in _HOME:
        import importlib

        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'hybrid' has no attribute {name!r}")
