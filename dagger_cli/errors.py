"""Errors that dagger reports to its users.

Every error a user can cause (a missing file, a bad CSV, an unknown column, a table
that is too large for the chosen engine, ...) is a :class:`DaggerError`. The CLI
prints its message and exits with ``exit_code``; no traceback is shown.
"""

from __future__ import annotations


class DaggerError(Exception):
    """A user-facing error; ``str(err)`` says what went wrong and what to do."""

    exit_code = 2


class InputError(DaggerError):
    """The input table (file, columns, values) is not usable."""


class LimitError(DaggerError):
    """A size or memory limit stops the computation before it could finish."""

    exit_code = 3


class CostWarning(UserWarning):
    """A query that will take long or much memory, said before the work, with what to
    change (the CLI prints it as ``dagger: warning: ...``)."""


class DownloadError(DaggerError):
    """A dataset could not be downloaded or failed its verification."""

    exit_code = 4
