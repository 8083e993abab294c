// The one extension module, dagger_cli._core: every part of the compiled core registers
// its kernels here (each source file has its bind_* function, declared in py.hpp).
#include "py.hpp"

NB_MODULE(_core, m) {
    m.doc() =
        "dagger's compiled core: the engine's kernels (C++, built by pip install). "
        "Called by the drivers in dagger_cli.engine and dagger_cli.rules, not directly.";
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
