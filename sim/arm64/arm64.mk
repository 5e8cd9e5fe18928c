# The aarch64 strict model (sim/arm64/) and its test (issue 27). Its objects are compiled
# against arm64's architecture interface (arch/arm64/include, TLBSCOPE_HOST: the model
# implements asm/tlbi.h and asm/barrier.h), never x86's, so they stay out of the x86 host
# library (libtlbscope.a) and get their own rules here.
ARM64_HOST_CFLAGS := -std=c11 -O1 -g $(WARN) $(DEFS) -I. -Iarch/arm64/include -DTLBSCOPE_HOST \
                     -D_DEFAULT_SOURCE -pthread
# the real protocols the app runs, and the model they run on
ARM64_MODEL_SRCS := sim/arm64/tlbi_model.c sim/arm64/tlbi_model_effect.c sim/arm64/tlbi_model_tlb.c \
                    sim/arm64/tlbi_model_walk.c sim/arm64/tlbi_model_bbm.c sim/arm64/tlbi_model_s2.c sim/arm64/tlbi_model_errors.c \
                    sim/arm64/host_tlbi.c sim/arm64/harness.c core/exp/arm64/tlbi_flush.c \
                    core/exp/arm64/linux_tlbi.c \
                    arch/arm64/cpu.c sim/arm64/profiles.c
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
# the model's stage-2 rules (sim/arm64/tlbi_model_s2.c), on the same objects
$(BUILD)/host/tests/test_arm64_stage2: tests/host/test_arm64_stage2.c $(ARM64_MODEL_OBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -lcmocka -pthread

# The aarch64 mutants (core/mutant.h 95, 96, 134, 135, 180-182, 188, 189, 201, 202): core/exp/arm64/tlbi_flush.c
# names 95, 96, 188, 189 and 201, core/exp/arm64/linux_tlbi.c 134 and 135, arch/arm64/cpu.c 202 (the E0PD field), asm/tlbi.h's inline
# operand encoders the others, so the model build's users of
# asm/tlbi.h's inline code (tlbi_flush.c, the harness) are rebuilt per mutant; the test itself
# is not (its operands are the intended ones); test_arm64_model kills each
# (tests/sim/mutants.sh).
ARM_MUTANTS := arm_dsb_missing arm_local_not_broadcast arm_range_num_off_by_one arm_asid_bit32 \
               arm_vae1_not_is arm_flush_all_dsb_missing arm_asid_flush_wrong_asid \
               arm_user_tlbi_kernel_asid arm_e0pd_wrong_field arm_repeat_tlbi_skipped arm_linux_ttl_wrong_level
ARM_MUTANT_SRCS := core/exp/arm64/tlbi_flush.c sim/arm64/harness.c arch/arm64/cpu.c core/exp/arm64/linux_tlbi.c
define arm_mutant_obj_rule
$(BUILD)/mutants/$(1)/arm64/%.o: %.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  MUTCC $(1) $$<")
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@
endef
define arm_mutant_rules
$(call arm_mutant_obj_rule,$(1))

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

# The aarch64 topology classes and ipi_roundtrip's pairs (core/run/topo_arm64.c, only in the
# aarch64 builds: its own rule, as test_arm64_model's), and its mutants (core/mutant.h 204,
# 206), killed by this test (tests/sim/mutants.sh)
TOPO_A64_SRCS := core/run/topo_arm64.c
TOPO_A64_MUTANTS := a64_mpidr_mt_ignored a64_pairs_sampled_in_order a64_srat_nodes_ignored

# The aarch64 verifier's reading of a read (core/exp/arm64/a64_verify.c: stale, fault, or
# neither frame), and its mutant (core/mutant.h 128), killed by this test (tests/sim/mutants.sh)
A64_VERIFY_SRCS := core/exp/arm64/a64_verify.c
A64_VERIFY_MUTANTS := a64_conflict_as_stale

# Both are host tests of aarch64-only code with their own rules, as test_arm64_model's:
# tests/host/NAME.c over its sources built with arm64's flags, and one build per mutant
# ($(1) the mutant, $(2) the test, $(3) its sources)
$(BUILD)/host/tests/test_topo_arm64: $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(TOPO_A64_SRCS))
$(BUILD)/host/tests/test_a64_verify: $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(A64_VERIFY_SRCS))
$(BUILD)/host/tests/test_topo_arm64 $(BUILD)/host/tests/test_a64_verify: $(BUILD)/host/tests/%: tests/host/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -lcmocka
define a64_unit_mutant_rules
$(call arm_mutant_obj_rule,$(1))
$(BUILD)/mutants/$(1)/$(2): tests/host/$(2).c $(patsubst %.c,$(BUILD)/mutants/$(1)/arm64/%.o,$(3))
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) $$^ -o $$@ -lcmocka
endef
$(foreach m,$(TOPO_A64_MUTANTS),$(eval $(call a64_unit_mutant_rules,$(m),test_topo_arm64,$(TOPO_A64_SRCS))))
$(foreach m,$(A64_VERIFY_MUTANTS),$(eval $(call a64_unit_mutant_rules,$(m),test_a64_verify,$(A64_VERIFY_SRCS))))
unit-tests: $(BUILD)/host/tests/test_topo_arm64 $(BUILD)/host/tests/test_a64_verify
mutants: $(foreach m,$(TOPO_A64_MUTANTS),$(BUILD)/mutants/$(m)/test_topo_arm64) \
         $(foreach m,$(A64_VERIFY_MUTANTS),$(BUILD)/mutants/$(m)/test_a64_verify)

