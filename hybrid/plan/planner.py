"""The planner: constrained autoregressive outline decoding on the shared backbone.

Owns: the decode loop (causal mode, KV cache: the prompt is prefilled once, then each step feeds
only new tokens), the grammar constraint per step (token bitmask from hybrid.plan.grammar), jump-forward
(tokens the grammar forces are accepted without sampling and fed in the same forward as the
sampled token), sampling through hybrid.common.sampling, and the final jsonschema check. Knows nothing
about diffusion, filling or ranking (no diffusion imports).

Text format (hybrid.data.plan_format): <bos><plan>{prompt json}<outline>{outline json}<eos>.
Every returned outline validates against its template's outline_schema with jsonschema; an
outline that did not would be a grammar/schema disagreement and raises, it is never retried.

The grammar (structured=True, the default): for a template whose outline_schema has the canonical
shape (hybrid.templates.template.OutlineStructure), the EBNF of hybrid.plan.grammar.outline_ebnf, so no clause
type repeats (unless the template lists it as repeatable), the clauses the given fields require
(`required_when`) are present and the title is the template's (unless `outline_rules.free_title`)
by construction; `Template.outline_problems` is checked as well and a problem raises. Another
schema shape, or structured=False (the behaviour before this grammar, kept for benchmarks),
decodes under the JSON Schema alone.
"""

import json
import time
from dataclasses import dataclass

import torch

from hybrid.common.errors import SamplingError, TemplateError
from hybrid.common.sampling import SamplingParams, apply_processors, sample
from hybrid.data.plan_format import OUTLINE_TOKEN, PLAN_TOKEN, plan_prompt
from hybrid.plan.grammar import Constraint, GrammarCompiler, outline_ebnf, token_bytes
from hybrid.templates.template import Template, load_template

__all__ = ["Planner", "PlanResult", "Decoded"]

DEFAULT_MAX_TOKENS = 2048  # a 16-section outline with 60-character headings is < 1,000 tokens


@dataclass
class Decoded:
    """One decode: the generated ids (stop token included when reached) and where time went."""

    tokens: list[int]
    forced_tokens: int  # accepted by jump-forward, never sampled
    forwards: int  # model calls after the prefill
    seconds: float
    finished: bool  # the stop token was produced (False: max_tokens reached)


@dataclass
class PlanResult:
    outline: dict
    text: str  # the outline JSON exactly as decoded
    tokens: list[int]  # outline token ids, <eos> included
    forced_tokens: int  # how many of them jump-forward supplied
    seconds: float
    prompt_tokens: int = 0

    def to_dict(self) -> dict:
        return {
            "outline": self.outline,
            "text": self.text,
            "tokens": len(self.tokens),
            "forced_tokens": self.forced_tokens,
            "prompt_tokens": self.prompt_tokens,
            "seconds": round(self.seconds, 4),
        }


