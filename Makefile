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
export MPLBACKEND := Agg

.DEFAULT_GOAL := help
.PHONY: help install test test-fast bench figures curves clean

help: ## List the targets
	@grep -E '^[a-zA-Z_%-]+:.*?## ' $(MAKEFILE_LIST) | awk -F ':.*?## ' '{printf "  %-12s %s\n", $$1, $$2}'

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed ## Create .venv and install dagger with its test tools

test: install ## Run the test suite (2 workers)
	$(PY) -m pytest -n 2 -q

test-fast: install ## Run the tests that do not need the UCI tables
	$(PY) -m pytest -n 2 -q -m "not slow"

bench: install ## Benchmark the engines on the four UCI tables (and the scaling series)
	$(PY) scripts/bench.py

FIGS := fig5 fig6 fig7 fig8 fig9 fig10
figures: install ## Rebuild the paper's Figs. 5-10 and their curves into $(OUT)/
	$(MAKE) -j2 $(addprefix $(OUT)/,$(addsuffix .png,$(FIGS)))

curves: install ## Regenerate the golden curves in datasets/curves after a deliberate change
	$(PY) scripts/make_curves.py

clean: ## Remove outputs and caches (not the venv)
	rm -rf $(OUT) .pytest_cache .hypothesis
