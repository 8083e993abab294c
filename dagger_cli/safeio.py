"""Writing the user's files safely: one atomic writer and the checks made before any work.

Every file dagger writes (curve CSV, JSON, figures, tree files, ``prepare -o``, the dataset
cache) goes through :func:`atomic_write`, so the rules below hold everywhere:

* a regular file (new or existing) is written to a hidden temporary file in its own folder,
  then renamed over it: readers see the old content or the new one, never half of it, and on
  any error the temporary file is removed and the old file is untouched;
* a symbolic link is followed: its final target is written (atomically, as above) and the
  link stays a link;
* ``-`` (stdout) and files that are not regular, such as a FIFO, ``/dev/stdout`` or
  ``/dev/null``, are written directly: renaming over them would replace a pipe or a device
  by a plain file;
* a folder, a block device or a socket is refused;
* a new file gets the ordinary permissions ``0o666`` minus the umask (``-rw-r--r--`` under
  the usual umask 022), an existing one keeps its permission bits;
* an :class:`OSError` (permission, disk full, ...) becomes a :class:`WriteError` naming the
  path, with its own exit code (5), and no traceback.

:func:`check_output` runs the same decisions without writing, so the CLI can refuse a bad
output path *before* a long computation rather than after it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
from collections.abc import Iterator, Sequence
from typing import IO, Any

from .errors import DaggerError, InputError

#: The name meaning "standard output".
STDOUT = "-"


class WriteError(DaggerError):
    """Writing an output failed (permission, disk full, ...); the message names the path."""

    exit_code = 5


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


def _target(path) -> tuple[str, os.stat_result | None]:
    """The file really written for ``path`` (symlinks resolved) and its stat, or None."""
    real = os.path.realpath(os.fspath(path))
    try:
        st = os.stat(path)  # follows links, even /dev/stdout -> /proc/self/fd/1 -> pipe:[n]
    except FileNotFoundError:
        return real, None
    except NotADirectoryError:
        raise InputError(f"{path}: a part of this path is a file, not a folder") from None
    except OSError as err:
        raise InputError(f"{path}: cannot use this output path ({_reason(err)})") from None
    return (real if stat.S_ISREG(st.st_mode) else os.fspath(path)), st


def _refuse_kind(path, st: os.stat_result) -> None:
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a folder; give a file name")
    if stat.S_ISBLK(mode):
        raise InputError(f"{path}: is a block device; dagger does not write to disks")
    if stat.S_ISSOCK(mode):
        raise InputError(f"{path}: is a socket; give a file name")


def is_special(path) -> bool:
    """True for ``-`` and for paths whose target exists and is not a regular file."""
    if os.fspath(path) == STDOUT:
        return True
    _, st = _target(path)
    return st is not None and not stat.S_ISREG(st.st_mode)


@contextlib.contextmanager
def atomic_write(path, mode: str = "w") -> Iterator[IO[Any]]:
    """Open ``path`` for writing; on a clean exit the content is in place, else nothing.

    Parameters
    ----------
    path : str or os.PathLike
        Destination; ``"-"`` is standard output. See the module docstring for symlinks,
        FIFOs and devices.
    mode : {"w", "wb"}
        Text (UTF-8, ``\\n`` line ends) or binary.

    Yields
    ------
    file object
        Write the content to it; do not close it.

    Raises
    ------
    InputError
        (exit 2) when ``path`` is a folder, a block device or a socket, or its folder is
        missing; nothing is written.
    WriteError
        (exit 5) when writing fails; a regular file keeps its old content (or does not
        appear) and no temporary file is left.
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', not {mode!r}")
    text = mode == "w"
    if os.fspath(path) == STDOUT:
        stream = sys.stdout if text else sys.stdout.buffer
        try:
            yield stream
            stream.flush()
        except BrokenPipeError:
            raise  # the reader stopped (`| head`): not a failure, the CLI exits quietly
        except OSError as err:
            raise WriteError(f"cannot write to standard output ({_reason(err)})") from None
        return
    real, st = _target(path)
    if st is not None:
        _refuse_kind(path, st)
    if st is not None and not stat.S_ISREG(st.st_mode):
        yield from _write_direct(path, real, text)
        return
    yield from _write_replace(path, real, st, text)


def _open(fd: int, text: bool):
    if text:
        return open(fd, "w", encoding="utf-8", newline="\n")
    return open(fd, "wb")  # also readable when the fd is (a download verifies what it wrote)


def _write_direct(path, real: str, text: bool):
    """A FIFO or a character device: opened and written in place, never renamed over."""
    try:
        fh = _open(os.open(real, os.O_WRONLY), text)
    except OSError as err:
        raise WriteError(f"cannot write {path} ({_reason(err)})") from None
    try:
        with fh:
            yield fh
    except OSError as err:
        raise WriteError(f"cannot write {path} ({_reason(err)})") from None


