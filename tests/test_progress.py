"""Progress on a terminal (one line rewritten in place) and into a log (a line now and then)."""

import io

import pytest

from dagger_cli.engine.progress import Progress


class Clock:
    """A fake monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(stream, seconds: int, total: int | None, phases=("fronts",), **kw):
    """One update a second for ``seconds`` seconds per phase, then close."""
    clock = Clock()
    p = Progress(True, stream=stream, clock=clock, **kw)
    for phase in phases:
        for k in range(1, seconds + 1):
            clock.now += 1.0
            p.update(phase, k * 10, None if total is None else total * 10)
    p.close()
    return stream.getvalue()


def test_a_log_gets_a_line_now_and_then_not_one_a_second():
    text = _run(io.StringIO(), 600, None)  # ten minutes, no known total
    lines = text.splitlines()
    assert 15 <= len(lines) <= 25, len(lines)  # one per 30 s, the first and the final
    assert "\r" not in text
    assert lines[-1].startswith("fronts: 6,000 subtables")  # the final state is there
    assert all(line.startswith("fronts: ") for line in lines)


def test_a_log_gets_a_line_per_tenth_of_a_known_total():
    lines = _run(io.StringIO(), 100, 100, log_every=1e9).splitlines()
    tenths = [line.split()[1] for line in lines]
    # the first line (2 s: 2 %), then every tenth up to the whole total
    assert tenths == ["20"] + [f"{k * 100:,}" for k in range(1, 11)], tenths


def test_a_log_ends_each_phase_with_its_last_state():
    lines = _run(io.StringIO(), 50, None, phases=("subtables", "fronts")).splitlines()
    assert "subtables: 500 subtables" in "\n".join(lines)  # the phase's final count
    assert lines[-1].startswith("fronts: 500 subtables")


def test_a_terminal_gets_one_line_rewritten_in_place_then_cleared():
    text = _run(Terminal(), 600, 600)
    assert "\n" not in text  # never a new line: the same line, again and again
    writes = text.split("\r")
    assert len(writes) > 100  # it does update (every 0.5 s: each second here)
    assert text.endswith("\r") and writes[-2].strip() == ""  # cleared at the end
    shown = [w for w in writes if w.strip()]
    assert shown[-1].startswith("fronts: 6,000 of 6,000 subtables")
    # a shorter line is padded over the longer one before it
    assert all(len(w) >= len(v.rstrip()) for v, w in zip(shown, shown[1:]))


def test_short_runs_and_disabled_progress_say_nothing():
    assert _run(io.StringIO(), 1, 10) == ""  # within `after` seconds
    assert _run(Terminal(), 1, 10) == ""
    quiet = io.StringIO()
    p = Progress(False, stream=quiet, clock=Clock())
    p.update("fronts", 1, 2)
    p.close()
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("tty", [True, False])
def test_a_real_run_writes_progress_in_its_mode(tty, monkeypatch):
    """The engine's phases through one Progress (after=0: every update counts)."""
    import dagger_cli.engine.dag as dag
    from dagger_cli.data.table import example_table
    from dagger_cli.engine import Query, solve

    stream = Terminal() if tty else io.StringIO()
    real = dag.Progress
    monkeypatch.setattr(dag, "Progress", lambda enabled: real(enabled, after=0.0, stream=stream))
    solve(example_table(), Query(progress=True))
    text = stream.getvalue()
    assert text, "nothing was written"
    if tty:
        assert "\n" not in text and text.endswith("\r")
    else:
        assert "\r" not in text and text.endswith("\n")
        assert text.splitlines()[-1].startswith("fronts")


def test_the_ordered_solver_says_how_many_root_attributes_are_done(monkeypatch):
    import io

    import numpy as np
    import pandas as pd

    import dagger_cli.engine.ordered as ordered
    from dagger_cli.data.table import DecisionTable
    from dagger_cli.engine.api import solve
    from dagger_cli.engine.progress import Progress
    from dagger_cli.engine.query import Query

    rng = np.random.default_rng(2)
    x = rng.normal(size=(120, 3)).round(2)
    d = np.where(x[:, 0] * x[:, 1] > 0, "p", "q")
    df = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "c": x[:, 2], "d": d})
    log = io.StringIO()
    monkeypatch.setattr(ordered, "Progress", lambda on: Progress(on, after=0.0, stream=log))
    solve(DecisionTable.from_dataframe(df, thresholds="all"), Query(max_depth=3, progress=True))
    lines = log.getvalue().splitlines()
    assert lines and all(line.startswith("ordered solver: ") for line in lines)
    assert "the root's attributes 3 of 3 done" in lines[-1]
