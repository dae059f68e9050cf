"""`hybrid library add DIR` reads only regular files inside DIR (issue 52, items 3 and 6): a symbolic link to a file
outside DIR, a FIFO, a link to a device are skipped with a message and never read (a FIFO never hangs the command),
a read stops at MAX_FILE_BYTES whatever the file's size says, and a DOCX that would inflate past
MAX_INFLATED_BYTES is skipped before it is parsed."""

import io
import json
import os
import threading
import time
import zipfile

import docx
import pytest

from hybrid.cli.main import main
from hybrid.precedents import user
from hybrid.precedents.user import load_user_library, read_contract
from tests.sample_contract import nda_text as _contract

LEAK = "Zanzibar Quokka Trust"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    outside = tmp_path / "outside.md"
    outside.write_text(_contract(LEAK))
    root = tmp_path / "contracts"
    (root / "sub").mkdir(parents=True)
    (root / "own.md").write_text(_contract("Acme Robotics, Inc."))
    (root / "leak.md").symlink_to(outside)
    (root / "sub" / "up.md").symlink_to("../../outside.md")
    (root / "null.txt").symlink_to("/dev/null")
    (root / "inside.md").symlink_to("own.md")  # a link that stays inside DIR reads the file it names
    os.mkfifo(root / "pipe.txt")
    return root


def _add(root, capsys) -> tuple[int, str, str]:
    """`hybrid library add` in a thread: a FIFO it opened would block it forever, so a writer releases it."""
    result = {}
    worker = threading.Thread(target=lambda: result.update(code=main(["library", "add", str(root), "--json"])),
                              daemon=True)
    worker.start()
    worker.join(30)
    hung = worker.is_alive()
    if hung:  # release the reader the FIFO holds, so that the test fails instead of hanging
        fd = os.open(root / "pipe.txt", os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(30)
    out, err = capsys.readouterr()
    assert not hung, "library add hung on a FIFO"
    return result.get("code"), out, err


def test_library_add_reads_only_regular_files_inside_the_folder(folder, capsys):
    code, out, err = _add(folder, capsys)
    assert code == 0, err
    report = json.loads(out)
    assert sorted(a["file"] for a in report["added"]) == ["inside.md", "own.md"]
    skipped = {s["file"]: s["reason"] for s in report["skipped"]}
    assert set(skipped) == {"leak.md", "sub/up.md", "null.txt", "pipe.txt"}
    for name in ("leak.md", "sub/up.md", "null.txt"):
        assert "symbolic link to a file outside the folder" in skipped[name], skipped
        assert f"skipped {name}: " in err
    assert "not a regular file" in skipped["pipe.txt"]
    assert all(LEAK not in p.body for p in load_user_library("firm").precedents)


def test_a_device_or_fifo_is_never_read_even_without_a_folder(folder):
    with pytest.raises(ValueError, match="not a regular file"):
        read_contract(folder / "null.txt")  # no folder to stay in: the link is followed, the device is never read
    with pytest.raises(ValueError, match="not a regular file"):
        read_contract(folder / "pipe.txt")


def test_reads_are_capped_in_bytes(folder, monkeypatch):
    monkeypatch.setattr(user, "MAX_FILE_BYTES", 100)
    with pytest.raises(ValueError, match="too large: more than 100 bytes"):
        read_contract(folder / "own.md")


def test_a_docx_that_would_inflate_too_far_is_skipped_before_it_is_parsed(tmp_path, monkeypatch):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", "<w:document/>" + " " * 5_000_000)
    path = tmp_path / "bomb.docx"
    path.write_bytes(buf.getvalue())
    assert path.stat().st_size < 100_000
    monkeypatch.setattr(user, "MAX_INFLATED_BYTES", 1_000_000)
    parsed = []
    monkeypatch.setattr("docx.Document", lambda *a, **k: parsed.append(a))
    with pytest.raises(ValueError, match="too large once unzipped"):
        read_contract(path)
    assert parsed == []


def test_a_docx_part_that_inflates_like_a_zip_bomb_is_skipped_before_it_is_parsed(tmp_path, monkeypatch):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:  # 2 MiB of XML from about 2 KB: under the size cap
        z.writestr("word/document.xml", "<w:document/>" + " " * (2 << 20))
    path = tmp_path / "bomb.docx"
    path.write_bytes(buf.getvalue())
    assert sum(i.file_size for i in zipfile.ZipFile(path).infolist()) < user.MAX_INFLATED_BYTES
    parsed = []
    monkeypatch.setattr("docx.Document", lambda *a, **k: parsed.append(a))
    with pytest.raises(ValueError, match=f"a part inflates [0-9]+-fold, more than {user.MAX_RATIO}: a zip bomb"):
        read_contract(path)
    assert parsed == []


def test_a_text_too_long_for_one_contract_is_skipped_before_it_is_segmented(folder, monkeypatch):
    monkeypatch.setattr(user, "MAX_TEXT_CHARS", 1000)
    segmented = []
    monkeypatch.setattr(user, "_precedents", lambda *a: segmented.append(a) or [])
    with pytest.raises(ValueError, match="too long for one contract: [0-9]+ characters, at most 1000"):
        read_contract(folder / "own.md")
    code = main(["library", "add", str(folder), "--name", "firm"])
    assert code == 2 and segmented == []


def _word(path, paragraphs: int, text: str):
    document = docx.Document()
    document.add_paragraph("Mutual Nondisclosure Agreement", style="Title")
    for i in range(paragraphs):
        document.add_paragraph(text.format(i=i))
    document.save(str(path))
    return path


def test_a_long_docx_is_refused_within_seconds_once_its_text_passes_the_bound(tmp_path):
    clause = "{i}. Each party shall keep the other party's information confidential and use it only to evaluate it."
    path = _word(tmp_path / "long.docx", 16_000, clause)  # 1.6 million characters
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match="too long for one contract"):
        read_contract(path)
    assert time.perf_counter() - t0 < 5  # each paragraph's style had been looked up anew: 25 s and more


def test_a_docx_of_too_many_paragraphs_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(user, "MAX_PARAGRAPHS", 50)
    with pytest.raises(ValueError, match="too many paragraphs for one contract: more than 50"):
        read_contract(_word(tmp_path / "many.docx", 60, ""))
    assert read_contract(_word(tmp_path / "few.docx", 40, "Clause {i}.")).startswith("# Mutual Nondisclosure")
