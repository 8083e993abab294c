"""The UCI tables of the paper and the optimal-decision-tree benchmark: a registry, a safe
downloader with a cache, and loaders.

The registry (:data:`REGISTRY`) is data: each :class:`Dataset` entry declares where the file
lives at UCI, its column names, the decision column, the identifier columns to drop, the facts a
correct file has (rows, columns, class counts, checksum) and the shape of the prepared table.
Adding a table means adding an entry; no function needs to change.

Entries belong to a suite (:data:`SUITES`): ``uci``, the paper's four UCI tables, and
``odt``, the 12 binarised tables of the optimal-decision-tree benchmark (DL8.5, MurTree,
STreeD), named ``odt-<table>`` and downloaded from the MurTree data repository, and ``num``,
the six real-valued tables of ConTree's benchmark (bank, raisin, rice, wilt, segment, page),
named ``num-<table>``, whose columns are numeric attributes split by every threshold. Each
suite has its own base URL and mirror variable.

Downloads (:func:`fetch`) follow the habits of scikit-learn's ``_fetch_remote`` and pooch's
``stream_download``: a timeout on every request, retries with exponential backoff on transient
failures, streaming into a temporary file inside the cache folder, verification of the length and
of the checksum, then an atomic :func:`os.replace` into place. A failed download leaves no file a
later run would trust.

Configuration, by precedence (argument, then environment variable, then default):

============  =====================  ===========================================================
argument      environment variable   default
============  =====================  ===========================================================
data_home     ``DAGGER_DATA``        ``platformdirs.user_cache_dir("dagger")``
mirror        ``DAGGER_UCI_MIRROR``  :data:`UCI_BASE_URL` (suite ``odt``: ``DAGGER_ODT_MIRROR``,
                                     :data:`ODT_BASE_URL`; ``num``: ``DAGGER_NUM_MIRROR``,
                                     :data:`NUM_BASE_URL`)
offline       ``DAGGER_OFFLINE``     ``False`` (``1``, ``true``, ``yes`` or ``on`` turn it on)
============  =====================  ===========================================================

A cached file lives at ``<data_home>/<folder>/<file>``, the same layout as UCI's download area,
so a copy of the cache is itself a valid ``file://`` mirror (for the ``odt`` and ``num``
suites, whose files lie directly under the base URL, ``<data_home>/odt`` and
``<data_home>/num`` are).
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
import logging
import os
import sys
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DaggerError, DownloadError, InputError
from .recipe import Recipe

# The logger keeps the name it had before the module moved into dagger_cli.data, so that
# logging configurations naming it still apply.
log = logging.getLogger("dagger_cli.datasets")

#: UCI's classic download area; ``<base>/<folder>/<file>`` is a dataset's URL.
UCI_BASE_URL = "https://archive.ics.uci.edu/ml/machine-learning-databases"

#: The MurTree data repository's binarised benchmark tables; ``<base>/<file>``.
ODT_BASE_URL = "https://raw.githubusercontent.com/MurTree/murtree-data/main/DL"

#: ConTree's repository of real-valued benchmark tables (MIT licence); ``<base>/<file>``.
NUM_BASE_URL = "https://raw.githubusercontent.com/ConSol-Lab/contree/main/datasets"

ENV_DATA_HOME = "DAGGER_DATA"
ENV_MIRROR = "DAGGER_UCI_MIRROR"
ENV_ODT_MIRROR = "DAGGER_ODT_MIRROR"
ENV_NUM_MIRROR = "DAGGER_NUM_MIRROR"
ENV_OFFLINE = "DAGGER_OFFLINE"


@dataclass(frozen=True)
class Suite:
    """A family of registered tables sharing a source: its base URL and mirror variable."""

    name: str
    base_url: str
    env_mirror: str
    description: str


SUITES: dict[str, Suite] = {
    "uci": Suite("uci", UCI_BASE_URL, ENV_MIRROR, "the paper's four UCI tables"),
    "odt": Suite(
        "odt",
        ODT_BASE_URL,
        ENV_ODT_MIRROR,
        "the optimal-decision-tree benchmark: 12 binarised UCI tables (equal rows kept)",
    ),
    "num": Suite(
        "num",
        NUM_BASE_URL,
        ENV_NUM_MIRROR,
        "ConTree's benchmark: 6 real-valued UCI tables, every threshold (equal rows kept)",
    ),
}

#: First backoff delay in seconds; it doubles after every failed attempt, up to the cap.
BACKOFF_BASE = 0.5
BACKOFF_CAP = 8.0
CHUNK_SIZE = 64 * 1024

# Tests replace this to keep retries instant; production code sleeps for real.
_sleep: Callable[[float], None] = time.sleep

ProgressCallback = Callable[[int, "int | None"], None]


@dataclass(frozen=True)
class Dataset:
    """One registered table: where it lives and what a correct copy looks like.

    Attributes
    ----------
    name : str
        Registry key (lower case), also the name of the prepared table.
    folder, filename : str
        Location in UCI's download area: ``<base>/<folder>/<filename>``.
    columns : tuple of str
        Column names in file order (the files have no header line).
    decision : str
        Name of the decision column.
    drop : tuple of str
        Identifier columns that are not attributes.
    rows, n_columns : int
        Shape of the raw file.
    class_counts : dict of str to int
        Rows per decision value in the raw file.
    sha256 : str
        SHA-256 of the normalized content (see :func:`normalized_bytes`).
    prepared_shape : tuple of int
        ``(rows, attributes + 1)`` after the authors' preprocessing (drop identifiers, fill
        missing values with the mode, merge equal rows).
    description : str
        One line for listings.
    suite : str
        The :data:`SUITES` entry the table belongs to (its base URL and mirror).
    separator : str
        ``","`` (CSV) or ``" "`` (values separated by blanks).
    duplicates : str
        The recipe's policy for equal rows (``"merge"`` or ``"keep"``).
    thresholds : str or int, optional
        The recipe's thresholds for numeric columns (``"all"``: the ``num`` suite).
    """

    name: str
    folder: str
    filename: str
    columns: tuple
    decision: str
    drop: tuple
    rows: int
    n_columns: int
    class_counts: dict = field(hash=False)
    sha256: str
    prepared_shape: tuple
    description: str
    suite: str = "uci"
    separator: str = ","
    duplicates: str = "merge"
    thresholds: str | int | None = None

    @property
    def url(self) -> str:
        """The file's URL at its source (UCI, or the suite's base URL)."""
        return dataset_url(self, SUITES[self.suite].base_url)

    @property
    def remote_path(self) -> str:
        """Path of the file under its suite's base URL or mirror."""
        return f"{self.folder}/{self.filename}" if self.folder else self.filename

    @property
    def relpath(self) -> Path:
        """Path of the file inside a cache (and, for UCI, a mirror) folder."""
        return Path(self.folder or self.suite) / self.filename

    @property
    def n_attributes(self) -> int:
        """Conditional attributes of the prepared table."""
        return self.n_columns - 1 - len(self.drop)

    @property
    def n_classes(self) -> int:
        return len(self.class_counts)

    @property
    def recipe(self) -> Recipe:
        """The authors' preprocessing of this table: its decision column, its identifier
        columns dropped, missing values filled with the mode, equal rows merged (kept for
        the benchmark suite)."""
        return Recipe(
            decision=self.decision,
            drop=self.drop,
            duplicates=self.duplicates,
            thresholds=self.thresholds,
        ).resolved()


