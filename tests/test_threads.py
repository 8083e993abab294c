"""The engine's thread policy (dagger_cli/engine/threads.py): every core by default, the
user's DAGGER_THREADS, a caller's ceiling, the count restored after each kernel call, and
results that never depend on the thread count. No timing here: speed is measured by
`python -m scripts.bench run --only load`."""

import os
import subprocess
import sys
import threading

import pytest

from dagger_cli import _core
from dagger_cli.cli import main
from dagger_cli.costs import COSTS
from dagger_cli.engine import build_dag, compute_fronts, relate, threads
from dagger_cli.errors import InputError
from tests.conftest import needs_mirror
from tests.test_fast_engine import random_table

needs_two = pytest.mark.skipif(threads.available_cores() < 2, reason="needs two cores")


@pytest.fixture(autouse=True)
def _no_thread_settings(monkeypatch):
    """Each test starts from a user who set nothing."""
    monkeypatch.delenv("DAGGER_THREADS", raising=False)
    threads.set_ceiling(None)
    yield
    threads.set_ceiling(None)


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, threads.AUTO),
        ({"DAGGER_THREADS": "auto"}, threads.AUTO),
        ({"DAGGER_THREADS": " AUTO "}, threads.AUTO),
        ({"DAGGER_THREADS": "1"}, 1),
        ({"DAGGER_THREADS": ""}, threads.AUTO),
    ],
)
def test_requested(env, expected):
    assert threads.requested(env) == expected


@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5"])
def test_requested_rejects_bad_values(bad):
    with pytest.raises(InputError, match=f"DAGGER_THREADS='{bad}'"):
        threads.requested({"DAGGER_THREADS": bad})


def test_bad_setting_is_a_clear_cli_error(monkeypatch):
    from click.testing import CliRunner

    monkeypatch.setenv("DAGGER_THREADS", "zero")
    r = CliRunner().invoke(main, ["relate", "--example"])
    assert r.exit_code == 2
    assert "DAGGER_THREADS='zero'" in r.stderr
    assert "Traceback" not in r.stderr


def test_cgroup_quota(tmp_path):
    proc = tmp_path / "cgroup"
    root = tmp_path / "sys"
    (root / "grp").mkdir(parents=True)
    proc.write_text("0::/grp\n")
    (root / "grp" / "cpu.max").write_text("150000 100000\n")
    assert threads._cgroup_quota(str(proc), str(root)) == 1.5
    (root / "grp" / "cpu.max").write_text("max 100000\n")
    assert threads._cgroup_quota(str(proc), str(root)) is None
    # cgroup v1: the cpu controller's CFS quota (-1: none)
    proc.write_text("4:memory:/x\n2:cpu,cpuacct:/grp\n")
    v1 = root / "cpu,cpuacct" / "grp"
    v1.mkdir(parents=True)
    (v1 / "cpu.cfs_quota_us").write_text("300000\n")
    (v1 / "cpu.cfs_period_us").write_text("100000\n")
    assert threads._cgroup_quota(str(proc), str(root)) == 3.0
    (v1 / "cpu.cfs_quota_us").write_text("-1\n")
    assert threads._cgroup_quota(str(proc), str(root)) is None
    assert threads._cgroup_quota(str(tmp_path / "missing"), str(root)) is None


@pytest.mark.skipif(not os.path.exists("/proc/loadavg"), reason="Linux /proc")
def test_readings_on_this_machine():
    assert 1 <= threads.available_cores() <= (os.cpu_count() or 1)


def test_every_core_by_default_and_the_callers_count_restored():
    cores = threads.available_cores()
    seen = threads.run(_core.get_threads)
    assert seen == cores
    before = _core.set_threads(1)
    try:

        def failing():
            assert _core.get_threads() == cores
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            threads.run(failing)
        assert _core.get_threads() == 1  # restored, whatever happened
    finally:
        _core.set_threads(before)


