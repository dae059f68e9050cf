"""hybrid.plan.planner + hybrid.plan.grammar on a tiny random model: every outline validates, decoding is
seeded and streamed, the grammar and jsonschema agree, special tokens never leak into JSON."""

import json
import os
import re

import jsonschema
import pytest
import torch

from hybrid.common.errors import FieldError, SamplingError
from hybrid.common.sampling import SamplingParams
from hybrid.data.plan_format import outline_json
from hybrid.plan.grammar import GrammarCompiler, token_bytes
from hybrid.plan.planner import Planner
from hybrid.templates.template import HEADING_PATTERN, TEMPLATES_DIR, load_template

IDS = sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))
SEEDS = range(int(os.environ.get("HYBRID_PLAN_SEEDS", "2")))  # the benchmark runs 100


@pytest.fixture(scope="module")
def planner(tiny_model, tokenizer):
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # batch-1 decoding of a tiny model: threads only add contention
    yield Planner(tiny_model, tokenizer)
    torch.set_num_threads(threads)


@pytest.mark.parametrize("tid", IDS)
def test_every_outline_of_a_random_model_validates(planner, tid):
    t = load_template(tid)
    for seed in SEEDS:
        r = planner.plan(t, t.example, seed=seed, params=SamplingParams(temperature=1.5))
        jsonschema.validate(r.outline, t.outline_schema)
        assert r.text == outline_json(r.outline)  # byte-identical to what training serializes
        assert r.tokens[-1] == planner.tokenizer.eos_id and 0 < r.forced_tokens < len(r.tokens)


def test_every_outline_of_the_shipped_model_validates(shipped_checkpoint):
    from hybrid.train.loop import load_checkpoint

    model, tok, _ = load_checkpoint(shipped_checkpoint)
    planner = Planner(model, tok)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        for tid in IDS:  # one seed per template here; benchmarks/planner.py --checkpoint runs 100
            t = load_template(tid)
            r = planner.plan(t, t.example, seed=0, params=SamplingParams(temperature=0.8))
            jsonschema.validate(r.outline, t.outline_schema)
    finally:
        torch.set_num_threads(threads)


def test_sampling_filters_cannot_break_the_grammar(planner):
    # no_repeat_ngram=1 bans every token already emitted, including forced JSON punctuation
    t = load_template("mutual-nda")
    params = SamplingParams(temperature=0.8, top_k=3, top_p=0.5, repetition_penalty=2.0, no_repeat_ngram=1)
    r = planner.plan(t, t.example, seed=0, params=params)
    jsonschema.validate(r.outline, t.outline_schema)


def test_seed_reproducibility(planner):
    t = load_template("supply")
    a, b = (planner.plan(t, t.example, seed=7) for _ in range(2))
    assert a.tokens == b.tokens
    assert any(planner.plan(t, t.example, seed=s).tokens != a.tokens for s in (8, 9))


def test_temperature_zero_determinism(planner):
    t = load_template("one-way-nda")
    greedy = SamplingParams(temperature=0)
    assert (
        planner.plan(t, t.example, seed=1, params=greedy).text == planner.plan(t, t.example, seed=2, params=greedy).text
    )


def test_on_token_streams_every_token_in_order(planner):
    t = load_template("hosting")
    seen = []
    r = planner.plan(t, t.example, seed=3, on_token=lambda tok, piece, forced: seen.append((tok, piece, forced)))
    assert [s[0] for s in seen] == r.tokens
    assert b"".join(s[1] for s in seen[:-1]).decode() == r.text
    assert sum(s[2] for s in seen) == r.forced_tokens


def test_jump_forward_feeds_forced_tokens_without_sampling(planner):
    t = load_template("distributor")
    with_jf = planner.plan(t, t.example, seed=4)
    prompt = planner.prompt_ids(t, t.example)
    without = planner.decode(prompt, t.outline_schema, seed=4, jump_forward=False)
    assert with_jf.forced_tokens > 0.3 * len(with_jf.tokens)
    assert without.forced_tokens in (0, 1)  # at most the final <eos>
    jsonschema.validate(json.loads(planner.tokenizer.decode(without.tokens[:-1])), t.outline_schema)


def test_chunked_cached_forwards_match_full_recompute(planner, tiny_model):
    # jump-forward feeds a sampled token plus the forced ones in one cached forward: the logits
    # after each chunk must equal a fresh causal pass over the whole sequence
    from hybrid.model.cache import KVCache

    t = load_template("sponsorship")
    prompt = planner.prompt_ids(t, t.example)
    r = planner.plan(t, t.example, seed=5)
    seq = prompt + r.tokens[:-1]
    full = tiny_model(torch.tensor([seq]))[0]  # (T, V)
    cache, pos = KVCache(), len(prompt)
    with torch.no_grad():
        tiny_model(torch.tensor([prompt]), cache=cache)
        for size in (1, 7, 2, 12, 1, 5):
            step = tiny_model(torch.tensor([seq[pos : pos + size]]), cache=cache)[0, -1]
            pos += size
            torch.testing.assert_close(step, full[pos - 1], atol=1e-4, rtol=1e-4)


