"""Offline evaluation harness: held-out contracts, an independent reference model, side-by-side systems.

`hybrid eval run` (evals.cli) -> evals.runner (per-sample JSONL, resumable) -> evals.systems (what
writes the clause bodies) + evals.metrics (pure scoring) -> evals.report (Markdown + plots).
"""
