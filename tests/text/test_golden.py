"""Golden drafts of the text pipeline (tests/text/text_golden.py): real drafts' inputs to the start and revise
phases, replayed through today's passes, must give back the recorded text byte for byte. A difference is a change
in what drafts read: update the goldens only deliberately, with the diff read (the module's docstring says how)."""

import json

import pytest
from text_golden import GOLDEN, replay

RECORDS = sorted(GOLDEN.glob("*.json"))


def test_at_least_four_templates_have_goldens():
    assert len({json.loads(p.read_text())["template"] for p in RECORDS}) >= 4


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden(path):
    record = json.loads(path.read_text())
    got = replay(record)
    for k, (s, out) in enumerate(zip(record["starts"], got["starts"])):
        assert out == s["out"], f"start {k} ({s['heading']}): the text the filler edits changed"
    for k, (c, (bodies, report)) in enumerate(zip(record["consistency"], got["consistency"])):
        for i, (want, have) in enumerate(zip(c["bodies"], bodies)):
            assert have == want, f"consistency pass {k}, section {i} ({c['sections'][i]['heading']}) changed"
        assert report == c["report"]
    assert len(got["starts"]) == len(record["starts"]) and len(got["consistency"]) == len(record["consistency"])
