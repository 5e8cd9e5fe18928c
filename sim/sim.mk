# tlbscope-sim: the tool on the strict TLB model (sim/). Its library is part of
# the host library (tests/tests.mk: SIM_LIB_SRCS); main.c is the CLI.
SIM_MAIN := sim/main.c

.PHONY: sim
sim: $(BUILD)/tlbscope-sim

$(BUILD)/tlbscope-sim: $(SIM_MAIN) $(BUILD)/host/libtlbscope.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -O2 $(SIM_MAIN) $(BUILD)/host/libtlbscope.a -o $@ -pthread

# ---- test-only mutants (core/mutant.h), killed by tests/sim/mutants.sh ----
# Only the files that use MUTANT() are rebuilt per mutant; the rest of the
# host library is shared. Each mutant gets its own tlbscope-sim and its own
# builds of the protocol tests on the model (MUTANT_TESTS).
MUTANTS := swap_order no_user_flush invlpgb_truncate skip_tlbsync target_skips_invlpg \
           full_flush_noop ack_before_flush verify_first_page_only lazy_ipi_anyway \
           grid_truncated invlpgb_as_ipi xen_no_catchup blind_aps emulate_2m_as_4k \
           verify_inside_window unequal_class_pool crossover_off_by_one evidence_nowhere \
           plan_ignores_budget shared_request_slot conditions_unrecorded contention_unboxed \
           cpus_from_any_win remap_after_flush freed_tables_skips_lazy verify_2m_first_word \
           pcid_kept_on_affected la57_four_levels icr_fence_missing lapic_lowest_first \
           x2apic_to_xapic_direct leave_keeps_tool_idt emulator_unrecorded \
           order_ignores_flush invlpgb_verdict_first_page percentile_from_few \
           bootstrap_unpaired order_fixed \
           contention_verify_in_window contention_check_in_invlpgb_window profiles_unplanned \
           plan_thin_stride_only invlpgb_chunked_main pti_ws_untouched ws_frames_contiguous \
           refill_before_ack late_ping_charged smi_bsp_only clock_mean_of_ratios \
           breakdown_keeps_handler residency_demoted_as_reached settle_fixed sibling_left_idle \
           residency_unmodelled lazy_cpus_spin \
           plan_drops_linux_flush fc_initiator_no_refill fc_warmup_unfloored fc_refine_off \
           verdict_inconclusive_as_na verdict_error_complete verdict_line_drops_na \
           tramp_far_jump_off tramp_cr3_truncated madt_takes_disabled \
           reopen_checked_in init_sipi_back_to_shell \
           l3_class_ignored node_class_ignored placement_ignored linux_apic_ignores_fadt \
           cluster_ipis_physical probe_outside_tool \
           emulate_ignores_pcid tce_bsp_only tce_not_restored \
           lfence_bsp_only pti_2m_user_invpcid_skipped invlpgb_2m_user_pass_skipped \
           pge_toggle_removed flush_local_noflush target_lost_first_only bystander_without_loop \
           lazy_hlt_over_mwait class_mix_lazy_awake_only \
           lazy_switch_no_barrier xen_switch_no_barrier hang_waited_again \
           base_always_first no_param_defaults show_tsc_else role_rows_doubled
# the last four are tlbscope-report's (reports/tool/tool.mk TOOL_MUTANTS): a tool binary each
SIM_MUTANTS := $(filter-out $(TOOL_MUTANTS),$(MUTANTS))
# the fleet database's mutants: they change only reports/tool/fleet/, so each builds one
# tlbscope-report (reports/tool/tool.mk) and tests/checks/fleetdb.sh kills it
FLEET_MUTANTS := fleet_points_dropped fleet_key_from_bytes fleet_invalid_accepted \
                 fleet_simulated_as_hardware fleet_atlas_pools_environments \
                 fleet_query_writes fleet_query_creates fleet_second_statement \
                 fleet_point_shifted fleet_run_id_unstored fleet_progress_in_pipes
