# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DEMO ?= demo/scifact
PORT ?= 8501

.PHONY: run test bench fuzz demo venv dev lint format clean

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(VENV)/.runtime
dev: $(VENV)/.dev

$(DEMO)/.ready: $(VENV)/.runtime data/scifact/corpus.jsonl.gz data/scifact/claims_train.jsonl \
		engine/datasets/scifact.py engine/datasets/sections.py
	$(PY) -m engine import scifact --corpus data/scifact/corpus.jsonl.gz \
		--claims data/scifact/claims_train.jsonl --out $(DEMO)
	$(PY) -m engine index --workspace $(DEMO)
	touch $@

demo: $(DEMO)/.ready

run: demo
	$(PY) -m streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT)

test: dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest

bench: dev
	$(PY) -m bench

fuzz: dev
	SYNAPSE_FUZZ_EXAMPLES=20000 $(PY) -m pytest -m fuzz -p no:cacheprovider tests

lint: dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports

format: dev
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) demo .pytest_cache
