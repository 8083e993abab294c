"""One query across a Dask cluster (:mod:`dagger_cli.engine.cluster`, and the whole DAG's
depth-two layer: :mod:`dagger_cli.engine.cluster_layer`): a scheduler and two
single-threaded workers started as separate processes on 127.0.0.1 (and once a local
cluster), against the one-process answer:

* the depth front and the tree of every point, equal, on random numeric tables, on the
  binary benchmark tables and on nominal tables with other cost pairs;
* a worker killed (SIGKILL) while the pieces run: the same answer;
* the scheduler killed while they run: a clear error, exit 2, nothing written;
* the options refused where they do not apply."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

pytest.importorskip("distributed")

from dagger_cli.cli import main  # noqa: E402
from dagger_cli.data.table import DecisionTable  # noqa: E402
from dagger_cli.engine import relate  # noqa: E402
from dagger_cli.errors import DaggerError, InputError  # noqa: E402
from dagger_cli.trees import extract_tree  # noqa: E402
from tests.conftest import needs_odt_mirror  # noqa: E402

MIS = "misclassifications"
DASK = str(Path(sys.executable).with_name("dask"))


def _frame(seed: int, n: int, columns: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"x{j}": rng.normal(size=n).round(2) for j in range(columns)})
    df["y"] = np.where(df.x0 + 0.7 * rng.normal(size=n) > df.x1, "p", "q")
    return df


def _answer(table, depth, x="depth", y=MIS, **options):
    rel = relate(table, x, y, max_depth=depth, **options)
    trees = [extract_tree(rel, i).to_text() for i in range(len(rel.front))]
    return rel.front.points(), trees


class _Cluster:
    """A ``dask scheduler`` and ``dask worker`` processes (one thread each), 127.0.0.1."""

    def __init__(self, tmp: Path, workers: int = 2):
        self.file = tmp / "scheduler.json"
        env = {**os.environ, "DAGGER_THREADS": "1"}
        self.scheduler = subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(self.file)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )  # fmt: skip
        for _ in range(300):
            if self.file.exists() and self.file.stat().st_size:
                break
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]
        self.workers = [self.add_worker(env) for _ in range(workers)]
        self.wait_for(workers)

    def add_worker(self, env=None):
        return subprocess.Popen(
            [DASK, "worker", "--scheduler-file", str(self.file), "--nthreads", "1",
             "--no-nanny", "--host", "127.0.0.1", "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=env or {**os.environ, "DAGGER_THREADS": "1"},
        )  # fmt: skip

    def wait_for(self, n: int) -> None:
        import distributed

        with distributed.Client(self.address, timeout="30s") as client:
            client.wait_for_workers(n, timeout=60)

    def close(self) -> None:
        for p in [*self.workers, self.scheduler]:
            if p.poll() is None:
                p.kill()
            p.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = _Cluster(tmp_path_factory.mktemp("dask"))
    yield c
    c.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_cluster_gives_the_one_process_front_and_trees(cluster, seed):
    table = DecisionTable.from_dataframe(_frame(seed, 150, columns=4), thresholds="all")
    one = _answer(table, 4)
    assert len(one[0]) >= 4
    assert _answer(table, 4, scheduler=cluster.address) == one


def test_weighted_rows_on_the_cluster_give_the_one_process_front_and_trees(cluster):
    """Row weights travel with the table: the workers' kernels read them as the one
    process's do (issue 38)."""
    table = DecisionTable.from_dataframe(_frame(4, 150, columns=4), thresholds="all")
    w = np.random.default_rng(4).integers(1, 4, size=table.n_rows).tolist()
    weighted = table.weighted(w)
    one = _answer(weighted, 4)
    assert len(one[0]) >= 3
    assert _answer(weighted, 4, scheduler=cluster.address) == one


def test_a_min_leaf_on_the_cluster_gives_the_one_process_front_and_trees(cluster):
    """A minimum leaf size travels with the table: the workers' kernels read it (and run
    their relaxed searches) as the one process's do."""
    table = DecisionTable.from_dataframe(_frame(5, 150, columns=4), thresholds="all")
    limited = table.weighted(min_leaf=6)
    one = _answer(limited, 4)
    assert one != _answer(table, 4)  # (K changes this table's front)
    assert _answer(limited, 4, scheduler=cluster.address) == one