def _entries(*datasets: Dataset) -> dict:
    return {d.name: d for d in datasets}


def _odt(name: str, rows: int, features: int, counts: tuple, sha256: str, distinct: int):
    """An entry of the benchmark suite: label first, then 0/1 features, blank-separated,
    no header; the recipe keeps equal rows and names the columns ``f1``..``fk``."""
    return Dataset(
        name=f"odt-{name}",
        folder="",
        filename=f"{name}.txt",
        columns=("label",) + tuple(f"f{j}" for j in range(1, features + 1)),
        decision="label",
        drop=(),
        rows=rows,
        n_columns=features + 1,
        class_counts={"0": counts[0], "1": counts[1]},
        sha256=sha256,
        prepared_shape=(rows, features + 1),
        description=f"benchmark {name}: {features} 0/1 features, {distinct} distinct rows",
        suite="odt",
        separator=" ",
        duplicates="keep",
    )


def _num(name: str, rows: int, features: int, counts: tuple, sha256: str, distinct: int):
    """An entry of ConTree's benchmark suite: class first, then real-valued features
    (min-max scaled), blank-separated, no header; the recipe keeps equal rows, names the
    columns ``f1``..``fk`` and splits each by every threshold."""
    return Dataset(
        name=f"num-{name}",
        folder="",
        filename=f"{name}.txt",
        columns=("label",) + tuple(f"f{j}" for j in range(1, features + 1)),
        decision="label",
        drop=(),
        rows=rows,
        n_columns=features + 1,
        class_counts={str(k): c for k, c in enumerate(counts)},
        sha256=sha256,
        prepared_shape=(rows, features + 1),
        description=(
            f"ConTree benchmark {name}: {features} numeric features "
            f"({distinct} distinct values per feature on average), {len(counts)} classes"
        ),
        suite="num",
        separator=" ",
        duplicates="keep",
        thresholds="all",
    )


