# Host tool: build/tlbscope-report (C11 + jansson). Sources in reports/tool/.
# The tool is a library (every reports/tool/*.c but main.c, and the core/ files of the
# redaction tokens, TOOL_CORE_SRCS) and a CLI main():
# the unit tests (tests/host/test_report_*.c) and the fuzz target
# (tests/fuzz/fuzz_report.c) link the library and so exercise the code the CLI runs.
TOOL_MAIN_SRC := reports/tool/main.c
TOOL_LIB_SRCS := $(filter-out $(TOOL_MAIN_SRC),$(sort $(wildcard reports/tool/*.c)))
TOOL_CFLAGS := -std=c11 -O2 -g $(WARN) -D_DEFAULT_SOURCE -I. -Ireports/tool
# the redaction tokens: the same HMAC-SHA-256 code as the app (core/redact.h); the fuzz
# targets get these from core/ already, so they are not in TOOL_LIB_SRCS
TOOL_CORE_SRCS := core/sha256.c core/redact.c
TOOL_LIB_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(TOOL_LIB_SRCS)) \
                 $(patsubst %.c,$(BUILD)/host/tool-core/%.o,$(TOOL_CORE_SRCS))
TOOL_MAIN_OBJ := $(patsubst %.c,$(BUILD)/host/%.o,$(TOOL_MAIN_SRC))
TOOL_LIBS := -ljansson -lm

.PHONY: tool
tool: $(BUILD)/tlbscope-report

$(BUILD)/host/reports/tool/%.o: reports/tool/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC $<")
	$(Q)$(HOST_CC) $(TOOL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/tool-core/core/%.o: core/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC $<")
	$(Q)$(HOST_CC) $(TOOL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/libtlbscope-report.a: $(TOOL_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/tlbscope-report: $(TOOL_MAIN_OBJ) $(BUILD)/host/libtlbscope-report.a
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(HOST_CC) $(TOOL_MAIN_OBJ) $(BUILD)/host/libtlbscope-report.a -o $@ $(TOOL_LIBS)

# Unit tests of the tool (tests/host/test_report_*.c): this pattern is more
# specific than tests/tests.mk's test_%, so it wins for them. They need only
# the tool library (the tool never links core/: it reads report files), and
# read their fixtures relative to the repository root, where tests/run-all.sh
# runs them.
$(BUILD)/host/tests/test_report_%: tests/host/test_report_%.c $(BUILD)/host/libtlbscope-report.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(TOOL_CFLAGS) $< $(BUILD)/host/libtlbscope-report.a -o $@ -lcmocka $(TOOL_LIBS)

# --version: the same VERSION and commit as the app's banner (Makefile DEFS)
$(TOOL_MAIN_OBJ): TOOL_CFLAGS += $(DEFS)
$(TOOL_MAIN_OBJ): $(BUILD)/commit.stamp

# ---- test-only mutants of the tool (core/mutant.h, IDs 60-63), killed by tests/sim/mutants.sh ----
# Listed in sim/sim.mk's MUTANTS too; only the tool files that use MUTANT() are rebuilt per
# mutant, the rest of the tool library is shared.
TOOL_MUTANTS := base_always_first no_param_defaults show_tsc_else role_rows_doubled
TOOL_MUTANT_SRCS := $(shell grep -l 'include "core/mutant.h"' reports/tool/*.c)
TOOL_MUTANT_SHARED_OBJS := $(filter-out $(patsubst %.c,$(BUILD)/host/%.o,$(TOOL_MUTANT_SRCS)),$(TOOL_LIB_OBJS))

define tool_mutant_rules
$(BUILD)/mutants/$(1)/tool/%.o: %.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  MUTCC $(1) $$<")
	$$(Q)$$(HOST_CC) $$(TOOL_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/mutants/$(1)/tlbscope-report: $(TOOL_MAIN_OBJ) $(patsubst %.c,$(BUILD)/mutants/$(1)/tool/%.o,$(TOOL_MUTANT_SRCS)) $(TOOL_MUTANT_SHARED_OBJS)
	$$(Q)$$(HOST_CC) $$^ -o $$@ $$(TOOL_LIBS)
endef
$(foreach m,$(TOOL_MUTANTS),$(eval $(call tool_mutant_rules,$(m))))

.PHONY: tool-mutants
tool-mutants: $(foreach m,$(TOOL_MUTANTS),$(BUILD)/mutants/$(m)/tlbscope-report)
