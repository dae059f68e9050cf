"""evals.memorization: 13-gram copy share and longest copied run against a train-split index."""

import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from evals.memorization import N, build_index, copy_share, gram_hashes, load_index, longest_copied_run, memo_words  # noqa: E402

TRAIN = [
    " ".join(f"alpha{i}" for i in range(40)),
    "The Supplier shall deliver the Goods to the Buyer at the place and on the date stated in the Order, "
    "and title passes on delivery.",
]
FRESH = " ".join(f"omega{i}" for i in range(30))


@pytest.fixture(scope="module")
def index():
    return build_index(TRAIN)


@pytest.mark.parametrize(
    "text, copied, longest",
    [
        (FRESH, 0, 0),
        (" ".join(f"alpha{i}" for i in range(5, 25)), 20 - N + 1, 20),  # a 20-word run of the first train text
        # exactly one 13-gram, in the middle
        (FRESH + " " + " ".join(f"alpha{i}" for i in range(0, 13)) + " " + FRESH, 1, 13),
        # case, punctuation
        ("THE SUPPLIER shall deliver the goods, to the Buyer at the place and on the date stated.", None, 17),
        (" ".join(f"alpha{i}" for i in range(0, 12)), 0, 0),  # 12 words: no 13-gram at all
    ],
)
def test_copy_share_and_longest_run_count_verbatim_word_runs(index, text, copied, longest):
    hits, total = copy_share(text, index)
    assert total == max(0, len(memo_words(text)) - N + 1)
    if copied is not None:
        assert hits == copied
    assert longest_copied_run(text, index) == longest


def test_hashes_are_stable_across_processes_and_order_sensitive():
    a = gram_hashes(memo_words(TRAIN[0]))
    assert list(a) == list(gram_hashes(memo_words(TRAIN[0])))
    digest = hashlib.blake2b(" ".join(f"alpha{i}" for i in range(13)).encode(), digest_size=8).digest()
    assert int(a[0]) == int.from_bytes(digest, "little")  # not hash(): the cached index must match in every process
    assert a[0] != gram_hashes(memo_words(TRAIN[0])[:13][::-1])[0]


def test_the_index_is_built_once_per_corpus_and_read_back_from_the_cache(tmp_path, monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _tiny import make_corpus

    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    corpus = make_corpus(tmp_path / "corpus")
    logs = []
    first = load_index(corpus, log=logs.append)
    assert len(first) > 1000 and len(logs) == 1 and list((tmp_path / "cache" / "memorization").glob("train13-*.npy"))
    again = load_index(corpus, log=logs.append)
    assert len(logs) == 1 and (again.hashes == first.hashes).all()
    from hybrid.data.corpus import load_documents

    val = load_documents(corpus, splits=("val",))[0]
    train = load_documents(corpus, splits=("train",))[0]
    # train text: all found
    assert copy_share(train.sections[0].body, first)[0] == copy_share(train.sections[0].body, first)[1] > 0
    assert copy_share(val.text, first)[0] < copy_share(val.text, first)[1]
