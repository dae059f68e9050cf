"""The planner's text format, shared by training (real outlines) and decoding (hybrid.plan.planner).

Owns: which fields condition the planner, and how the prompt and the outline are serialized.

    <bos><plan>{"type": "<DOC TYPE>", "fields": {...}}<outline>{"title": ..., "sections": [...]}<eos>

Only PLAN_FIELDS condition the planner: they are what CUAD's master_clauses.csv gives for real
documents (so training pairs exist) and what every template asks for. Knows no tokenizer ids.
"""

import json

__all__ = ["PLAN_FIELDS", "PLAN_TOKEN", "OUTLINE_TOKEN", "plan_prompt", "outline_json"]

PLAN_FIELDS = ("party_a", "party_b", "effective_date", "governing_law")
PLAN_TOKEN = "<plan>"
OUTLINE_TOKEN = "<outline>"


def plan_prompt(doc_type: str, fields: dict) -> str:
    """The conditioning JSON (without special tokens): doc type + the PLAN_FIELDS present in fields."""
    kept = {k: str(fields[k]) for k in PLAN_FIELDS if fields.get(k)}
    return json.dumps({"type": doc_type.upper(), "fields": kept}, ensure_ascii=False)


def outline_json(outline: dict) -> str:
    """Compact outline serialization; the planner's grammar must produce exactly this shape."""
    return json.dumps(outline, ensure_ascii=False, separators=(", ", ": "))
