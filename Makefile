# Poise — the two commands of the README's quick start are `make demo` and `make test`.
# Both install missing system packages (FFTW) first, so they work on a fresh Debian machine.

# Compile the library for this machine's CPU (enables FMA). Set POISE_TARGET_CPU= for a portable build.
export POISE_TARGET_CPU ?= native

SWIFT ?= swift
# The main job: replay the bundled default recording in real time (100 Hz, 60 s) through the
# default pipeline and print the latency/jitter/timing report.
DEMO_FILE ?= data/phone-tilt-steer-100hz.csv
DEMO_PIPELINE ?= adaptive

PREFIX ?= /usr/local

.PHONY: install install-library deps build c-library readers-library dist test-embedding test-install demo test bench bench-baseline clean data reports check-reports check-docs check-examples replay-timing

# Install FFTW (and pkg-config) when they are missing. Uses sudo when not root.
deps:
	@if ! pkg-config --exists fftw3 2>/dev/null; then \
	  echo "Installing libfftw3-dev and pkg-config (needed by PoiseSpectral)…"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libfftw3-dev pkg-config >/dev/null; \
	fi
	@if ! pkg-config --exists zlib liblz4 libzstd 2>/dev/null || [ ! -f /usr/include/bzlib.h ]; then \
	  echo "Installing zlib1g-dev libbz2-dev liblz4-dev libzstd-dev (needed by PoiseRecording's readers)…"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zlib1g-dev libbz2-dev liblz4-dev libzstd-dev >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c release --product poise

# The C API's libraries (libpoise.so.0 and libpoise.a, Swift runtime linked in, core only: no
# FFTW) in $(C_LIBRARY_DIR); see docs/embedding.md.
C_LIBRARY_DIR ?= .build/c-library
c-library:
	SWIFT="$(SWIFT)" sh scripts/build_c_library.sh "$(C_LIBRARY_DIR)"

# What a release publishes, in dist/: poise-VERSION-linux-ARCH.tar.gz (the self-contained `poise`,
# its man page and completions, the C library) and the Python wheel carrying libpoise. Code for
# x86-64-v3 on x86_64, not for this machine's CPU (scripts/make_dist.sh; build in .build-dist).
dist: deps
	SWIFT="$(SWIFT)" sh scripts/make_dist.sh

# The readers' C library (libpoise-readers.so.0, include/poise_readers.h: every recording format
# `poise` reads, for poise.read in Python) next to libpoise; a library of its own, so that
# libpoise stays the core alone.
readers-library:
	SWIFT="$(SWIFT)" sh scripts/build_readers_library.sh "$(C_LIBRARY_DIR)"

# Install the release `poise` into $(PREFIX)/bin and the C library into $(PREFIX)/include and
# $(PREFIX)/lib (with pkg-config and CMake files) (e.g. `make install PREFIX=$$HOME/.local`).
install: build c-library readers-library
	install -d "$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/poise" "$(PREFIX)/bin/poise"
	@echo "installed $(PREFIX)/bin/poise"
	sh scripts/install_c_library.sh "$(PREFIX)" "$(C_LIBRARY_DIR)"

# The C library alone (no `poise` tool, no FFTW needed): what a game or robot that embeds
# Poise needs (e.g. `make install-library PREFIX=$$HOME/.local`).
install-library: c-library
	sh scripts/install_c_library.sh "$(PREFIX)" "$(C_LIBRARY_DIR)"

demo: build
	@echo "Replaying $(DEMO_FILE) in real time through '$(DEMO_PIPELINE)' (60 s; Ctrl-C stops early and still reports)…"
	"$$($(SWIFT) build -c release --show-bin-path)/poise" replay $(DEMO_FILE) --pipeline "$(DEMO_PIPELINE)"

# The Swift tests, then every `$ poise …` example of README.md and docs/*.md run with the poise
# the tests built and compared with its shown output (scripts/check_examples.py), the DocC
# catalogs, and the C, C++ and Python embedding.
# The tests' debug build compiles the core with -O (Package.swift, POISE_OPTIMIZED_CORE).
test: export POISE_OPTIMIZED_CORE = 1
test: deps
	$(SWIFT) test --parallel
	python3 scripts/check_examples.py --poise "$$($(SWIFT) build --show-bin-path)/poise"
	sh scripts/check_docs.sh
	$(MAKE) dist
	SWIFT="$(SWIFT)" sh scripts/test_embedding.sh .build-dist/c-library
	$(MAKE) test-install

# dist/ used as a user would, with the toolchain out of reach (scripts/test_install.sh).
test-install:
	sh scripts/test_install.sh

# Only the documented examples (after `swift build --product poise`); `make check-examples
# ONLY=noise.md` runs the blocks whose name contains that text.
check-examples:
	python3 scripts/check_examples.py --poise "$$($(SWIFT) build --show-bin-path)/poise" $(if $(ONLY),--only "$(ONLY)")

# The C and C++ examples against a fresh install of the C library, and the Python package's
# tests in their own virtual environment (scripts/test_embedding.sh).
test-embedding: c-library readers-library
	SWIFT="$(SWIFT)" sh scripts/test_embedding.sh "$(C_LIBRARY_DIR)"

clean:
	rm -rf .build .build-dist dist

# Release-build benchmarks with ratios against references measured in the same run.
# `make bench SUITES="filters ingest"` runs only those suites.
bench: deps
	cd Benchmarks && $(SWIFT) run -c release PoiseBenchmarks $(SUITES)

# Record the suites' current ns/item as the committed baselines (Benchmarks/baselines.json);
# `make bench` then fails a measurement that got slower than its tolerance allows.
bench-baseline: deps
	cd Benchmarks && $(SWIFT) run -c release PoiseBenchmarks --record-baselines $(SUITES)

# Regenerate the simulated recordings in data/ (deterministic; see data/README.md).
data: deps
	$(SWIFT) build --product poise
	POISE=.build/debug/poise sh scripts/make_data.sh

# Regenerate notebooks-export/ (one HTML report per recording in data/, and an index) with
# `poise report` (runs scripts/export_reports.sh; see docs/reports.md).
reports: deps
	$(SWIFT) build --product poise
	POISE=.build/debug/poise sh scripts/export_reports.sh

# Re-measure the real-time replay timing shown in notebooks-export/ (release build, 60 s per
# recording listed in scripts/record_replay_timing.sh); run `make reports` afterwards.
replay-timing: deps
	$(SWIFT) build -c release --product poise
	POISE=.build/release/poise sh scripts/record_replay_timing.sh

# Screenshot every exported page in headless Chromium and fail on a blank or broken one.
check-reports:
	sh scripts/check_reports.sh

# Build the DocC catalogs with the toolchain's docc (no plugin), fail on any DocC warning, and
# type-check every Swift example in the articles (scripts/check_docs.sh; docs/reports.md).
check-docs: deps
	$(SWIFT) build --target PoiseSpectral
	sh scripts/check_docs.sh