def test_dagger_threads_wins_and_a_callers_ceiling_holds(monkeypatch):
    monkeypatch.setenv("DAGGER_THREADS", "3")
    assert threads.run(_core.get_threads) == 3  # the user's count, even above the cores
    threads.set_ceiling(1)  # as dagger study does for one engine thread per task
    assert threads.run(_core.get_threads) == 1
    monkeypatch.delenv("DAGGER_THREADS")
    assert threads.run(_core.get_threads) == 1
    threads.set_ceiling(None)
    assert threads.run(_core.get_threads) == threads.available_cores()


def test_a_ceiling_is_the_calling_threads_own():
    threads.set_ceiling(1)
    seen = []
    t = threading.Thread(target=lambda: seen.append(threads.current_choice()))
    t.start()
    t.join()
    assert threads.current_choice() == 1
    assert seen == [threads.available_cores()]


def test_the_cores_count_is_the_calling_threads_own():
    """``_core.set_threads`` sets the calling thread's count only: a new thread starts from
    every hardware thread."""
    before = _core.set_threads(1)
    seen = []
    t = threading.Thread(target=lambda: seen.append(_core.get_threads()))
    t.start()
    t.join()
    try:
        assert _core.get_threads() == 1
        assert seen == [_core.hardware_threads()]
    finally:
        _core.set_threads(before)


def _engine_bytes(table, max_depth=None):
    dag = build_dag(table, max_depth=max_depth)
    store = compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
    arrays = [
        dag.node_start,
        dag.node_size,
        dag.node_mis,
        dag.node_major,
        dag.node_bundle_start,
        dag.row_pool,
        dag.bundle_attr,
        dag.bundle_edge_start,
        dag.edge_child,
        store.fref,
        store.fxy,
        store.fch,
    ]
    return [a.tobytes() for a in arrays]


def _alternating(monkeypatch):
    """A policy that changes its mind at every kernel call: 1, 2, 1, 2, ..."""
    calls = []

    def choice():
        calls.append(1 + len(calls) % 2)
        return calls[-1]

    monkeypatch.setattr(threads, "current_choice", choice)
    return calls


@needs_two
@pytest.mark.parametrize("max_depth", [None, 3])
def test_same_results_whatever_the_threads_chosen(monkeypatch, max_depth):
    # Several discovery calls (about 4 M units of work each) on a random table.
    table = random_table(12, 150, 2, 3, 11, True)
    runs = {}
    for setting in ("1", "2"):
        monkeypatch.setenv("DAGGER_THREADS", setting)
        threads.CALLS.clear()
        runs[setting] = _engine_bytes(table, max_depth)
        assert set(threads.CALLS) == {int(setting)}  # every kernel call got that count
    calls = _alternating(monkeypatch)
    runs["alternating"] = _engine_bytes(table, max_depth)
    assert len(calls) >= 3, "the run needs calls with both thread counts"
    assert runs["1"] == runs["2"] == runs["alternating"]
    assert len(runs["1"][1]) // 4 > (30_000 if max_depth is None else 2_000)  # subtables


@needs_mirror
@pytest.mark.slow
@needs_two
def test_same_bytes_on_a_uci_table_for_one_and_two_threads(tmp_path):
    """Whole `dagger relate` processes: the front's CSV and its trees, byte for byte."""
    outs = []
    for setting in ("1", "2", "auto"):
        env = dict(os.environ, DAGGER_THREADS=setting)
        out = tmp_path / setting
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                "from dagger_cli.cli import main; main()",
                "relate",
                "lymphography",
                "-q",
                "--format",
                "csv",
                "--trees",
                str(out),
            ],
            capture_output=True,
            env=env,
            check=True,
        )
        trees = sorted(out.iterdir())
        outs.append((proc.stdout, [(p.name, p.read_bytes()) for p in trees]))
    assert outs[0][0].count(b"\n") > 10
    assert outs[0] == outs[1] == outs[2]


def test_relate_records_the_counts_it_ran_with(monkeypatch):
    monkeypatch.setenv("DAGGER_THREADS", "1")
    threads.CALLS.clear()
    relate(random_table(6, 40, 2, 2, 3, True))
    assert threads.CALLS[1] >= 2  # discovery and fronts, each once at least
    assert set(threads.CALLS) == {1}
