"""Compressed CSV files: gzip, bzip2, xz and zip are read (told by their first bytes, not
their names); other compressions, archives of several files and damaged data are refused
with a message that names them (issue 26: a gzip file got "not a UTF-8 text file")."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile

import pytest
from click.testing import CliRunner

from dagger_cli.cli import main
from dagger_cli.data import csv as csvfast
from dagger_cli.data.table import DecisionTable
from dagger_cli.errors import InputError

TEXT = "a,b,d\n1,0,x\n1,1,y\n0,1,x\n0,0,y\n2,1,x\n"


def zipped(data: bytes, *names: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name in names or ("t.csv",):
            archive.writestr(name, data)
    return buf.getvalue()


PACK = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zip": zipped,
}


@pytest.mark.parametrize("kind", sorted(PACK))
@pytest.mark.parametrize("reader", ["python", "columnar"])
def test_compressed_files_are_read(tmp_path, monkeypatch, kind, reader):
    """The same table as the plain file, named without its suffixes, whichever reader
    is asked for (the columnar one leaves compressed files to the Python reader)."""
    monkeypatch.setenv(csvfast.ENV_READER, reader)
    plain = tmp_path / "t.csv"
    plain.write_text(TEXT)
    packed = tmp_path / f"t.csv.{kind}"
    packed.write_bytes(PACK[kind](TEXT.encode()))
    a, b = DecisionTable.from_csv(plain), DecisionTable.from_csv(packed)
    assert b.name == "t"
    assert (a.attributes, a.values, a.decision_values) == (
        b.attributes,
        b.values,
        b.decision_values,
    )
    assert (a.codes == b.codes).all() and (a.decisions == b.decisions).all()


def test_compression_told_by_content_not_name(tmp_path):
    disguised = tmp_path / "plain-looking.csv"
    disguised.write_bytes(gzip.compress(TEXT.encode()))
    assert DecisionTable.from_csv(disguised).n_attributes == 2
    honest = tmp_path / "t.csv.gz"  # plain text under a .gz name
    honest.write_text(TEXT)
    assert DecisionTable.from_csv(honest).name == "t"


@pytest.mark.parametrize(
    "name,data,message",
    [
        ("t.csv.zst", b"(\xb5/\xfd" + b"\0" * 20, "zstd-compressed, which dagger does not read"),
        (
            "t.csv.gz",
            gzip.compress(TEXT.encode(), mtime=0)[:30],
            "gzip-compressed, but the data cannot",
        ),
        ("t.zip", zipped(TEXT.encode(), "a.csv", "b.csv"), "a zip archive of 2 files (a.csv"),
        ("t.xlsx", zipped(b"<x/>", "xl/workbook.xml", "[Content_Types].xml"), "Excel workbook"),
        ("t.csv.gz", gzip.compress(b"\xff\xfe" + "é".encode("utf-16-le"), mtime=0), "after gzip"),
    ],
)
def test_unreadable_compressed_files_are_named(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError) as err:
        DecisionTable.from_csv(path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)


def test_tar_archive_refused(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("t.csv")
        info.size = len(TEXT)
        tar.addfile(info, io.BytesIO(TEXT.encode()))
    path = tmp_path / "t.tgz"
    path.write_bytes(buf.getvalue())
    r = CliRunner().invoke(main, ["relate", str(path)])
    assert r.exit_code == 2
    assert "a tar archive (gzip-compressed); extract the table first" in r.stderr
    assert "Traceback" not in r.output