# The check before the first CPU_ON (arch/arm64/psci_fn.c) against PSCI firmwares that lack
# what the bring-up needs, over a fake psci_call; mutant 118 psci_features_unchecked, whose
# object rule A64SIM_MUTANTS below defines, fails it (tests/sim/mutants.sh)
PSCI_A64_TEST := tests/host/test_psci_arm64.c
PSCI_A64_SRCS := arch/arm64/psci_fn.c core/lib/strbuf.c core/lib/mem.c
$(BUILD)/host/tests/test_psci_arm64: $(PSCI_A64_TEST) $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(PSCI_A64_SRCS))
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -lcmocka
$(BUILD)/mutants/psci_features_unchecked/test_psci_arm64: $(PSCI_A64_TEST) \
        $(BUILD)/mutants/psci_features_unchecked/arm64/arch/arm64/psci_fn.o \
        $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(filter-out arch/arm64/psci_fn.c,$(PSCI_A64_SRCS)))
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -lcmocka
unit-tests: $(BUILD)/host/tests/test_psci_arm64
mutants: $(BUILD)/mutants/psci_features_unchecked/test_psci_arm64

# A CPU's GICv3 redistributor over every GICR range (arch/arm64/gic_redist.c, only in the
# aarch64 builds: its own rule, as test_topo_arm64's), and its mutant (core/mutant.h 137),
# killed by this test (tests/sim/mutants.sh)
GICR_TEST := tests/host/test_gic_redist.c
GICR_SRCS := arch/arm64/gic_redist.c
GICR_MUTANTS := a64_gicr_first_range_only
$(BUILD)/host/tests/test_gic_redist: $(GICR_TEST) $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(GICR_SRCS))
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -lcmocka
define gicr_mutant_rules
$(call arm_mutant_obj_rule,$(1))
$(BUILD)/mutants/$(1)/test_gic_redist: $(GICR_TEST) $(patsubst %.c,$(BUILD)/mutants/$(1)/arm64/%.o,$(GICR_SRCS))
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) $$^ -o $$@ -lcmocka
endef
$(foreach m,$(GICR_MUTANTS),$(eval $(call gicr_mutant_rules,$(m))))
unit-tests: $(BUILD)/host/tests/test_gic_redist
mutants: $(foreach m,$(GICR_MUTANTS),$(BUILD)/mutants/$(m)/test_gic_redist)

# the per-CPU slots from the MADT (core/run/bringup_arm64.c) on the shapes the model run does
# not reach: a MADT past the build's limit, a BSP it does not list, disabled GICCs
BRINGUP_A64_SRCS := core/run/bringup_arm64.c core/lib/mem.c core/lib/strbuf.c
$(BUILD)/host/tests/test_bringup_arm64: tests/host/test_bringup_arm64.c $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(BRINGUP_A64_SRCS))
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST  $@")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -lcmocka
unit-tests: $(BUILD)/host/tests/test_bringup_arm64

