"""hybrid.fidelity.fact_guard: names, digits and durations the deal does not state are banned by the token to
their left (shipped tokenizer), the AR processor and the diffusion filler apply the same rule, and a
fill with the guard writes none of what the same fill without it writes."""

from pathlib import Path

import pytest
import torch

from hybrid.common.sampling import SamplingParams
from hybrid.fidelity.fact_guard import REACH, UNIT_REACH, FactGuard

SHIPPED = Path(__file__).resolve().parents[2] / "checkpoints" / "hybrid-small"
DEAL = (
    "Acme Robotics, Inc. and Borealis Analytics LLC. Term: 2 years. Governed by the laws of Delaware. Fee USD 24,000."
)


@pytest.fixture(scope="module")
def shipped_tokenizer():
    from hybrid.tokenizer.bpe import HybridTokenizer

    if not (SHIPPED / "tokenizer.json").is_file():
        pytest.skip("shipped tokenizer not present")
    return HybridTokenizer.load(SHIPPED)


def _left(tok, text: str) -> torch.Tensor:
    ids = tok.encode(text)[::-1][:UNIT_REACH]
    return torch.tensor([ids + [-2] * (UNIT_REACH - len(ids))])


def _banned(guard, tok, left_text: str, word: str) -> bool:
    """Is the first token of `word` banned right after `left_text`?"""
    return bool(
        guard.ban_mask(_left(tok, left_text) if left_text else torch.full((1, UNIT_REACH), -2))[0, tok.encode(word)[0]]
    )


def test_names_are_banned_in_mid_sentence_unless_the_deal_or_a_contract_uses_them(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)
    assert _banned(g, tok, "the licence of", " GitHub")
    assert _banned(g, tok, "as agreed by", " Pretzel")
    assert not _banned(g, tok, "as agreed by", " Acme")  # a party of the deal
    assert not _banned(g, tok, "the terms of this", " Agreement")  # a generic contract word
    assert not _banned(g, tok, "the licence ends.", " Pretzel")  # a sentence start: the guard cannot tell
    assert _banned(g, tok, "the licence ends.", " GitHub")  # unless the name has an inner capital
    assert not _banned(g, tok, "", "Pretzel")  # the span's first token
    assert not _banned(g, tok, "the licence of", " confidential")  # lower case is never a name


def test_digits_and_durations_the_deal_does_not_state_are_banned(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)
    assert _banned(g, tok, "within", " 30")
    assert not _banned(g, tok, "within", " 2")  # the deal's term
    assert not _banned(g, tok, "as set out in Section", " 30")  # a cross-reference
    assert _banned(g, tok, "for a period of thirty", " days")
    assert _banned(g, tok, "for a period of one", " year")
    assert _banned(g, tok, "within thirty (30", " days") or _banned(g, tok, "within thirty (30)", " days")
    assert not _banned(g, tok, "for a period of two", " years")  # the deal's 2 years
    assert not _banned(g, tok, "at least one of the", " parties")  # "one" itself stays writable


def test_the_ar_processor_is_the_ban_mask_of_the_prefix(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)
    prefix = tok.encode("payable within thirty")
    scores = torch.zeros(1, tok.vocab_size)
    out = g(torch.tensor([prefix]), scores)
    want = g.ban_mask(_left(tok, "payable within thirty"))
    assert torch.equal(torch.isinf(out), want)
    assert bool(want[0, tok.encode(" days")[0]])


def _violations(guard, results) -> int:
    n = 0
    for r in results:
        for ids in r.tokens:
            for i, t in enumerate(ids):
                left = ids[max(0, i - UNIT_REACH) : i][::-1]
                left = torch.tensor([left + [-2] * (UNIT_REACH - len(left))])
                n += bool(guard.ban_mask(left)[0, t])
    return n


