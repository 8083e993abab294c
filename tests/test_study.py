"""`dagger study`: the study file, the content hash, and runs on Dask clusters.

The clusters are real (a LocalCluster, and a `dask scheduler` with two `dask worker`
processes on 127.0.0.1); every one is stopped by the test that starts it. Curves are
compared byte for byte with separate `dagger relate -o` runs.
"""

import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagger_cli import study as st
from dagger_cli.cli import main
from tests.conftest import needs_mirror

DEPTH_CAPS = st.engine_has_depth_caps()
# Decision = a xor b, c is noise: the fronts of the three pairs below differ.
SMALL = "a,b,c,d\n0,0,0,n\n0,1,0,y\n1,0,1,y\n1,1,1,n\n0,0,1,n\n1,1,0,y\n2,0,0,y\n2,1,1,n\n"
PAIRS = [
    ["total-path-length", "misclassifications"],
    ["depth", "misclassifications"],
    ["nodes", "leaves"],
]


def run_cli(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, **kw)


def write_study(folder: Path, text: str, name="study.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def read_results(out: Path) -> list[dict]:
    with open(out / "results.csv", newline="") as fh:
        return list(csv.DictReader(fh))


_RELATED: dict = {}


def relate_bytes(tmp_path: Path, table: str, x: str, y: str, depth=None) -> bytes:
    """The curve of one separate `dagger relate ... -o` run (once per table content)."""
    content = Path(table).read_bytes() if Path(table).exists() else table
    key = (content, x, y, depth)
    if key not in _RELATED:
        _RELATED[key] = _relate_bytes(tmp_path, table, x, y, depth)
    return _RELATED[key]


def _relate_bytes(tmp_path: Path, table: str, x: str, y: str, depth) -> bytes:
    dest = tmp_path / "relate" / f"{Path(table).stem}-{x}-{y}-{depth}.csv"
    dest.parent.mkdir(exist_ok=True)
    cap = [] if depth is None else ["--max-depth", depth]
    r = run_cli("relate", table, "--x", x, "--y", y, *cap, "-q", "-o", dest)
    assert r.exit_code == 0, r.output
    return dest.read_bytes()


def the_study(tmp_path: Path) -> tuple[Path, list]:
    """3 tables x 3 pairs (x 2 depth caps when the engine has them)."""
    small = tmp_path / "small.csv"
    small.write_text(SMALL)
    caps = "max_depth = [1, 2]\n" if DEPTH_CAPS else ""
    path = write_study(
        tmp_path,
        f'tables = ["zoo", "lymphography", "small.csv"]\npairs = {json.dumps(PAIRS)}\n{caps}',
    )
    expected = [
        (table, x, y, d)
        for table in ("zoo", "lymphography", str(small))
        for x, y in PAIRS
        for d in ([1, 2] if DEPTH_CAPS else [None])
    ]
    return path, expected


def check_curves(tmp_path: Path, out: Path, expected: list) -> None:
    rows = read_results(out)
    assert len(rows) == len(expected)
    for row, (table, x, y, d) in zip(rows, expected):
        assert (row["table"], row["x"], row["y"]) == (Path(table).stem, x, y)
        assert row["max_depth"] == ("" if d is None else str(d))
        assert row["status"] in ("ok", "skipped"), row
        got = (out / row["curve"]).read_bytes()
        assert got == relate_bytes(tmp_path, table, x, y, d), row["curve"]
        assert int(row["points"]) == got.count(b"\n") - 1
    assert not list(out.rglob("*.tmp")), "a temporary file was left behind"


# --------------------------------------------------------------------------- the study file
def test_parse_expands_every_combination(tmp_path):
    (tmp_path / "my data.csv").write_text(SMALL)
    path = write_study(
        tmp_path,
        'tables = [{path = "my data.csv", label = "mine", drop = "c", bins = 3},\n'
        '          {suite = "uci", missing = "value"}]\n'
        'pairs = "all"\nexact_only = true\nmax_memory = "1G"\nmax_subtables = 5000\n',
    )
    s = st.parse_study(path)
    assert [t.label for t in s.tables] == ["mine", "lymphography", "mushroom", "nursery", "zoo"]
    mine = s.tables[0]
    assert mine.source == str(tmp_path / "my data.csv")  # relative to the study file
    assert dict(mine.options) == {"drop": ("c",), "bins": 3}
    assert dict(s.tables[1].options) == {"missing": "value"}
    assert len(s.pairs) == 20 and len(set(s.pairs)) == 20
    assert (s.exact_only, s.max_memory, s.max_subtables) == (True, 2**30, 5000)
    tasks = s.tasks()
    assert len(tasks) == 5 * 20
    assert tasks[0].stem == "mine__depth__total-path-length"


def test_parse_defaults_and_depth_caps(tmp_path):
    path = write_study(tmp_path, 'tables = ["Zoo"]\nmax_depth = [3, "none", 0]\n')
    s = st.parse_study(path, has_depth_caps=True)
    assert s.pairs == (("total-path-length", "misclassifications"),)
    assert s.max_depths == (3, None, 0)
    assert [t.stem for t in s.tasks()] == [
        "zoo__total-path-length__misclassifications__d3",
        "zoo__total-path-length__misclassifications",
        "zoo__total-path-length__misclassifications__d0",
    ]
    with pytest.raises(st.StudyError, match=r"line 2: max_depth: .*no depth caps"):
        st.parse_study(path, has_depth_caps=False)


def test_an_existing_file_wins_over_a_dataset_name(tmp_path):
    (tmp_path / "zoo").write_text(SMALL)
    s = st.parse_study(write_study(tmp_path, 'tables = ["zoo", "nursery"]\n'))
    assert s.tables[0].source == str(tmp_path / "zoo")
    assert s.tables[1].source == "nursery"


@pytest.mark.parametrize(
    "text, message",
    [
        ('tables = ["zoo"]\npair = "all"\n', r"line 2: pair: unknown key \(did you mean 'pairs'"),
        ('tables = ["zoo"]\ncount = 1\n', r"line 2: count: expected true or false, not 1"),
        ("pairs = 'all'\n", r"no `tables`"),
        ("tables = []\n", r"line 1: tables: expected a non-empty list"),
        ('tables = ["zoo"]\npairs = [["depth", "foo"]]\n', r"line 2: pairs: unknown cost 'foo'"),
        ('tables = ["zoo"]\npairs = [["depth", "depth"]]\n', r"line 2: pairs: .*must differ"),
        (
            'tables = ["zoo"]\npairs = [["depth", "nodes"],\n  ["depth", "nodes"]]\n',
            r"pairs: \[depth, nodes\] is listed twice",
        ),
        ('tables = ["zoo"]\nmax_depth = [2, -1]\n', r"line 2: max_depth: expected integers"),
        ('tables = ["zoo", "zoo"]\n', r"two tables are labelled 'zoo'"),
        ('tables = [{name = "zoo", path = "z.csv"}]\n', r"exactly one of name, path or suite"),
        ('tables = [{name = "zooo"}]\n', r"'zooo' is not a registered dataset"),
        ('tables = [{suite = "all"}]\n', r"unknown suite 'all'"),
        (
            'tables = [{name = "zoo", missing = "drop"}]\n',
            r"'zoo': unknown missing-value policy 'drop'; expected one of",
        ),
        (
            'tables = [{path = "z.csv", bins = 1}]\n',
            r"'z.csv': the number of bins must be an integer of at least 2, got 1",
        ),
        ('tables = [{name = "zoo", colour = 1}]\n', r"unknown option 'colour'"),
        ('tables = [{path = "a b.csv"}]\n', r"label 'a b' cannot name a file"),
        ('tables = ["zoo"]\nexact_only = "yes"\n', r"line 2: exact_only: expected true or"),
        ('tables = ["zoo"]\nmax_memory = "lots"\n', r"line 2: max_memory: cannot read size"),
        ('tables = ["zoo"]\nmax_subtables = 0\n', r"line 2: max_subtables: expected an integer"),
        ('tables = ["zoo"]\nx = = 1\n', r"line 2, column 5: not valid TOML: Invalid value"),
    ],
)
def test_bad_study_files_are_named_with_their_line(tmp_path, text, message):
    path = write_study(tmp_path, text)
    with pytest.raises(st.StudyError, match=message) as err:
        st.parse_study(path)
    assert str(err.value).startswith(str(path))


def test_bad_study_file_exits_2_without_traceback(tmp_path):
    path = write_study(tmp_path, 'tables = ["zoo"]\npairs = [["depth", "foo"]]\n')
    r = run_cli("study", path, "-o", tmp_path / "out")
    assert r.exit_code == 2
    assert "line 2: pairs: unknown cost 'foo'" in r.stderr
    assert "Traceback" not in r.output
    assert not (tmp_path / "out").exists()
    r = run_cli("study", tmp_path / "missing.toml", "-o", tmp_path / "out")
    assert r.exit_code == 2 and "no such study file" in r.stderr


def test_study_output_to_stdout_is_refused(tmp_path, monkeypatch):
    """A study writes a folder: ``-o -`` is refused before any work (it made a folder
    named ``-``)."""
    monkeypatch.chdir(tmp_path)
    r = run_cli("study", write_study(tmp_path, 'tables = ["zoo"]\n'), "-o", "-")
    assert r.exit_code == 2
    assert "-o -: a study writes a folder" in r.stderr
    assert not (tmp_path / "-").exists()


def test_without_dask_study_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    r = run_cli("study", write_study(tmp_path, 'tables = ["zoo"]\n'), "-o", tmp_path / "out")
    assert r.exit_code == 2
    assert "pip install 'dagger-cli[dask]'" in r.stderr


def test_importing_dagger_does_not_import_dask():
    code = "import dagger_cli.study, dagger_cli.cli, sys; print('distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- hash and tasks
def test_hash_follows_the_prepared_table_and_the_options(tmp_path):
    from dagger_cli.data.table import DecisionTable

    (tmp_path / "a.csv").write_text(SMALL)
    # Same prepared table from different bytes (a duplicate row is merged): same digest.
    (tmp_path / "b.csv").write_text(SMALL + "0,0,0,n\n")
    (tmp_path / "c.csv").write_text(SMALL.replace("2,1,1,n", "2,1,1,y"))
    a, b, c = (DecisionTable.from_csv(tmp_path / f"{n}.csv", duplicates="merge") for n in "abc")
    assert st.table_digest(a) == st.table_digest(b) != st.table_digest(c)
    spec = st.TableSpec(str(tmp_path / "a.csv"), "a")
    base = st.Task(spec, "depth", "misclassifications", None)
    h = st.task_hash(base, st.table_digest(a), False)
    assert h == st.task_hash(base, st.table_digest(b), False)
    assert h != st.task_hash(base, st.table_digest(c), False)
    assert h != st.task_hash(base, st.table_digest(a), True)
    assert h != st.task_hash(st.Task(spec, "depth", "nodes", None), st.table_digest(a), False)
    assert h != st.task_hash(
        st.Task(spec, "depth", "misclassifications", 2), st.table_digest(a), False
    )


def test_run_task_gives_the_relate_bytes_and_records_limits(tmp_path):
    small = tmp_path / "small.csv"
    small.write_text(SMALL)
    table = st.TableSpec(str(small), "small").load()
    for x, y in PAIRS:
        res = st.run_task(table, x, y, None, threads=1)
        assert res["status"] == "ok" and res["error"] == ""
        assert res["csv"].encode() == relate_bytes(tmp_path, str(small), x, y)
        assert res["subtables"] > 1 and res["seconds"] >= 0
    res = st.run_task(table, "depth", "nodes", None, max_subtables=2)
    assert res["status"] == "limit" and "--max-subtables" in res["error"] and "csv" not in res
    res = st.run_task(table, "depth", "nodes", None, max_memory=64)
    assert res["status"] == "limit" and "--max-memory" in res["error"]


def test_count_gives_the_relate_count_bytes_and_its_own_hash(tmp_path):
    small = tmp_path / "small.csv"
    small.write_text(SMALL)
    table = st.TableSpec(str(small), "small").load()
    for x, y in (("depth", "misclassifications"), ("total-path-length", "misclassifications")):
        res = st.run_task(table, x, y, None, count=True, threads=1)
        assert res["status"] == "ok", res
        dest = tmp_path / f"count-{x}-{y}.csv"
        r = run_cli("relate", str(small), "--x", x, "--y", y, "--count", "-q", "-o", dest)
        assert r.exit_code == 0, r.output
        assert res["csv"].encode() == dest.read_bytes()
        assert res["csv"].splitlines()[0].endswith(",trees")
    path = write_study(tmp_path, 'tables = ["small.csv"]\ncount = true\n')
    assert st.parse_study(path).count is True
    task = st.Task(st.TableSpec(str(small), "small"), "depth", "misclassifications", None)
    digest = st.table_digest(table)
    assert st.task_hash(task, digest, False, True) != st.task_hash(task, digest, False)


# --------------------------------------------------------------------------- on clusters
@needs_mirror
def test_local_cluster_study_matches_relate_and_resumes(tmp_path):
    path, expected = the_study(tmp_path)
    out = tmp_path / "out"
    r = run_cli("study", path, "-o", out, "--workers", "2", "--plot")
    assert r.exit_code == 0, r.output
    rows = read_results(out)
    assert {row["status"] for row in rows} == {"ok"}
    assert f"{len(expected)} ok" in r.stderr
    check_curves(tmp_path, out, expected)
    assert sorted(p.name for p in (out / "plots").iterdir()) == [
        "lymphography.png",
        "small.png",
        "zoo.png",
    ]
    stamps = {p: p.stat().st_mtime_ns for p in (out / "curves").iterdir()}
    # A second run finds every result current: no task runs, no curve is rewritten.
    r = run_cli("study", path, "-o", out)
    assert r.exit_code == 0, r.output
    again = read_results(out)
    assert {row["status"] for row in again} == {"skipped"}
    assert [row["points"] for row in again] == [row["points"] for row in rows]
    assert {p: p.stat().st_mtime_ns for p in (out / "curves").iterdir()} == stamps


@needs_mirror
def test_failed_tasks_are_recorded_and_the_rest_finishes(tmp_path):
    (tmp_path / "small.csv").write_text(SMALL)
    (tmp_path / "bad.csv").write_text("a,b,d\n0,1,y\n1,0\n")
    path = write_study(
        tmp_path,
        'tables = ["bad.csv", "lymphography", "small.csv", "nowhere.csv"]\n'
        'pairs = [["depth", "misclassifications"], ["nodes", "leaves"]]\n'
        "max_subtables = 20000\n",
    )
    out = tmp_path / "out"
    r = run_cli("study", path, "-o", out, "--workers", "2")
    assert r.exit_code == 1
    assert "6 task(s) failed" in r.stderr and "Traceback" not in r.output
    rows = {(row["table"], row["x"]): row for row in read_results(out)}
    for x in ("depth", "nodes"):
        assert rows["bad", x]["status"] == "error"
        assert "bad.csv, line 3" in rows["bad", x]["error"]
        assert rows["lymphography", x]["status"] == "limit"
        assert "more than 20,000 subtables" in rows["lymphography", x]["error"]
        assert rows["lymphography", x]["rows"] == "148"
        assert rows["nowhere", x]["status"] == "error"
        assert "no such file" in rows["nowhere", x]["error"]
        assert rows["small", x]["status"] == "ok"
    assert sorted(p.name for p in (out / "curves").glob("*.csv")) == [
        "small__depth__misclassifications.csv",
        "small__nodes__leaves.csv",
    ]


@pytest.fixture(scope="module")
def dask_processes(tmp_path_factory):
    """A `dask scheduler` and two `dask worker` processes on 127.0.0.1, always stopped.

    Shared by the tests below (starting them costs seconds); the last one kills a worker.
    """
    bindir = Path(sys.executable).parent
    sched_file = tmp_path_factory.mktemp("dask") / "scheduler.json"
    env = dict(os.environ, DAGGER_THREADS="1")
    common = {"env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = []

    def start(*args):
        procs.append(
            subprocess.Popen([str(bindir / "dask"), *args], start_new_session=True, **common)
        )
        return procs[-1]

    try:
        start(
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(sched_file),
        )
        deadline = time.monotonic() + 60
        while not sched_file.exists():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        workers = [
            start(
                "worker",
                "--scheduler-file",
                str(sched_file),
                "--host",
                "127.0.0.1",
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
            )
            for _ in range(2)
        ]
        address = json.loads(sched_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=120)
            for addr in client.nthreads():
                assert addr.startswith("tcp://127.0.0.1:")
        yield address, workers
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=30)


@needs_mirror
def test_scheduler_study_matches_relate(tmp_path, dask_processes):
    address, _ = dask_processes
    path, expected = the_study(tmp_path)
    out = tmp_path / "out"
    r = run_cli("study", path, "-o", out, "--scheduler", address)
    assert r.exit_code == 0, r.output
    assert {row["status"] for row in read_results(out)} == {"ok"}
    check_curves(tmp_path, out, expected)
    # A changed table reruns its own tasks only.
    (tmp_path / "small.csv").write_text(SMALL.replace("2,1,1,n", "2,1,1,y"))
    r = run_cli("study", path, "-o", out, "--scheduler", address, "-q")
    assert r.exit_code == 0 and r.stderr == ""
    again = read_results(out)
    assert [row["status"] == "ok" for row in again] == [row["table"] == "small" for row in again]
    assert {row["status"] for row in again} == {"ok", "skipped"}
    check_curves(tmp_path, out, expected)


@needs_mirror
def test_a_split_study_sends_its_tasks_pieces_across_the_cluster(tmp_path, dask_processes):
    """``split = true``: a task whose query the cluster runs in pieces (a depth cap: the
    DAG's last two levels; depth vs misclassifications on numeric columns) sends them to
    the study's own workers from inside its task; a task that the cluster does not run
    (no cap) runs whole. The curves are the ones of `dagger relate`."""
    import distributed

    address, _ = dask_processes
    small = tmp_path / "small.csv"
    small.write_text(SMALL)
    path = write_study(
        tmp_path,
        'tables = ["zoo", "small.csv"]\npairs = [["total-path-length", "misclassifications"], '
        '["depth", "misclassifications"]]\nmax_depth = [3, "none"]\nsplit = true\n',
    )
    expected = [
        (table, x, y, d)
        for table in ("zoo", str(small))
        for x, y in (["total-path-length", "misclassifications"], ["depth", "misclassifications"])
        for d in (3, None)
    ]
    out = tmp_path / "out"
    with distributed.Client(address, timeout="30s") as client:
        with distributed.get_task_stream(client=client) as stream:
            r = run_cli("study", path, "-o", out, "--scheduler", address, "-q")
        keys = [str(t["key"]) for t in stream.data]
    assert r.exit_code == 0, r.output
    check_curves(tmp_path, out, expected)
    assert sum("dagger-study-" in k for k in keys) == len(expected)
    assert any("dagger-layer-" in k for k in keys), keys  # zoo's capped tasks, in pieces
    assert st.parse_study(path).split
    bad = write_study(tmp_path, 'tables = ["zoo"]\nsplit = "yes"\n', "bad.toml")
    with pytest.raises(st.StudyError, match="line 2: split: expected true or false"):
        st.parse_study(bad)


@needs_mirror
def test_interrupted_study_keeps_finished_results_and_resumes(
    tmp_path, dask_processes, monkeypatch
):
    address, _ = dask_processes
    path, expected = the_study(tmp_path)
    out = tmp_path / "out"
    record = st._record
    calls = []

    def record_then_interrupt(*args):
        record(*args)
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt  # what Ctrl-C raises in the client's loop

    monkeypatch.setattr(st, "_record", record_then_interrupt)
    r = run_cli("study", path, "-o", out, "--scheduler", address)
    assert r.exit_code == 130 and "interrupted; finished results are in" in r.stderr
    rows = read_results(out)
    assert [row["status"] for row in rows].count("ok") == 2
    assert {row["status"] for row in rows} == {"ok", "interrupted"}
    assert len(list((out / "curves").glob("*.csv"))) == 2
    assert not list(out.rglob("*.tmp"))
    monkeypatch.setattr(st, "_record", record)
    r = run_cli("study", path, "-o", out, "--scheduler", address)
    assert r.exit_code == 0, r.output
    statuses = [row["status"] for row in read_results(out)]
    assert statuses.count("skipped") == 2 and statuses.count("ok") == len(expected) - 2
    check_curves(tmp_path, out, expected)


@needs_mirror
def test_killing_a_worker_mid_study_loses_nothing(tmp_path, dask_processes):
    from distributed import Client

    address, workers = dask_processes
    pairs = [
        [x, y]
        for x in ("depth", "nodes")
        for y in ("misclassifications", "leaves", "total-path-length")
    ]
    path = write_study(tmp_path, f'tables = ["lymphography"]\npairs = {json.dumps(pairs)}\n')
    out = tmp_path / "out"
    study = st.parse_study(path)
    outcome = {}

    def go():
        outcome["value"] = st.run_study(study, out, scheduler=address, progress=False)

    runner = threading.Thread(target=go)
    with Client(address, timeout="30s") as client:
        victim = next(a for a in client.nthreads() if "127.0.0.1" in a)
        ports = {a: a.rsplit(":", 1)[1] for a in client.nthreads()}
        runner.start()
        deadline = time.monotonic() + 120
        while not client.processing(workers=[victim]).get(victim):
            assert time.monotonic() < deadline and runner.is_alive(), "no task reached the worker"
            time.sleep(0.005)
        # Which process serves the victim's address: the one listening on its port.
        pid = _pid_listening_on(int(ports[victim]), [w.pid for w in workers])
        os.kill(pid, signal.SIGKILL)
        runner.join(timeout=300)
        assert not runner.is_alive()
    rows = outcome["value"].rows
    assert len(rows) == len(study.tasks()) and {row["status"] for row in rows} == {"ok"}
    for row in rows:
        got = (out / row["curve"]).read_bytes()
        table = st.TableSpec(row["table"], row["table"]).load()
        assert got.decode() == st.run_task(table, row["x"], row["y"], None)["csv"]


def _pid_listening_on(port: int, pids: list[int]) -> int:
    import psutil

    for pid in pids:
        for conn in psutil.Process(pid).net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port:
                return pid
    raise AssertionError(f"no worker process listens on port {port}")


def test_paths_are_relative_to_the_study_file_not_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "zoo").write_text(SMALL)  # a file named like a dataset
    write_study(tmp_path / "sub", 'tables = ["zoo", {path = "zoo", label = "file"}]\n')
    monkeypatch.chdir(tmp_path)
    s = st.parse_study(Path("sub") / "study.toml")
    assert [t.source for t in s.tables] == [str(tmp_path / "sub" / "zoo")] * 2
    assert s.tables[0].load().n_rows == 8  # the file, not the dataset


def test_a_bad_scheduler_address_exits_2_and_writes_no_curve(tmp_path):
    (tmp_path / "small.csv").write_text(SMALL)
    path = write_study(tmp_path, 'tables = ["small.csv"]\n')
    r = run_cli("study", path, "-o", tmp_path / "out", "--scheduler", "nonsense")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "cannot reach the Dask scheduler at nonsense: missing port number" in r.stderr
    assert list((tmp_path / "out" / "curves").iterdir()) == []
    (row,) = read_results(tmp_path / "out")
    assert row["status"] == "interrupted" and "the study was stopped: cannot reach" in row["error"]


def test_a_study_table_takes_every_table_option_of_the_command_line():
    """Each field of the recipe is a study table option (a new one too), and ``sep``."""
    from dagger_cli.data.recipe import FIELDS
    from dagger_cli.study import TABLE_OPTIONS

    assert set(TABLE_OPTIONS) == FIELDS | {"sep"}
