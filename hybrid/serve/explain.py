"""A variant's scores in a lawyer's words: what each number measures and whether it is good.

Owns: explain_scores (one plain sentence per score of a Draft: the reranker's total and likelihood, each contract
check in [0, 1] with 1 for no defect (hybrid.rank.contract_checks), the base drafts' market coverage and
contradictions (hybrid.draft.base_stage)). A score it does not know is named and given as a number.
"""

import math

__all__ = ["explain_scores", "CHECK_WORDS"]

CHECK_WORDS = {  # check -> what a score of 1 (no defect) means
    "parties": "names both parties as the deal gives them",
    "terms": "uses the deal's terms (dates, durations, amounts)",
    "consistency": "uses its defined terms consistently",
    "clauses": "holds the clauses this kind of contract needs",
    "numbering": "numbers its sections and cross-references in order",
    "repetition": "repeats no passage",
    "foreign": "holds no names or facts from another deal",
    "fit": "has each section say what its heading names",
}


def _share(v: float) -> str:
    return f"{round(100 * v)}%"


def explain_scores(scores: dict) -> list[str]:
    """One sentence per score, in the order: overall, fluency, checks, market, contradictions, the rest."""
    out = []
    for key, value in scores.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            continue
        if key == "total":
            out.append(f"Overall {value:.2f}: the variants are ordered by it, the highest first; each defect below "
                       "lowers it.")
        elif key == "loglik":
            out.append(f"Fluency {value:.2f}: how naturally the wording reads to the model (average log-probability "
                       "per word piece; nearer 0 reads more naturally, -1 to -4 is usual).")
        elif key in CHECK_WORDS:
            verdict = "no defect found" if value >= 1 else f"{_share(value)}: a defect lowers the rank"
            out.append(f"It {CHECK_WORDS[key]}: {verdict}.")
        elif key == "market":
            out.append(f"It holds {_share(value)} of the clauses contracts of this kind commonly hold.")
        elif key == "contradictions":
            n = int(value)
            out.append("No contradiction between its terms was found." if n == 0 else
                       f"{n} contradiction{'s' if n != 1 else ''} between its terms (each lowers the rank).")
        else:
            out.append(f"{key}: {value:.3f}.")
    return out
