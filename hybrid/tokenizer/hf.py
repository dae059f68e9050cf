"""Tokenizer adapter: a pretrained base's tokenizer plus the project's special tokens.

Owns: turning a base's tokenizer.json (a byte-level BPE, as Llama-3 / SmolLM2 / GPT-2 style
bases ship) into a HybridTokenizer, the interface every caller uses (special ids, encode/decode,
`special_ids`, save/load). Our specials (<pad> <bos> <eos> <mask> and the markers) are appended as
*special* tokens after the base's vocabulary, so every base id keeps its meaning and the model
grows only new rows (hybrid.model.llama.LlamaBackbone.resize_vocab). The base's own special tokens
(<|im_start|> ...) join `special_tokens`/`special_ids`, so the grammar blanks them and the samplers
ban them like ours. Knows nothing about models.

Refused (CheckpointError): a tokenizer whose pieces are not ByteLevel (a SentencePiece-style one
with a normalizer cannot give decode(encode(x)) == x, which the drafting path relies on).
"""

from pathlib import Path

from tokenizers import AddedToken

from hybrid.common.errors import CheckpointError
from hybrid.tokenizer.bpe import SPECIAL_TOKENS, HybridTokenizer, read_tokenizer_file

__all__ = ["from_pretrained_tokenizer", "PROBE"]

# text a contract tokenizer must round-trip exactly: leading/trailing/double spaces, tabs, blank
# lines, curly quotes, dashes, accents, and a literal special token that must stay plain text
PROBE = (
    "  Section 2.1 \u2014 \u201cConfidential Information\u201d\tmeans\n\n\u00e9t\u00e9 <mask> <|im_start|> "
    "10% $1,000.00 \n"
)


def from_pretrained_tokenizer(path) -> HybridTokenizer:
    """HybridTokenizer from a base's tokenizer.json (file or the directory holding it); idempotent:
    a tokenizer saved by HybridTokenizer.save (ours already added) loads to the same ids."""
    p = Path(path)
    f = p / "tokenizer.json" if p.is_dir() else p
    tok = read_tokenizer_file(f)
    base_specials = [
        t.content for t in tok.get_added_tokens_decoder().values() if t.special and t.content not in SPECIAL_TOKENS
    ]
    missing = [t for t in SPECIAL_TOKENS if tok.token_to_id(t) is None]
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in missing])
    out = HybridTokenizer(tok)  # sets encode_special_tokens: a literal "<mask>" in text stays text
    ids = out.encode(PROBE)
    if (
        out.decode(ids) != PROBE
        or set(ids) & set(out.special_ids)
        or set(ids) & {tok.token_to_id(t) for t in base_specials}
    ):
        raise CheckpointError(
            f"tokenizer does not round-trip text exactly (decode(encode(x)) != x): {f}; a byte-level BPE is needed."
        )
    out.special_tokens = list(SPECIAL_TOKENS) + base_specials
    out.special_ids = [out.token_id(t) for t in out.special_tokens]
    return out
