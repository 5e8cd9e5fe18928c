# Host tool: build/tlbscope-report (C11 + jansson). Sources in reports/tool/.
# The tool is a library (every reports/tool/*/*.c but cli/main.c and fleet/, and the core/ files of the
# redaction tokens, TOOL_CORE_SRCS) and a CLI main():
# the unit tests (tests/host/test_report_*.c) and the fuzz target
# (tests/fuzz/fuzz_report.c) link the library and so exercise the code the CLI runs.
TOOL_MAIN_SRC := reports/tool/cli/main.c
TOOL_LIB_SRCS := $(filter-out $(TOOL_MAIN_SRC) reports/tool/fleet/%,$(sort $(wildcard reports/tool/*/*.c)))
TOOL_CFLAGS := -std=c11 -O2 -g $(WARN) -D_DEFAULT_SOURCE -I. -Ireports/tool
# the redaction tokens: the same HMAC-SHA-256 code as the app (core/run/redact.h), and the
# run's verdict line (core/run/verdict.h), word for word the app's; the fuzz
# targets get these from core/ already, so they are not in TOOL_LIB_SRCS
TOOL_CORE_SRCS := core/lib/sha256.c core/lib/nearest.c core/run/redact.c core/run/verdict.c
TOOL_LIB_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(TOOL_LIB_SRCS)) \
                 $(patsubst %.c,$(BUILD)/host/tool-core/%.o,$(TOOL_CORE_SRCS))
TOOL_MAIN_OBJ := $(patsubst %.c,$(BUILD)/host/%.o,$(TOOL_MAIN_SRC))
TOOL_LIBS := -ljansson -lm
# The fleet database (import, atlas, query): SQLite and libpq, in reports/tool/fleet/ so that
# the library above and the fuzz targets stay without them. fdb_nopg.c stands in for fdb_pg.c
# in the release's build (SQLite only: a static libpq is not practical).
FLEET_SRCS := $(filter-out reports/tool/fleet/fdb_nopg.c,$(sort $(wildcard reports/tool/fleet/*.c)))
FLEET_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(FLEET_SRCS))
FLEET_RELEASE_OBJS := $(filter-out %/fdb_pg.o,$(FLEET_OBJS)) $(BUILD)/host/reports/tool/fleet/fdb_nopg.o
FLEET_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
FLEET_LIBS := -lsqlite3 -lpq
$(FLEET_OBJS): TOOL_CFLAGS += $(FLEET_CFLAGS)
$(TOOL_MAIN_OBJ): TOOL_CFLAGS += -DTLBSCOPE_FLEETDB

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

$(BUILD)/tlbscope-report: $(TOOL_MAIN_OBJ) $(FLEET_OBJS) $(BUILD)/host/libtlbscope-report.a
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(HOST_CC) $(TOOL_MAIN_OBJ) $(FLEET_OBJS) $(BUILD)/host/libtlbscope-report.a -o $@ \
	    $(TOOL_LIBS) $(FLEET_LIBS)

# The tool as the release ships it (the archive's static build: jansson and SQLite, no libpq):
# the archive's man page and completion are generated from its help, so they offer exactly
# the commands the archive's binary has.
$(BUILD)/host/reports/tool/cli/main-release.o: reports/tool/cli/main.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(TOOL_CFLAGS) -DTLBSCOPE_FLEETDB -MMD -MP -c $< -o $@
$(BUILD)/host/tlbscope-report-release: $(BUILD)/host/reports/tool/cli/main-release.o $(FLEET_RELEASE_OBJS) $(BUILD)/host/libtlbscope-report.a
	$(Q)$(HOST_CC) $^ -o $@ $(TOOL_LIBS) -lsqlite3
# ... and as a build without SQLite has it (host-tool/ on a machine without libsqlite3-dev):
# what it answers to import, atlas and query (tests/checks/fleetdb.sh)
$(BUILD)/host/reports/tool/cli/main-nofleet.o: reports/tool/cli/main.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(TOOL_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/host/tlbscope-report-nofleet: $(BUILD)/host/reports/tool/cli/main-nofleet.o $(BUILD)/host/libtlbscope-report.a
	$(Q)$(HOST_CC) $^ -o $@ $(TOOL_LIBS)

# The fleet database's mutants (core/mutant.h, sim/sim.mk FLEET_MUTANTS): the tool with the
# files of reports/tool/fleet/ that hold MUTANT(that mutant) built under TLBSCOPE_MUTANT (in
# every other file it is 0 anyway: those objects are shared), killed by tests/checks/fleetdb.sh.
define fleet_mutant_rules
FLEET_MUTANT_SRCS_$(1) := $$(shell grep -l 'MUTANT($(1))' $$(FLEET_SRCS))
$(BUILD)/mutants/$(1)/fleet/%.o: reports/tool/fleet/%.c
	@mkdir -p $$(dir $$@)
	$$(Q)$$(HOST_CC) $$(TOOL_CFLAGS) $$(FLEET_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/mutants/$(1)/tlbscope-report: $(TOOL_MAIN_OBJ) $$(patsubst reports/tool/fleet/%.c,$(BUILD)/mutants/$(1)/fleet/%.o,$$(FLEET_MUTANT_SRCS_$(1))) $$(filter-out $$(patsubst %.c,$(BUILD)/host/%.o,$$(FLEET_MUTANT_SRCS_$(1))),$$(FLEET_OBJS)) $(BUILD)/host/libtlbscope-report.a
	$$(Q)$$(HOST_CC) $$^ -o $$@ $$(TOOL_LIBS) $$(FLEET_LIBS)
endef

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

# ---- test-only mutants of the tool (core/mutant.h, IDs 60-63, 97, 100-106 and 110-111), killed by tests/sim/mutants.sh ----
# Listed in sim/sim.mk's MUTANTS too; only the tool files that use MUTANT() are rebuilt per
# mutant, the rest of the tool library is shared. One line: tests/sim/mutants.sh reads it with sed.
TOOL_MUTANTS := base_always_first no_param_defaults show_tsc_else role_rows_doubled arch_unshared_compared cpu_role_by_number gate_passes_on_nothing invalid_report_shown verdict_without_band compare_value_cut html_headlines_dropped html_ceiling_in_ticks html_heatmaps_in_column html_pool_first_report arch_question_filter_dropped arch_question_other_rate arm_secure_boot_unchecked
TOOL_MUTANT_SRCS := $(shell grep -l 'include "core/mutant.h"' $(TOOL_LIB_SRCS))
TOOL_MUTANT_SHARED_OBJS := $(filter-out $(patsubst %.c,$(BUILD)/host/%.o,$(TOOL_MUTANT_SRCS)),$(TOOL_LIB_OBJS))

define tool_mutant_rules
$(BUILD)/mutants/$(1)/tool/%.o: %.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  MUTCC $(1) $$<")
	$$(Q)$$(HOST_CC) $$(TOOL_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/mutants/$(1)/tlbscope-report: $(TOOL_MAIN_OBJ) $(FLEET_OBJS) $(patsubst %.c,$(BUILD)/mutants/$(1)/tool/%.o,$(TOOL_MUTANT_SRCS)) $(TOOL_MUTANT_SHARED_OBJS)
	$$(Q)$$(HOST_CC) $$^ -o $$@ $$(TOOL_LIBS) $$(FLEET_LIBS)
endef
$(foreach m,$(TOOL_MUTANTS),$(eval $(call tool_mutant_rules,$(m))))

.PHONY: tool-mutants
tool-mutants: $(foreach m,$(TOOL_MUTANTS),$(BUILD)/mutants/$(m)/tlbscope-report)
