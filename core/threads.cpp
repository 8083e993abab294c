// The kernels' thread count: one value per calling thread (as numba's set_num_threads),
// so that concurrent callers (the ordered solver's root steps, a study's executor threads)
// each keep their own share. dagger_cli.engine.threads decides the value.
#include "py.hpp"

namespace dagger {

namespace {
thread_local int g_threads = 0;  // 0: not set, all hardware threads
}

int hardware_threads() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

int threads() { return g_threads > 0 ? g_threads : hardware_threads(); }

int set_threads(int n) {
    int before = threads();
    g_threads = std::max(1, n);
    return before;
}

namespace py {

void bind_threads(nb::module_ &m) {
    m.def("get_threads", &threads, "The kernels' thread count for the calling thread.");
    m.def("set_threads", &set_threads, nb::arg("n"),
          "Set the calling thread's kernel thread count (at least 1); returns the previous.");
    m.def("hardware_threads", &hardware_threads, "The machine's hardware threads.");
}

}  // namespace py
}  // namespace dagger