# Host tests of aarch64 headers alone (no sources to link): tests/host/$(1).c, and a build of
# it with the mutant $(2), which it must fail (tests/sim/mutants.sh). The secondaries' TCR
# (asm/secondary_tcr.h: EPD1 set where their regime has a TTBR1; 208) and tlbi_concurrent's
# plan (core/exp/arm64/concurrent_plan.h: every point within the test region; 213).
define a64_header_test_rules
$(BUILD)/host/tests/$(1): tests/host/$(1).c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  TEST  $$@")
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) -MMD -MP $$< -o $$@ -lcmocka
$(BUILD)/mutants/$(2)/$(1): tests/host/$(1).c
	@mkdir -p $$(dir $$@)
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(2) -MMD -MP $$< -o $$@ -lcmocka
unit-tests: $(BUILD)/host/tests/$(1)
mutants: $(BUILD)/mutants/$(2)/$(1)
endef
$(eval $(call a64_header_test_rules,test_secondary_tcr_arm64,a64_secondary_ttbr1_walks))
$(eval $(call a64_header_test_rules,test_concurrent_plan_arm64,a64_concurrent_pages_unbounded))

# tlbscope-sim --arch aarch64 (sim/arm64/app.c): the aarch64 app's experiments, configuration
# and report writer compiled for the host against arch/arm64/include (TLBSCOPE_HOST), on the
# model and the host halves of asm/ (host_arch.c: smp, timer, paging; host_gic.c: SGIs, WFI),
# with the app's own IRQ handler (arch/arm64/irq.c). A binary of its own: its core/ objects
# are built for arm64's interface, never linked with x86's library. build/tlbscope-sim
# --arch aarch64 runs it (sim/main.c).
include arch/arm64/core_srcs.mk
A64SIM_SRCS := sim/arm64/tlbi_model.c sim/arm64/tlbi_model_effect.c sim/arm64/tlbi_model_tlb.c \
               sim/arm64/tlbi_model_walk.c sim/arm64/tlbi_model_bbm.c sim/arm64/tlbi_model_s2.c sim/arm64/tlbi_model_errors.c \
               sim/arm64/host_tlbi.c sim/arm64/host_cpu.c \
               sim/arm64/host_arch.c \
               sim/arm64/host_gic.c sim/arm64/host_psci.c sim/arm64/profiles.c sim/arm64/app.c \
               arch/arm64/irq.c arch/arm64/cpu.c arch/arm64/mailbox.c arch/arm64/gic_sgi.c arch/arm64/psci_fn.c \
               arch/arm64/cpu_off.c $(A64_CORE_SRCS)
A64SIM_OBJS := $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(A64SIM_SRCS))
A64SIM := $(BUILD)/tlbscope-sim-a64

# the version and commit go into the report
$(BUILD)/host/arm64/core/report/report_arm64.o $(BUILD)/host/arm64/core/report/report_doc.o: $(BUILD)/commit.stamp