def test_max_tokens_that_cut_the_outline_raise(planner):
    t = load_template("franchise")
    with pytest.raises(SamplingError, match="max_tokens=20 ended the outline before it was complete"):
        planner.plan(t, t.example, max_tokens=20)
    with pytest.raises(SamplingError, match="max_tokens must be an integer >= 1, got 0"):
        planner.plan(t, t.example, max_tokens=0)


def test_bad_fields_fail_before_decoding(planner):
    with pytest.raises(FieldError, match="missing required field 'purpose'"):
        planner.plan(
            "mutual-nda", {"party_a": "A", "party_b": "B", "effective_date": "2025-01-01", "governing_law": "Ohio"}
        )


def test_special_tokens_are_never_allowed_inside_the_outline(planner, tokenizer):
    t = load_template("saas-agreement")
    c = planner.compiler(tokenizer.vocab_size).constraint(t.outline_schema)
    specials = {tokenizer.token_id(s) for s in tokenizer.special_tokens}
    assert not specials & set(c.allowed())
    c.matcher.accept_string('{"title": "CLOUD')
    assert not specials & set(c.allowed())


def test_token_bytes_round_trip_the_vocabulary(tokenizer):
    pieces = token_bytes(tokenizer)
    text = 'Section 4.2 "Fees" – €1,000 (naïve) {x}'
    assert b"".join(pieces[i] for i in tokenizer.encode(text)).decode() == text
    assert all(pieces[tokenizer.token_id(s)] == b"" for s in tokenizer.special_tokens)


@pytest.mark.parametrize(
    "heading",
    ["Term", "A", "Fees and Payment", "Limitation of Liability (Cap)", "Non-Solicitation", "O'Brien & Co/Affiliates",
     "term", "Term ", "Fees.", 'Say "hi"', "Back\\slash", "", "A" * 60, "A" * 61, "Tab\there", "Café", "1. Term"],
)  # fmt: skip
def test_grammar_and_jsonschema_agree_on_headings(tokenizer, heading):
    schema = {"type": "string", "pattern": HEADING_PATTERN}
    c = GrammarCompiler(tokenizer).constraint(schema)
    grammar_ok = c.matcher.accept_string(json.dumps(heading)) and c.can_stop
    assert grammar_ok == bool(re.search(HEADING_PATTERN, heading))
    assert grammar_ok == jsonschema.Draft202012Validator(schema).is_valid(heading)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory, tiny_model, tokenizer):
    from hybrid.train.loop import save_checkpoint

    path = tmp_path_factory.mktemp("ckpt") / "tiny"
    save_checkpoint(path, tiny_model, tokenizer, {}, None)
    return path


def test_cli_plan_prints_a_valid_outline(checkpoint, capsys, tmp_path):
    from hybrid.cli.main import main

    fields = tmp_path / "fields.json"
    fields.write_text(json.dumps({"territory": "Mexico"}))
    argv = ["plan", "distributor", "--example", "--fields-file", str(fields), "--field", "exclusivity=non-exclusive",
            "--seed", "3", "--checkpoint", str(checkpoint), "--json", "--cpu"]  # fmt: skip
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fields"]["territory"] == "Mexico" and out["fields"]["exclusivity"] == "non-exclusive"
    jsonschema.validate(out["outline"], load_template("distributor").outline_schema)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["plan", "distributer", "--example"], "unknown template 'distributer'. Closest: distributor."),
        (["plan", "distributor"], "missing required field 'party_a'"),
        (["plan", "distributor", "--example", "--field", "territory"], "--field expects NAME=VALUE, got 'territory'."),
        (
            ["plan", "distributor", "--example", "--field", "exclusivity=sole"],
            'must be one of "exclusive", "non-exclusive", got "sole"',
        ),
        (
            ["plan", "franchise", "--example", "--field", "royalty_percent=lots"],
            "field 'royalty_percent' must be of type number",
        ),
        (
            ["plan", "distributor", "--example", "--top-p", "1.5"],
            "--top-p: must be a finite number in (0, 1], got '1.5'",
        ),
        (
            ["plan", "distributor", "--example", "--fields-file", "/nonexistent.json"],
            "cannot read fields file /nonexistent.json",
        ),
    ],
)
def test_cli_plan_errors_exit_2_with_one_line_and_no_traceback(checkpoint, capsys, argv, message):
    from hybrid.cli.main import main

    assert main(argv + ["--checkpoint", str(checkpoint)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1
