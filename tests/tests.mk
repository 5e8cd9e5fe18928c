# Tests: host unit tests (cmocka), QEMU integration tests (tests/qemu), fuzzers.
#
# core/ and arch/ are compiled for the host with -DTLBSCOPE_HOST: the APIC
# driver, the descriptor tables, the trap dispatch and the takeover
# included. Their privileged instructions (CR3/CR4, MSRs, the xAPIC page,
# LIDT/LGDT, CPUID, port I/O) come from the modelled machine in sim/
# (sim/hostcpu.c). Files that only make sense on the machine would be listed
# in HOST_SKIP and never built for the host; none is now.

HOST_SKIP :=
# the modelled machine (sim/) stands in for the hardware: tests and tlbscope-sim link it
SIM_LIB_SRCS := $(filter-out sim/main.c,$(sort $(wildcard sim/*.c)))
SIM_ASM := $(sort $(wildcard sim/*.S)) arch/x86/setjmp.S arch/x86/ap_trampoline.S
HOST_LIB_SRCS := $(filter-out $(HOST_SKIP),$(CORE_SRCS) $(ARCH_SRCS)) $(SIM_LIB_SRCS)
HOST_CFLAGS := -std=c11 -O1 -g $(WARN) $(DEFS) -I. $(ARCH_INC) -DTLBSCOPE_HOST -D_DEFAULT_SOURCE -pthread
HOST_LIB_OBJS := $(patsubst %.c,$(BUILD)/host/lib/%.o,$(HOST_LIB_SRCS)) \
                 $(patsubst %.S,$(BUILD)/host/lib/%.o,$(SIM_ASM))
TSAN_LIB_OBJS := $(patsubst %.c,$(BUILD)/host/tsan/%.o,$(HOST_LIB_SRCS)) \
                 $(patsubst %.S,$(BUILD)/host/tsan/%.o,$(SIM_ASM))

UNIT_SRCS := $(sort $(wildcard tests/host/test_*.c))
UNIT_BINS := $(patsubst tests/host/%.c,$(BUILD)/host/tests/%,$(UNIT_SRCS))
# tests of concurrent protocols also run under ThreadSanitizer
TSAN_SRCS := $(sort $(wildcard tests/host/tsan_*.c))
TSAN_BINS := $(patsubst tests/host/%.c,$(BUILD)/host/tests/%,$(TSAN_SRCS))
SUPPORT_SRCS := $(sort $(wildcard tests/host/support_*.c))

$(BUILD)/host/lib/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC $<")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/lib/%.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTAS $<")
	$(Q)$(HOST_CC) -c $< -o $@

$(BUILD)/host/tsan/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -c $< -o $@

$(BUILD)/host/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TSANCC $<")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fsanitize=thread -MMD -MP -c $< -o $@

$(BUILD)/host/libtlbscope.a: $(HOST_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/host/libtlbscope-tsan.a: $(TSAN_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

# A test's own file and the support files compile once, to objects: the unit test and every
# mutant's build of it (sim/sim.mk, some 430 binaries) link them. Compiling them again for each
# link cost about 0.4 s of CPU a binary, some 80 s of make test's build on 2 cores.
TEST_OBJ := $(BUILD)/host/tobj
SUPPORT_OBJS := $(patsubst tests/host/%.c,$(TEST_OBJ)/%.o,$(SUPPORT_SRCS))
# kept, not deleted as make's intermediate files: the next mutant's link needs them
.PRECIOUS: $(TEST_OBJ)/%.o
$(TEST_OBJ)/%.o: tests/host/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC $<")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/tests/test_%: $(TEST_OBJ)/test_%.o $(SUPPORT_OBJS) $(BUILD)/host/libtlbscope.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ -lcmocka -ljansson -pthread

$(BUILD)/host/tests/tsan_%: tests/host/tsan_%.c $(SUPPORT_SRCS) $(BUILD)/host/libtlbscope-tsan.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TSAN  $@")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fsanitize=thread $< $(SUPPORT_SRCS) $(BUILD)/host/libtlbscope-tsan.a -o $@ -lcmocka -ljansson -pthread

.PHONY: unit-tests
unit-tests: $(UNIT_BINS) $(TSAN_BINS)

# the build runs one job per core (JOBS=1 for a serial build when a log needs reading)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Everything the tests read is built before they start: tests/checks/ run two at a time
# (tests/run-all.sh), and two of them must never build the same file at once. Chromium
# (scripts/deps.sh html) too, for the same reason: without it the page checks SKIP.
TEST_PREBUILT := all image unit-tests mutants sim-asan fuzz $(BUILD)/host/tlbscope-report-nofleet
test:
	@scripts/deps.sh test
	@scripts/deps.sh html || echo "make test: Chromium could not be installed; the checks that need it SKIP"
	@$(MAKE) --no-print-directory -j$(JOBS) $(TEST_PREBUILT)
	@$(MAKE) --no-print-directory -j$(JOBS) ARCH=aarch64 image
	@tests/run-all.sh

# make check: the edit loop (at most 3 minutes on 2 cores once built): the build without
# the mutants, the host unit tests, the static checks, and tests/quick/ (two model shapes,
# one QEMU boot per architecture). make test stays the whole suite.
check:
	@scripts/deps.sh test
	@$(MAKE) --no-print-directory -j$(JOBS) all image unit-tests
	@TLBSCOPE_CHECK=1 tests/run-all.sh

test-full:
	@scripts/deps.sh test
	@scripts/deps.sh html || echo "make test-full: Chromium could not be installed; the checks that need it SKIP"
	@$(MAKE) --no-print-directory -j$(JOBS) $(TEST_PREBUILT)
	@$(MAKE) --no-print-directory -j$(JOBS) ARCH=aarch64 image
	@TLBSCOPE_TEST_FULL=1 tests/run-all.sh
include tests/fuzz/fuzz.mk

# The protocol test also runs without ThreadSanitizer (faster, and under valgrind if wanted).
$(BUILD)/host/tests/test_protocol: $(TEST_OBJ)/tsan_protocol.o $(SUPPORT_OBJS) $(BUILD)/host/libtlbscope.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@ -lcmocka -ljansson -pthread
unit-tests: $(BUILD)/host/tests/test_protocol
