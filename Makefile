# kassen — `make help` lists the targets. The README points at two: `make demo` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo
export CARGO_TARGET_DIR ?= $(CURDIR)/target

.PHONY: help demo test test-rust test-c test-valgrind test-python test-ray bench soak train-example header golden lint clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 16

demo: ## build everything (release) and play every game end to end between the built-in bots
	$(CARGO) build --release --workspace --exclude kassen-python
	$(CARGO) run --release -q -p kassen-core --example demo

test: test-rust test-c test-valgrind test-python ## run every test (debug builds): Rust, C ABI (sanitizers, valgrind), Python
	@echo "make test: all suites passed"

test-rust: ## Rust unit, rule, conformance, golden and header-drift tests
	$(CARGO) test --workspace --exclude kassen-python

test-c: ## C tests against include/kassen.h with ASan/UBSan
	$(CARGO) build -p kassen-ffi
	bash tests/c/run.sh $(CARGO_TARGET_DIR)/debug

test-valgrind: ## the C tests under valgrind memcheck (fails on any leak or invalid access)
	$(CARGO) build -p kassen-ffi
	bash tests/c/valgrind.sh $(CARGO_TARGET_DIR)/debug

test-python: ## build the wheel (debug) into .venv and run pytest against it
	bash python/tests/run.sh

test-ray: ## the Ray rollout workers on a local Ray cluster (installs ray, ~80 MB, into the test venv; not in make test)
	KASSEN_EXTRA_PIP=ray bash python/tests/run.sh test_ray_rollouts.py

bench: ## random-playout benchmarks in Rust, C and Python (release); writes bench-results/
	bash bench/run.sh

soak: ## 1,000,000 random games per game and config (release, every core); figures in bench-results/soak.json
	mkdir -p bench-results
	KASSEN_SOAK_GAMES_PER_CONFIG=$${KASSEN_SOAK_GAMES_PER_CONFIG:-1000000} KASSEN_SOAK_OUT=$(CURDIR)/bench-results/soak.json \
		$(CARGO) test --release -p kassen-core --test soak -- --nocapture

train-example: ## train MaskablePPO on Samurai 2p vs random (own venv with torch, several GB; not in make test)
	bash examples/python/train.sh

header: ## regenerate include/kassen.h with the pinned cbindgen
	KASSEN_BLESS=1 $(CARGO) test -p kassen-tests header

golden: ## rewrite the golden playthroughs (review the diff!)
	KASSEN_BLESS=1 $(CARGO) test -p kassen-tests golden

lint: ## rustfmt and clippy
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

clean: ## remove build outputs and the venv
	rm -rf target .venv .venv-train bench-results
