"""The engine's thread policy (dagger_cli/threads.py): every thread with passive waiting,
its decisions on given readings of the machine when workers spin, the precedence of the
user's settings, and results that never depend on the thread count it picks. No timing
here: speed is measured by `python -m scripts.bench run --only load`."""

import os
import subprocess
import sys

import numba
import pytest

from dagger_cli.cli import main
from dagger_cli.costs import COSTS
from dagger_cli.engine import build_dag, compute_fronts, relate, threads
from dagger_cli.errors import InputError
from tests.conftest import needs_mirror
from tests.test_fast_engine import random_table

MOST = numba.config.NUMBA_NUM_THREADS
needs_two = pytest.mark.skipif(MOST < 2, reason="needs NUMBA_NUM_THREADS >= 2")


@pytest.fixture(autouse=True)
def _no_thread_settings(monkeypatch):
    """Each test starts from a user who set nothing."""
    for var in ("DAGGER_THREADS", "NUMBA_NUM_THREADS"):
        monkeypatch.delenv(var, raising=False)
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


@pytest.mark.parametrize(
    "cores, running, own, ceiling, expected",
    [
        (2, 1, 1, 2, 2),  # quiet: only the caller runs
        (2, 2, 2, 2, 2),  # our own spinning worker is not a neighbour
        (2, 2, 1, 2, 1),  # one busy neighbour: one thread
        (2, 3, 1, 2, 1),  # one busy neighbour per core: still one, never zero
        (2, 9, 1, 2, 1),  # heavy load
        (8, 4, 1, 8, 5),  # three neighbours on eight cores: the five cores left
        (8, 1, 1, 4, 4),  # never above the ceiling (a caller's set_num_threads)
        (8, 1, 1, 1, 1),
        (1, 1, 1, 1, 1),
        (2, 0, 0, 2, 2),  # a reading without ourselves counts the caller anyway
    ],
)
def test_choose(cores, running, own, ceiling, expected):
    assert threads.choose(cores, running, own, ceiling) == expected


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, threads.AUTO),
        ({"DAGGER_THREADS": "auto"}, threads.AUTO),
        ({"DAGGER_THREADS": " AUTO "}, threads.AUTO),
        ({"DAGGER_THREADS": "1"}, 1),
        ({"DAGGER_THREADS": "3", "NUMBA_NUM_THREADS": "1"}, 3),
        ({"NUMBA_NUM_THREADS": "2"}, None),  # numba's own count, left alone
        ({"NUMBA_NUM_THREADS": "2", "DAGGER_THREADS": ""}, None),
        ({"NUMBA_NUM_THREADS": "2", "DAGGER_THREADS": "auto"}, threads.AUTO),
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


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, {"OMP_WAIT_POLICY": "PASSIVE"}),
        ({"OMP_WAIT_POLICY": "active"}, {"OMP_WAIT_POLICY": "active"}),
        ({"GOMP_SPINCOUNT": "1000"}, {"GOMP_SPINCOUNT": "1000"}),
    ],
)
def test_openmp_defaults_never_override_the_user(env, expected):
    threads.configure_openmp(env)
    assert env == expected


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
    running, own = threads.runnable()
    assert running >= 1 and own >= 1  # the caller itself is running
    assert 1 <= threads.available_cores() <= (os.cpu_count() or 1)


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"OMP_WAIT_POLICY": "PASSIVE"}, False),  # dagger's default
        ({"OMP_WAIT_POLICY": "passive"}, False),
        ({}, True),  # libgomp's own default spins
        ({"OMP_WAIT_POLICY": "ACTIVE"}, True),
        ({"OMP_WAIT_POLICY": "PASSIVE", "GOMP_SPINCOUNT": "1000"}, True),  # the count wins
        ({"GOMP_SPINCOUNT": "0"}, False),
    ],
)
def test_spinning(env, expected):
    assert threads.spinning(env) is expected


