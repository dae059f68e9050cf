import pytest

from hybrid.common.errors import CheckpointError
from hybrid.tokenizer.bpe import SPECIAL_TOKENS, HybridTokenizer

from conftest import corpus_sample_texts

ROUNDTRIP_CASES = [
    "",
    "The Receiving Party shall hold Confidential Information in confidence.",
    "  leading spaces\n\n\ttabs and\r\nCRLF  ",
    "Unicode: café — naïve “quotes” ’ 你好 🙂",
    "Redacted [***] amount of $1,234.56 (the “Fee”).",
    "a literal <mask> and <eos> in user text",
]


@pytest.mark.parametrize("text", ROUNDTRIP_CASES)
def test_decode_encode_roundtrip_is_exact(tokenizer, text):
    assert tokenizer.decode(tokenizer.encode(text)) == text


def test_roundtrip_on_real_documents(tokenizer):
    for doc in corpus_sample_texts():
        assert tokenizer.decode(tokenizer.encode(doc)) == doc


def test_literal_special_token_text_is_not_the_special_token(tokenizer):
    ids = tokenizer.encode("<mask>")
    assert tokenizer.mask_id not in ids
    assert len(ids) > 1


def test_special_tokens_present_and_distinct(tokenizer):
    ids = [tokenizer.token_id(t) for t in SPECIAL_TOKENS]
    assert len(set(ids)) == len(SPECIAL_TOKENS)
    assert tokenizer.decode([tokenizer.eos_id]) == "<eos>"


def test_save_load_gives_same_ids(tokenizer, tmp_path):
    tokenizer.save(tmp_path)
    again = HybridTokenizer.load(tmp_path)
    text = ROUNDTRIP_CASES[3]
    assert again.encode(text) == tokenizer.encode(text)
    assert again.vocab_size == tokenizer.vocab_size


def test_load_missing_or_corrupt_file_names_the_path(tmp_path):
    with pytest.raises(CheckpointError, match="tokenizer.json"):
        HybridTokenizer.load(tmp_path)
    (tmp_path / "tokenizer.json").write_text("{not json")
    with pytest.raises(CheckpointError, match="corrupt"):
        HybridTokenizer.load(tmp_path)


def test_the_smallest_vocabulary_is_the_byte_alphabet_plus_the_special_tokens():
    from hybrid.common.config import MIN_VOCAB_SIZE

    assert MIN_VOCAB_SIZE == 256 + len(SPECIAL_TOKENS)
    assert HybridTokenizer.train(corpus_sample_texts(1), MIN_VOCAB_SIZE).vocab_size == MIN_VOCAB_SIZE


@pytest.mark.parametrize("vocab_size", [1, 263])
def test_a_vocabulary_below_the_alphabet_is_refused_not_silently_raised(vocab_size):
    from hybrid.common.errors import ConfigError

    with pytest.raises(ConfigError, match=f"vocab_size must be >= 264 .*, got {vocab_size}"):
        HybridTokenizer.train(corpus_sample_texts(1), vocab_size)
