"""Never lose a user's file (issue 11): outputs checked before the work and written safely,
a memory ceiling by default, honest input. Through the CLI (CliRunner) and the Python API."""

import errno
import json
import os
import stat
import threading
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

from dagger_cli import engine, safeio
from dagger_cli.cli import main
from dagger_cli.engine import memory
from dagger_cli.errors import InputError
from dagger_cli.safeio import WriteError, atomic_write, write_file
from tests.conftest import MIRROR, needs_mirror

TABLE = "a,b,c\n0,1,x\n1,0,y\n1,1,y\n0,0,x\n"
CURVE = "total_path_length,average_depth,misclassifications\n0,0.0,2\n4,1.0,0\n"


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder holding t.csv, made the current folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text(TABLE)
    return tmp_path


@pytest.fixture
def no_engine(monkeypatch):
    """Fail the test if the engine runs; the checks must come first."""
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise AssertionError("the engine ran before the outputs were checked")

    monkeypatch.setattr(engine, "relate", refuse)
    return calls


def listing(folder):
    return sorted(p.name for p in folder.iterdir())


# ---------------------------------------------------------------- 1. the input is never written
def test_plot_without_paths_keeps_the_input(here):
    before = (here / "t.csv").read_bytes()
    r = invoke("relate", "t.csv", "--plot")
    assert r.exit_code == 0
    assert (here / "t.csv").read_bytes() == before
    assert (here / "t.curve.csv").read_text() == CURVE
    assert (here / "t.curve.png").read_bytes()[:4] == b"\x89PNG"
    assert "t.curve.csv" in r.stderr and "t.curve.png" in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("-o", "t.csv"),
        ("--plot", "t.csv"),
        ("-o", "c.csv", "--plot", "c.csv"),
    ],
)
def test_an_output_that_is_an_input_or_another_output_is_refused(here, no_engine, args):
    before = (here / "t.csv").read_bytes()
    r = invoke("relate", "t.csv", *args)
    assert r.exit_code == 2
    assert (here / "t.csv").read_bytes() == before
    assert listing(here) == ["t.csv"]
    assert not no_engine


def test_input_through_a_symlink_is_still_the_input(here, no_engine):
    os.symlink("t.csv", here / "alias.csv")
    r = invoke("relate", "alias.csv", "-o", "t.csv")
    assert r.exit_code == 2
    assert "input" in r.stderr
    assert (here / "t.csv").read_text() == TABLE


def test_prepare_never_writes_its_input(here):
    r = invoke("prepare", "t.csv", "-o", "t.csv")
    assert r.exit_code == 2
    assert (here / "t.csv").read_text() == TABLE


# ---------------------------------------------------------------- 2. what the path points to
def test_symlink_stays_a_link_and_its_target_is_updated(here):
    (here / "real.csv").write_text("old\n")
    os.symlink("real.csv", here / "link.csv")
    r = invoke("relate", "t.csv", "-o", "link.csv", "-q")
    assert r.exit_code == 0
    assert (here / "link.csv").is_symlink()
    assert os.readlink(here / "link.csv") == "real.csv"
    assert (here / "real.csv").read_text() == CURVE


