"""xgrammar adapter: JSON Schema -> token bitmask constraint for our byte-level BPE tokenizer.

Owns: the TokenizerInfo (built by hand from the tokenizer's exact bytes, with every special
token blanked so none can appear inside a JSON string; eos is the only stop token), schema
compilation with the project's settings (any_whitespace=False: compact JSON with ", " and ": "
separators, byte-identical to hybrid.data.plan_format.outline_json), and one decoding's matcher
state (mask logits, accept tokens, jump-forward), and the outline grammar a template's structure
gives (`outline_ebnf`). Knows nothing about models or sampling.

Outlines without repeats by construction: a JSON Schema cannot say "each optional clause type at
most once" in a form xgrammar honours (`uniqueItems` is ignored), so the planner decodes under an
EBNF grammar written from the template's OutlineStructure: the lead clauses, then each optional
type in the template's order, taken or skipped (required ones, from `required_when`, always
taken), then the tail, with the section count kept in [min_sections, max_sections] by a counter
in the rule names. Every string it accepts is an outline the template's outline_schema accepts
(same JSON shape, same heading and title patterns), so the jsonschema check still holds.

Pitfalls measured here (DESIGN.md): `TokenizerInfo.from_huggingface` on our tokenizer detects
no special tokens; `maxLength` on strings lets control characters through (xgrammar #800), so
templates bound strings with `pattern`; xgrammar silently ignores `contains`, so the template
meta-schema rejects it (hybrid/templates/template_schema.json).
"""

import json

import torch
import xgrammar as xgr

from hybrid.common.errors import TemplateError

__all__ = ["token_bytes", "GrammarCompiler", "Constraint", "outline_ebnf"]

# the character classes of hybrid.templates.template.HEADING_PATTERN / TITLE_PATTERN, as EBNF
_HEAD_FIRST, _HEAD_MID, _HEAD_LAST = "[A-Z]", "[A-Za-z0-9 ,'&/()-]", "[A-Za-z0-9)]"


