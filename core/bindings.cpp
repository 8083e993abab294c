// The one extension module, dagger_cli._core: every part of the compiled core registers
// its kernels here (each source file has its bind_* function, declared in py.hpp).
#include "py.hpp"

NB_MODULE(_core, m) {
    m.doc() =
        "dagger's compiled core: the engine's kernels (C++, built by pip install). "
        "Called by the drivers in dagger_cli.engine and dagger_cli.rules, not directly.";
    // The constants the drivers share with the kernels (common.hpp), read by
    // dagger_cli.engine.kernels: the statuses of the resumable kernels, the remaining depth
    // of an uncapped subproblem, the pieces a parallel phase is cut into.
    m.attr("DONE") = int(dagger::DONE);
    m.attr("BUDGET_SPENT") = int(dagger::BUDGET_SPENT);
    m.attr("MUST_GROW") = int(dagger::MUST_GROW);
    m.attr("TOO_MANY_NODES") = int(dagger::TOO_MANY_NODES);
    m.attr("FRONT_TOO_LONG") = int(dagger::FRONT_TOO_LONG);
    m.attr("OUT_OF_MEMORY") = int(dagger::OUT_OF_MEMORY);
    m.attr("NO_CAP") = dagger::NO_CAP;
    m.attr("PIECES") = dagger::PIECES;
    dagger::py::bind_threads(m);
    dagger::py::bind_rules(m);
    dagger::py::bind_discovery(m);
    dagger::py::bind_posets(m);
    dagger::py::bind_counting(m);
    dagger::py::bind_csv(m);
    dagger::py::bind_fronts(m);
    dagger::py::bind_depth_two(m);
    dagger::py::bind_ordered(m);
}
