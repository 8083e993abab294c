"""The dataset registry, the downloader and the loaders, tested offline against the UCI mirror.

The mirror (``shared/datasets/uci`` beside the repository, or ``$DAGGER_TEST_MIRROR_DIR``) is
served on 127.0.0.1 by ``tests/mirror_server.py``, which can corrupt, truncate, refuse, fail
or stall; tests that need it are skipped when it is absent.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from pathlib import Path

import pytest

from dagger_cli.data import datasets
from dagger_cli.data.datasets import (
    REGISTRY,
    Dataset,
    dataset_table_rows,
    fetch,
    is_registered,
    load_dataframe,
    load_table,
    normalized_sha256,
    resolve_table,
)
from dagger_cli.errors import DaggerError, DownloadError, InputError

try:
    from .mirror_server import MirrorServer
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    from mirror_server import MirrorServer

MIRROR = Path(
    os.environ.get("DAGGER_TEST_MIRROR_DIR")
    or Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "uci"
)
NO_MIRROR = f"UCI mirror folder not found at {MIRROR} (set DAGGER_TEST_MIRROR_DIR)"
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=NO_MIRROR)
NAMES = sorted(n for n, ds in REGISTRY.items() if ds.suite == "uci")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    """No test reads the user's settings or writes the user's cache."""
    for var in ("DAGGER_UCI_MIRROR", "DAGGER_ODT_MIRROR", "DAGGER_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("DAGGER_DATA", str(tmp_path / "default-cache"))


@pytest.fixture
def sleeps(monkeypatch):
    """Record backoff delays instead of sleeping."""
    recorded = []
    monkeypatch.setattr(datasets, "_sleep", recorded.append)
    return recorded


@pytest.fixture
def server():
    with MirrorServer(MIRROR) as srv:
        yield srv


@pytest.fixture
def cache(tmp_path):
    return tmp_path / "cache"


def files_in(folder: Path) -> list[Path]:
    """Every file under ``folder``, hidden temporary files included."""
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def valid(path: Path, name: str) -> bool:
    return normalized_sha256(path.read_bytes()) == REGISTRY[name].sha256


# --------------------------------------------------------------------------- registry
@pytest.mark.parametrize("name", NAMES)
def test_registry_entry_is_consistent(name):
    ds = REGISTRY[name]
    assert isinstance(ds, Dataset) and ds.name == name
    assert len(ds.columns) == ds.n_columns == len(set(ds.columns))
    assert ds.decision in ds.columns and ds.decision not in ds.drop
    assert set(ds.drop) <= set(ds.columns)
    assert sum(ds.class_counts.values()) == ds.rows
    assert ds.prepared_shape[1] == ds.n_attributes + 1
    assert ds.prepared_shape[0] <= ds.rows
    assert len(ds.sha256) == 64 and int(ds.sha256, 16) >= 0
    assert ds.url == f"{datasets.UCI_BASE_URL}/{ds.folder}/{ds.filename}"
    assert ds.url.startswith("https://archive.ics.uci.edu/ml/machine-learning-databases/")


def test_registered_names_are_case_insensitive():
    assert is_registered("zoo") and is_registered("ZOO") and is_registered("Mushroom")
    assert not is_registered("zoo.csv") and not is_registered("")
    assert datasets.get_dataset("NurSery") is REGISTRY["nursery"]


def test_unknown_name_lists_the_registered_ones(cache):
    with pytest.raises(InputError, match=r"unknown dataset 'zo'.*lymphography.*Did you mean 'zoo'"):
        fetch("zo", data_home=cache)


@needs_mirror
@pytest.mark.parametrize("name", NAMES)
def test_registry_checksum_matches_mirror(name):
    ds = REGISTRY[name]
    assert hashlib.sha256((MIRROR / ds.relpath).read_bytes()).hexdigest() == ds.sha256


def test_normalized_checksum_ignores_line_endings_only():
    base = b"a,1\nb,2\n"
    same = [b"a,1\r\nb,2\r\n", b"a,1\rb,2\r", b"a,1\nb,2", b"a,1\nb,2\n\n\n", b"a,1\nb,2 \n\t\n"]
    for variant in same:
        assert normalized_sha256(variant) == normalized_sha256(base), variant
    changed = [b"a,1\nb,3\n", b"a,1\nb,2,\n", b"a,1\n\nb,2\n", b" a,1\nb,2\n", b"a,\xff\nb,2\n"]
    for variant in changed:
        assert normalized_sha256(variant) != normalized_sha256(base), variant


# --------------------------------------------------------------------------- fetch over HTTP
@needs_mirror
def test_fetch_all_into_empty_cache(server, cache):
    paths = {name: fetch(name, data_home=cache, mirror=server.url) for name in NAMES}
    for name, path in paths.items():
        ds = REGISTRY[name]
        assert path == cache / ds.folder / ds.filename
        assert valid(path, name)
    assert sorted(server.requests) == sorted(
        f"/{REGISTRY[n].folder}/{REGISTRY[n].filename}" for n in NAMES
    )
    assert files_in(cache) == sorted(paths.values())  # no temporary files left behind


@needs_mirror
def test_cache_hit_makes_no_request(server, cache):
    first = fetch("zoo", data_home=cache, mirror=server.url)
    assert len(server.requests) == 1
    assert fetch("ZOO", data_home=cache, mirror=server.url) == first
    assert len(server.requests) == 1


@needs_mirror
def test_corrupted_byte_fails_checksum_and_caches_nothing(server, cache, sleeps):
    server.corrupt = True
    with pytest.raises(DownloadError) as info:
        fetch("zoo", data_home=cache, mirror=server.url)
    msg = str(info.value)
    assert "checksum mismatch" in msg and f"{server.url}/zoo/zoo.data" in msg
    assert REGISTRY["zoo"].sha256 in msg and "deleted" in msg
    assert files_in(cache) == []
    assert len(server.requests) == 1  # a bad checksum is not retried


@needs_mirror
def test_truncated_body_errors_and_leaves_nothing(server, cache, sleeps):
    server.truncate = True
    with pytest.raises(DownloadError, match=r"truncated download from http://.*expected \d+ bytes"):
        fetch("nursery", data_home=cache, mirror=server.url, retries=1)
    assert files_in(cache) == []
    assert len(server.requests) == 2 and sleeps == [0.5]


@needs_mirror
def test_truncated_body_without_length_fails_checksum(server, cache, sleeps):
    server.truncate = "no-length"
    with pytest.raises(DownloadError, match="checksum mismatch"):
        fetch("nursery", data_home=cache, mirror=server.url)
    assert files_in(cache) == []


@needs_mirror
def test_404_names_the_url_and_is_not_retried(server, cache, sleeps):
    server.always_status = 404
    with pytest.raises(DownloadError) as info:
        fetch("mushroom", data_home=cache, mirror=server.url)
    msg = str(info.value)
    assert f"{server.url}/mushroom/agaricus-lepiota.data" in msg and "404" in msg
    assert len(server.requests) == 1 and sleeps == []
    assert files_in(cache) == []


@needs_mirror
def test_500_then_success_is_retried(server, cache, sleeps):
    server.status_plan = [500]
    path = fetch("lymphography", data_home=cache, mirror=server.url)
    assert valid(path, "lymphography")
    assert len(server.requests) == 2 and sleeps == [0.5]


@needs_mirror
def test_persistent_5xx_backs_off_then_gives_up(server, cache, sleeps):
    server.always_status = 503
    with pytest.raises(DownloadError, match=r"HTTP 503.*after 4 attempts"):
        fetch("zoo", data_home=cache, mirror=server.url, retries=3)
    assert len(server.requests) == 4
    assert sleeps == [0.5, 1.0, 2.0]
    assert files_in(cache) == []


def test_backoff_is_capped(monkeypatch, cache, sleeps):
    # Nothing listens on this port (it was just freed), so every attempt fails to connect.
    with MirrorServer(cache.parent) as srv:
        url = srv.url
    expected = r"cannot connect to http://127\.0\.0\.1.*after 7 attempts"
    with pytest.raises(DownloadError, match=expected):
        fetch("zoo", data_home=cache, mirror=url, retries=6, timeout=2)
    assert sleeps == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert files_in(cache) == []


@needs_mirror
def test_stalled_server_times_out(server, cache, sleeps):
    server.stall = 5.0
    start = time.monotonic()
    expected = r"timed out after 0\.5 s waiting for http://.*zoo\.data"
    with pytest.raises(DownloadError, match=expected):
        fetch("zoo", data_home=cache, mirror=server.url, timeout=0.5, retries=1)
    assert time.monotonic() - start < 4
    assert len(server.requests) == 2
    assert files_in(cache) == []


@needs_mirror
def test_concurrent_fetches_of_one_file_are_safe(server, cache):
    server.hold_until = 2  # the server answers only once both requests are in flight
    results, errors = [], []

    def worker():
        try:
            results.append(fetch("nursery", data_home=cache, mirror=server.url))
        except Exception as err:  # pragma: no cover - reported by the assertion below
            errors.append(err)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert errors == []
    assert len(results) == 2 and results[0] == results[1]
    assert len(server.requests) == 2  # both really downloaded, at the same time
    assert valid(results[0], "nursery")
    assert files_in(cache) == [results[0]]


@needs_mirror
def test_crlf_mirror_passes_the_checksum(server, cache):
    server.crlf = True
    path = fetch("zoo", data_home=cache, mirror=server.url)
    assert b"\r\n" in path.read_bytes()
    assert len(load_dataframe("zoo", data_home=cache, offline=True)) == 101


@needs_mirror
def test_progress_callback_sees_every_byte(server, cache):
    calls = []
    path = fetch(
        "mushroom",
        data_home=cache,
        mirror=server.url,
        progress=lambda done, total: calls.append((done, total)),
    )
    size = path.stat().st_size
    assert len(calls) > 1
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert calls[-1] == (size, size)


@needs_mirror
def test_default_progress_is_quiet_off_a_terminal_and_prints_when_asked(server, cache, capsys):
    fetch("zoo", data_home=cache, mirror=server.url)
    assert capsys.readouterr().err == ""
    fetch("lymphography", data_home=cache, mirror=server.url, progress=True)
    err = capsys.readouterr().err
    assert "lymphography.data:" in err and " kB" in err and err.endswith("\n")


@needs_mirror
def test_environment_chooses_cache_and_mirror(server, tmp_path, monkeypatch):
    monkeypatch.setenv("DAGGER_DATA", str(tmp_path / "env-cache"))
    monkeypatch.setenv("DAGGER_UCI_MIRROR", server.url + "/")
    path = fetch("zoo")
    assert path == tmp_path / "env-cache" / "zoo" / "zoo.data"
    assert server.requests == ["/zoo/zoo.data"]


def test_default_cache_is_the_user_cache_dir(monkeypatch):
    import platformdirs

    monkeypatch.delenv("DAGGER_DATA")
    assert datasets.get_data_home() == Path(platformdirs.user_cache_dir("dagger"))
    assert datasets.get_data_home("~/x") == Path.home() / "x"


def test_bad_mirror_setting_is_explained(monkeypatch, cache):
    monkeypatch.setenv("DAGGER_UCI_MIRROR", "ftp://example.org/uci")
    expected = r"unsupported mirror 'ftp://example.org/uci' \(from \$DAGGER_UCI_MIRROR\)"
    with pytest.raises(DownloadError, match=expected):
        fetch("zoo", data_home=cache)


# --------------------------------------------------------------------------- cache and offline
@needs_mirror
def test_offline_with_empty_cache_errors_without_request(server, cache):
    with pytest.raises(DownloadError, match=r"'zoo' is not cached.*dagger fetch zoo"):
        fetch("zoo", data_home=cache, mirror=server.url, offline=True)
    assert server.requests == [] and files_in(cache) == []


@needs_mirror
def test_offline_env_var_is_honoured(server, cache, monkeypatch):
    monkeypatch.setenv("DAGGER_OFFLINE", "1")
    with pytest.raises(DownloadError, match="not cached"):
        fetch("zoo", data_home=cache, mirror=server.url)
    assert server.requests == []
    # An explicit argument wins over the environment.
    assert valid(fetch("zoo", data_home=cache, mirror=server.url, offline=False), "zoo")
    assert valid(fetch("zoo", data_home=cache, mirror=server.url), "zoo")  # offline cache hit
    assert len(server.requests) == 1


@needs_mirror
def test_damaged_cache_is_refetched_online_and_refused_offline(server, cache, caplog):
    path = fetch("zoo", data_home=cache, mirror=server.url)
    path.write_bytes(path.read_bytes().replace(b"aardvark", b"aardwolf"))
    with pytest.raises(DownloadError, match=r"damaged.*Delete it"):
        fetch("zoo", data_home=cache, mirror=server.url, offline=True)
    assert len(server.requests) == 1
    with caplog.at_level(logging.WARNING, logger="dagger_cli.datasets"):
        again = fetch("zoo", data_home=cache, mirror=server.url)
    assert again == path and valid(path, "zoo")
    assert len(server.requests) == 2
    assert "failed verification" in caplog.text


@needs_mirror
def test_dataset_table_rows_reports_cached_and_valid(server, cache):
    rows = {r["name"]: r for r in dataset_table_rows(cache)}
    assert set(rows) == set(REGISTRY)
    assert not any(r["cached"] for r in rows.values())
    assert rows["zoo"]["rows"] == 101 and rows["zoo"]["attributes"] == 16
    assert rows["zoo"]["classes"] == 7 and rows["zoo"]["prepared_rows"] == 59
    assert rows["mushroom"]["url"] == REGISTRY["mushroom"].url
    path = fetch("zoo", data_home=cache, mirror=server.url)
    assert {r["name"] for r in dataset_table_rows(cache) if r["cached"]} == {"zoo"}
    path.write_bytes(b"not the zoo\n")
    assert not any(r["cached"] for r in dataset_table_rows(cache))
    assert len(server.requests) == 1


# --------------------------------------------------------------------------- file:// mirrors
@needs_mirror
def test_file_mirror_is_copied_with_verification(cache):
    path = fetch("zoo", data_home=cache, mirror=MIRROR.as_uri(), progress=False)
    assert path == cache / "zoo" / "zoo.data" and valid(path, "zoo")
    # A plain folder path works too.
    assert fetch("mushroom", data_home=cache, mirror=str(MIRROR)).is_file()


def test_file_mirror_missing_file_and_bad_copy(tmp_path, cache):
    mirror = tmp_path / "mirror"
    with pytest.raises(DownloadError, match=r"cannot read file://.*zoo/zoo\.data"):
        fetch("zoo", data_home=cache, mirror=mirror.as_uri())
    (mirror / "zoo").mkdir(parents=True)
    (mirror / "zoo" / "zoo.data").write_text("aardvark,1\n")
    with pytest.raises(DownloadError, match="checksum mismatch"):
        fetch("zoo", data_home=cache, mirror=mirror.as_uri())
    assert files_in(cache) == []


# --------------------------------------------------------------------------- loading, preparing
@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """Every registered table, raw and prepared, read through a file:// mirror."""
    if not MIRROR.is_dir():
        pytest.skip(NO_MIRROR)
    cache = tmp_path_factory.mktemp("prepared-cache")
    out = {}
    for name in NAMES:
        kwargs = dict(data_home=cache, mirror=MIRROR.as_uri(), offline=False)
        out[name] = (load_dataframe(name, **kwargs), load_table(name, **kwargs))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_raw_shape_columns_and_class_counts(prepared, name):
    df, _ = prepared[name]
    ds = REGISTRY[name]
    assert df.shape == (ds.rows, ds.n_columns)
    assert list(df.columns) == list(ds.columns)
    assert all(df[c].map(type).eq(str).all() for c in df.columns)
    assert df[ds.decision].value_counts().to_dict() == ds.class_counts