def test_a_local_cluster_gives_the_one_process_front():
    table = DecisionTable.from_dataframe(_frame(3, 120, columns=3), thresholds="all")
    one = relate(table, "depth", MIS, max_depth=3).front.points()
    got = relate(table, "depth", MIS, max_depth=3, scheduler="local", workers=2)
    assert got.front.points() == one


def _nominal(seed: int, n: int, columns: int, values: int = 3) -> DecisionTable:
    """A random table of nominal attributes (letters) and three classes."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"a{j}": rng.choice(list("abcde"[:values]), size=n) for j in range(columns)})
    noise = rng.random(n) < 0.25
    df["y"] = np.where((df.a0 == "a") ^ noise, "p", np.where(df.a1 == "b", "q", "r"))
    return DecisionTable.from_dataframe(df)


@needs_odt_mirror
@pytest.mark.parametrize(
    ("name", "depth"), [("odt-vote", 5), ("odt-hepatitis", 5), ("odt-tic-tac-toe", 4)]
)
def test_binary_tables_on_the_cluster_give_the_one_process_front_and_trees(cluster, name, depth):
    """The whole DAG's route (the binary benchmark tables): its depth-two layer runs on the
    workers, the fronts and every point's tree are the one process's (issue 41)."""
    from dagger_cli.data.datasets import load_table

    table = load_table(name)
    one = _answer(table, depth)
    assert len(one[0]) >= 4
    assert _answer(table, depth, scheduler=cluster.address) == one


@pytest.mark.parametrize(
    ("x", "y"),
    [("total-path-length", MIS), ("nodes", MIS), ("leaves", MIS)],
)
def test_other_cost_pairs_on_nominal_tables_run_their_last_levels_on_the_cluster(cluster, x, y):
    """The depth-two layer computes every cost pair it serves: the same front and trees
    with its entries cut into pieces on the workers, weighted rows included."""
    table = _nominal(11, 400, 7)
    weighted = table.weighted(np.random.default_rng(11).integers(1, 4, size=table.n_rows).tolist())
    for t in (table, weighted):
        one = _answer(t, 3, x=x, y=y)
        assert len(one[0]) >= 3
        assert _answer(t, 3, x=x, y=y, scheduler=cluster.address) == one


def test_the_layer_in_pieces_appends_the_one_process_bytes():
    """The depth-two layer cut into runs of entries (:func:`cut_runs`), each run's
    subtables renumbered (:func:`layer_piece`) and solved on their own
    (:func:`run_layer_piece`), appended in entry order: the pool's bytes of one process,
    with every size of run down to one subtable each."""
    from dagger_cli.costs import get_cost
    from dagger_cli.engine import build_dag, compute_fronts
    from dagger_cli.engine.dag import NO_LIMIT, layer_piece, layer_work, run_layer_piece
    from dagger_cli.engine.pieces import cut_runs

    class InProcess:
        def __init__(self, pieces, most):
            self.pieces, self.most = pieces, most

        def depth_two(self, dag, entries, job, append, progress):
            size = 4 * dag.node_size[entries.node].astype(np.int64)
            work = layer_work(dag, entries)
            runs = cut_runs(entries.node, work, size, self.pieces, self.most)
            assert runs[0][0] == 0 and runs[-1][1] == entries.node.size
            assert all(a[1] == b[0] for a, b in zip(runs, runs[1:]))
            for lo, hi in runs:
                status, lens, fxy, fch, _, _ = run_layer_piece(
                    job, layer_piece(dag, entries, lo, hi), NO_LIMIT
                )
                assert status == 0 and lens.size == hi - lo
                append(lo, lens, fxy, fch)
            return 0

    table = _nominal(12, 300, 6, values=4)
    weighted = table.weighted(np.random.default_rng(12).integers(1, 5, size=table.n_rows).tolist())
    for t in (table, weighted):
        for x in ("depth", "total-path-length"):
            cx, cy = get_cost(x), get_cost(MIS)
            dag = build_dag(t, max_depth=4, depth2=True)
            dag.decide(t, cx, cy)
            one = compute_fronts(dag, cx, cy)
            for pieces, most in ((1, 1 << 30), (7, 1 << 30), (3, 1)):
                got = compute_fronts(dag, cx, cy, cluster=InProcess(pieces, most))
                assert np.array_equal(got.fref, one.fref)
                assert np.array_equal(got.fxy, one.fxy) and np.array_equal(got.fch, one.fch)


def test_a_local_cluster_keeps_dask_housekeeping_slow():
    """The workers of a local cluster run with Dask's profiler off and its monitors slowed
    (their default wake-ups every 10-100 ms cost a two-worker query 13 % of its time)."""
    import dask
    import distributed

    from dagger_cli.engine.dask_setup import QUIET_HOUSEKEEPING, local_cluster

    keys = sorted(QUIET_HOUSEKEEPING)
    before = [dask.config.get(k) for k in keys]
    with local_cluster(distributed, 2, 1) as cluster, distributed.Client(cluster) as client:
        seen = client.run(lambda: [dask.config.get(k) for k in keys])
    assert len(seen) == 2
    for got in seen.values():
        assert got == [QUIET_HOUSEKEEPING[k] for k in keys]
    assert [dask.config.get(k) for k in keys] == before  # this process's config untouched


def _run_and(action, table, depth, address, key=None, **options):
    """Run the query on the cluster in a thread; once its depth-``depth`` pieces run (or
    its tasks whose key holds ``key``), ``action()``; the query's answer or error."""
    import distributed

    out: dict = {}

    def run():
        try:
            out["answer"] = _answer(table, depth, scheduler=address, **options)
        except Exception as err:  # noqa: BLE001 - handed to the test
            out["error"] = err
            out["trace"] = "".join(traceback.format_exception(err))
        out["end"] = time.monotonic()

    t = threading.Thread(target=run)
    t.start()
    with distributed.Client(address, timeout="30s") as watcher:
        for _ in range(600):
            busy = watcher.processing()
            mark = key or f"-{depth}-"
            if any(mark in str(k) for keys in busy.values() for k in keys):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the pieces never ran")
        time.sleep(0.3)
        action()
    t.join(120)
    assert not t.is_alive()
    return out


