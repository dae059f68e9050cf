"""docs/ARCHITECTURE.md shows the text pipeline as the registry lists it (`hybrid passes`), one line per pass."""

import re
from pathlib import Path

from hybrid.cli.passes import pipeline_rows, render

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md"


def test_the_architecture_lists_the_pipeline_as_the_registry_does():
    text = ARCHITECTURE.read_text()
    m = re.search(r"<!-- text pipeline: begin -->\n```\n(.*?)\n```\n<!-- text pipeline: end -->", text, re.S)
    assert m, "docs/ARCHITECTURE.md has no text pipeline block"
    assert m.group(1) == render(pipeline_rows()), "docs/ARCHITECTURE.md's text pipeline differs from `hybrid passes`"