#: The registered tables, by lower-case name. Checksums were computed from the project's
#: mirror of the UCI files (``shared/datasets/uci``) with :func:`normalized_sha256`.
REGISTRY: dict[str, Dataset] = _entries(
    Dataset(
        name="lymphography",
        folder="lymphography",
        filename="lymphography.data",
        columns=(
            "class",
            "lymphatics",
            "block_of_affere",
            "bl_of_lymph_c",
            "bl_of_lymph_s",
            "by_pass",
            "extravasates",
            "regeneration_of",
            "early_uptake_in",
            "lym_nodes_dimin",
            "lym_nodes_enlar",
            "changes_in_lym",
            "defect_in_node",
            "changes_in_node",
            "changes_in_stru",
            "special_forms",
            "dislocation_of",
            "exclusion_of_no",
            "no_of_nodes_in",
        ),
        decision="class",
        drop=(),
        rows=148,
        n_columns=19,
        class_counts={"1": 2, "2": 81, "3": 61, "4": 4},
        sha256="e17d22d071341af08a505a10eb558afc835e302b02c8b381c1fa3dd305731935",
        prepared_shape=(148, 19),
        description="lymph node diagnoses: 18 small-integer attributes, 4 classes",
    ),
    Dataset(
        name="mushroom",
        folder="mushroom",
        filename="agaricus-lepiota.data",
        columns=(
            "class",
            "cap-shape",
            "cap-surface",
            "cap-color",
            "bruises",
            "odor",
            "gill-attachment",
            "gill-spacing",
            "gill-size",
            "gill-color",
            "stalk-shape",
            "stalk-root",
            "stalk-surface-above-ring",
            "stalk-surface-below-ring",
            "stalk-color-above-ring",
            "stalk-color-below-ring",
            "veil-type",
            "veil-color",
            "ring-number",
            "ring-type",
            "spore-print-color",
            "population",
            "habitat",
        ),
        decision="class",
        drop=(),
        rows=8124,
        n_columns=23,
        class_counts={"e": 4208, "p": 3916},
        sha256="e65d082030501a3ebcbcd7c9f7c71aa9d28fdfff463bf4cf4716a3fe13ac360e",
        prepared_shape=(8124, 23),
        description="edible or poisonous mushrooms: 22 nominal attributes, 2480 missing stalk-root",
    ),
    Dataset(
        name="nursery",
        folder="nursery",
        filename="nursery.data",
        columns=(
            "parents",
            "has_nurs",
            "form",
            "children",
            "housing",
            "finance",
            "social",
            "health",
            "class",
        ),
        decision="class",
        drop=(),
        rows=12960,
        n_columns=9,
        class_counts={
            "not_recom": 4320,
            "priority": 4266,
            "recommend": 2,
            "spec_prior": 4044,
            "very_recom": 328,
        },
        sha256="1f2ff809b36c4524f8619d9cf0952e9937ff9e281eab7b2784acf604b45df879",
        prepared_shape=(12960, 9),
        description="nursery school applications: 8 nominal attributes, 5 classes",
    ),
    Dataset(
        name="zoo",
        folder="zoo",
        filename="zoo.data",
        columns=(
            "animal_name",
            "hair",
            "feathers",
            "eggs",
            "milk",
            "airborne",
            "aquatic",
            "predator",
            "toothed",
            "backbone",
            "breathes",
            "venomous",
            "fins",
            "legs",
            "tail",
            "domestic",
            "catsize",
            "type",
        ),
        decision="type",
        drop=("animal_name",),
        rows=101,
        n_columns=18,
        class_counts={"1": 41, "2": 20, "3": 5, "4": 13, "5": 4, "6": 8, "7": 10},
        sha256="cddc71c26ab9bc82795b8f4ff114cade41885d92720c6af29ffb69bcf73f0315",
        # 101 animals, but many share all 16 attribute values: merging leaves 59 rows.
        prepared_shape=(59, 17),
        description="animals: 16 attributes (15 boolean, legs), 7 types; identifier dropped",
    ),
    # The optimal-decision-tree benchmark (suite "odt"), from the MurTree data repository
    # (commit 65d54d14aabf40f58e8dc94db18b7b52b2ef291f, MIT licence); checksums computed
    # from the project's copy (shared/datasets/odt) with normalized_sha256.
    _odt(
        "anneal",
        812,
        93,
        (187, 625),
        "f3a01191af5e8ca7f3d897d5a533419ead2cd002fc8d1e27fef8c8fac0ac343c",
        459,
    ),
    _odt(
        "australian-credit",
        653,
        125,
        (296, 357),
        "d1a4a329f1ae4baca5e569b143c755267aeea5204b1d07c20bd4f8dd3fd0d457",
        653,
    ),
    _odt(
        "diabetes",
        768,
        112,
        (268, 500),
        "e68ff88fb5970e0a3470fa595d45c5cf97c01416aa54a9d646388c872e01e5db",
        768,
    ),
    _odt(
        "german-credit",
        1000,
        112,
        (300, 700),
        "e828409b23b9e7d23fb45359742d4dbbc244976e06d47fe63a1bb8de41e2c313",
        998,
    ),
    _odt(
        "heart-cleveland",
        296,
        95,
        (136, 160),
        "8a1fe76d8329f45e34e4576410f8914327db6ca354c9f287c3c869f62c2c11ff",
        296,
    ),
    _odt(
        "hepatitis",
        137,
        68,
        (26, 111),
        "c14a2bdd6e1b8bf143e82420b81aacd1b56dd1f915edc06ac36c80ebfd8fb664",
        136,
    ),
    _odt(
        "kr-vs-kp",
        3196,
        73,
        (1527, 1669),
        "993c24e179e1b184c363f907a03a7d92618ac1baa69922755ac9c4ff7262bef6",
        3196,
    ),
    _odt(
        "primary-tumor",
        336,
        31,
        (254, 82),
        "3ea5f57397f4b2442d25b3c733220d381237cf0b22f3a2791a09a2625098f0f4",
        215,
    ),
    _odt(
        "soybean",
        630,
        50,
        (538, 92),
        "651a77ef42f39c4eeb252549f2d62c128849c1721a29fd23f2f0e7d859f66983",
        501,
    ),
    _odt(
        "tic-tac-toe",
        958,
        27,
        (332, 626),
        "a3a513c38721fd0e8800e8dc42eee2724d982540e762159812f8f83f70fe07b3",
        958,
    ),
    _odt(
        "vote",
        435,
        48,
        (168, 267),
        "d39cc11ca6ff02091f0ee54aa96a35736a2faad069500bb7612803cab4962130",
        342,
    ),
    _odt(
        "vehicle",
        846,
        252,
        (628, 218),
        "ad1bbc80162c767b39bba1c32e9365c756289e53c6c14031cfe7e5fa4dea5716",
        846,
    ),
    # ConTree's benchmark of real-valued tables (suite "num"), from ConTree's repository
    # (MIT licence); checksums from the project's copy (shared/datasets/num).
    _num(
        "bank",
        1372,
        4,
        (762, 610),
        "36565a0451f015d248916e8edbcd683757cd88b423a4a4897c5868d1d8aee640",
        1255,
    ),
    _num(
        "raisin",
        900,
        7,
        (450, 450),
        "aef7584ebec08a60b63f904b36e2e21fedd64bfa6a734fc2e29823ef118c7cff",
        899,
    ),
    _num(
        "rice",
        3810,
        7,
        (1630, 2180),
        "c9c6e545b82e374ce4526364a5d26b1fd7247d186da4381f115d09f372d41728",
        3520,
    ),
    _num(
        "wilt",
        4839,
        5,
        (261, 4578),
        "ed26b1b42576e9a755cbd2c5a067f69531c93c01f2d5424a2b190ba1d2194390",
        4520,
    ),
    _num(
        "segment",
        2310,
        18,
        (330, 330, 330, 330, 330, 330, 330),
        "b1bb1549896f96f8e3dddeac022875754a68009bca25988f2b98c134aba431c0",
        829,
    ),
    _num(
        "page",
        5473,
        10,
        (4913, 329, 88, 115, 28),
        "9eb2b14cbc174e79d37795edc1fcbde73204876101a2a309af4f28c0aa5f1891",
        909,
    ),
)