def _lit(text: str) -> str:
    """text as an EBNF string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def outline_ebnf(structure, title: str | None, required: set[str] = frozenset()) -> str:
    """The EBNF of every outline JSON (outline_json's compact form) that follows `structure`
    (a hybrid.templates.template.OutlineStructure): each optional type at most once (consecutive repeats
    only for structure.repeatable), in order, every type in `required` present. title: the
    fixed title, or None for a free one under the title pattern.

    Rule `s_I_C_R`: the rest of the outline from optional type I with C sections written and R
    = 1 when type I was already taken (a repeatable one may be taken again or left).
    """
    st = structure
    opt, tail = list(st.optional), list(st.tail)
    req = [c in required for c in opt]
    rep = [c in st.repeatable for c in opt]
    missing = sorted(set(required) - set(opt) - set(st.lead) - set(tail))
    assert not missing, f"required clause types the structure never allows: {missing}"
    need_after = [sum(req[i:]) for i in range(len(opt) + 1)]  # required types still to come from I
    rules: dict[str, str] = {}

    def sep(c: int) -> str:
        return '", " ' if c > 0 else ""

    def feasible(i, c, r) -> bool:
        lo = c + need_after[i] - (1 if i < len(opt) and req[i] and r else 0) + len(tail)
        hi = st.max_sections if any(rep[i:]) else c + (len(opt) - i) - (1 if r else 0) + len(tail)
        return lo <= st.max_sections and hi >= st.min_sections

    def state(i: int, c: int, r: int) -> str:
        name = f"s_{i}_{c}_{r}"
        if name in rules:
            return name
        rules[name] = ""  # placeholder against re-entry while building
        if i == len(opt):
            parts = [sep(c + j) + f"sec_{t}" for j, t in enumerate(tail)]
            rules[name] = " ".join(parts) if parts else '""'
            return name
        alts = []
        if c + 1 <= st.max_sections:  # take type i
            nxt = (i, c + 1, 1) if rep[i] else (i + 1, c + 1, 0)
            if feasible(*nxt):
                alts.append(f"{sep(c)}sec_{opt[i]} {state(*nxt)}")
        if (not req[i] or r) and feasible(i + 1, c, 0):  # leave type i
            alts.append(state(i + 1, c, 0))
        assert alts, f"no outline fits from optional type {i} with {c} sections"
        rules[name] = " | ".join(f"({a})" for a in alts)
        return name

    lead = [sep(j) + f"sec_{c}" for j, c in enumerate(st.lead)]
    start = state(0, len(st.lead), 0)
    title_rule = (
        _lit(json.dumps(title)[1:-1]) if title is not None else f"{_HEAD_FIRST} ({_HEAD_MID}{{0,78}} {_HEAD_LAST})?"
    )
    out = [
        "root ::= " + " ".join(['"{\\"title\\": \\""', "title", '"\\", \\"sections\\": ["', *lead, start, '"]}"']),
        f"title ::= {title_rule}",
        f"heading ::= {_HEAD_FIRST} ({_HEAD_MID}{{0,58}} {_HEAD_LAST})?",
    ]
    for c in dict.fromkeys(list(st.lead) + opt + tail):
        clause = _lit(f'", "clause": "{c}"}}')
        out.append(f'sec_{c} ::= "{{\\"heading\\": \\"" heading {clause}')
    out += [f"{k} ::= {v}" for k, v in rules.items()]
    return "\n".join(out) + "\n"


def _byte_decoder() -> dict[str, int]:
    """Inverse of the GPT-2 bytes_to_unicode table that HF ByteLevel uses to spell bytes as chars."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def token_bytes(tokenizer) -> list[bytes]:
    """The exact bytes of every token id (special tokens as b"").

    Decoding ids one by one through the tokenizer is lossy for tokens that hold part of a
    multi-byte character (they decode to U+FFFD), so this reads the BPE vocabulary and undoes
    the ByteLevel character mapping instead.
    """
    dec = _byte_decoder()
    special = {tokenizer.token_id(t) for t in tokenizer.special_tokens}
    out = [b""] * tokenizer.vocab_size
    for piece, i in tokenizer.hf.get_vocab(with_added_tokens=True).items():
        if i in special:
            continue
        assert all(ch in dec for ch in piece), f"token {i} ({piece!r}) is not a ByteLevel token"
        out[i] = bytes(dec[ch] for ch in piece)
    return out


class GrammarCompiler:
    """Compiles JSON Schemas for one tokenizer and one model output size (cached per schema)."""

    def __init__(self, tokenizer, vocab_size: int | None = None):
        """vocab_size: the model's logits width (may exceed the tokenizer's; the extra ids are masked)."""
        self.vocab_size = vocab_size or tokenizer.vocab_size
        assert self.vocab_size >= tokenizer.vocab_size, (
            f"model vocab {self.vocab_size} < tokenizer vocab {tokenizer.vocab_size}"
        )
        self.eos_id = tokenizer.eos_id
        self.info = xgr.TokenizerInfo(
            token_bytes(tokenizer), xgr.VocabType.RAW, vocab_size=self.vocab_size, stop_token_ids=[self.eos_id]
        )
        self._compiler = xgr.GrammarCompiler(self.info, max_threads=1)
        self._cache: dict[str, xgr.CompiledGrammar] = {}

    def compile(self, schema: dict) -> xgr.CompiledGrammar:
        key = json.dumps(schema)  # property order is the output order: never sort keys
        if key not in self._cache:
            try:
                self._cache[key] = self._compiler.compile_json_schema(key, any_whitespace=False, strict_mode=True)
            except RuntimeError as e:  # what the template checks at load cannot foresee: still one line, exit 2
                raise TemplateError(
                    f"the outline schema cannot be compiled into the planner's grammar: {str(e).splitlines()[0][:300]}"
                ) from None
        return self._cache[key]

    def compile_ebnf(self, ebnf: str) -> xgr.CompiledGrammar:
        key = "ebnf:" + ebnf
        if key not in self._cache:
            self._cache[key] = self._compiler.compile_grammar(ebnf)
        return self._cache[key]

    def constraint(self, schema: dict | None = None, *, ebnf: str | None = None) -> "Constraint":
        """The constraint of a JSON Schema or, with ebnf=, of an EBNF grammar (root rule `root`)."""
        assert (schema is None) != (ebnf is None), "pass a schema or an EBNF grammar"
        return Constraint(self.compile(schema) if ebnf is None else self.compile_ebnf(ebnf), self.vocab_size)


class Constraint:
    """One decoding's grammar state: which tokens may come next, and what is forced."""

    def __init__(self, compiled: xgr.CompiledGrammar, vocab_size: int):
        self.matcher = xgr.GrammarMatcher(compiled)
        self.vocab_size = vocab_size
        self.bitmask = xgr.allocate_token_bitmask(1, vocab_size)  # (1, ceil(V / 32)) int32

    def mask(self, logits: torch.Tensor) -> torch.Tensor:
        """A copy of logits (1, V) with every token the grammar forbids at -inf."""
        self.matcher.fill_next_token_bitmask(self.bitmask)
        out = logits.float().clone()
        mask = self.bitmask.to(out.device) if out.device.type != "cpu" else self.bitmask
        xgr.apply_token_bitmask_inplace(out, mask, vocab_size=self.vocab_size)
        return out

    def allowed(self) -> list[int]:
        """Token ids the grammar allows next (slow: tests and diagnostics only)."""
        self.matcher.fill_next_token_bitmask(self.bitmask)
        bits = self.bitmask[0].to(torch.int64) & 0xFFFFFFFF
        ids = torch.arange(self.bitmask.shape[1] * 32)
        allowed = (bits[ids // 32] >> (ids % 32)) & 1
        return [i for i in allowed.nonzero().flatten().tolist() if i < self.vocab_size]

    def accept(self, token_id: int) -> None:
        ok = self.matcher.accept_token(int(token_id))
        assert ok, f"grammar rejected token {token_id}: a masked token was sampled"

    def forced(self) -> list[int]:
        """Tokens the grammar forces from here (jump-forward); the caller accepts them."""
        return self.matcher.find_jump_forward_tokens()

    @property
    def can_stop(self) -> bool:
        """The text so far is a complete value (only the stop token may follow for our schemas)."""
        return self.matcher.is_completed()

    @property
    def done(self) -> bool:
        """The stop token has been accepted."""
        return self.matcher.is_terminated()
