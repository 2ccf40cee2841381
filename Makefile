# ushader — see README.md.  `make` builds build/libushader.a and build/ushader.
#
#   make                 library and tool
#   make check           unit tests (Check), piglit assembler tests, golden tests
#   make demo            the main job: assemble and run the sample programs
#   make bench           benchmarks
#   make compute-suite   the compute kernels at every size on every model
#   make tgsi-compare    our vec4 code against Mesa's TGSI, glmark2 pairs (out/tgsi)
#   make deps            apt-get the Debian packages the project needs
#   make install         the tool, library, headers and ushader.pc (PREFIX)
#   make SANITIZE=address,undefined check   the same under sanitizers
#
# SANITIZE builds go to build/san so they never mix with the normal objects.

CC       ?= gcc
PKGS     := mpfr libpng
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
CFLAGS   += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
            -Iinclude -Iisa -I. -MMD -MP
LDLIBS   := -lmpfr -lgmp -lpng -lz $(shell pkg-config --libs inih jansson nettle) \
            -lm -lpthread

# The command-line program is linked statically (STATIC=0: against the
# shared libraries): loading its ten shared libraries was 2 of the 3 ms
# CPU that every run spends starting (`ushader --version` under perf
# stat on the machine of docs/PERFORMANCE.md: 3.1 ms against 1.2 ms),
# and tests, sweeps and benches start it thousands of times.  The same
# program linked against the shared C library, ushader-shared, is for the
# tests that interpose on it (LD_PRELOAD, tests/outputs.test.sh).
STATIC   ?= 1
CLI_LDFLAGS := $(if $(filter 1,$(STATIC)),-static)

ifneq ($(SANITIZE),)
BUILD    := build/san
CFLAGS   += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS  += -fsanitize=$(SANITIZE)
CLI_LDFLAGS :=
else
BUILD    := build
endif

