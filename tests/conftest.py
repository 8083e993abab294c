import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("DAGGER_TEST_MIRROR_DIR", REPO.parent / "shared" / "datasets" / "uci"))


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path_factory):
    """Tests never touch the user's cache or the network unless they say so."""
    monkeypatch.setenv("DAGGER_DATA", str(tmp_path_factory.getbasetemp() / "dagger-data"))
    if MIRROR.is_dir():
        monkeypatch.setenv("DAGGER_UCI_MIRROR", MIRROR.as_uri())
    monkeypatch.setenv("MPLBACKEND", "Agg")


needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"UCI mirror not found at {MIRROR}")
