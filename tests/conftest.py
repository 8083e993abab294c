import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("DAGGER_TEST_MIRROR_DIR", REPO.parent / "shared" / "datasets" / "uci"))
ODT_MIRROR = Path(
    os.environ.get("DAGGER_TEST_ODT_MIRROR_DIR", REPO.parent / "shared" / "datasets" / "odt")
)
NUM_MIRROR = Path(
    os.environ.get("DAGGER_TEST_NUM_MIRROR_DIR", REPO.parent / "shared" / "datasets" / "num")
)


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path_factory):
    """Tests never touch the user's cache or the network unless they say so."""
    monkeypatch.setenv("DAGGER_DATA", str(tmp_path_factory.getbasetemp() / "dagger-data"))
    if MIRROR.is_dir():
        monkeypatch.setenv("DAGGER_UCI_MIRROR", MIRROR.as_uri())
    if ODT_MIRROR.is_dir():
        monkeypatch.setenv("DAGGER_ODT_MIRROR", ODT_MIRROR.as_uri())
    if NUM_MIRROR.is_dir():
        monkeypatch.setenv("DAGGER_NUM_MIRROR", NUM_MIRROR.as_uri())
    monkeypatch.setenv("MPLBACKEND", "Agg")


needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"UCI mirror not found at {MIRROR}")
needs_odt_mirror = pytest.mark.skipif(
    not ODT_MIRROR.is_dir(), reason=f"benchmark mirror not found at {ODT_MIRROR}"
)
needs_num_mirror = pytest.mark.skipif(
    not NUM_MIRROR.is_dir(), reason=f"numeric benchmark mirror not found at {NUM_MIRROR}"
)


def _asan_aborts_on_absurd_allocations() -> bool:
    """Whether AddressSanitizer is loaded (``make sanitize``) and would abort on an allocation
    it cannot make instead of returning null (its ``allocator_may_return_null=1``)."""
    if "libasan" not in os.environ.get("LD_PRELOAD", ""):
        return False
    return "allocator_may_return_null=1" not in os.environ.get("ASAN_OPTIONS", "")


def pytest_collection_modifyitems(config, items):
    """Tests of a deliberately absurd allocation (``@pytest.mark.absurd_allocation``) are
    skipped under an AddressSanitizer that would abort the process on it."""
    if not _asan_aborts_on_absurd_allocations():
        return
    skip = pytest.mark.skip(
        reason="AddressSanitizer aborts on an absurd allocation: "
        "ASAN_OPTIONS=allocator_may_return_null=1 (as make sanitize sets) runs it"
    )
    for item in items:
        if "absurd_allocation" in item.keywords:
            item.add_marker(skip)