# --------------------------------------------------------------------------- registry look-up
def is_registered(name: str) -> bool:
    """Whether ``name`` is a registered dataset (case-insensitive).

    >>> is_registered("Zoo"), is_registered("zoo.csv")
    (True, False)
    """
    return isinstance(name, str) and name.lower() in REGISTRY


def get_dataset(name: str) -> Dataset:
    """The registry entry of ``name`` (case-insensitive).

    Raises
    ------
    InputError
        If no dataset has that name; the message lists the registered names.
    """
    try:
        return REGISTRY[name.lower()]
    except (KeyError, AttributeError):
        pass
    known = sorted(REGISTRY)
    close = difflib.get_close_matches(str(name).lower(), known, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise InputError(
        f"unknown dataset {name!r}; the registered datasets are: {', '.join(known)}.{hint}"
    )


# --------------------------------------------------------------------------- checksums
def normalized_bytes(data: bytes) -> bytes:
    """The content that checksums are computed over.

    Line endings become ``\\n`` (CRLF and lone CR alike), whitespace and blank lines at the end
    of the file are removed, and exactly one ``\\n`` ends the content. Everything else is kept
    byte for byte (undecodable bytes survive through ``surrogateescape``), so an honest mirror
    that rewrote line endings passes while any changed value fails.

    >>> normalized_bytes(b"a,1\\r\\nb,2\\r\\n\\r\\n")
    b'a,1\\nb,2\\n'
    """
    text = data.decode("utf-8", "surrogateescape")
    text = text.replace("\r\n", "\n").replace("\r", "\n").rstrip() + "\n"
    return text.encode("utf-8", "surrogateescape")


def normalized_sha256(data: bytes) -> str:
    """SHA-256 (hex) of :func:`normalized_bytes` of ``data``.

    >>> normalized_sha256(b"x\\r\\n") == normalized_sha256(b"x")
    True
    """
    return hashlib.sha256(normalized_bytes(data)).hexdigest()


def file_sha256(path) -> str:
    """:func:`normalized_sha256` of a file's content (the registered files are small)."""
    return normalized_sha256(Path(path).read_bytes())


# --------------------------------------------------------------------------- configuration
def get_data_home(data_home=None) -> Path:
    """The cache folder: ``data_home``, else ``$DAGGER_DATA``, else the user cache dir."""
    if data_home is None:
        data_home = os.environ.get(ENV_DATA_HOME) or None
    if data_home is None:
        import platformdirs

        data_home = platformdirs.user_cache_dir("dagger")
    return Path(data_home).expanduser()


def cache_path(name: str, data_home=None) -> Path:
    """Where the cached file of dataset ``name`` lives (it may not exist yet)."""
    return get_data_home(data_home) / get_dataset(name).relpath


def _is_offline(offline) -> bool:
    if offline is not None:
        return bool(offline)
    return os.environ.get(ENV_OFFLINE, "").strip().lower() in {"1", "true", "yes", "on"}


def get_mirror(mirror=None, suite: str = "uci") -> str:
    """The base URL: ``mirror``, else the suite's mirror variable (``$DAGGER_UCI_MIRROR``
    for ``uci``, ``$DAGGER_ODT_MIRROR`` for ``odt``, ``$DAGGER_NUM_MIRROR`` for ``num``),
    else its base URL (:data:`UCI_BASE_URL`, :data:`ODT_BASE_URL`, :data:`NUM_BASE_URL`).

    A local folder path is accepted too and turned into a ``file://`` URL.

    Raises
    ------
    DownloadError
        If the base is neither an ``http(s)://`` nor a ``file://`` URL nor an existing folder.
    """
    origin = "the mirror argument"
    source = SUITES[suite]
    if mirror is None:
        mirror = os.environ.get(source.env_mirror) or None
        origin = f"${source.env_mirror}"
    if mirror is None:
        return source.base_url
    mirror = str(mirror).strip()
    scheme = urllib.parse.urlsplit(mirror).scheme.lower()
    if scheme in ("http", "https", "file"):
        return mirror.rstrip("/")
    if Path(mirror).expanduser().is_dir():
        return Path(mirror).expanduser().resolve().as_uri()
    raise DownloadError(
        f"unsupported mirror {mirror!r} (from {origin}): expected an http://, https:// or "
        f"file:// URL, or an existing folder laid out like the source's (UCI: "
        f"<folder>/<file>; odt, num: <file>). Fix it, or unset it to download from "
        f"{source.base_url}."
    )


def dataset_url(dataset: Dataset | str, mirror=None) -> str:
    """URL of a dataset's file under the base URL given by :func:`get_mirror`."""
    ds = dataset if isinstance(dataset, Dataset) else get_dataset(dataset)
    return f"{get_mirror(mirror, ds.suite)}/{ds.remote_path}"


# --------------------------------------------------------------------------- fetching
class _Transient(Exception):
    """A failure worth retrying (connection, timeout, 5xx, short body)."""


class _StderrProgress:
    """Default progress display: ``zoo.data: 12 of 45 kB`` rewritten in place on stderr."""

    def __init__(self, label: str):
        self.label = label
        self.shown = False

    def __call__(self, done: int, total: int | None) -> None:
        of = f" of {total / 1000:.0f} kB" if total else " kB"
        sys.stderr.write(f"\r{self.label}: {done / 1000:.0f}{of}")
        sys.stderr.flush()
        self.shown = True

    def finish(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _progress_for(progress, label: str):
    if progress is None:
        # Quiet when stderr is a pipe or a file (CI logs, tests); a terminal gets the display.
        isatty = getattr(sys.stderr, "isatty", None)
        progress = bool(isatty and isatty())
    if progress is True:
        return _StderrProgress(label)
    if progress is False:
        return None
    if not callable(progress):
        raise TypeError(f"progress must be None, a bool or a callable, got {progress!r}")
    return progress


def fetch(
    name: str,
    *,
    data_home=None,
    mirror=None,
    offline: bool | None = None,
    progress=None,
    timeout: float = 30,
    retries: int = 3,
) -> Path:
    """Return the path of a verified local copy of a registered dataset, downloading it if needed.

    Parameters
    ----------
    name : str
        A registered dataset name (case-insensitive), see :data:`REGISTRY`.
    data_home : path-like, optional
        Cache folder; default ``$DAGGER_DATA`` or ``platformdirs.user_cache_dir("dagger")``.
        The file is cached as ``<data_home>/<folder>/<file>``.
    mirror : str, optional
        Base URL replacing UCI's (``http(s)://...``, ``file://...`` or a local folder);
        default ``$DAGGER_UCI_MIRROR`` or :data:`UCI_BASE_URL`. A ``file://`` mirror is read
        directly from disk and copied into the cache with the same verification.
    offline : bool, optional
        Never touch the network or the mirror; default from ``$DAGGER_OFFLINE``.
    progress : None, bool or callable, optional
        ``progress(done_bytes, total_bytes_or_None)`` is called after every chunk.
        ``True`` prints progress on stderr, ``False`` prints nothing, ``None`` (default)
        prints only when stderr is a terminal.
    timeout : float
        Seconds to wait for the server to connect or to send more data (per read, as in
        requests; not a limit on the whole transfer).
    retries : int
        Further attempts after a transient failure (connection error, timeout, HTTP 5xx,
        body shorter than Content-Length), waiting 0.5 s, 1 s, 2 s, ... (capped at 8 s)
        in between. HTTP 4xx and checksum mismatches are not retried: repeating the same
        request would get the same answer.

    Returns
    -------
    Path
        The cached file. Its checksum was verified during this call.

    Raises
    ------
    InputError
        If ``name`` is not registered.
    DownloadError
        If the file is not cached and cannot be downloaded, or fails verification.
        The message names the URL, what was expected and what was found, and what to do.

    Notes
    -----
    A cached file is re-verified on every call. If it fails (edited or damaged on disk), then
    online it is downloaded again, with a warning on the ``dagger_cli.datasets`` logger, and
    replaced only once the new copy is verified; offline it is an error asking the user to
    delete it or fetch again online.

    Downloads go to a uniquely named temporary file (``.<file>.*.tmp``) in the destination
    folder and are renamed into place with :func:`os.replace`, which is atomic, so concurrent
    fetches of one file are safe (each downloads its own copy; the last rename wins, and both
    copies are identical and verified). On any failure the temporary file is deleted. The
    cached file gets ordinary permissions (``0o666`` minus the umask: readable by everyone
    under the usual umask 022), through :func:`dagger_cli.safeio.atomic_write`.
    """
    ds = get_dataset(name)
    target = get_data_home(data_home) / ds.relpath
    offline = _is_offline(offline)

    if target.exists():
        try:
            got = file_sha256(target)
        except OSError as err:
            raise DownloadError(
                f"cannot read the cached file {target} ({err.strerror or err}); delete it and "
                f"fetch {ds.name!r} again"
            ) from None
        if got == ds.sha256:
            return target
        if offline:
            raise DownloadError(
                f"the cached file {target} is damaged: expected sha256 {ds.sha256}, got {got}. "
                f"Delete it and run `dagger fetch {ds.name}` without --offline "
                f"(and without {ENV_OFFLINE}=1)."
            )
        log.warning(
            "the cached file %s failed verification (expected sha256 %s, got %s); "
            "downloading it again",
            target,
            ds.sha256,
            got,
        )
    elif offline:
        raise DownloadError(
            f"dataset {ds.name!r} is not cached (expected {target}) and offline mode is on, so "
            f"nothing was downloaded. Run `dagger fetch {ds.name}` while online, or point "
            f"{SUITES[ds.suite].env_mirror} at a local copy (file://...) and fetch without "
            "--offline."
        )

    url = dataset_url(ds, mirror)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DownloadError(
            f"cannot create the cache folder {target.parent} ({err.strerror or err}); "
            f"choose another with --data-home or {ENV_DATA_HOME}"
        ) from None

    reporter = _progress_for(progress, ds.filename)
    try:
        if urllib.parse.urlsplit(url).scheme.lower() == "file":
            _copy_local(ds, url, target, reporter)
        else:
            _download_http(ds, url, target, reporter, timeout=timeout, retries=retries)
    finally:
        if isinstance(reporter, _StderrProgress):
            reporter.finish()
    return target


def _url_to_path(url: str) -> Path:
    parts = urllib.parse.urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise DownloadError(
            f"cannot read {url}: a file:// URL must name a local path (file:///...), "
            f"not the host {parts.netloc!r}"
        )
    from urllib.request import url2pathname  # only here: it costs 15 ms of every start-up

    return Path(url2pathname(parts.path))


def _install(ds: Dataset, url: str, target: Path, write: Callable) -> None:
    """Write through :func:`~dagger_cli.safeio.atomic_write` via ``write(fileobj)``, verify.

    The temporary file is renamed into place only when its checksum is right; on any failure
    (network, checksum, disk) it is removed, so a later run never finds and trusts it.
    """
    from ..safeio import atomic_write

    with atomic_write(target, "wb") as out:
        write(out)
        out.flush()
        got = _fd_sha256(out.fileno())
        if got != ds.sha256:
            raise DownloadError(
                f"checksum mismatch for {url}: expected sha256 {ds.sha256}, got {got}; "
                f"the download was deleted. Check the mirror (or {SUITES[ds.suite].env_mirror}) "
                "or retry later."
            )


def _fd_sha256(fd: int) -> str:
    """:func:`normalized_sha256` of what an open file holds (read back from its start)."""
    size = os.fstat(fd).st_size
    parts, pos = [], 0
    while pos < size:
        chunk = os.pread(fd, min(CHUNK_SIZE * 16, size - pos), pos)
        if not chunk:
            break
        parts.append(chunk)
        pos += len(chunk)
    return normalized_sha256(b"".join(parts))


def _copy_local(ds: Dataset, url: str, target: Path, progress) -> None:
    source = _url_to_path(url)

    def write(out):
        try:
            src = open(source, "rb")
        except OSError as err:
            raise DownloadError(
                f"cannot read {url} ({err.strerror or err}); expected the mirror to hold "
                f"{ds.remote_path}. Check the mirror folder (or {SUITES[ds.suite].env_mirror})."
            ) from None
        with src:
            total = os.fstat(src.fileno()).st_size
            done = 0
            while chunk := src.read(CHUNK_SIZE):
                out.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)

    _install(ds, url, target, write)


def _download_http(ds: Dataset, url: str, target: Path, progress, *, timeout, retries) -> None:
    import requests

    attempts = max(0, int(retries)) + 1
    session = requests.Session()
    try:
        for attempt in range(attempts):
            try:
                _install(
                    ds, url, target, lambda out: _stream(ds, session, url, out, progress, timeout)
                )
                return
            except _Transient as err:
                last = err
                if attempt + 1 < attempts:
                    _sleep(min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt))
    finally:
        session.close()
    tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
    raise DownloadError(
        f"{last} (gave up after {tries}); nothing was saved. Check the network connection or "
        f"the mirror ({SUITES[ds.suite].env_mirror}) and retry, perhaps with a longer timeout."
    )


