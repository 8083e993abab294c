"""The load section (issue 17): mushroom quiet and beside one busy process per core, the
default threads against one thread (and any ``--load-config``), whole process and engine,
the settings taking turns, each run a fresh process; run alone, the four UCI tables quiet
too (as the UCI section measures them).

    python -m scripts.bench run --only load [--runs 9] [--no-load-uci]
                                            [--load-config 'spin:GOMP_SPINCOUNT=10000']
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from . import machine, procs, uci, verdict

NAME = "load"
OUTPUT = "bench-load.json"
HELP = "mushroom beside busy neighbours: default threads against one thread (issue 17)"

#: The thread settings compared (label, environment changes; None removes a variable).
#: "default" is what a user gets with nothing set.
CONFIGS = [
    ("default", {}),
    ("one thread", {"NUMBA_NUM_THREADS": "1"}),
]
#: Variables that choose threads or OpenMP waiting: unset for the runs, so that each
#: setting is exactly its own (a shell's NUMBA_NUM_THREADS must not leak into "default").
THREAD_VARS = ("NUMBA_NUM_THREADS", "DAGGER_THREADS", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


def add_arguments(group) -> None:
    group.add_argument(
        "--load-config",
        action="append",
        metavar="LABEL:VAR=VALUE,...",
        help="another thread setting to compare (repeatable), e.g. 'spin:GOMP_SPINCOUNT=10000'",
    )
    group.add_argument(
        "--no-load-uci",
        action="store_true",
        help="run alone, leave out the four UCI tables quiet",
    )


def configs_with(extra) -> list[tuple[str, dict]]:
    """The default settings and those of ``--load-config LABEL:VAR=VALUE,...``."""
    configs = list(CONFIGS)
    for spec in extra or ():
        label, _, assigns = spec.partition(":")
        changes = dict(a.split("=", 1) for a in assigns.split(",") if a)
        configs.append((label, changes))
    return configs


def env_for(changes: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    env.update({k: v for k, v in changes.items() if v is not None})
    return env


def _die_with_parent() -> None:
    """(In a busy neighbour, before exec) be killed when the benchmark dies (Linux)."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class BusyNeighbours:
    """``n`` busy-loop processes (one per core by default) for the ``with`` block; always
    killed at its end, whatever happens in it (SIGTERM included), and with the benchmark
    if it is killed outright."""

    def __init__(self, n=None):
        self.n = n or machine.cores()
        self.procs: list[subprocess.Popen] = []

    def __enter__(self):
        import signal

        self.sigterm = signal.signal(signal.SIGTERM, self._terminate)
        for _ in range(self.n):
            self.procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", "while 1: pass"], preexec_fn=_die_with_parent
                )
            )
        time.sleep(0.5)  # let them reach the run queue
        return self

    @staticmethod
    def _terminate(signum, frame):
        raise SystemExit(f"stopped by signal {signum}")

    def __exit__(self, *exc):
        import signal

        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()
        self.procs = []
        signal.signal(signal.SIGTERM, self.sigterm)


def _round(name, configs, runs, label) -> dict:
    """Whole process and engine time of each setting, the settings taking turns in each
    of ``runs`` rounds; medians and the loads seen."""
    res = {
        c: {"process_s": [], "engine_s": [], "dag_s": [], "fronts_s": [], "calls": []}
        for c, _ in configs
    }
    loads = []
    for _ in range(runs):
        for cfg, changes in configs:
            env = env_for(changes)
            r = res[cfg]
            r["process_s"].append(procs.launch_ok(procs.dagger("relate", name, "-q"), env)["wall"])
            out = procs.last_json(procs.launch_ok(procs.child("load_engine", name), env))
            for k in ("engine_s", "dag_s", "fronts_s"):
                r[k].append(out[k])
            r["calls"].append(out["calls_by_threads"])
        loads.append(machine.load_average()[0])
    summary = {}
    for cfg, _ in configs:
        r = res[cfg]
        summary[cfg] = {
            **{k: statistics.median(r[k]) for k in ("process_s", "engine_s", "dag_s", "fronts_s")},
            "runs": {k: r[k] for k in ("process_s", "engine_s")},
            "calls_by_threads": r["calls"],
        }
        s = summary[cfg]
        print(
            f"  {label:<6} {cfg:<22} whole process {s['process_s']:.2f} s "
            f"(range {min(r['process_s']):.2f}-{max(r['process_s']):.2f}), engine "
            f"{s['engine_s']:.3f} s (DAG {s['dag_s']:.3f} + fronts {s['fronts_s']:.3f}; "
            f"range {min(r['engine_s']):.3f}-{max(r['engine_s']):.3f})",
            flush=True,
        )
    return {"configs": summary, "load_1min": loads}


def bench_load(runs, table="mushroom", configs=None, with_uci=True) -> dict:
    """``table`` quiet and with one busy neighbour per core: the default threads against
    one thread (and any other ``configs``), whole process and engine; then the four UCI
    tables quiet, as the UCI section measures them."""
    configs = configs or CONFIGS
    print(f"load: {table}, {runs} interleaved runs per setting ({machine.load_text()})", flush=True)
    procs.launch_ok(procs.dagger("relate", table, "-q"))  # caches
    results: dict = {"table": table, "cores": machine.cores()}
    results["quiet"] = _round(table, configs, runs, "quiet")
    with BusyNeighbours() as busy:
        print(f"  ({busy.n} busy neighbours; {machine.load_text()})", flush=True)
        results["busy"] = _round(table, configs, runs, "busy")
        results["busy"]["neighbours"] = busy.n
    print("targets (issue 17):")
    for state in ("quiet", "busy"):
        conf = results[state]["configs"]
        if "default" not in conf or "one thread" not in conf:
            continue
        ratio = {k: conf["default"][k] / conf["one thread"][k] for k in ("process_s", "engine_s")}
        results[state]["ratio_default_to_one"] = ratio
        if state == "busy":
            v = verdict.load_verdict(ratio)
            results["target_met"] = v.ok
            print(v.line())
        else:
            print(
                f"  quiet: default / one thread = x{ratio['process_s']:.2f} whole process, "
                f"x{ratio['engine_s']:.2f} engine"
            )
    if with_uci:
        print(f"load: the four UCI tables, quiet ({machine.load_text()})", flush=True)
        rows = uci.bench_tables(uci.TABLES, runs, False, True, uci.memory_bandwidth())
        results["uci"] = rows
        print(f"  whole processes together: {sum(r['process_s'] for r in rows):.2f} s")
    return results


def run(args) -> dict:
    record = machine.Record()
    # Run in a full benchmark, the UCI tables quiet are the UCI section's.
    with_uci = args.alone and not args.no_load_uci
    result = bench_load(args.runs, configs=configs_with(args.load_config), with_uci=with_uci)
    result.update(record.done())
    machine.write_json(args.out, OUTPUT, result)
    return result