def test_a_worker_killed_mid_query_costs_time_not_the_answer(tmp_path):
    table = DecisionTable.from_dataframe(_frame(4, 1500, columns=6), thresholds="all")
    one = _answer(table, 4)
    c = _Cluster(tmp_path)
    try:
        victim = c.workers[0]
        out = _run_and(lambda: victim.send_signal(signal.SIGKILL), table, 4, c.address)
        assert victim.poll() is not None  # really killed while the query ran
        assert out.get("answer") == one, out.get("trace")
    finally:
        c.close()


def test_a_worker_killed_mid_layer_costs_time_not_the_answer(tmp_path):
    """The whole DAG's route: a worker dies while the depth-two layer's pieces run; its
    pieces run again on the other, the same answer."""
    table = _nominal(13, 1000, 80, values=2)  # about 2 s of the layer
    one = _answer(table, 4)
    c = _Cluster(tmp_path)
    try:
        victim = c.workers[0]

        def kill():
            victim.send_signal(signal.SIGKILL)

        out = _run_and(kill, table, 4, c.address, key="dagger-layer-")
        assert victim.poll() is not None  # really killed while the query ran
        assert out.get("answer") == one, out.get("trace")
    finally:
        c.close()


def test_every_first_worker_lost_and_a_new_one_finishes_the_query(tmp_path):
    """Both workers that started the query die, the second after a while alone; a worker
    that joins after them, which never saw the table, runs the rest: the same answer."""
    table = DecisionTable.from_dataframe(_frame(8, 1500, columns=6), thresholds="all")
    one = _answer(table, 4)
    c = _Cluster(tmp_path)
    killed = []

    def swap():
        c.workers[0].send_signal(signal.SIGKILL)
        time.sleep(3)  # what the scheduler keeps settles on the one worker left
        c.workers[1].send_signal(signal.SIGKILL)
        killed.append(time.monotonic())
        c.workers.append(c.add_worker())

    try:
        out = _run_and(swap, table, 4, c.address)
        assert c.workers[0].poll() is not None and c.workers[1].poll() is not None
        assert killed[0] < out["end"]  # the query still ran when the last one died
        assert out.get("answer") == one, out.get("trace")
    finally:
        c.close()


