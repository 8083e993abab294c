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
.PHONY: help install check test test-fast bench figures curves docs clean

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
# regenerated first by scripts/docs_outputs.py (docs/outputs/, git-ignored).
$(VENV)/.docs: $(VENV)/.installed pyproject.toml
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $@

docs: $(VENV)/.docs ## Build the documentation site into site/ (MkDocs, strict)
	$(PY) scripts/docs_outputs.py
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --clean --site-dir site
	@echo "site/index.html"

curves: install ## Regenerate the golden curves in datasets/curves after a deliberate change
	$(PY) scripts/make_curves.py

clean: ## Remove outputs and caches (not the venv)
	rm -rf $(OUT) .pytest_cache .hypothesis site docs/outputs docs/reproduction.md
