"""load_documents on a tiny corpus built from the excerpts: split isolation, errors, cache."""

from pathlib import Path

import pytest

import hybrid.data.corpus as corpus
from hybrid.common.errors import CorpusError
from hybrid.data.corpus import corpus_root, load_documents, load_manifest

from conftest import CUAD_EXCERPT_NAME as CUAD_NAME
from conftest import cuad_entry


@pytest.fixture
def tiny(cuad_corpus):
    """train: a CUAD contract + a policy; val: a standard agreement; test: a file that must never be read."""
    files = {
        "policies/privacy.md": "policy_basecamp_privacy.md",
        "standard-agreements/sla.txt": "commonpaper_software_license.txt",
        "held-out/secret.txt": "TEST AGREEMENT\n\n1. Secret. Never read me.\n",
    }
    entries = [
        cuad_entry(group="cuad:A"),
        {
            "path": "policies/privacy.md",
            "source": "basecamp-policies",
            "doc_type": "POLICY",
            "group": "bc:p",
            "split": "train",
        },
        {
            "path": "standard-agreements/sla.txt",
            "source": "commonpaper",
            "doc_type": "SOFTWARE LICENSE AGREEMENT",
            "group": "cp:s",
            "split": "val",
        },
        {
            "path": "held-out/secret.txt",
            "source": "cuad",
            "doc_type": "TEST AGREEMENT",
            "group": "cuad:T",
            "split": "test",
        },
    ]
    return cuad_corpus(files, entries)


@pytest.fixture
def reads(monkeypatch):
    """Every path load_documents reads through corpus._read_text."""
    seen: list[Path] = []
    real = corpus._read_text

    def spy(path):
        seen.append(Path(path))
        return real(path)

    monkeypatch.setattr(corpus, "_read_text", spy)
    return seen


def test_train_split_loads_documents_in_manifest_order_with_fields(tiny):
    docs = load_documents(tiny)
    assert [d.path for d in docs] == [f"cuad/contracts/{CUAD_NAME}", "policies/privacy.md"]
    cuad_doc, policy = docs
    assert cuad_doc.title == "CO-BRANDING AND ADVERTISING AGREEMENT" and len(cuad_doc.sections) >= 10
    assert cuad_doc.fields["party_b"] == "2THEMART.COM, INC."
    assert (cuad_doc.split, cuad_doc.group, cuad_doc.doc_type) == ("train", "cuad:A", "AGENCY AGREEMENT")
    assert policy.title == "PRIVACY POLICY" and policy.fields == {}


def test_loading_train_never_reads_held_out_files(tiny, reads):
    load_documents(tiny, splits=("train",))
    assert reads, "the spy saw no reads"
    assert not any("held-out" in str(p) or p.name == "sla.txt" for p in reads), reads


def test_missing_held_out_file_does_not_matter_unless_test_is_requested(tiny):
    (tiny / "held-out" / "secret.txt").unlink()
    assert len(load_documents(tiny, splits=["train", "val"])) == 3
    with pytest.raises(CorpusError, match="secret.txt"):
        load_documents(tiny, splits="test")


def test_sources_filter_and_unknown_source(tiny):
    assert [d.source for d in load_documents(tiny, sources="basecamp-policies")] == ["basecamp-policies"]
    with pytest.raises(CorpusError, match="source must be among"):
        load_documents(tiny, sources=("nope",))


@pytest.mark.parametrize("splits", [("dev",), ("train", "holdout"), ()])
def test_unknown_split_is_rejected_with_the_allowed_names(tiny, splits):
    with pytest.raises(CorpusError, match=r"split must be one of \['train', 'val', 'test'\]"):
        load_documents(tiny, splits=splits)


def test_empty_selection_is_an_error(tiny):
    with pytest.raises(CorpusError, match="no documents"):
        load_documents(tiny, splits=("val",), sources=("cuad",))


def test_missing_corpus_or_manifest_names_the_path(tmp_path, monkeypatch):
    missing = tmp_path / "nowhere"
    with pytest.raises(CorpusError, match=str(missing)):
        corpus_root(missing)
    monkeypatch.setenv("HYBRID_CORPUS", str(missing))
    with pytest.raises(CorpusError, match="HYBRID_CORPUS"):
        corpus_root()
    with pytest.raises(CorpusError, match="manifest.jsonl"):
        corpus_root(tmp_path)


def test_env_variable_selects_the_corpus(tiny, monkeypatch):
    monkeypatch.setenv("HYBRID_CORPUS", str(tiny))
    assert corpus_root() == tiny
    assert len(load_documents()) == 2


def test_malformed_manifest_line_is_reported_with_its_number(tiny):
    with open(tiny / "manifest.jsonl", "a") as f:
        f.write('{"path": "x.txt", "source": "cuad"}\n')
    with pytest.raises(CorpusError, match=r"manifest.jsonl:5: missing \['doc_type', 'group', 'split'\]"):
        load_manifest(tiny)


def test_second_load_comes_from_the_cache_and_a_changed_file_is_rebuilt(tiny, monkeypatch):
    first = load_documents(tiny)
    cache = Path(corpus.cache_dir())
    assert len(list(cache.glob("*.json"))) == 2 and not list(cache.glob(".tmp-*"))
    assert (cache.parent / ".gitignore").read_text() == "*\n"

    def no_build(*args, **kwargs):
        raise AssertionError("rebuilt a cached document")

    monkeypatch.setattr(corpus, "build_document", no_build)
    assert load_documents(tiny) == first
    policy = tiny / "policies" / "privacy.md"
    policy.write_text(policy.read_text() + "\nOne more line.\n")
    with pytest.raises(AssertionError, match="rebuilt"):
        load_documents(tiny)


def test_cache_can_be_switched_off(tiny, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", "off")
    assert corpus.cache_dir() is None
    assert len(load_documents(tiny)) == 2
