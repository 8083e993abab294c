"""Compressed CSV files: gzip, bzip2, xz and zip read as their text, others refused by name.

The compression is told by the file's first bytes (its magic number), not by its name: a
``table.csv`` that is really gzip is read, and a ``.gz`` name on plain text changes nothing.
The Python reader (:func:`dagger_cli.data.table.read_csv`) reads every file through
:func:`read_text`; the columnar reader leaves compressed files to it (:func:`compression`).

>>> compression_of(b"\\x1f\\x8b\\x08\\x00"), compression_of(b"a,b\\n1,2\\n")
('gzip', None)
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zipfile
from pathlib import Path

from ..errors import InputError

#: Magic numbers: (first bytes, name, whether dagger reads it).
MAGIC = (
    (b"\x1f\x8b", "gzip", True),
    (b"BZh", "bzip2", True),
    (b"\xfd7zXZ\x00", "xz", True),
    (b"PK\x03\x04", "zip", True),
    (b"PK\x05\x06", "zip", True),  # an empty archive
    (b"(\xb5/\xfd", "zstd", False),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip", False),
    (b"Rar!\x1a\x07", "RAR", False),
    (b"\x04\x22\x4d\x18", "LZ4", False),
)
#: How to decompress the ones dagger cannot read, for the message.
UNPACK = {"zstd": "zstd -d", "7-Zip": "7z x", "RAR": "unrar x", "LZ4": "lz4 -d"}
#: File name endings of compressed files, dropped from a table's name.
SUFFIXES = (".gz", ".gzip", ".bz2", ".xz", ".zip", ".zst", ".7z", ".rar", ".lz4")


def compression_of(head: bytes) -> str | None:
    """The compression whose magic number ``head`` starts with, or None (plain)."""
    for magic, name, _ in MAGIC:
        if head.startswith(magic):
            return name
    return None


def compression(path) -> str | None:
    """The compression of the file at ``path`` from its first bytes (None: plain, or
    unreadable: the reader's own message says why)."""
    try:
        with open(path, "rb") as fh:
            return compression_of(fh.read(8))
    except OSError:
        return None


def stem(path) -> str:
    """A table's default name: the file name without its compression and CSV suffixes.

    >>> stem("data/penguins.csv.gz"), stem("t.csv"), stem("archive.zip")
    ('penguins', 't', 'archive')
    """
    p = Path(path)
    if p.suffix.lower() in SUFFIXES:
        p = p.with_suffix("")
    return p.stem


def read_text(path) -> str:
    """The text of a CSV file (UTF-8, an initial byte-order mark dropped), decompressed
    first when it is gzip, bzip2, xz or a zip archive of one file.

    Raises
    ------
    InputError
        A compression dagger does not read, an archive of several files, damaged
        compressed data or text that is not UTF-8, naming the file and what to do;
        a missing file or a folder (as :func:`dagger_cli.data.table.read_csv` says).
    """
    path = Path(path)
    data = path.read_bytes()  # FileNotFoundError, IsADirectoryError: the caller's messages
    kind = compression_of(data[:8])
    if kind is not None:
        data = _decompress(path, data, kind)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        inside = f" (after {kind} decompression)" if kind else ""
        raise InputError(
            f"{path}: not a UTF-8 text file{inside} ({err.reason} at byte {err.start}); "
            "expected a CSV table"
        ) from None


def _decompress(path: Path, data: bytes, kind: str) -> bytes:
    readable = next(ok for _, name, ok in MAGIC if name == kind)
    if not readable:
        raise InputError(
            f"{path}: {kind}-compressed, which dagger does not read (it reads gzip, bzip2, xz "
            f"and zip); decompress it first ({UNPACK[kind]} {path.name})"
        )
    try:
        if kind == "gzip":
            out = gzip.decompress(data)
        elif kind == "bzip2":
            out = bz2.decompress(data)
        elif kind == "xz":
            out = lzma.decompress(data)
        else:
            out = _unzip(path, data)
    except InputError:
        raise
    except (OSError, EOFError, ValueError, lzma.LZMAError, zipfile.BadZipFile) as err:
        raise InputError(
            f"{path}: {kind}-compressed, but the data cannot be decompressed ({err}); "
            "the file may be truncated or damaged"
        ) from None
    inner = compression_of(out[:8])
    if len(out) > 262 and out[257:262] == b"ustar":
        raise InputError(
            f"{path}: a tar archive ({kind}-compressed); extract the table first "
            f"(tar -xf {path.name}) and give dagger the CSV file"
        )
    if inner is not None:
        raise InputError(
            f"{path}: {kind}-compressed {inner} data (compressed twice); decompress it first"
        )
    return out


def _unzip(path: Path, data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = [i for i in archive.infolist() if not i.is_dir()]
        names = [i.filename for i in members]
        if len(members) != 1:
            what = (
                "an empty zip archive" if not members else f"a zip archive of {len(members)} files"
            )
            hint = ""
            if any(n.startswith("xl/") for n in names):
                hint = " (an Excel workbook: save the sheet as CSV)"
            elif members:
                shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
                hint = f" ({shown}); extract the table (unzip {path.name}) and give its CSV file"
            raise InputError(f"{path}: {what}{hint}; dagger reads a zip of one CSV file")
        if members[0].flag_bits & 0x1:
            raise InputError(f"{path}: the zip archive is encrypted; extract the table first")
        return archive.read(members[0])