@pytest.mark.parametrize("filler", ["diffusion", "ar"])
def test_a_fill_with_the_guard_writes_nothing_it_bans(lively_model, tokenizer, filler):
    from hybrid.data.document import Segment
    from hybrid.fill import ar as arfill
    from hybrid.fill.diffusion.sampler import FillConfig, fill
    from hybrid.skeleton.tokenized import tokenize_segments

    segs = [Segment("SUPPLY AGREEMENT\n\nThis Agreement is made by Acme Inc. and Borealis LLC.\n\n", "text")]
    for i in range(3):
        segs += [Segment(f"{i + 1}. Heading {i}.\n", "heading", i), Segment("", "body", i), Segment("\n\n", "text")]
    sk = tokenize_segments(tokenizer, segs, [24, 24, 24])
    guard = FactGuard(tokenizer, "Acme Inc. and Borealis LLC", vocab=lively_model.output_weight.shape[0])
    cfg = FillConfig(schedule="linear", refresh_every=0, block=1, threshold=0.0, guard_ratio=0.0, precision="fp32")
    runs = {}
    for on in (False, True):
        params = SamplingParams(temperature=1.0, fact_guard=guard if on else None)
        if filler == "ar":
            runs[on] = arfill.fill(lively_model, tokenizer, sk, n=3, seed=5, params=params)
        else:
            runs[on] = fill(lively_model, tokenizer, sk, n=3, steps=24, seed=5, params=params, config=cfg)
    assert _violations(guard, runs[False]) > 0  # the test can fail: unguarded, the model writes banned tokens
    assert _violations(guard, runs[True]) == 0


def test_currency_signs_the_deal_never_writes_and_redaction_marks_are_banned_everywhere(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)  # its fee reads "USD 24,000"
    assert _banned(g, tok, "", "$") and _banned(g, tok, "a fee of", " $")
    assert _banned(g, tok, "the price is", " [***]") or _banned(g, tok, "the price is [", "***")
    assert not _banned(g, tok, "a fee of", " USD")
    assert not _banned(FactGuard(tok, DEAL + " Deposit: $500."), tok, "a fee of", " $")


def test_a_precedents_own_facts_are_banned_unless_the_deal_uses_them(shipped_tokenizer):
    from hybrid.fidelity.fact_guard import precedent_fact_ban_ids

    tok = shipped_tokenizer
    bans = set(precedent_fact_ban_ids(tok, ["the Company", "CERES, Inc.", "Acme Robotics, Inc.", "June 9, 2011"], DEAL))
    assert tok.encode(" Company")[0] in bans and tok.encode(" CERES")[0] in bans
    assert tok.encode(" Acme")[0] not in bans  # the deal's own party
    assert tok.encode(" the")[0] not in bans and tok.encode(" Inc")[0] not in bans  # lower case and generic words stay
    assert tok.encode(" June")[0] not in bans  # a month name is generic; the date's digits are the guard's business
    lower = set(precedent_fact_ban_ids(tok, ["the Company"], DEAL + " Acme is a Delaware limited liability company."))
    assert tok.encode(" Company")[0] in lower  # the deal's plain "company" is not the precedent's defined "Company"
    assert tok.encode(" Company")[0] not in set(
        precedent_fact_ban_ids(tok, ["the Company"], DEAL + " Acme (the Company).")
    )


def test_units_after_an_unknown_neighbour_and_one_piece_inner_capital_names_are_banned(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)
    unknown = torch.tensor([[-1, -1, -1, -1]])
    assert bool(g.ban_mask(unknown)[0, tok.encode(" days")[0]])  # the number may be committed in the same step
    inner = [i for i in range(tok.vocab_size) if bool(g.always[i])]
    pieces = {tok.decode([i]).strip() for i in inner}
    assert any(p[:1].isupper() and any(c.isupper() for c in p[1:]) for p in pieces)
    assert not _banned(g, tok, "", " Acme")  # the deal's own words never


def test_letters_glued_onto_a_full_stop_are_banned(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)
    stop = [i for i in range(tok.vocab_size) if tok.decode([i]) == "."][0]
    left = torch.tensor([[stop, -2, -2, -2]])
    ban = g.ban_mask(left)[0]
    assert bool(ban[tok.encode("com")[0]]) and bool(ban[tok.encode("A")[0]])
    assert not bool(ban[tok.encode(" The")[0]])  # a new sentence after a space is fine


def _piece(tok, text: str) -> int:
    return next(i for i in range(tok.vocab_size) if tok.decode([i]) == text)


def _banned_piece(guard, tok, left_text: str, piece: str) -> bool:
    """Is the piece (exact text, e.g. a glued "land") banned right after `left_text` (REACH tokens of it)?"""
    ids = tok.encode(left_text)[::-1][:REACH]
    return bool(guard.ban_mask(torch.tensor([ids + [-2] * (REACH - len(ids))]))[0, _piece(tok, piece)])