@pytest.mark.parametrize("name", NAMES)
def test_prepared_shape(prepared, name):
    _, table = prepared[name]
    assert table.name == name
    assert (table.n_rows, table.n_attributes + 1) == REGISTRY[name].prepared_shape
    assert table.decision_name == REGISTRY[name].decision
    assert not set(REGISTRY[name].drop) & set(table.attributes)


def test_prepared_expected_figures(prepared):
    assert {n: REGISTRY[n].prepared_shape for n in NAMES} == {
        "lymphography": (148, 19),
        "mushroom": (8124, 23),
        "nursery": (12960, 9),
        "zoo": (59, 17),
    }
    zoo = prepared["zoo"][1]
    assert zoo.report.dropped == ("animal_name",) and zoo.report.merged_rows == 42
    mushroom_df, mushroom = prepared["mushroom"]
    assert (mushroom_df["stalk-root"] == "?").sum() == 2480
    count, fill = mushroom.report.filled["stalk-root"]
    assert count == 2480 and fill != "?"
    assert "?" not in mushroom.values[mushroom.attributes.index("stalk-root")]
    # The paper's first point of each front: misclassifications of a one-leaf tree.
    majority_misses = {n: t.n_rows - max(_class_sizes(t)) for n, (_, t) in prepared.items()}
    assert majority_misses["zoo"] == 40
    assert majority_misses["lymphography"] == 67
    assert majority_misses["mushroom"] == 3916