LIB_DIRS := isa asm shader sfu gfx piglit suite glsl seeds
LIB_SRC  := $(wildcard $(addsuffix /*.c,$(LIB_DIRS)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_SRC  := $(wildcard cli/*.c)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC := $(wildcard tools/*.c)
TOOL_BIN := $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%)
# The compute suite's C references: in the library, for `ushader bench
# --suite compute` (suite/compute_load.c), and in build/tools/kref.
KREF_SRC := $(wildcard bench/compute/ref/*.c)
KREF_OBJ := $(KREF_SRC:%.c=$(BUILD)/obj/%.o)
LIB_OBJ  += $(KREF_OBJ)

# The version (VERSION) and the commit built (`git describe --dirty`:
# "-dirty" when the tree has changes), for `ushader --version` and the
# provenance of every output (suite/provenance.c).
VERSION  := $(shell cat VERSION)
COMMIT   := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
VERSION_H := $(BUILD)/gen/version.h

LIB      := $(BUILD)/libushader.a
USHADER  := $(BUILD)/ushader
USHADER_SHARED := $(BUILD)/ushader-shared
HUGE_BSS := $(BUILD)/ushader-huge-bss.so

.PHONY: all check demo bench deps stress clean unit-tests
all: $(LIB) $(USHADER) $(USHADER_SHARED) $(HUGE_BSS) $(TOOL_BIN)

# The models and the SFU are the simulator's inner loops: -O3's unrolling
# and vectorisation there is worth 5-12% of a model's speed (no FP
# reassociation: -O3 keeps ISO C's -ffp-contract=off and exact math).
# Functions on cache lines: otherwise code added in one file moves the
# others' loops across line boundaries (4.5 KB more in interp_soa.o cost
# the vec4 models 2-5%, docs/perf/core.md).
$(BUILD)/obj/shader/%.o $(BUILD)/obj/sfu/%.o: OPT = -O3 -falign-functions=64
# The RGBA8 conversion of every output image: -O2's cheap vectoriser
# leaves its loop scalar, 5-8x slower (docs/perf/jobs.md).
$(BUILD)/obj/gfx/framebuffer.o: OPT = -O3

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# Rewritten only when the version or commit changed, so a rebuild after a
# commit recompiles one file.
.PHONY: FORCE
$(VERSION_H): FORCE
	@mkdir -p $(@D)
	@printf '#define US_VERSION "%s"\n#define US_COMMIT "%s"\n' \
	    '$(VERSION)' '$(COMMIT)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/suite/provenance.o: $(VERSION_H)
$(BUILD)/obj/suite/provenance.o: CFLAGS += -I$(BUILD)/gen

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(USHADER): $(CLI_OBJ) $(LIB)
	$(CC) $(LDFLAGS) $(CLI_LDFLAGS) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

$(USHADER_SHARED): $(CLI_OBJ) $(LIB)
	$(CC) $(LDFLAGS) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

# Preloaded into the compilers ushader runs, found beside it (glsl/
# compile.c): without the sanitizers, whose runtime must be the first
# object a program loads, and with no flag a tool's loader could lack.
$(HUGE_BSS): tools/preload/huge_bss.c
	@mkdir -p $(@D)
	$(CC) -O2 -std=c11 -Wall -Wextra -Werror -fPIC -shared $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags check) $< $(LIB) \
	    $(LDFLAGS) $(shell pkg-config --libs check) $(LDLIBS) -o $@

$(BUILD)/tools/%: tools/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(LIB) $(LDFLAGS) $(LDLIBS) -o $@

$(BUILD)/tools/kref: tools/kref.c $(KREF_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(KREF_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS) -o $@

deps:
	@tools/deps.sh

# The tests and the demo install what they need first (a no-op when present).
check: 
	@tools/deps.sh --if-missing
	@$(MAKE) --no-print-directory all $(TEST_BIN)
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) tests/run.sh

demo:
	@tools/deps.sh --if-missing
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) tools/demo.sh

# Rewrite tests/golden/*.hash from bench/scenes/ (after a deliberate change).
golden: all
	@BUILD=$(BUILD) tests/render.test.sh --update

bench:
	@tools/deps.sh --if-missing
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bench/run.sh

# Our vec4 code against Mesa's TGSI on the glmark2 pairs (issue 20):
# out/tgsi/table.md and table.csv (bench/tgsi_compare.sh; make bench runs it).
.PHONY: tgsi-compare
tgsi-compare: all
	@BUILD=$(BUILD) OUT=out/tgsi bench/tgsi_compare.sh

# The compute suite with its big sizes (bench/compute/, docs/COMPUTE_SUITE.md).
.PHONY: compute-suite
compute-suite: all
	@COMPUTE_SUITE=all BUILD=$(BUILD) sh tests/compute_suite.test.sh

# ---- SFU coefficient tables (sfu/sfu.h) --------------------------------
# `make sfu-tables` regenerates the committed default tables with the MPFR
# Remez generator; tests/sfu_tables.test.sh checks they are up to date.
.PHONY: sfu-tables
sfu-tables: $(BUILD)/tools/sfu_gen
	$(BUILD)/tools/sfu_gen sfu/sfu_tables.c
# ---- end of the SFU section ---------------------------------------------

# ---- Fuzzing (fuzz/, issue 9) --------------------------------------------
# `make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="asm png ..."]` builds the
# library with clang, libFuzzer coverage, ASan and UBSan into build/fuzz/
# and runs each harness fuzz/fuzz_*.c for FUZZ_SECONDS (two at a time),
# seeded from the repository's programs, scenes and textures and, at run
# time, from Debian's piglit and glmark2 files (never copied into the
# repo).  Crashes land in build/fuzz/artifacts/; see fuzz/run.sh.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_BUILD   := build/fuzz
FUZZ_FLAGS   := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=all
FUZZ_BIN     := $(patsubst fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard fuzz/fuzz_*.c))
.PHONY: fuzz fuzz-build fuzz-bins
$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_BUILD)/libushader.a
	$(CC) $(CFLAGS) -fsanitize=fuzzer $< $(FUZZ_BUILD)/libushader.a $(LDLIBS) -o $@
fuzz-bins: $(FUZZ_BIN)
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang \
	    OPT="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" fuzz-bins
fuzz: fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)
# ---- end of the fuzzing section -------------------------------------------

# ---- Installation --------------------------------------------------------
# `make install [PREFIX=/usr/local] [DESTDIR=]`: the tool, the static library,
# its public headers in include/ushader/ (ushader.h, and core.h for the core
# models, with the tables they include beside them: ops.def, knobs.def) and
# ushader.pc (`pkg-config --static --libs ushader`).  examples/ is built
# against the result by tests/install.test.sh.
PREFIX   ?= /usr/local
PUBLIC_H := include/ushader.h isa/ops.def shader/core.h shader/knobs.def
.PHONY: install
install: $(LIB) $(USHADER) $(HUGE_BSS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/include/ushader
	install -m 755 $(USHADER) $(DESTDIR)$(PREFIX)/bin/ushader
	install -m 644 $(HUGE_BSS) $(DESTDIR)$(PREFIX)/bin/ushader-huge-bss.so
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libushader.a
	install -m 644 $(PUBLIC_H) $(DESTDIR)$(PREFIX)/include/ushader
	sed 's|@PREFIX@|$(PREFIX)|; s|@VERSION@|$(VERSION)|' ushader.pc.in \
	    >$(DESTDIR)$(PREFIX)/lib/pkgconfig/ushader.pc
# ---- end of the installation section ------------------------------------

# The scalar SP against the reference interpreter on 10,000 random programs.
stress: $(BUILD)/tests/test_scalar_equiv
	US_RANDOM_PROGRAMS=5000 $(BUILD)/tests/test_scalar_equiv

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(KREF_OBJ:.o=.d) \
         $(TOOL_BIN:=.d)