def _stream(ds: Dataset, session, url: str, out, progress, timeout) -> None:
    import requests

    done = 0
    total = None
    try:
        with session.get(url, stream=True, timeout=timeout) as resp:
            if resp.status_code >= 500:
                raise _Transient(f"server error for {url}: HTTP {resp.status_code} {resp.reason}")
            try:
                resp.raise_for_status()
            except requests.HTTPError:
                raise DownloadError(
                    f"download of {url} failed: HTTP {resp.status_code} {resp.reason}, expected "
                    "200; nothing was saved. Check that the server or mirror "
                    f"({SUITES[ds.suite].env_mirror}) "
                    f"holds {ds.remote_path} under its base URL."
                ) from None
            # With a content encoding (gzip), Content-Length counts the encoded bytes,
            # not the ones we write, so it can only be compared for identity transfers.
            encoding = resp.headers.get("Content-Encoding", "identity").lower()
            length = resp.headers.get("Content-Length")
            if encoding == "identity" and length and length.isdigit():
                total = int(length)
            for chunk in resp.iter_content(CHUNK_SIZE):
                out.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
    except requests.Timeout:
        raise _Transient(f"timed out after {timeout} s waiting for {url}") from None
    except requests.exceptions.ChunkedEncodingError:
        # urllib3 reports a body shorter than Content-Length this way.
        expected = f"expected {total} bytes, " if total is not None else ""
        raise _Transient(f"truncated download from {url}: {expected}got {done}") from None
    except requests.ConnectionError as err:
        # A read timeout while streaming the body surfaces as a ConnectionError.
        if "timed out" in str(err).lower():
            raise _Transient(f"timed out after {timeout} s waiting for {url}") from None
        raise _Transient(f"cannot connect to {url} ({_short(err)})") from None
    except requests.RequestException as err:
        raise DownloadError(f"cannot download {url}: {_short(err)}") from None
    if total is not None and done != total:
        raise _Transient(
            f"truncated download from {url}: expected {total} bytes (Content-Length), got {done}"
        )