class Planner:
    """Writes an outline for (template, fields) with a causal model under the template's schema.

    model: callable `model(ids (B, T), mode="causal", cache=KVCache) -> logits (B, T, V)`.
    """

    def __init__(self, model, tokenizer):
        from hybrid.model.cache import KVCache  # the model side; imported here to keep import light

        self.model = model
        self.tokenizer = tokenizer
        self._new_cache = KVCache
        self._compilers: dict[int, GrammarCompiler] = {}
        self._pieces: list[bytes] | None = None

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def compiler(self, vocab_size: int) -> GrammarCompiler:
        if vocab_size not in self._compilers:
            self._compilers[vocab_size] = GrammarCompiler(self.tokenizer, vocab_size)
        return self._compilers[vocab_size]

    def prompt_ids(self, template: Template, fields: dict) -> list[int]:
        tok = self.tokenizer
        return (
            [tok.bos_id, tok.token_id(PLAN_TOKEN)]
            + tok.encode(plan_prompt(template.doc_type, fields))
            + [tok.token_id(OUTLINE_TOKEN)]
        )

    def plan(
        self,
        template,
        fields: dict,
        *,
        seed: int = 0,
        params: SamplingParams | None = None,
        on_token=None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        jump_forward: bool = True,
        structured: bool = True,
    ) -> PlanResult:
        """Decode one outline. Same (model, template, fields, seed, params) -> same outline.

        on_token(token_id, piece: bytes, forced: bool) is called for every outline token in order.
        structured: decode under the template's structural grammar (see the module docstring).
        Raises FieldError for bad fields, SamplingError when max_tokens ends the outline early.
        """
        template = load_template(template)
        values = template.validate_fields(fields)
        prompt = self.prompt_ids(template, values)
        ebnf = self.outline_grammar(template, values) if structured else None
        d = self.decode(
            prompt, None if ebnf else template.outline_schema, seed=seed, params=params, on_token=on_token,
            max_tokens=max_tokens, jump_forward=jump_forward, ebnf=ebnf,
        )
        if not d.finished:
            raise SamplingError(
                f"max_tokens={max_tokens} ended the outline before it was complete; raise max_tokens (the default is "
                f"{DEFAULT_MAX_TOKENS})."
            )
        body = d.tokens[:-1] if d.tokens and d.tokens[-1] == self.tokenizer.eos_id else d.tokens
        text = b"".join(self._token_pieces()[i] for i in body).decode("utf-8")
        outline = json.loads(text)
        try:
            template.validate_outline(outline)
        except TemplateError as e:
            raise TemplateError(
                f"{e} (xgrammar accepted this outline: the template's outline_schema uses a construct the grammar "
                f"reads differently)"
            ) from None
        problems = template.outline_problems(outline, values) if ebnf else []
        if problems:
            raise TemplateError(f"the outline grammar of template {template.id!r} let through: {'; '.join(problems)}")
        return PlanResult(outline, text, d.tokens, d.forced_tokens, d.seconds, len(prompt))

    @staticmethod
    def outline_grammar(template: Template, values: dict) -> str | None:
        """The structural EBNF for (template, validated fields), or None for a non-canonical schema."""
        if template.structure is None:
            return None
        title = None if template.free_title else template.title
        return outline_ebnf(template.structure, title, set(template.required_when(values)))

    def _token_pieces(self) -> list[bytes]:
        if self._pieces is None:
            self._pieces = token_bytes(self.tokenizer)
        return self._pieces

    @torch.inference_mode()
    def decode(
        self,
        prompt_ids: list[int],
        schema: dict | None,
        *,
        seed: int = 0,
        params: SamplingParams | None = None,
        on_token=None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        jump_forward: bool = True,
        ebnf: str | None = None,
    ) -> Decoded:
        """The loop, under a JSON Schema or (ebnf=) an EBNF grammar; neither decodes unconstrained
        (until <eos> or max_tokens): the baseline."""
        if not (isinstance(max_tokens, int) and max_tokens >= 1):
            raise SamplingError(f"max_tokens must be an integer >= 1, got {max_tokens!r}.")
        params = params or SamplingParams()
        processors = params.processors()
        draw_temperature = 0.0 if params.greedy else 1.0  # processors() already applied the temperature
        device = self.device
        generator = torch.Generator(device=device).manual_seed(seed)
        eos = self.tokenizer.eos_id
        pieces = self._token_pieces() if on_token else None

        t0 = time.perf_counter()
        self.model.eval()
        cache = self._new_cache()
        ids = torch.tensor([prompt_ids], dtype=torch.long, device=device)
        logits = self.model(ids, mode="causal", cache=cache)[:, -1, :]  # (1, V)
        constraint: Constraint | None = None
        if schema is not None or ebnf is not None:
            constraint = self.compiler(logits.shape[-1]).constraint(schema, ebnf=ebnf)

        out: list[int] = []
        history = torch.empty((1, max_tokens + 1), dtype=torch.long, device=device)  # outline ids so far
        forced_total = forwards = 0
        finished = False

        def emit(tok: int, forced: bool):
            history[0, len(out)] = tok
            out.append(tok)
            if on_token is not None:
                on_token(tok, pieces[tok], forced)

        while len(out) < max_tokens:
            allowed = constraint.mask(logits) if constraint is not None else logits.float()
            scores = allowed
            if processors:
                scores = apply_processors(processors, history[:, : len(out)], allowed)
                if not bool(torch.isfinite(scores).any()):
                    scores = allowed  # the filters removed every token the grammar allows: the grammar wins
            tok = int(sample(scores, generator, draw_temperature))
            if constraint is not None:
                constraint.accept(tok)
            emit(tok, False)
            if tok == eos:
                finished = True
                break
            step = [tok]
            if constraint is not None and jump_forward:
                for f in constraint.forced()[: max_tokens - len(out)]:
                    constraint.accept(f)
                    emit(f, True)
                    step.append(f)
                    forced_total += 1
                if constraint.can_stop and constraint.allowed() == [eos] and len(out) < max_tokens:
                    constraint.accept(eos)  # the only continuation is the stop token: no forward needed
                    emit(eos, True)
                    forced_total += 1
                    finished = True
                    break
            if len(out) >= max_tokens:
                break
            logits = self.model(torch.tensor([step], dtype=torch.long, device=device), mode="causal", cache=cache)[
                :, -1, :
            ]
            forwards += 1
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        return Decoded(out, forced_total, forwards, time.perf_counter() - t0, finished)
