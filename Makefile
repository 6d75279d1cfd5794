# kassen — `make help` lists the targets. The README points at two: `make demo` and `make test`.
SHELL := /bin/bash
CARGO ?= cargo
export CARGO_TARGET_DIR ?= $(CURDIR)/target

.PHONY: help demo arena test test-rust c-library test-c test-valgrind test-cpp test-csharp test-install test-python test-browser test-browser-online test-pip test-ray wheel install bench soak train-example header golden lint clean serve test-server load

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 16

# The Rust packages every cargo build of `make demo` and `make test` selects, with their tests
# (tests/rust-packages, which the scripts of the server's suites read too): cargo resolves a
# dependency's features from the selected packages (dev-dependencies included when tests are
# built), so one selection compiles each crate once, where a build of `-p kassen-ffi` or
# `-p kassen-server` alone would compile kassen-core and most dependencies again (two to nine
# minutes each on two cores). The Python module is built by maturin (below).
RUST_PACKAGES := $(shell cat $(CURDIR)/tests/rust-packages)
export KASSEN_RUST_PACKAGES := $(RUST_PACKAGES)

# One cargo build of everything Rust (the engine, the C library, the game server, the tests and
# the demo) in the debug profile and target directory the tests use, so `make test` afterwards
# compiles none of it again; then the demo binary runs.
demo: ## build everything (debug profile, like the tests: one compile of each crate) and play every game end to end between the built-in bots
	@echo "make demo: step 1 of 2: compiling the engine, the C library, the game server, their tests and the demo (debug profile, $(CARGO_TARGET_DIR)/debug; several minutes on a first build)"
	$(CARGO) build $(RUST_PACKAGES) --lib --bins --tests --example demo
	@echo "make demo: step 2 of 2: playing every game between the built-in bots (under 2 minutes); replays go to demo-output/"
	$(CARGO_TARGET_DIR)/debug/examples/demo

PREFIX ?= /usr/local

test: test-rust test-c test-valgrind test-cpp test-csharp test-install test-python test-browser test-server test-browser-online ## run every test (debug builds): Rust, C ABI (sanitizers, valgrind), C++, C# (Mono), install, Python, browser, game server (SQLite and PostgreSQL) and its browser client
	@echo "make test: all suites passed"

test-rust: ## Rust unit, rule, conformance, golden and header-drift tests, and the game server's suite on SQLite
	$(CARGO) test $(RUST_PACKAGES)

test-server: ## the game server's suite (docs/server.md) against a throwaway PostgreSQL cluster (installs postgresql if missing); `make test-rust` runs it on SQLite
	bash server/tests/postgres.sh

serve: ## run the online game server on 127.0.0.1:8080 with the SQLite file kassen-server.db (docs/server.md)
	$(CARGO) run -p kassen-server -- --listen 127.0.0.1:8080 --database sqlite://kassen-server.db

load: ## load benchmark of the game server: 1,000 concurrent games, 2,000 WebSocket clients, 60 s on SQLite and on PostgreSQL (release); bench-results/load.json
	bash bench/load.sh

# The C library (target/debug/libkassen.so and .a) from the same build as the Rust tests: after
# `make test-rust` or `make demo` nothing compiles again.
c-library:
	$(CARGO) build $(RUST_PACKAGES) --lib --tests

test-c: c-library ## C tests against include/kassen.h with ASan/UBSan
	bash tests/c/run.sh $(CARGO_TARGET_DIR)/debug

test-valgrind: c-library ## the C tests under valgrind memcheck (fails on any leak or invalid access)
	bash tests/c/valgrind.sh $(CARGO_TARGET_DIR)/debug

test-cpp: c-library ## C++ tests of include/kassen.hpp and examples/cpp with ASan/UBSan
	bash tests/cpp/run.sh $(CARGO_TARGET_DIR)/debug

test-csharp: c-library ## C# binding (bindings/csharp) tests and examples/csharp under Mono (installs Mono if missing)
	bash tests/csharp/run.sh $(CARGO_TARGET_DIR)/debug

test-install: c-library ## install the C library into a temp prefix; build the C and C++ examples with pkg-config and CMake
	bash tests/install/run.sh $(CARGO_TARGET_DIR)/debug

test-pip: ## pip install ./python, and pip wheel from the sdist, into fresh venvs (CPython 3.12, 3.13); pytest subset (not in make test: minutes of builds)
	bash tests/install/python.sh

test-python: ## build the abi3 wheel (debug), run pytest against it in .venv and in a CPython 3.9 venv
	bash python/tests/run.sh

test-browser: test-python ## play every game by clicking in headless Chromium (installs chromium with apt-get if missing)
	bash tests/browser/run.sh

test-browser-online: ## the online client on kassen-server: two browsers play Samurai by invite links, one reloads, a third watches (headless Chromium)
	bash tests/browser/online.sh

wheel: ## release abi3 wheel (manylinux2014, checked by auditwheel, tested in fresh CPython 3.9 and 3.12 venvs) and sdist into dist/
	bash tests/install/wheel.sh dist

install: ## install the C library (release) into PREFIX: headers, libkassen.a/.so, pkg-config, CMake package
	$(CARGO) build --release -p kassen-ffi
	bash ffi/install/install.sh $(PREFIX) $(CARGO_TARGET_DIR)/release

test-ray: ## the Ray rollout workers on a local Ray cluster (installs ray, ~80 MB, into the test venv; not in make test)
	KASSEN_EXTRA_PIP=ray KASSEN_PYTEST_WORKERS=0 bash python/tests/run.sh test_ray_rollouts.py

bench: ## random-playout benchmarks in Rust, C and Python (release); writes bench-results/
	bash bench/run.sh

arena: ## round robins per game between random, Monte Carlo, IS-MCTS and OpenSpiel's ISMCTSBot at equal time per move (release, about 35 min, at most 50); bench-results/arena.json
	bash bench/arena.sh $(ARENA_ARGS)

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
	rm -rf target .venv .venv-py39 .venv-train bench-results dist demo-output