def _short(err: Exception) -> str:
    text = str(err)
    return text if len(text) <= 300 else text[:297] + "..."


# --------------------------------------------------------------------------- listing, loading
def dataset_table_rows(data_home=None) -> list[dict]:
    """One dict per registered dataset, for ``dagger datasets``.

    Keys: ``name``, ``rows`` (raw rows), ``attributes`` (conditional attributes after dropping
    identifiers), ``classes``, ``prepared_rows`` (rows after preprocessing), ``cached`` (the
    cached file exists and passes its checksum), ``url`` (the source at UCI), ``path`` (where
    the cached file is or would be) and ``description``. Never touches the network.
    """
    home = get_data_home(data_home)
    out = []
    for ds in REGISTRY.values():
        path = home / ds.relpath
        try:
            cached = path.is_file() and file_sha256(path) == ds.sha256
        except OSError:
            cached = False
        out.append(
            {
                "name": ds.name,
                "rows": ds.rows,
                "attributes": ds.n_attributes,
                "classes": ds.n_classes,
                "prepared_rows": ds.prepared_shape[0],
                "cached": cached,
                "url": ds.url,
                "path": str(path),
                "description": ds.description,
            }
        )
    return out


def load_dataframe(name: str, **fetch_kwargs):
    """The raw table of a registered dataset as a DataFrame of strings.

    Columns carry the registry's names; values are exactly the file's (``?`` stays ``?``).
    The parsed content is the normalized content that the checksum covers.

    Parameters
    ----------
    name : str
        A registered dataset name.
    **fetch_kwargs
        Passed to :func:`fetch` (``data_home``, ``mirror``, ``offline``, ...).
    """
    import pandas as pd

    ds, records = read_records(name, **fetch_kwargs)
    return pd.DataFrame(records, columns=list(ds.columns), dtype=str)