def test_an_allowed_opener_cannot_be_spelled_on_into_a_name(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL + " This Non-Disclosure Agreement covers Confidential Information.")
    assert _banned_piece(g, tok, "governed by the laws of the State of New", "land")  # "Newland": no word of the deal
    assert _banned_piece(g, tok, "the obligations of the Co", "-")  # "Co-free"
    assert _banned_piece(g, tok, "any claim of the Liability", "ia")
    assert _banned_piece(g, tok, "the rights of Acme", "s")
    assert not _banned_piece(g, tok, "the terms of this Non", "-")  # on its way to the deal's "Non-Disclosure"
    assert not _banned_piece(g, tok, "all of the Con", "fidential")  # "Confidential"
    assert not _banned_piece(g, tok, "the licence ends. Co", "-")  # a sentence start: the guard cannot tell a name


def test_a_unit_may_follow_only_the_deals_number_of_that_unit(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL + " Confidentiality period: 3 years.")
    assert _banned(g, tok, "within three", " months")  # 3 is the deal's number of years, not of months
    assert not _banned(g, tok, "within three", " years")
    assert not _banned(g, tok, "within 24", " months")  # the deal's 2 years
    assert _banned(g, tok, "within 25", " months") or _banned(g, tok, "within", " 25")


def test_the_second_look_flags_a_spelling_committed_beside_its_left_neighbour(shipped_tokenizer):
    from hybrid.fill.diffusion.guards import fact_recheck

    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)
    ids = tok.encode("the rights of Acme") + [_piece(tok, "land")] + tok.encode(" and of Delaware")
    bad = len(tok.encode("the rights of Acme"))  # the "land" slot: "Acmeland" is no word of the deal
    t = torch.tensor([ids])
    ok = torch.ones_like(t, dtype=torch.bool)
    span = torch.zeros_like(t)
    new = torch.zeros_like(ok)
    new[0, bad - 1 : bad + 1] = True  # " Acme" and "land" committed in one step
    out = fact_recheck(g, t, ok, span, new)
    assert out[0].nonzero().flatten().tolist() == [bad]
    new[:] = False
    new[0, bad - 1] = True  # "land" committed earlier, " Acme" now: still within reach of a new commit
    assert out.equal(fact_recheck(g, t, ok, span, new))
    new[:] = False
    new[0, -1] = True  # only the last word is new: "land" is not looked at again
    assert not fact_recheck(g, t, ok, span, new).any()


def test_a_precedents_own_phrase_cannot_be_completed_though_the_deal_uses_its_words(shipped_tokenizer):
    tok = shipped_tokenizer
    deal = DEAL + " Acme may use Customer Information."
    g = FactGuard(tok, deal, precedent_facts=["the Customer", "CERES, Inc."])
    assert _banned(g, tok, "the rights of the", " Customer")  # the precedent's defined party
    assert _banned(g, tok, "The", " Customer") or _banned(g, tok, "", "The Customer")
    assert not _banned(g, tok, "the rights of", " Customer")  # the deal's own "Customer Information"
    # a fact word's first piece, everywhere
    assert _banned(g, tok, "", " CERES") and _banned(g, tok, "paid to", " CERES")
    assert not _banned(FactGuard(tok, deal), tok, "", " CERES")
    assert not _banned(FactGuard(tok, deal), tok, "the rights of the", " Customer")  # no precedent, no phrase ban
    assert not _banned(
        FactGuard(tok, deal + " (the Customer)", precedent_facts=["the Customer"]), tok, "rights of the", " Customer"
    )


def test_an_exhibit_designator_the_deal_does_not_write_is_banned(shipped_tokenizer):
    tok = shipped_tokenizer
    # " A" and " 2" (its term) are the deal's own words, so only the exhibit rule bans them
    deal = DEAL + " A Party may assign it."
    g = FactGuard(tok, deal)
    assert _banned(g, tok, "the prices set out in Exhibit", " A") and not _banned(g, tok, "the prices set out in", " A")
    assert _banned(g, tok, "the list in Schedule", " 2") and not _banned(g, tok, "as set out in Section", " 2")
    assert _banned(g, tok, "the prices set out in Exhibit", " 30")  # digits after an exhibit word: a designator
    assert not _banned(g, tok, "as set out in Section", " 30")  # a section's number is the consistency pass's business
    supply = FactGuard(tok, deal + " Prices: per the price list in Exhibit A.")
    assert not _banned(supply, tok, "the prices set out in Exhibit", " A")