def _write_replace(path, real: str, st, text: bool):
    """A regular file (or a new one): a temporary file beside it, then a rename."""
    folder, name = os.path.split(real)
    if not os.path.isdir(folder):
        raise InputError(f"{path}: the folder {folder} does not exist")
    tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
    try:
        # 0o666 minus the umask, as for any new file (tempfile's files are private, 0o600).
        fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as err:
        raise WriteError(f"cannot write {path} ({_reason(err)})") from None
    try:
        with _open(fd, text) as fh:
            yield fh
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, real)
    except BaseException as err:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise WriteError(f"cannot write {path} ({_reason(err)})") from None
        raise


def write_file(path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` with :func:`atomic_write`."""
    with atomic_write(path, "w" if isinstance(data, str) else "wb") as fh:
        fh.write(data)


# ---------------------------------------------------------------------------- checks
def check_output(
    path,
    *,
    extensions: Sequence[str] | None = None,
    what: str = "output",
    inputs: Sequence = (),
) -> None:
    """Refuse, before any work, an output path that :func:`atomic_write` could not honour.

    Parameters
    ----------
    path : str or os.PathLike
        The output; ``"-"`` is always accepted.
    extensions : sequence of str, optional
        Allowed extensions (without dot, lower case) of a regular file's name. FIFOs and
        devices are accepted whatever their name.
    what : str
        What the file is, for messages (``"--plot"``, ``"-o"``).
    inputs : sequence of path-like
        Files the command reads; writing one of them is refused.

    Raises
    ------
    InputError
        Naming the path and what is wrong: unknown extension, a folder, a missing folder, a
        folder where new files cannot be created, or an input file.
    """
    if os.fspath(path) == STDOUT:
        return
    real, st = _target(path)
    if st is not None:
        _refuse_kind(path, st)
    for src in inputs:
        if src is not None and _same_file(real, src):
            raise InputError(
                f"{path}: is an input of this command ({src}); dagger never writes over its "
                f"input. Give another {what} path"
            )
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(real, os.W_OK):
            raise InputError(f"{path}: not writable")
        return
    if extensions is not None:
        ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
        if ext not in extensions:
            shown = f"'.{ext}'" if ext else "no extension"
            raise InputError(
                f"{what} {os.fspath(path)!r}: unknown format ({shown}); the file name must "
                f"end in one of: {', '.join('.' + e for e in extensions)}"
            )
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise InputError(
            f"{path}: the folder {folder} does not exist (dagger creates no folder for a file)"
        )
    check_folder_writable(folder, path)


def check_folder_writable(folder, shown=None) -> None:
    """Refuse a folder where a file cannot be created (tried for real: root ignores modes)."""
    probe = os.path.join(os.fspath(folder), f".dagger-probe.{secrets.token_hex(6)}")
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as err:
        raise InputError(
            f"{shown or folder}: cannot create files in {folder} ({_reason(err)})"
        ) from None
    os.unlink(probe)


def check_output_folder(folder, *, what: str = "--trees") -> None:
    """A folder to write files into: it may exist, or be new in an existing, writable folder.

    The folder itself is created only when the files are written (:func:`make_folder`).
    """
    real, st = _target(folder)
    if st is not None:
        if not stat.S_ISDIR(st.st_mode):
            raise InputError(f"{what} {folder}: exists and is not a folder")
        check_folder_writable(real, folder)
        return
    parent = os.path.dirname(real)
    if not os.path.isdir(parent):
        raise InputError(
            f"{what} {folder}: its parent folder {parent} does not exist (dagger creates "
            f"only the last folder of the path)"
        )
    check_folder_writable(parent, folder)


def make_folder(folder) -> None:
    """Create ``folder`` (its parent must exist) unless it exists; errors name it."""
    try:
        os.mkdir(folder)
    except FileExistsError:
        if not os.path.isdir(folder):
            raise InputError(f"{folder}: exists and is not a folder") from None
    except OSError as err:
        raise WriteError(f"cannot create the folder {folder} ({_reason(err)})") from None


def check_distinct(paths: Sequence) -> None:
    """Refuse two outputs that are the same file (``-`` and devices may repeat)."""
    seen: dict = {}
    for p in paths:
        if p is None or os.fspath(p) == STDOUT or is_special(p):
            continue
        real = os.path.realpath(os.fspath(p))
        if real in seen:
            raise InputError(f"two outputs are the same file: {seen[real]} and {p}")
        seen[real] = p


def _same_file(real: str, other) -> bool:
    try:
        return os.path.samefile(real, other)
    except OSError:
        return os.path.realpath(os.fspath(other)) == real