def read_records(name: str, **fetch_kwargs):
    """The registry entry and the verified file's records (lists of strings)."""
    ds = get_dataset(name)
    path = fetch(ds.name, **fetch_kwargs)
    text = normalized_bytes(path.read_bytes()).decode("utf-8", "replace")
    if ds.separator == ",":
        records = [r for r in csv.reader(io.StringIO(text)) if r]
    else:
        records = [line.split() for line in text.splitlines() if line.strip()]
    widths = {len(r) for r in records}
    if len(records) != ds.rows or widths != {ds.n_columns}:
        # Only reachable when a registry entry disagrees with its own checksummed file.
        raise DaggerError(
            f"{path}: expected {ds.rows} rows of {ds.n_columns} values (registry entry "
            f"{ds.name!r}), found {len(records)} rows with {sorted(widths)} values; "
            f"the registry entry is wrong"
        )
    return ds, records


def load_table(name: str, recipe: Recipe | None = None, **kwargs: Any):
    """Fetch a registered dataset and prepare it as a :class:`~dagger_cli.data.table.DecisionTable`.

    The user's recipe goes over the dataset's own (:attr:`Dataset.recipe`: its decision
    column, its identifier columns dropped, missing values filled with the mode, equal rows
    merged): every field the user sets wins, the others keep the dataset's choice.

    Parameters
    ----------
    name : str
        A registered dataset name.
    recipe : Recipe, optional
        The user's preprocessing (:class:`dagger_cli.data.recipe.Recipe`).
    **kwargs
        Recipe fields (``bins=2`` is ``recipe=Recipe(bins=2)``), and the rest for
        :func:`fetch` (``data_home``, ``mirror``, ``offline``, ...).

    Examples
    --------
    With the default recipe zoo has 59 rows and 16 attributes (requires the file)::

        t = load_table("zoo")
        (t.n_rows, t.n_attributes + 1)   # (59, 17)
    """
    from .table import from_columns

    recipe, fetch_kwargs = Recipe.split(recipe, kwargs)
    # Straight from the records to the table: no pandas import on the command's path.
    ds, records = read_records(name, **fetch_kwargs)
    columns = [[r[j].strip() for r in records] for j in range(len(ds.columns))]
    return from_columns(
        list(ds.columns), columns, recipe.over(ds.recipe), name=ds.name, source=ds.name, lines=None
    )