$(A64SIM): $(A64SIM_OBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(HOST_CC) $(ARM64_HOST_CFLAGS) $^ -o $@ -pthread -lm

sim: $(A64SIM)

# its mutants (core/mutant.h 165, 166), the IRQ handler's (186, 187, which
# tests/qemu/aarch64.sh kills under QEMU too), pti_double_invalidation's verifier's (203) and
# ipi_roundtrip's pairs' (205), the summary's table (207), the tool's SGIs' (112, 113), the
# hand-back's CPU_OFF (117), the PSCI check before CPU_ON (118), the experiments' order of
# stores and TLBIs and their ASIDs (114-116), break-before-make's (126, 127, 210: the model's
# error) and the BSP-late slots (136), killed by tests/sim/arm64_app.sh: profiles.c,
# host_gic.c, arch/arm64/irq.c, core/exp/arm64/kpti.c, a64_exp.c, tlbi_broadcast.c,
# core/run/topo_arm64.c, core/report/summary_text.c, arch/arm64/gic_sgi.c, cpu_off.c,
# psci_fn.c and core/run/bringup_arm64.c rebuilt per mutant, the rest shared (but for
# A64SIM_WHOLE_MUTANTS)
A64SIM_MUTANTS := a64sim_profile_tlb_ignored a64sim_wfi_skips_handler arm_irq_ping_wrong_id arm_irq_no_eoi \
                  a64_kpti_user_unverified a64_pairs_bsp_only table_skips_skip_rows arm_sgi_ping_secure \
                  arm_sgi_readback_ignored a64_cpu_off_skipped psci_features_unchecked \
                  a64_remap_no_dsb_ishst a64_tlbi_before_store a64_kpti_asid_zero \
                  a64_remap_without_break a64_ng_flip_without_break a64_bsp_late_slot \
                  a64_make_before_tlbi
# SGI_PING back at 9 (112, asm/gic.h): every user of the macro, so every source rebuilt
A64SIM_WHOLE_MUTANTS := arm_sgi_ping_secure
A64SIM_MUTANT_SRCS := sim/arm64/profiles.c sim/arm64/host_gic.c arch/arm64/irq.c core/exp/arm64/kpti.c \
                      core/exp/arm64/a64_exp.c core/exp/arm64/tlbi_broadcast.c \
                      core/run/topo_arm64.c core/report/summary_text.c arch/arm64/gic_sgi.c arch/arm64/cpu_off.c \
                      arch/arm64/psci_fn.c core/run/bringup_arm64.c
# cpu.features' BBM field (129, arch/arm64/cpu.c) and the repetitions per sample (133,
# core/exp/arm64/a64_reps.c), killed by tests/sim/arm64_app.sh as well
A64SIM_MUTANTS += arm_bbm_wrong_field a64_reps_not_divided
# the range selector for Aff0 above 15 (139, 148: arch/arm64/gic_sgi.c gic_rss_check) and the IPI
# experiments' targets (149: core/exp/arm64/a64_exp.c), killed by tests/sim/arm64_app.sh's
# --aff0-cores 32 runs
A64SIM_MUTANTS += a64_rss_unchecked a64_rss_icc_ignored a64_sgi_unreachable_targeted
A64SIM_MUTANT_SRCS += arch/arm64/cpu.c core/exp/arm64/a64_reps.c
# R per sample in flush_ceiling (119) and the Linux methods of tlbi_broadcast_vs_ipi (138):
# one flush timed, still divided by R (tests/sim/arm64_app.sh counts the model's TLBIs)
A64SIM_MUTANTS += fc_reps_one_timed a64_linux_reps_one_timed
A64SIM_MUTANT_SRCS += core/exp/arm64/flush_ceiling.c
# tlbi_broadcast_vs_ipi's stage2_kvm at EL2 (107-109, core/exp/arm64/stage2_tlbi.c and its
# asm/stage2.h), killed by tests/sim/arm64_app.sh's EL2 run: the model refuses the sequence
A64SIM_MUTANTS += a64_s2_no_dsb_before_vmall a64_s2_vmall_dropped a64_s2_vmid_unloaded
A64SIM_MUTANT_SRCS += core/exp/arm64/stage2_tlbi.c
define a64sim_mutant_rules
$(BUILD)/mutants/$(1)/tlbscope-sim-a64: \
        $(patsubst %.c,$(BUILD)/mutants/$(1)/arm64/%.o,$(A64SIM_MUTANT_SRCS)) \
        $(filter-out $(patsubst %.c,$(BUILD)/host/arm64/%.o,$(A64SIM_MUTANT_SRCS)),$(A64SIM_OBJS))
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) $$^ -o $$@ -pthread -lm
endef
$(foreach m,$(filter-out $(A64SIM_WHOLE_MUTANTS),$(A64SIM_MUTANTS)),$(eval $(call a64sim_mutant_rules,$(m))))
$(foreach m,$(A64SIM_MUTANTS),$(if $(filter $(m),$(ARM_MUTANTS)),,$(eval $(call arm_mutant_obj_rule,$(m)))))
mutants: $(foreach m,$(A64SIM_MUTANTS),$(BUILD)/mutants/$(m)/tlbscope-sim-a64)
define a64sim_whole_mutant_rules
$(BUILD)/mutants/$(1)/tlbscope-sim-a64: $(patsubst %.c,$(BUILD)/mutants/$(1)/arm64/%.o,$(A64SIM_SRCS))
	$$(Q)$$(HOST_CC) $$(ARM64_HOST_CFLAGS) $$^ -o $$@ -pthread -lm
endef
$(foreach m,$(A64SIM_WHOLE_MUTANTS),$(eval $(call a64sim_whole_mutant_rules,$(m))))
