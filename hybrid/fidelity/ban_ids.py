"""Token bans for a deal: the ids the fillers must not write (`deal_ban_ids`), so that a draft cannot name a
place or another deal's term that its deal does not. `place_ban_ids`: single tokens that spell a
distinctive word of a place the deal does not name; `name_ban_ids`: the tokens of
hybrid/fidelity/capitalized_terms.json (built by `build_capitalized_terms` for one tokenizer) that open
other deals' defined terms and names. The words come from hybrid.fidelity.fact_vocab; a tokenizer is
the only model piece read here.
"""

import json
import re
from functools import lru_cache
from pathlib import Path

from hybrid.fidelity.fact_vocab import _GENERIC, _WORD_RE, PLACES

__all__ = ["place_ban_ids", "name_ban_ids", "deal_ban_ids", "build_capitalized_terms"]

# words of PLACES that name no place on their own ("New", "North") or that several places share
_PLACE_WORDS_SHARED = frozenset(
    "New North South West United Kingdom Republic Islands Island British Virgin District Arab "
    "Emirates Saudi Czech Hong Kong Korea Nova Scotia Cayman Puerto Rico Zealand Africa of".split()
)


def place_ban_ids(tokenizer, allowed: str) -> list[int]:
    """Token ids that spell, as one token, a distinctive word of a place `allowed` does not name
    (" Texas", " York" of New York, " Ontario"): a pure ban the fillers apply everywhere, so a
    draft cannot write another state's or country's name in those forms. Words of places the
    deal names are never banned ("Virginia" when the law is West Virginia's)."""
    low = allowed.lower()
    keep = {w.lower() for w in _WORD_RE.findall(allowed)}
    out = set()
    for place in PLACES:
        if re.search(rf"\b{re.escape(place.lower())}\b", low):
            continue
        for word in place.split():
            if word in _PLACE_WORDS_SHARED or word.lower() in keep:
                continue
            for text in (" " + word, word):
                ids = tokenizer.encode(text)
                if len(ids) == 1:
                    out.add(ids[0])
    return sorted(out)


TERMS_FILE = Path(__file__).with_name("capitalized_terms.json")


def _vocab_sha(tokenizer) -> str:
    import hashlib

    return hashlib.sha1(json.dumps(sorted(tokenizer.hf.get_vocab().items())).encode()).hexdigest()[:16]


def build_capitalized_terms(tokenizer, bodies, min_count: int = 5, min_mid_share: float = 0.8) -> dict:
    """The tokens that open a capitalized word mostly in mid-sentence in `bodies` (train-split
    clause bodies): other deals' defined terms and names ("Licensor", "Products", "GitHub") and
    the first pieces of such words, as opposed to sentence openers ("The", "Each", "Upon").
    A token counts as sentence-initial after . : ; ! ? ) or a quote and a space, or at a line start."""
    from collections import Counter

    initial, mid = Counter(), Counter()
    for ids in tokenizer.encode_batch(list(bodies)):
        prev = "\n"
        for i in ids:
            piece = tokenizer.decode([i])
            if re.match(r"^ ?[A-Z][a-z]", piece):
                start = re.search(r"[.:;!?)\"]\s*$", prev) if piece.startswith(" ") else prev.endswith("\n")
                (initial if start else mid)[i] += 1
            prev = piece
    inv = {i: p for p, i in tokenizer.hf.get_vocab().items()}
    pieces = sorted(
        inv[i] for i in set(mid) if initial[i] + mid[i] >= min_count and mid[i] / (initial[i] + mid[i]) >= min_mid_share
    )
    return {
        "vocab_sha": _vocab_sha(tokenizer),
        "min_count": min_count,
        "min_mid_share": min_mid_share,
        "pieces": pieces,
    }


@lru_cache(maxsize=1)
def _capitalized_terms() -> dict:
    return json.loads(TERMS_FILE.read_text(encoding="utf-8")) if TERMS_FILE.is_file() else {}


def name_ban_ids(tokenizer, allowed: str) -> list[int]:
    """Token ids of hybrid/fidelity/capitalized_terms.json (built for this tokenizer; none for another)
    that the deal's text never uses and that are not generic contract words: other deals'
    defined terms and names cannot open a word of a draft."""
    data = _capitalized_terms()
    if not data or data.get("vocab_sha") != _vocab_sha(tokenizer):
        return []
    vocab = tokenizer.hf.get_vocab()
    words = set(_WORD_RE.findall(allowed))
    used = set(tokenizer.encode(allowed))
    for w in words:
        used |= set(tokenizer.encode(" " + w)) | set(tokenizer.encode(w))
    generic = {w.lower() for w in _GENERIC} | {w.lower() for w in words}
    out = []
    for piece in data["pieces"]:
        i = vocab.get(piece)
        if i is None or i in used or tokenizer.decode([i]).strip().lower() in generic:
            continue
        out.append(i)
    return sorted(out)


def deal_ban_ids(tokenizer, allowed: str) -> list[int]:
    """Every token the fillers must not write for this deal: place_ban_ids and name_ban_ids."""
    return sorted(set(place_ban_ids(tokenizer, allowed)) | set(name_ban_ids(tokenizer, allowed)))