def resolve_table(
    name_or_path,
    recipe: Recipe | None = None,
    *,
    name: str | None = None,
    header: Sequence[str] | None = None,
    sep: str | None = None,
    **kwargs: Any,
):
    """A table from a registered dataset name or a CSV path, both prepared by ``recipe``.

    A registered name (case-insensitive) that is not also an existing path is fetched and
    prepared with :func:`load_table`; anything else is read with
    :meth:`DecisionTable.from_csv` (so an existing file named ``zoo`` wins over the dataset).

    Parameters
    ----------
    name_or_path : str or path-like
    recipe : Recipe, optional
        The preprocessing; its unset fields keep the registry's recipe (for a dataset) or
        the defaults (for a file).
    name : str, optional
        Table name for a CSV file (default: the file stem); a dataset keeps its own name.
    header : sequence of str, optional
        Column names for a CSV file without a header line; ignored for a dataset.
    sep : str, optional
        Field separator of a CSV file (default: detected); ignored for a dataset.
    **kwargs
        Recipe fields (``drop=["id"]``), and the rest for :func:`fetch` for a dataset
        (``data_home``, ``mirror``, ``offline``, ``progress``, ``timeout``, ``retries``).
    """
    from .table import DecisionTable

    recipe, fetch_kwargs = Recipe.split(recipe, kwargs)
    text = os.fspath(name_or_path)
    if is_registered(text) and not Path(text).exists():
        return load_table(text, recipe, **fetch_kwargs)
    return DecisionTable.from_csv(text, recipe, name=name, header=header, sep=sep)