def test_a_scheduler_gone_mid_query_is_a_clear_error_and_nothing_written(tmp_path):
    df = _frame(5, 1500, columns=6)
    csv = tmp_path / "t.csv"
    df.to_csv(csv, index=False)
    table = DecisionTable.from_dataframe(df, thresholds="all")
    c = _Cluster(tmp_path)
    try:
        out = _run_and(lambda: c.scheduler.send_signal(signal.SIGKILL), table, 4, c.address)
        err = out.get("error")
        assert isinstance(err, DaggerError) and "went away" in str(err), out
        assert "Nothing was written" in str(err)
    finally:
        c.close()
    # the command line: an unreachable scheduler, exit 2, no output file
    result = CliRunner().invoke(
        main,
        ["relate", str(csv), "--thresholds", "all", "--x", "depth", "--max-depth", "3",
         "--scheduler", c.address, "-o", str(tmp_path / "out.csv"), "-q"],
    )  # fmt: skip
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.output
    assert not (tmp_path / "out.csv").exists()


def test_the_options_are_refused_where_they_do_not_apply(tmp_path):
    table = DecisionTable.from_dataframe(_frame(6, 60, columns=2), thresholds="all")
    with pytest.raises(InputError, match="runs in one process: drop --scheduler"):
        relate(table, "total-path-length", MIS, max_depth=3, scheduler="local")
    nominal = _nominal(6, 60, 5)
    with pytest.raises(InputError, match="needs a depth cap of 2 or more"):
        relate(nominal, "depth", MIS, scheduler="local")
    with pytest.raises(InputError, match="needs neither --exact-only nor --count"):
        relate(nominal, "depth", MIS, max_depth=3, exact_only=True, scheduler="local")
    with pytest.raises(InputError, match="below its 5 attributes"):
        relate(nominal, "depth", MIS, max_depth=5, scheduler="local")
    with pytest.raises(InputError, match="--workers sizes a local cluster"):
        relate(table, "depth", MIS, max_depth=3, scheduler="tcp://127.0.0.1:1", workers=2)
    with pytest.raises(InputError, match="give --scheduler local too"):
        relate(table, "depth", MIS, max_depth=3, workers=2)
    with pytest.raises(InputError, match="--workers must be a whole number"):
        relate(table, "depth", MIS, max_depth=3, scheduler="local", workers=0)


def test_the_estimator_runs_its_search_on_a_cluster(cluster):
    """``scheduler=`` an address or a client: the same tree as in one process; a query the
    cluster does not run is refused."""
    import distributed

    from dagger_cli.sklearn import DaggerTreeClassifier

    df = _frame(7, 200, columns=4)
    X, y = df.drop(columns="y"), df.y
    one = DaggerTreeClassifier(x="depth", max_depth=4, thresholds="all").fit(X, y)
    there = DaggerTreeClassifier(
        x="depth", max_depth=4, thresholds="all", scheduler=cluster.address
    )
    assert there.fit(X, y).tree_.to_text() == one.tree_.to_text()
    with distributed.Client(cluster.address, timeout="30s") as client:
        by_client = DaggerTreeClassifier(x="depth", max_depth=4, thresholds="all", scheduler=client)
        assert by_client.fit(X, y).tree_.to_text() == one.tree_.to_text()
    with pytest.raises(InputError, match="drop --scheduler"):
        DaggerTreeClassifier(max_depth=3, thresholds="all", scheduler=cluster.address).fit(X, y)


def test_a_query_dropped_stops_its_running_pieces():
    """When the client drops a query (a time limit, Ctrl-C), the pieces still running on a
    worker get their abort flags at once (the watcher that would have seen the stop event
    ends with the query), so the worker is free for its next task or its shutdown."""
    from dagger_cli.engine import cluster as cl
    from dagger_cli.engine.kernels import ordered as k

    q = cl._Local(arrays=None, memo=None, m=0, name=(0, 0))
    running = [np.zeros(k.N_STATS, dtype=np.int64) for _ in range(2)]
    q.running.extend(running)
    cl._QUERIES["t"] = q
    cl._forget("t")
    assert q.closed and "t" not in cl._QUERIES
    assert all(st[k.S_ABORT] == 1 for st in running)