def test_fifo_stays_a_fifo_and_receives_the_csv(here):
    fifo = here / "pipe.csv"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    r = invoke("relate", "t.csv", "-o", fifo, "-q")
    reader.join(timeout=30)
    assert r.exit_code == 0
    assert got == [CURVE.encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_dev_null_is_written_not_replaced(here):
    before = os.stat("/dev/null")
    r = invoke("relate", "t.csv", "-o", "/dev/null", "-q")
    assert r.exit_code == 0
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert listing(here) == ["t.csv"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_full_disk_is_a_dagger_error_and_the_device_stays(here):
    r = invoke("relate", "t.csv", "-o", "/dev/full", "-q")
    assert r.exit_code == 5
    assert "/dev/full" in r.stderr and "No space left" in r.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_dash_writes_to_stdout(here):
    r = invoke("relate", "t.csv", "-o", "-", "-q")
    assert r.exit_code == 0
    assert r.stdout == CURVE  # the CSV only: the summary would make it no CSV file
    assert listing(here) == ["t.csv"]


def test_a_folder_is_refused(here, no_engine):
    (here / "d.csv").mkdir()
    r = invoke("relate", "t.csv", "-o", "d.csv")
    assert r.exit_code == 2
    assert "d.csv" in r.stderr
    with pytest.raises(InputError, match="is a folder"):
        safeio.check_output(here / "d.csv")


# ---------------------------------------------------------------- 4. checked before the work
def test_unwritable_folder_fails_before_the_engine_and_leaves_nothing(here, no_engine):
    # Root ignores permission bits, so the "folder" is a plain file: no one can create in it.
    (here / "somefile").write_text("x\n")
    r = invoke("relate", "t.csv", "-o", "somefile/x.csv")
    assert r.exit_code == 2
    assert "somefile/x.csv" in r.stderr
    assert not no_engine
    assert listing(here) == ["somefile", "t.csv"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_fails_before_the_engine(here, no_engine):
    ro = here / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        r = invoke("relate", "t.csv", "-o", ro / "x.csv")
    finally:
        ro.chmod(0o700)
    assert r.exit_code == 2
    assert listing(ro) == []


def test_read_only_filesystem_fails_before_the_engine(here, no_engine):
    # /proc refuses new files even for root.
    r = invoke("relate", "t.csv", "-o", "/proc/dagger-test.csv")
    assert r.exit_code == 2
    assert "/proc/dagger-test.csv" in r.stderr
    assert not no_engine


def test_missing_folder_is_refused_for_files(here, no_engine):
    r = invoke("relate", "t.csv", "-o", "new/x.csv")
    assert r.exit_code == 2
    assert "does not exist" in r.stderr
    assert listing(here) == ["t.csv"]


def test_trees_folder_is_created_only_at_the_end(here):
    r = invoke("relate", "t.csv", "--trees", "trees", "-q")
    assert r.exit_code == 0
    assert len(listing(here / "trees")) == 4
    r = invoke("relate", "t.csv", "--trees", "a/b", "-q")
    assert r.exit_code == 2
    assert not (here / "a").exists()


def test_bad_plot_format_writes_nothing(here, no_engine):
    r = invoke("relate", "t.csv", "-o", "c1.csv", "--plot", "out.xyz")
    assert r.exit_code == 2
    assert "out.xyz" in r.stderr
    assert listing(here) == ["t.csv"]
    assert not no_engine


def test_bad_plot_view_writes_nothing(here, no_engine):
    r = invoke(
        "relate", "t.csv", "--x", "depth", "--y", "nodes", "--plot", "--kind", "average-depth"
    )
    assert r.exit_code == 2
    assert listing(here) == ["t.csv"]


def test_csv_output_needs_a_csv_name(here, no_engine):
    r = invoke("relate", "t.csv", "-o", "curve.png")
    assert r.exit_code == 2
    assert listing(here) == ["t.csv"]


def test_tree_unknown_format_is_an_error(here, no_engine):
    r = invoke("tree", "t.csv", "--max-y", "0", "-o", "t.xyz")
    assert r.exit_code == 2
    assert "t.xyz" in r.stderr
    assert listing(here) == ["t.csv"]


@pytest.mark.parametrize("ext,start", [("json", b"{"), ("txt", b"#"), ("dot", b"digraph")])
def test_tree_formats_by_extension(here, ext, start):
    r = invoke("tree", "t.csv", "--max-y", "0", "-o", f"tree.{ext}", "-q")
    assert r.exit_code == 0
    assert (here / f"tree.{ext}").read_bytes().startswith(start)


# ---------------------------------------------------------------- the writer itself (Python API)
def test_failed_write_leaves_neither_partial_nor_temporary_file(tmp_path):
    target = tmp_path / "x.csv"
    with pytest.raises(RuntimeError):
        with atomic_write(target) as fh:
            fh.write("half")
            raise RuntimeError("boom")
    assert listing(tmp_path) == []
    target.write_text("old\n")
    with pytest.raises(RuntimeError):
        with atomic_write(target) as fh:
            fh.write("half")
            raise RuntimeError("boom")
    assert listing(tmp_path) == ["x.csv"]
    assert target.read_text() == "old\n"


def test_io_error_during_write_is_a_write_error(tmp_path, monkeypatch):
    target = tmp_path / "x.csv"
    target.write_text("old\n")

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safeio.os, "replace", full)
    with pytest.raises(WriteError, match="x.csv.*No space left"):
        write_file(target, "new\n")
    assert listing(tmp_path) == ["x.csv"]
    assert target.read_text() == "old\n"
    assert WriteError.exit_code == 5


def test_new_file_respects_the_umask_and_existing_keeps_its_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_file(tmp_path / "new.csv", "x\n")
        keep = tmp_path / "keep.csv"
        keep.write_text("x\n")
        keep.chmod(0o600)
        write_file(keep, "y\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.csv").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(keep).st_mode) == 0o600
    assert keep.read_text() == "y\n"


def test_writer_refuses_folders_and_missing_folders(tmp_path):
    with pytest.raises(InputError, match="folder"):
        write_file(tmp_path, "x")
    with pytest.raises(InputError, match="does not exist"):
        write_file(tmp_path / "no" / "x.csv", "x")
    assert listing(tmp_path) == []


def test_save_figure_follows_symlinks(tmp_path):
    from dagger_cli.data.table import example_table
    from dagger_cli.plots import plot_front, save_figure

    (tmp_path / "real.png").write_bytes(b"old")
    os.symlink("real.png", tmp_path / "link.png")
    save_figure(plot_front(engine.relate(example_table()).front), tmp_path / "link.png")
    assert (tmp_path / "link.png").is_symlink()
    assert (tmp_path / "real.png").read_bytes()[:4] == b"\x89PNG"


@needs_mirror
def test_cached_file_is_readable_by_group_and_others(tmp_path):
    from dagger_cli.data import datasets

    old = os.umask(0o022)
    try:
        path = datasets.fetch("zoo", data_home=tmp_path, mirror=MIRROR.as_uri(), progress=False)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644
    assert listing(path.parent) == [path.name]


# ---------------------------------------------------------------- 3. a memory ceiling by default
def random_table(path, rows=300, columns=16, seed=1):
    values = np.random.default_rng(seed).integers(0, 2, (rows, columns + 1))
    head = ",".join(f"a{j}" for j in range(columns + 1))
    path.write_text(head + "\n" + "\n".join(",".join(map(str, r)) for r in values) + "\n")


def test_default_ceiling_stops_a_dag_that_cannot_fit(here, monkeypatch):
    random_table(here / "r.csv")
    monkeypatch.setattr(memory, "memory_available", lambda: 40 * 2**20)
    r = invoke("relate", "r.csv", "-q")
    assert r.exit_code == 3
    assert "default ceiling" in r.stderr and "32 MiB" in r.stderr
    assert "try --max-depth" in r.stderr.lower()
    assert "subtables" in r.stderr
    # The same table within a larger ceiling, and with the ceiling lifted.
    r = invoke("relate", "r.csv", "-q", "--max-memory", "none", "--format", "csv")
    assert r.exit_code == 0


def test_default_ceiling_from_the_python_api(monkeypatch):
    monkeypatch.setattr(memory, "memory_available", lambda: 1000)
    assert engine.memory_ceiling()[0] == 800
    assert engine.memory_ceiling(None) == (None, "--max-memory")
    assert engine.memory_ceiling("none")[0] is None
    assert engine.memory_ceiling("2K")[0] == 2048
    monkeypatch.setattr(memory, "memory_available", lambda: None)
    assert engine.memory_ceiling()[0] is None


def test_memory_available_reads_meminfo():
    avail = engine.memory_available()
    if os.path.exists("/proc/meminfo"):
        assert avail is not None and avail > 0


# ---------------------------------------------------------------- figures
def test_depth_vs_average_depth_step_is_labelled_in_the_axes_words():
    from dagger_cli.costs import COSTS
    from dagger_cli.fronts import Front
    from dagger_cli.plots import F_LABEL, G_LABEL, STEP_GID, plot_front

    fr = Front(COSTS["depth"], COSTS["total-path-length"], np.array([2, 3]), np.array([40, 30]), 20)
    ax = plot_front(fr, kind="average-depth").axes[0]
    step = next(ln for ln in ax.lines if ln.get_gid() == STEP_GID)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Average depth", "Depth")
    assert step.get_label() == "least depth with average depth ≤ t"
    assert step.get_label() not in (F_LABEL, G_LABEL)


def test_tree_drawing_keeps_edge_labels_off_the_boxes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from dagger_cli.data.table import DecisionTable
    from dagger_cli.plots import draw_tree
    from dagger_cli.trees import tree_for

    rng = np.random.default_rng(3)
    rows = rng.integers(0, 3, (60, 5))
    decisions = [f"class-{(r[0] + r[1] * r[2]) % 4}" for r in rows]
    table = DecisionTable.from_rows(rows.tolist(), decisions)
    tree = tree_for(engine.relate(table), max_y=0)
    fig = draw_tree(tree, title="t")
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes: dict = {}
    for text in fig.axes[0].texts:
        boxes.setdefault(text.get_gid(), []).append(
            text.get_bbox_patch().get_window_extent(renderer)
        )
    assert len(boxes["edge"]) >= 6 and len(boxes["leaf"]) >= 6
    for edge in boxes["edge"]:
        for box in boxes["leaf"] + boxes["split"]:
            assert not edge.overlaps(box)


def test_tree_drawing_keeps_sibling_edge_labels_apart(tmp_path):
    """Threshold splits label their edges ``<= t`` and ``> t``: long labels close
    together, which ran into each other."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from dagger_cli.data.table import DecisionTable
    from dagger_cli.plots import draw_tree
    from dagger_cli.trees import tree_for

    rng = np.random.default_rng(5)
    x = np.round(rng.random((80, 3)) * 10, 2)
    y = (x[:, 0] > 4.93).astype(int) + (x[:, 1] > 6.11).astype(int) * (x[:, 2] < 3.3)
    path = tmp_path / "n.csv"
    path.write_text("a,b,c,d\n" + "\n".join(f"{r[0]},{r[1]},{r[2]},{v}" for r, v in zip(x, y)))
    table = DecisionTable.from_csv(path, thresholds="all")
    tree = tree_for(engine.relate(table, max_depth=3), max_y=0)
    fig = draw_tree(tree, title="t")
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    edges = [
        t.get_bbox_patch().get_window_extent(renderer)
        for t in fig.axes[0].texts
        if t.get_gid() == "edge"
    ]
    assert len(edges) >= 4
    for i, a in enumerate(edges):
        for b in edges[i + 1 :]:
            assert not a.overlaps(b)


# ---------------------------------------------------------------- 5. honest input
def front_csv_of(*args):
    r = invoke("relate", *args, "--format", "csv", "-q")
    assert r.exit_code == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("sep,name", [(";", "semicolon"), ("\t", "tab"), ("|", "pipe")])
def test_other_separators_are_read_right_and_reported(here, sep, name):
    (here / "s.csv").write_text(TABLE.replace(",", sep))
    r = invoke("relate", "s.csv")
    assert r.exit_code == 0
    assert f"read as {name}-separated" in r.stderr
    assert front_csv_of("s.csv") == front_csv_of("t.csv") == CURVE


def test_semicolon_file_with_decimal_commas(here):
    (here / "s.csv").write_text("a;b;c\n0,5;1;x\n1,5;0;y\n1,5;1;y\n0,5;0;x\n")
    assert front_csv_of("s.csv") == CURVE
    r = invoke("prepare", "s.csv")
    # Read as numbers (issue 26: --thresholds skipped them), and said so.
    assert r.stdout.splitlines()[1] == "0.5,1,x"
    assert "read decimal commas as numbers in column(s) 'a' (0,5 -> 0.5" in r.stderr


def test_wrong_sep_is_refused_naming_the_likely_one(here, no_engine):
    (here / "s.csv").write_text(TABLE.replace(",", ";"))
    r = invoke("relate", "s.csv", "--sep", ",")
    assert r.exit_code == 2
    assert "semicolon-separated (--sep ';')" in r.stderr
    assert not no_engine


def test_sep_option_reads_the_file(here):
    (here / "s.csv").write_text(TABLE.replace(",", ";"))
    assert front_csv_of("s.csv", "--sep", ";") == CURVE
    (here / "tab.csv").write_text(TABLE.replace(",", "\t"))
    assert front_csv_of("tab.csv", "--sep", "tab") == CURVE


def test_one_column_file_is_refused(here, no_engine):
    (here / "one.csv").write_text("abc\n0\n1\n")
    r = invoke("relate", "one.csv")
    assert r.exit_code == 2
    assert "single column" in r.stderr and "one.csv" in r.stderr


def test_table_without_attributes_is_refused(here, no_engine):
    from dagger_cli.data.table import DecisionTable

    r = invoke("relate", "t.csv", "--drop", "a", "--drop", "b")
    assert r.exit_code == 2
    assert "no attribute column" in r.stderr
    import pandas as pd

    with pytest.raises(InputError, match="no attribute column"):
        DecisionTable.from_dataframe(pd.DataFrame({"d": ["x", "y"]}))


def test_report_names_the_decision_column(here):
    r = invoke("relate", "t.csv")
    assert "decision column: 'c' (the last of 3 columns" in r.stderr
    r = invoke("relate", "t.csv", "--decision", "b")
    assert "decision column: 'b'" in r.stderr


def test_identifier_like_column_is_warned_about(here):
    rows = "\n".join(f"{i},{i % 2},{(i // 2) % 2}" for i in range(30))
    (here / "ids.csv").write_text("id,a,d\n" + rows + "\n")
    r = invoke("relate", "ids.csv")
    assert r.exit_code == 0
    assert "'id' has a distinct value in more than 90%" in r.stderr and "--drop id" in r.stderr
    assert "--thresholds all|K" in r.stderr  # numbers: a measurement, perhaps
    assert "distinct numbers" not in r.stderr  # one warning per column, the telling one
    assert "distinct value" not in invoke("relate", "ids.csv", "--drop", "id").stderr
    # A tiny table may have a distinct value in every row: not a warning.
    assert "identifier" not in invoke("relate", "t.csv").stderr


def test_summary_says_what_merging_did(here):
    (here / "m.csv").write_text("a,b,d\n1,0,x\n1,0,y\n1,0,x\n2,1,y\n2,1,y\n3,0,x\n")
    r = invoke("relate", "m.csv", "--duplicates", "merge")
    head = r.stdout.splitlines()[0]
    assert head.startswith("m: 3 rows (merged from 6 rows read; 1 of them outvoted")
    assert "1 row(s) read can be classified by no tree" in r.stderr
    assert invoke("relate", "t.csv").stdout.startswith("t: 4 rows, 2 attributes;")
    # With -q (nothing on stderr) the summary still says it, and so does the JSON.
    quiet = invoke("relate", "m.csv", "-q", "--duplicates", "merge")
    assert quiet.stderr == "" and quiet.stdout.splitlines()[0] == head
    doc = json.loads(
        invoke("relate", "m.csv", "-q", "--format", "json", "--duplicates", "merge").stdout
    )
    assert doc["table"] == {
        "name": "m",
        "rows": 3,
        "attributes": 2,
        "duplicates": "merge",
        "rows_read": 6,
        "unclassifiable_rows": 1,
    }
    assert (
        "rows_read" not in json.loads(invoke("relate", "t.csv", "--format", "json").stdout)["table"]
    )
    # Kept (the default): every count is of the rows read, and the summary says so.
    kept = invoke("relate", "m.csv", "-q")
    assert kept.stdout.startswith("m: 6 rows (3 equal to an earlier row, each counted), 2 ")
    doc = json.loads(invoke("relate", "m.csv", "-q", "--format", "json").stdout)
    assert doc["table"] == {
        "name": "m",
        "rows": 6,
        "attributes": 2,
        "duplicates": "keep",
        "equal_rows": 3,
        "unclassifiable_rows": 1,
    }
    assert (
        json.loads(invoke("relate", "m.csv", "-q", "--format", "json").stdout)["points"][-1][
            "misclassifications"
        ]
        == 1
    )


def test_predict_and_costs_report_unseen_values():
    import pandas as pd

    from dagger_cli.data.table import DecisionTable
    from dagger_cli.trees import UnseenValueWarning, tree_for

    table = DecisionTable.from_rows([(0, 0), (1, 0), (0, 1), (1, 1)], ["x", "y", "x", "y"])
    tree = tree_for(engine.relate(table), max_y=0)
    seen = pd.DataFrame({"f1": ["0", "1"], "f2": ["0", "0"], "d": ["x", "y"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tree.predict(seen) == ["x", "y"]
        assert tree.costs(seen)["misclassifications"] == 0
    assert tree.unseen(seen) == {}
    new = pd.DataFrame({"f1": ["7", "1", "7"], "f2": ["0", "0", "0"], "d": ["y", "y", "x"]})
    with pytest.warns(UnseenValueWarning, match="2 of 3 row.*f1 = '7'"):
        tree.predict(new)
    with pytest.warns(UnseenValueWarning):
        tree.costs(new)
    assert tree.unseen(new) == {("f1", "7"): 2}