MUTANT_SRCS := $(shell grep -l 'include "core/mutant.h"' core/*/*.c arch/x86/*.c sim/*.c)
# the protocol tests on the model (and the unit test of the class pooling), built per mutant
MUTANT_TESTS := test_shootdown_model test_lazy_model test_class_pool test_contention_model

# Per mutant, only the files that name it (MUTANT(name)) are compiled with its switch: in
# every other file MUTANT() of any name is 0 under that switch too, so the shared objects
# are the same code. (Compiling every file that includes core/mutant.h for each of some
# 70 mutants took most of CI's build time.)
# A mutant in an arch/x86/include/asm/ header lists the .c files that use what it changes
# in MUT_EXTRA_SRCS_<name> (the grep sees only .c files).
MUT_EXTRA_SRCS_flush_local_noflush := $(shell grep -l 'flush_local_all' $(MUTANT_SRCS))
define mutant_rules
MUT_SRCS_$(1) := $$(sort $$(shell grep -l 'MUTANT($(1))' $$(MUTANT_SRCS)) $$(MUT_EXTRA_SRCS_$(1)))
MUT_OBJS_$(1) := $$(patsubst %.c,$$(BUILD)/mutants/$(1)/%.o,$$(MUT_SRCS_$(1)))
MUT_SHARED_$(1) := $$(filter-out $$(patsubst %.c,$$(BUILD)/host/lib/%.o,$$(MUT_SRCS_$(1))),$$(HOST_LIB_OBJS))
$(BUILD)/mutants/$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  MUTCC $(1) $$<")
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/mutants/$(1)/tlbscope-sim: $(SIM_MAIN) $$(MUT_OBJS_$(1)) $$(MUT_SHARED_$(1))
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) $$^ -o $$@ -pthread

$(BUILD)/mutants/$(1)/test_%: $(TEST_OBJ)/test_%.o $(SUPPORT_OBJS) $$(MUT_OBJS_$(1)) $$(MUT_SHARED_$(1))
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) $$^ -o $$@ -lcmocka -ljansson -pthread
endef
$(foreach m,$(SIM_MUTANTS),$(eval $(call mutant_rules,$(m))))
# Issue 31's mutants (a point's own interval, the kept samples) are killed by their unit
# tests alone: only those are built for them, no tlbscope-sim or protocol test (about 13 s of
# CI's build saved); tests/sim/mutants.sh counts them with the others.
RECORD_MUTANTS := median_boot_biased p50_ci_of_p90 samples_kept_sorted
$(foreach m,$(RECORD_MUTANTS),$(eval $(call mutant_rules,$(m))))
# issue 32's mutants that a unit test alone catches: only that test is built for them (the
# list under `mutants:`), not tlbscope-sim and the protocol tests (tests/sim/mutants.sh)
PLAN_MUTANTS := plan_pace_floor_only plan_one_column crossover_span_confidence rec_ceiling_point invlpgb_asid_invalid pte_store_unordered \
                rec_cpus_from_spread
$(foreach m,$(PLAN_MUTANTS),$(eval $(call mutant_rules,$(m))))
# issue 32 part C's (numbers that add up) mutants a unit test alone kills: NUM_MUTANT_TEST_<name>
# is that test, the only one built for it (tests/sim/mutants.sh)
NUM_MUTANTS := breakdown_slowest_handler residency_any_growth_reached residency_beyond_elapsed \
               contention_unsettled contention_window_as_before cluster_only_seq_conc \
               spread_by_numbering class_mix_wrong_cpu snc_class_folded platform_uid_ignored
NUM_MUTANT_TEST_breakdown_slowest_handler := test_shootdown_model
NUM_MUTANT_TEST_residency_any_growth_reached := test_residency
NUM_MUTANT_TEST_residency_beyond_elapsed := test_residency
NUM_MUTANT_TEST_contention_unsettled := test_contention_model
NUM_MUTANT_TEST_contention_window_as_before := test_contention_plan
NUM_MUTANT_TEST_cluster_only_seq_conc := test_linux_apic
NUM_MUTANT_TEST_spread_by_numbering := test_placement
NUM_MUTANT_TEST_platform_uid_ignored := test_platform_kind
NUM_MUTANT_TEST_class_mix_wrong_cpu := test_placement
NUM_MUTANT_TEST_snc_class_folded := test_numa_classes
$(foreach m,$(NUM_MUTANTS),$(eval $(call mutant_rules,$(m))))
$(foreach m,$(FLEET_MUTANTS),$(eval $(call fleet_mutant_rules,$(m))))
.PHONY: fleet-mutants
fleet-mutants: $(foreach m,$(FLEET_MUTANTS),$(BUILD)/mutants/$(m)/tlbscope-report)

# Issue 24's mutants (upload policy, network redaction) are killed by test_upload alone
# and live in two files (upload.c, report_redact.c): only those are rebuilt per mutant, and no tlbscope-sim or
# protocol test is built for them (tests/sim/mutants.sh counts them with the others).
NET_MUTANTS := upload_retry_client_errors upload_backoff_flat upload_past_deadline upload_name_per_attempt network_unredacted
NET_MUTANT_SRCS := core/run/upload.c core/report/report_redact.c
define net_mutant_rules
$(BUILD)/mutants/$(1)/core/%.o: core/%.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  MUTCC $(1) $$<")
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/mutants/$(1)/test_upload: $(TEST_OBJ)/test_upload.o $(SUPPORT_OBJS) $(patsubst %.c,$(BUILD)/mutants/$(1)/%.o,$(NET_MUTANT_SRCS)) $(filter-out $(patsubst %.c,$(BUILD)/host/lib/%.o,$(NET_MUTANT_SRCS)),$(HOST_LIB_OBJS))
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) $$^ -o $$@ -lcmocka -ljansson -pthread
endef
$(foreach m,$(NET_MUTANTS),$(eval $(call net_mutant_rules,$(m))))

# Issue 35's mutants (ids 190-209: hostile input, the upload window, the stick's files):
# each is killed by one unit test, SEC_MUTANT_TEST_<name>, linked with the one file it
# changes, SEC_MUTANT_SRC_<name>, rebuilt for it (tests/sim/mutants.sh counts them with
# the others).
SEC_MUTANTS := http_length_lenient secret_line_echoed secret_key_kept pin_mismatch_used \
               free_text_unredacted report_written_in_place conflict_taken_as_done
SEC_MUTANT_TEST_http_length_lenient := test_http_length
SEC_MUTANT_SRC_http_length_lenient := core/lib/http_length.c
SEC_MUTANT_TEST_secret_line_echoed := test_config_secret
SEC_MUTANT_SRC_secret_line_echoed := core/run/config_secret.c
SEC_MUTANT_TEST_secret_key_kept := test_config_secret
SEC_MUTANT_SRC_secret_key_kept := core/run/config.c
SEC_MUTANT_TEST_pin_mismatch_used := test_config_pin
SEC_MUTANT_SRC_pin_mismatch_used := core/run/config_pin.c
SEC_MUTANT_TEST_free_text_unredacted := test_redact_text
SEC_MUTANT_SRC_free_text_unredacted := core/report/report_redact.c
SEC_MUTANT_TEST_report_written_in_place := test_stick_files
SEC_MUTANT_SRC_report_written_in_place := core/run/report_files.c
SEC_MUTANT_TEST_conflict_taken_as_done := test_upload
SEC_MUTANT_SRC_conflict_taken_as_done := core/run/upload.c
define sec_mutant_rules
$(BUILD)/mutants/$(1)/sec/%.o: %.c
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  MUTCC $(1) $$<")
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) -DTLBSCOPE_MUTANT=MUTANT_ID_$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/mutants/$(1)/$(SEC_MUTANT_TEST_$(1)): $(TEST_OBJ)/$(SEC_MUTANT_TEST_$(1)).o $(SUPPORT_OBJS) $(patsubst %.c,$(BUILD)/mutants/$(1)/sec/%.o,$(SEC_MUTANT_SRC_$(1))) $(filter-out $(patsubst %.c,$(BUILD)/host/lib/%.o,$(SEC_MUTANT_SRC_$(1))),$(HOST_LIB_OBJS))
	$$(Q)$$(HOST_CC) $$(HOST_CFLAGS) $$^ -o $$@ -lcmocka -ljansson -pthread
endef
$(foreach m,$(SEC_MUTANTS),$(eval $(call sec_mutant_rules,$(m))))
# Issue 35's mutants of tlbscope-report (197-199): a tool binary each, from the files that
# name it (reports/tool/tool.mk: fleet_mutant_rules for reports/tool/fleet/, tool_mutant_rules
# for the tool library), killed in tests/sim/mutants.sh (kill_tool) by the checks of
# tests/checks/markup_sweep.sh (the atlas over a hostile database) and tests/checks/tool_cli.sh
# (CSV formulas, HTML in Markdown).
SEC_TOOL_MUTANTS := atlas_unit_unescaped csv_formula_kept markdown_html_kept
$(eval $(call fleet_mutant_rules,atlas_unit_unescaped))
$(foreach m,csv_formula_kept markdown_html_kept,$(eval $(call tool_mutant_rules,$(m))))

.PHONY: mutants
mutants: tool-mutants fleet-mutants $(foreach m,$(SEC_TOOL_MUTANTS),$(BUILD)/mutants/$(m)/tlbscope-report) $(foreach m,$(SIM_MUTANTS),$(BUILD)/mutants/$(m)/tlbscope-sim $(foreach t,$(MUTANT_TESTS),$(BUILD)/mutants/$(m)/$(t))) \
         $(BUILD)/mutants/plan_ignores_budget/test_plan $(BUILD)/mutants/cpus_from_any_win/test_crossover \
         $(foreach m,icr_fence_missing lapic_lowest_first x2apic_to_xapic_direct leave_keeps_tool_idt,\
                   $(BUILD)/mutants/$(m)/test_apic_model) \
         $(BUILD)/mutants/emulator_unrecorded/test_emulator \
         $(BUILD)/mutants/order_ignores_flush/test_crossover \
         $(BUILD)/mutants/invlpgb_verdict_first_page/test_crossover \
         $(BUILD)/mutants/bootstrap_unpaired/test_bootstrap \
         $(BUILD)/mutants/median_boot_biased/test_median_interval \
         $(foreach m,p50_ci_of_p90 samples_kept_sorted,$(BUILD)/mutants/$(m)/test_record_samples) \
         $(BUILD)/mutants/profiles_unplanned/test_plan \
         $(BUILD)/mutants/plan_thin_stride_only/test_plan \
         $(BUILD)/mutants/plan_one_column/test_plan $(BUILD)/mutants/plan_pace_floor_only/test_plan \
         $(BUILD)/mutants/crossover_span_confidence/test_ceiling \
         $(BUILD)/mutants/rec_ceiling_point/test_ceiling \
         $(BUILD)/mutants/invlpgb_asid_invalid/test_invlpgb \
         $(BUILD)/mutants/pte_store_unordered/test_apic_model \
         $(BUILD)/mutants/rec_cpus_from_spread/test_crossover \
         $(foreach m,$(NUM_MUTANTS),$(BUILD)/mutants/$(m)/$(NUM_MUTANT_TEST_$(m))) \
         $(BUILD)/mutants/late_ping_charged/test_target_lost \
         $(BUILD)/mutants/smi_bsp_only/test_conditions $(BUILD)/mutants/clock_mean_of_ratios/test_conditions \
         $(foreach m,verdict_inconclusive_as_na verdict_error_complete verdict_line_drops_na,\
                   $(BUILD)/mutants/$(m)/test_verdict) \
         $(BUILD)/mutants/tramp_far_jump_off/test_trampoline $(BUILD)/mutants/tramp_cr3_truncated/test_trampoline \
         $(BUILD)/mutants/madt_takes_disabled/test_own_bringup \
         $(BUILD)/mutants/reopen_checked_in/test_own_bringup $(BUILD)/mutants/init_sipi_back_to_shell/test_own_bringup \
         $(foreach m,$(NET_MUTANTS),$(BUILD)/mutants/$(m)/test_upload) \
         $(foreach m,$(SEC_MUTANTS),$(BUILD)/mutants/$(m)/$(SEC_MUTANT_TEST_$(m))) \
         $(foreach m,l3_class_ignored node_class_ignored placement_ignored,\
                   $(BUILD)/mutants/$(m)/test_placement) \
         $(BUILD)/mutants/linux_apic_ignores_fadt/test_linux_apic \
         $(BUILD)/mutants/cluster_ipis_physical/test_apic_model \
         $(BUILD)/mutants/residency_demoted_as_reached/test_residency \
         $(BUILD)/mutants/settle_fixed/test_residency \

# ---- tlbscope-sim under AddressSanitizer: memory errors of core/ on the model ----
# (a use after free on the host is silent: freed memory is often reused
# harmlessly; ASan makes the defect tests see it.)
ASAN_LIB_OBJS := $(patsubst $(BUILD)/host/lib/%,$(BUILD)/host/asan/%,$(HOST_LIB_OBJS))

$(BUILD)/host/asan/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  ASANCC $<")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fsanitize=address -fno-omit-frame-pointer -MMD -MP -c $< -o $@

$(BUILD)/host/asan/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -c $< -o $@

$(BUILD)/asan/tlbscope-sim: $(SIM_MAIN) $(ASAN_LIB_OBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fsanitize=address -fno-omit-frame-pointer $^ -o $@ -pthread

.PHONY: sim-asan
sim-asan: $(BUILD)/asan/tlbscope-sim

# The commit id is compiled into the report writer and the banner: rebuild them when it changes.
$(foreach v,lib tsan asan,$(BUILD)/host/$(v)/core/report/report_json.o $(BUILD)/host/$(v)/core/report/report_doc.o $(BUILD)/host/$(v)/core/report/summary_text.o \
	$(BUILD)/host/$(v)/sim/session.o): $(BUILD)/commit.stamp

# the aarch64 strict model, its test and its mutants
include sim/arm64/arm64.mk