def _class_sizes(table):
    import numpy as np

    return np.bincount(table.decisions).tolist()


@needs_mirror
def test_load_table_overrides_only_given_options(cache):
    kwargs = dict(data_home=cache, mirror=MIRROR.as_uri())
    assert load_table("zoo", duplicates="keep", **kwargs).n_rows == 101
    with pytest.raises(InputError, match="missing value"):
        load_table("mushroom", missing="error", **kwargs)


@needs_mirror
def test_resolve_table_by_name_and_by_path(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("DAGGER_UCI_MIRROR", MIRROR.as_uri())
    monkeypatch.chdir(tmp_path)
    zoo = resolve_table("Zoo", data_home=cache)
    assert (zoo.n_rows, zoo.n_attributes) == (59, 16) and zoo.name == "zoo"
    assert resolve_table("zoo", data_home=cache, drop=["animal_name", "legs"]).n_attributes == 15
    # An existing file wins over the registered name.
    Path("zoo").write_text("a,b,d\n1,2,x\n1,2,y\n3,4,x\n")
    local = resolve_table("zoo", duplicates="merge")
    assert (local.n_rows, local.attributes, local.name) == (2, ("a", "b"), "zoo")
    assert resolve_table("zoo", decision="a").n_rows == 3
    with pytest.raises(InputError, match="no such file"):
        resolve_table("no-such-table.csv")


@needs_mirror
def test_load_dataframe_offline_after_fetch(cache):
    fetch("nursery", data_home=cache, mirror=MIRROR.as_uri())
    df = load_dataframe("nursery", data_home=cache, offline=True)
    assert df.shape == (12960, 9)


def test_download_errors_are_dagger_errors():
    assert issubclass(DownloadError, DaggerError) and DownloadError.exit_code == 4
