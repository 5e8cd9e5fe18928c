# The aarch64 strict model (sim/arm64/) and its test (issue 27). Its objects are compiled
# against arm64's architecture interface (arch/arm64/include, TLBSCOPE_HOST: the model
# implements asm/tlbi.h and asm/barrier.h), never x86's, so they stay out of the x86 host
# library (libtlbscope.a) and get their own rules here.
ARM64_HOST_CFLAGS := -std=c11 -O1 -g $(WARN) $(DEFS) -I. -Iarch/arm64/include -DTLBSCOPE_HOST \
                     -D_DEFAULT_SOURCE -pthread
# the real protocols the app runs, and the model they run on
ARM64_MODEL_SRCS := $(sort $(wildcard sim/arm64/*.c)) core/exp/arm64/tlbi_flush.c
ARM64_MODEL_OBJS := $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(ARM64_MODEL_SRCS))
ARM64_MODEL_TEST := tests/host/test_arm64_model.c

$(BUILD)/host/arm64/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  A64CC $<")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) -MMD -MP -c $< -o $@

# An explicit rule: it takes precedence over tests/tests.mk's pattern rule for
# build/host/tests/test_% (x86's flags and library), which UNIT_BINS would otherwise use.
$(BUILD)/host/tests/test_arm64_model: $(ARM64_MODEL_TEST) $(ARM64_MODEL_OBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -lcmocka -pthread

# The aarch64 mutants (core/mutant.h 95, 96, 180-182, 188, 189): core/exp/arm64/tlbi_flush.c
# names 95, 96, 188 and 189, asm/tlbi.h's inline operand encoders the others, so the model build's users of
# asm/tlbi.h's inline code (tlbi_flush.c, the harness) are rebuilt per mutant; the test itself
# is not (its operands are the intended ones); test_arm64_model kills each
# (tests/sim/mutants.sh).
ARM_MUTANTS := arm_dsb_missing arm_local_not_broadcast arm_range_num_off_by_one arm_asid_bit32 \
               arm_vae1_not_is arm_flush_all_dsb_missing arm_asid_flush_wrong_asid
ARM_MUTANT_SRCS := core/exp/arm64/tlbi_flush.c sim/arm64/harness.c
define arm_mutant_rules
$(BUILD)/mutants/$(1)/arm64/%.o: %.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  MUTCC $(1) $$<")
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/mutants/$(1)/test_arm64_model: $(ARM64_MODEL_TEST) \
        $(patsubst %.c,$(BUILD)/mutants/$(1)/arm64/%.o,$(ARM_MUTANT_SRCS)) \
        $(filter-out $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(ARM_MUTANT_SRCS)),$(ARM64_MODEL_OBJS))
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) $$^ -o $$@ -lcmocka -pthread
endef
$(foreach m,$(ARM_MUTANTS),$(eval $(call arm_mutant_rules,$(m))))

.PHONY: arm64-model
arm64-model: $(BUILD)/host/tests/test_arm64_model
unit-tests: $(BUILD)/host/tests/test_arm64_model
mutants: $(foreach m,$(ARM_MUTANTS),$(BUILD)/mutants/$(m)/test_arm64_model)
