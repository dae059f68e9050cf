"""Byte-level BPE tokenizer (HF `tokenizers`) with the project's special tokens.

Owns: the only text <-> ids boundary. Knows nothing about models, templates or sampling.

Byte-level means every string encodes (no out-of-vocabulary input) and decode(encode(x)) == x
exactly: no normalizer, no prefix space, no offset trimming. Special tokens are added as
*special* tokens, so a literal "<mask>" typed in a contract is split into ordinary byte tokens
(`split_special_tokens=True`) and can never be confused with the real mask token.

Vocabulary size 8192: the corpus is ~4M words, so larger vocabularies leave many merges seen
only a handful of times, and at d_model 256-384 the tied embedding of 8192 rows is already
~2-3M parameters, a large share of a CPU-sized model; below ~4096 sequences get longer and the
O(T^2) attention cost on CPU grows. The measured bytes/token is in the training record.
"""

from pathlib import Path

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from hybrid.common.config import MIN_VOCAB_SIZE
from hybrid.common.errors import CheckpointError, ConfigError

__all__ = ["HybridTokenizer", "SPECIAL_TOKENS", "DEFAULT_VOCAB_SIZE", "read_tokenizer_file"]

SPECIAL_TOKENS = (
    "<pad>",  # padding; also ends a span early in the filler
    "<bos>",  # start of every sequence
    "<eos>",  # end of document / outline / span
    "<mask>",  # the absorbing state of the diffusion process
    "<plan>",  # starts the planner's conditioning JSON
    "<outline>",  # starts the outline JSON the planner writes
    "<doc>",  # starts a document (AR and fill training windows)
    "<span>",  # reserved: marks a span start for span-level conditioning
)
DEFAULT_VOCAB_SIZE = 8192
_FILE = "tokenizer.json"


def read_tokenizer_file(path: Path) -> Tokenizer:
    """A tokenizers Tokenizer from a tokenizer.json; CheckpointError naming the file when missing or corrupt."""
    if not path.is_file():
        raise CheckpointError(f"tokenizer file missing: {path}")
    try:
        return Tokenizer.from_file(str(path))
    except Exception as e:  # tokenizers raises a bare Exception on malformed JSON
        raise CheckpointError(f"tokenizer file is corrupt: {path} ({e})") from None


class HybridTokenizer:
    def __init__(self, tok: Tokenizer):
        self.hf = tok
        self.hf.encode_special_tokens = True  # literal "<mask>" in text is not the mask token
        for t in SPECIAL_TOKENS:
            if tok.token_to_id(t) is None:
                raise CheckpointError(f"tokenizer is missing special token {t!r}; retrain it with `hybrid train`")
        self.pad_id = self.token_id("<pad>")
        self.bos_id = self.token_id("<bos>")
        self.eos_id = self.token_id("<eos>")
        self.mask_id = self.token_id("<mask>")
        self.special_tokens = list(SPECIAL_TOKENS)
        self.special_ids = [self.token_id(t) for t in SPECIAL_TOKENS]

    @classmethod
    def train(cls, texts, vocab_size: int = DEFAULT_VOCAB_SIZE) -> "HybridTokenizer":
        if vocab_size < MIN_VOCAB_SIZE:  # the BPE trainer would silently grow it to the alphabet
            raise ConfigError(
                f"vocab_size must be >= {MIN_VOCAB_SIZE} (256 byte symbols + {len(SPECIAL_TOKENS)} special tokens), "
                f"got {vocab_size}."
            )
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=list(SPECIAL_TOKENS),
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        )
        tok.train_from_iterator(texts, trainer=trainer)
        return cls(tok)

    @property
    def vocab_size(self) -> int:
        return self.hf.get_vocab_size(with_added_tokens=True)

    def token_id(self, token: str) -> int:
        i = self.hf.token_to_id(token)
        assert i is not None, f"unknown token {token!r}"
        return i

    def encode(self, text: str) -> list[int]:
        return self.hf.encode(text, add_special_tokens=False).ids

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        return [e.ids for e in self.hf.encode_batch(texts, add_special_tokens=False)]

    def decode(self, ids, skip_special: bool = False) -> str:
        return self.hf.decode(list(ids), skip_special_tokens=skip_special)

    def save(self, directory) -> None:
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / (_FILE + ".tmp")
        self.hf.save(str(tmp))
        tmp.replace(d / _FILE)

    @classmethod
    def load(cls, directory) -> "HybridTokenizer":
        """The tokenizer saved in checkpoint dir `directory`; CheckpointError when missing or corrupt."""
        return cls(read_tokenizer_file(Path(directory) / _FILE))

    def __len__(self) -> int:
        return self.vocab_size
