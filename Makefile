# apitest: developer entry points. `make demo` and `make test` are all a newcomer needs; see docs/development.md.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

SWIFT ?= swift
FORMAT_PATHS := Sources Tests
# Where `make install` puts apitest (bin/, share/...); DESTDIR stages it under another root (packages).
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: help deps demo build release install uninstall deb test bench fuzz format lint clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{ printf "  make %-9s %s\n", $$1, $$2 }'

deps: ## install the missing Debian packages (idempotent)
	scripts/install-deps.sh

demo: ## build the release apitest once, run examples/ with it against the demo API; say how to install it
	scripts/demo.sh

build: deps ## debug build of everything
	$(SWIFT) build

release: deps ## the apitest binary to ship: release mode, static Swift runtime (prints its path)
	scripts/build-release.sh

install: ## install the release binary, completions, man page, schema, docs under PREFIX (default /usr/local)
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh

uninstall: ## remove what `make install` installed under PREFIX
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh --uninstall

deb: deps ## apitest_<version>_<arch>.deb from the release binary (dpkg-deb; Depends by dpkg-shlibdeps)
	scripts/make-deb.sh

test: deps ## lint (strict), build everything including tests, then run the tests
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	SWIFT=$(SWIFT) scripts/run-tests.sh

bench: ## throughput benchmark: apitest vs curl --parallel vs wrk against nginx, and the 1k/10k/100k curve
	scripts/install-deps.sh --bench
	bench/throughput

fuzz: ## run every fuzz target with libFuzzer for FUZZ_SECONDS (default 60) each; prints executions and findings
	scripts/fuzz.sh --seconds $${FUZZ_SECONDS:-60}

format: ## rewrite Sources and Tests in place with swift format (.swift-format)
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

lint: ## report swift format violations in Sources and Tests (strict: any finding fails)
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

clean: ## remove build products (.build, .build-release, .build-static, .build-fuzz), bench/out and *.deb
	rm -rf .build .build-release .build-static .build-fuzz bench/out
	rm -f apitest_*.deb