def test_years_and_numbers_the_deal_does_not_write_are_banned(shipped_tokenizer):
    tok = shipped_tokenizer
    g = FactGuard(tok, DEAL)
    assert _banned(g, tok, "delivered FCA (Incoterms", " 2010") and _banned(g, tok, "delivery of", " 3000")
    incoterms = FactGuard(tok, DEAL + " Delivery: FCA (Incoterms 2010).")
    assert not _banned(incoterms, tok, "delivered FCA (Incoterms", " 2010")


def _completes(guard, tok, text: str) -> bool:
    """Is `text` banned: its one token anywhere, or its last token after the ones before it?"""
    ids = tok.encode(text)
    left = list(reversed(ids[:-1]))[:REACH]
    row = torch.tensor([left + [-2] * (REACH - len(left))]) if left else torch.full((1, REACH), -2)
    return bool(guard.ban_mask(row)[0, ids[-1]])


@pytest.mark.parametrize(
    "facts, text, banned",
    [
        (["EBIX.COM"], " ebix", True),  # the source contract's name in lower case
        (["EBIX.COM"], " EBIX", True),
        (["eGain Communications Corporation"], " egain", True),
        (["eGain Communications Corporation"], " EGAIN", True),
        (["About", "the About Network"], " about", False),  # an English word, whatever the source calls itself
        (["Racing"], " racing", False),
        (["Acme Robotics, Inc."], " acme", False),  # the deal's own party
    ],
)
def test_the_source_contracts_names_are_banned_in_any_case(shipped_tokenizer, facts, text, banned):
    tok = shipped_tokenizer
    assert _completes(FactGuard(tok, DEAL, precedent_facts=facts), tok, text) is banned
    if text.islower():  # the guard bans capitals in mid-sentence anyway; lower case only beside a source that writes it
        assert not _completes(FactGuard(tok, DEAL), tok, text)


ODD_DIGITS = ["²", "³", "½", "١", "①"]  # str.isdigit is true for some of them (SmolLM2's vocabulary holds them)


@pytest.fixture(scope="module")
def odd_digit_tokenizer(tmp_path_factory):
    """A pretrained-style byte-level BPE (as hybrid.tokenizer.hf adapts SmolLM2's) whose vocabulary has
    one-token superscripts, a vulgar fraction, an Arabic-Indic digit and a circled digit."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    from hybrid.tokenizer.hf import from_pretrained_tokenizer
    from tests.conftest import corpus_sample_texts

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    odd = " ".join(f"x{d} {d} 1{d}" for d in ODD_DIGITS)
    trainer = trainers.BpeTrainer(
        vocab_size=600,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(corpus_sample_texts(2) + [odd] * 200, trainer=trainer)
    path = tmp_path_factory.mktemp("odd") / "tokenizer.json"
    tok.save(str(path))
    return from_pretrained_tokenizer(path)


def test_a_vocabulary_with_superscript_and_other_unicode_digits_builds_the_guard_and_drafts(odd_digit_tokenizer):
    """Issue 27: `hybrid draft --model smollm2-135m --filler ar` died in the guard's tables on int('²')."""
    from dataclasses import replace

    from hybrid import Drafter
    from hybrid.model.backbone import Backbone, BackboneConfig
    from hybrid.templates.template import load_template

    tok = odd_digit_tokenizer
    pieces = {tok.decode([i]).strip() for i in range(tok.vocab_size)}
    assert set(ODD_DIGITS) <= pieces and any(p.isdigit() and not p.isascii() for p in pieces)  # the test can fail
    guard = FactGuard(tok, DEAL)
    assert not bool(guard.always[tok.encode(" ²")].any())  # a superscript is no number, and no fact
    torch.manual_seed(0)
    model = Backbone(replace(BackboneConfig.tiny(tok.vocab_size), init_std=0.3)).eval()
    t = load_template("mutual-nda")
    for filler in ("ar", "diffusion"):
        drafter = Drafter(model, tok, filler=filler)
        drafts = drafter.draft(t, t.example, n=1, steps=2, seed=1, outline=t.example_outline(), precedents=0)
        assert drafts[0].sections and drafts[0].text
