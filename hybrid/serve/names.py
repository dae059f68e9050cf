"""What a draft is called outside its own page: the label a history list shows and the name a download is saved as.

Owns: job_label (the template, the parties and the day it was drafted, from a checked DraftRequest) and
download_name (a file name from that label: the template id, the parties, the day, ASCII letters, digits and
hyphens only, so no party name can reach a path or a header).
"""

import re
import time
import unicodedata

__all__ = ["job_label", "download_name", "MAX_NAME"]

MAX_NAME = 120  # characters of a download's name before its extension
_UNSAFE = re.compile(r"[^A-Za-z0-9]+")


def job_label(request, when: float | None = None) -> dict:
    """{"template", "title", "parties", "date"} of a DraftRequest: the parties are the fields named party_*, in the
    template's order; the date is the day the draft was asked for (local time)."""
    template, fields = request.template, request.fields
    parties = [str(fields[k]) for k in template.fields["properties"] if k.startswith("party") and fields.get(k)]
    return {"template": template.id, "title": template.title, "parties": parties,
            "date": time.strftime("%Y-%m-%d", time.localtime(when))}


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _UNSAFE.sub("-", ascii_text).strip("-")


def download_name(label: dict, fmt: str, *, redline: bool = False) -> str:
    """`<template>_<party>_<party>_<date>[-redline].<fmt>`, each part reduced to ASCII letters, digits and hyphens
    (a part with none is left out), at most MAX_NAME characters before the extension."""
    parts = [_slug(p) for p in [label.get("template") or "draft", *label.get("parties", []), label.get("date", "")]]
    stem = "_".join(p for p in parts if p)[:MAX_NAME].rstrip("-_") or "draft"
    return f"{stem}{'-redline' if redline else ''}.{fmt}"