@needs_two
def test_passive_waiting_keeps_every_thread_whatever_the_load(monkeypatch):
    assert not threads.spinning()  # dagger's default, set when dagger_cli.fast loads

    def no_reading():
        raise AssertionError("read the load although waiting is passive")

    monkeypatch.setattr(threads, "runnable", no_reading)
    numba.set_num_threads(2)
    assert threads.run(numba.get_num_threads) == 2
    numba.set_num_threads(1)  # a caller's share (dagger study) is kept too
    assert threads.run(numba.get_num_threads) == 1


def _seen_threads(monkeypatch, reading):
    """The thread count a kernel runs with when workers spin and the machine reads
    ``reading``."""
    monkeypatch.setattr(threads, "spinning", lambda environ=None: True)
    monkeypatch.setattr(threads, "runnable", lambda: reading)
    monkeypatch.setattr(threads, "_CORES", [2])
    return threads.run(numba.get_num_threads)


@needs_two
def test_run_follows_the_load_and_restores_the_callers_count(monkeypatch):
    numba.set_num_threads(2)
    assert _seen_threads(monkeypatch, (1, 1)) == 2  # quiet
    assert _seen_threads(monkeypatch, (3, 1)) == 1  # two busy neighbours
    assert _seen_threads(monkeypatch, (2, 2)) == 2  # only ourselves
    assert numba.get_num_threads() == 2

    def failing():
        assert numba.get_num_threads() == 1
        raise KeyboardInterrupt

    monkeypatch.setattr(threads, "runnable", lambda: (3, 1))
    with pytest.raises(KeyboardInterrupt):
        threads.run(failing)
    assert numba.get_num_threads() == 2


@needs_two
def test_a_callers_lower_count_is_a_ceiling(monkeypatch):
    numba.set_num_threads(1)  # as dagger study does for one engine thread per task
    assert _seen_threads(monkeypatch, (1, 1)) == 1
    assert numba.get_num_threads() == 1


@needs_two
def test_explicit_settings_win_over_the_load(monkeypatch):
    numba.set_num_threads(2)
    monkeypatch.setenv("DAGGER_THREADS", "1")
    assert _seen_threads(monkeypatch, (1, 1)) == 1
    monkeypatch.setenv("DAGGER_THREADS", "2")
    assert _seen_threads(monkeypatch, (5, 1)) == 2
    monkeypatch.setenv("DAGGER_THREADS", "64")  # at most numba's threads
    assert _seen_threads(monkeypatch, (5, 1)) == MOST
    # NUMBA_NUM_THREADS alone: the policy stays out, the load is not even read
    monkeypatch.delenv("DAGGER_THREADS")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "2")

    def no_reading():
        raise AssertionError("read the load although NUMBA_NUM_THREADS is set")

    monkeypatch.setattr(threads, "runnable", no_reading)
    assert threads.run(numba.get_num_threads) == 2
    numba.set_num_threads(1)
    assert threads.run(numba.get_num_threads) == 1


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
        runs[setting] = _engine_bytes(table, max_depth)
    calls = _alternating(monkeypatch)
    runs["alternating"] = _engine_bytes(table, max_depth)
    assert len(calls) >= 3, "the run needs calls with both thread counts"
    assert runs["1"] == runs["2"] == runs["alternating"]


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


def test_scipy_blas_import_is_deferred_not_lost():
    """numba's first call no longer imports scipy.linalg; numba's own BLAS use still works
    (it imports it then)."""
    pytest.importorskip("scipy")
    code = """
import sys
import numpy as np
from dagger_cli.engine import relate
from dagger_cli.data.table import example_table

assert relate(example_table()).front.points() == [(0, 2), (4, 0)]
assert "scipy.linalg" not in sys.modules, "scipy.linalg imported by the first call"
from numba import njit
from numba.np import arraymath, linalg

assert arraymath._HAVE_BLAS is True and arraymath.ensure_blas is linalg.ensure_blas

@njit
def products(a, b):
    return np.dot(a, b), np.vdot(a, b)

a = np.arange(5.0)
assert products(a, a) == (30.0, 30.0)
assert "scipy.linalg" in sys.modules
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
