/*
 * Test-only mutants: deliberate defects that the model tests must catch
 * (tests/sim/mutants.sh: the stale reads of the strict model, the protocol
 * tests, and the exact report shape of tests/qemu/shape.jq, which the QEMU
 * tests apply to every boot). Each is compiled in only when the build defines
 * TLBSCOPE_MUTANT to its number (sim/sim.mk builds one tlbscope-sim and one
 * protocol test per mutant under build/mutants/NAME/); in every other build
 * MUTANT(x) is the constant 0 and the compiler drops the branch.
 */
#ifndef TLBSCOPE_CORE_MUTANT_H
#define TLBSCOPE_CORE_MUTANT_H

#define MUTANT_ID_swap_order 1          /* seq and conc do each other's order */
#define MUTANT_ID_no_user_flush 2       /* PTI: the user-PCID invalidation is dropped */
#define MUTANT_ID_invlpgb_truncate 3    /* the last INVLPGB of a range is not issued */
#define MUTANT_ID_skip_tlbsync 4        /* INVLPGBs are not waited for */
#define MUTANT_ID_target_skips_invlpg 5 /* CPU 1, as a target, does not INVLPG */
#define MUTANT_ID_full_flush_noop 6     /* a full flush flushes nothing */
#define MUTANT_ID_ack_before_flush 7    /* a target acknowledges, then flushes */
#define MUTANT_ID_verify_first_page_only 8 /* a flushed target verifies only the first page */
#define MUTANT_ID_lazy_ipi_anyway 9     /* skip_lazy interrupts lazy CPUs too (never skipped) */
#define MUTANT_ID_grid_truncated 10     /* seq/conc and lazy measure only their first count */
#define MUTANT_ID_invlpgb_as_ipi 11     /* invlpgb points take the IPI path */
#define MUTANT_ID_xen_no_catchup 12     /* Xen: a descheduled vCPU never does its pending flush */
#define MUTANT_ID_blind_aps 13          /* the verifier never sees a stale read on an AP */
#define MUTANT_ID_emulate_2m_as_4k 14   /* emulated INVLPGB: 2 MiB ranges flushed at 4 KiB stride */
#define MUTANT_ID_verify_inside_window 15 /* targets verify right after acking, inside the timed window */
#define MUTANT_ID_unequal_class_pool 16 /* ipi_roundtrip: class pools fill from the first pairs */
#define MUTANT_ID_crossover_off_by_one 17 /* flush_ceiling: p* is the count before the crossing */
#define MUTANT_ID_evidence_nowhere 18   /* a recommendation cites a point past the last one */
#define MUTANT_ID_plan_ignores_budget 19 /* the planner keeps every sample whatever the share */
#define MUTANT_ID_shared_request_slot 20 /* concurrent initiators share one request slot per target */
#define MUTANT_ID_conditions_unrecorded 21 /* an experiment's conditions are not recorded */
#define MUTANT_ID_contention_unboxed 22 /* shootdown_contention ignores its time box */
#define MUTANT_ID_cpus_from_any_win 23 /* invlpgb_vs_ipi: the smallest CPU count that won once */
#define MUTANT_ID_remap_after_flush 24 /* the initiator remaps after its own flush (seq order,
                                        * flush_ceiling's local full flushes) */
#define MUTANT_ID_freed_tables_skips_lazy 25 /* freed_tables: lazy CPUs skipped all the same */
#define MUTANT_ID_verify_2m_first_word 26 /* a 2 MiB page verified by its first word only */
#define MUTANT_ID_pcid_kept_on_affected 30 /* PCID on despite the INVLPG/global erratum's microcode */
#define MUTANT_ID_la57_four_levels 31  /* 4-level tables while the firmware runs with CR4.LA57 */
#define MUTANT_ID_icr_fence_missing 32 /* no MFENCE;LFENCE before an x2APIC ICR write */
#define MUTANT_ID_lapic_lowest_first 33 /* sim: the modelled APIC delivers its lowest pending vector first */
#define MUTANT_ID_x2apic_to_xapic_direct 34 /* x2APIC -> xAPIC without passing through disabled */
#define MUTANT_ID_leave_keeps_tool_idt 35 /* a CPU handed back keeps the tool's GDT and IDT */
#define MUTANT_ID_emulator_unrecorded 36 /* run.config.emulator "none" under emulator=bochs */
#define MUTANT_ID_contention_verify_in_window 37 /* a target reads a concurrent shootdown's pages right after acking it */
#define MUTANT_ID_contention_check_in_invlpgb_window 38 /* INVLPGB initiators check before the others' windows close */
#define MUTANT_ID_profiles_unplanned 39 /* quick and full are not planned (run_budget_s 0) */
#define MUTANT_ID_order_ignores_flush 40 /* shootdown_order: seq and conc of different flushes */
#define MUTANT_ID_invlpgb_verdict_first_page 41 /* invlpgb_vs_ipi: a loss at 1 page ends every win */
#define MUTANT_ID_percentile_from_few 42 /* p90/p99 written from too few samples (the maximum) */
#define MUTANT_ID_bootstrap_unpaired 43 /* the bootstrap resamples the two sides independently */
#define MUTANT_ID_order_fixed 44        /* variants always run in one order within an iteration */
#define MUTANT_ID_plan_thin_stride_only 45 /* thinning drops the ceiling's page counts too */
#define MUTANT_ID_invlpgb_chunked_main 46 /* INVLPGB's Linux path chunks above the ceiling */
#define MUTANT_ID_pti_ws_untouched 47  /* the return to user refills no user working set */
#define MUTANT_ID_ws_frames_contiguous 48 /* the scattered working set on adjacent frames */
#define MUTANT_ID_refill_before_ack 49 /* targets refill the working set before acknowledging */
#define MUTANT_ID_smi_bsp_only 50     /* conditions: one CPU's SMI count stands for every CPU's */
#define MUTANT_ID_clock_mean_of_ratios 51 /* conditions: the effective clock is the mean of per-CPU ratios */
#define MUTANT_ID_late_ping_charged 52 /* ipi_target_state: a ping after a pass's last clock read is charged to that pass */
#define MUTANT_ID_breakdown_keeps_handler 53 /* a shootdown's delivery+ack still holds the target's handler */
#define MUTANT_ID_base_always_first 60 /* compare: a section's base stays side A even where A has no point */
#define MUTANT_ID_no_param_defaults 61 /* compare: older reports' points get no default for added parameters */
#define MUTANT_ID_show_tsc_else 62      /* show: "TSC frequency unknown" after a known TSC rate */
#define MUTANT_ID_role_rows_doubled 63  /* compare: a value row also compared in a role row counts twice */
#define MUTANT_ID_verdict_inconclusive_as_na 64 /* a SKIP after measuring counted as not applicable */
#define MUTANT_ID_verdict_error_complete 65 /* an ERROR run's verdict says COMPLETE */
#define MUTANT_ID_verdict_line_drops_na 66 /* the verdict line leaves out what did not apply */
#define MUTANT_ID_tramp_far_jump_off 70 /* INIT-SIPI trampoline: the far jump targets an offset, not an address */
#define MUTANT_ID_tramp_cr3_truncated 71 /* INIT-SIPI trampoline: a page-table root above 4 GiB truncated, not refused */
#define MUTANT_ID_madt_takes_disabled 72 /* own bring-up: disabled MADT entries started too */
#define MUTANT_ID_reopen_checked_in 73 /* own bring-up: a CPU that checked in and hung is started again */
#define MUTANT_ID_init_sipi_back_to_shell 74 /* a run with INIT-SIPI CPUs returns to the shell */
/* tlbscope-report (reports/tool/, built per mutant by reports/tool/tool.mk) */
#define MUTANT_ID_l3_class_ignored 75  /* topology classes: same-L3 pairs read as same_package */
#define MUTANT_ID_node_class_ignored 76 /* topology classes: a cross-package pair is never same_node */
#define MUTANT_ID_placement_ignored 77 /* placements take the lowest-numbered CPUs, whatever the class */
#define MUTANT_ID_linux_apic_ignores_fadt 78 /* Linux's x2APIC mode: FADT's physical-mode flag ignored */
#define MUTANT_ID_cluster_ipis_physical 79 /* cluster-mode IPIs sent with physical destinations */
#define MUTANT_ID_residency_demoted_as_reached 80 /* a shallower residency counter's growth proves the state */
#define MUTANT_ID_settle_fixed 81      /* ipi_target_state: every state settles 10 us, whatever the model */
#define MUTANT_ID_sibling_left_idle 82 /* ipi_target_state: the target's SMT siblings are not put in its state */
#define MUTANT_ID_lazy_cpus_spin 83    /* shootdown_lazy: lazy CPUs spin instead of idling */
#define MUTANT_ID_residency_unmodelled 84 /* sim: the residency MSRs never count (the model never "reaches") */
#define MUTANT_ID_fleet_points_dropped 85 /* import stores no point statistics */
#define MUTANT_ID_fleet_key_from_bytes 86 /* the run key hashes the file's bytes, not its JSON */
#define MUTANT_ID_fleet_invalid_accepted 87 /* import stores a report that does not validate */
#define MUTANT_ID_fleet_simulated_as_hardware 88 /* a simulated run is filed as hardware */
#define MUTANT_ID_fleet_atlas_pools_environments 89 /* the atlas pools every environment into one column */
/* issue 31, the fleet database: 120-125 */
#define MUTANT_ID_fleet_query_writes 120 /* query and atlas open the database read-write */
#define MUTANT_ID_fleet_query_creates 121 /* query and atlas create a database that is not there */
#define MUTANT_ID_fleet_second_statement 122 /* query does not refuse a second statement */
#define MUTANT_ID_fleet_point_shifted 123 /* import reads point i+1 of the file for point i */
#define MUTANT_ID_fleet_run_id_unstored 124 /* runs.run holds the whole key, not the id printed */
#define MUTANT_ID_fleet_progress_in_pipes 125 /* import's progress goes to stderr that is no terminal */
/* aarch64 break-before-make (core/exp/arm64/a64_exp.c, a64_verify.c): 126-128 */
#define MUTANT_ID_a64_remap_without_break 126 /* region_remap writes the new descriptor over the live one, no invalid step */
#define MUTANT_ID_a64_ng_flip_without_break 127 /* region_set_ng rewrites live descriptors with nG flipped, no invalid step */
#define MUTANT_ID_a64_conflict_as_stale 128 /* the verifier counts a read of neither frame as a stale read */
#define MUTANT_ID_upload_retry_client_errors 90 /* upload: a 4xx answer is retried like a 503 */
#define MUTANT_ID_upload_backoff_flat 91 /* upload: the wait between attempts never grows */
#define MUTANT_ID_upload_past_deadline 92 /* upload: attempts go on past the overall deadline */
#define MUTANT_ID_upload_name_per_attempt 93 /* upload: each retry writes another name (a second copy) */
#define MUTANT_ID_network_unredacted 94 /* redact=on leaves the MAC, IP and boot URL in the report */
#define MUTANT_ID_probe_outside_tool 98 /* ipi_target_state probes MSR 0xE2 in the firmware's state */
#define MUTANT_ID_arm_dsb_missing 95 /* aarch64: the broadcast initiator skips its DSB ISH */
#define MUTANT_ID_arm_local_not_broadcast 96 /* aarch64: the broadcast method issues TLBI VAE1, not VAE1IS */
#define MUTANT_ID_arch_unshared_compared 97 /* compare: x86 and aarch64 experiments paired by id alone */
/* issue 31, compare: 100-109 */
#define MUTANT_ID_cpu_role_by_number 100 /* compare: a parameter naming a CPU matched by its number */
#define MUTANT_ID_gate_passes_on_nothing 101 /* compare --fail-if-slower passes with nothing compared */
#define MUTANT_ID_invalid_report_shown 102 /* show/compare/html go on with a report that fails validation */
#define MUTANT_ID_verdict_without_band 103 /* compare: a verdict ignores the dead band (--threshold) */
#define MUTANT_ID_compare_value_cut 104 /* compare: the long layout cuts a parameter value ("inv...") */
#define MUTANT_ID_html_heatmaps_in_column 105 /* html: heatmaps one a row, not in a grid */
#define MUTANT_ID_html_pool_first_report 106 /* html: a CPU model's pooled line is its first report's */
/* aarch64 stage2_kvm at EL2 (core/exp/arm64/stage2_tlbi.c, asm/stage2.h), killed on the model by tests/sim/arm64_app.sh: 107-109 */
#define MUTANT_ID_a64_s2_no_dsb_before_vmall 107 /* stage2_kvm: no DSB ISH between the IPAS2E1ISs and VMALLE1IS */
#define MUTANT_ID_a64_s2_vmall_dropped 108 /* stage2_kvm: VMALLE1IS left out, the combined entries stay */
#define MUTANT_ID_a64_s2_vmid_unloaded 109 /* stage2_vttbr: VTTBR_EL2 without the tool's VMID (VMID 0) */
/* aarch64 cpu.features from the ID registers (arch/arm64/cpu.c): 129 */
#define MUTANT_ID_arm_bbm_wrong_field 129 /* ID_AA64MMFR2_EL1.BBM read from [51:48] (TTL), not [55:52] */
/* issue 31, the points' own intervals: 130-132; aarch64 repetitions per sample (core/exp/arm64/a64_reps.c): 133 */
#define MUTANT_ID_median_boot_biased 130 /* boot_median: each split sends one draw more to the lower half */
#define MUTANT_ID_p50_ci_of_p90 131    /* a metric's p50_ci95 is drawn around its 90th percentile */
#define MUTANT_ID_samples_kept_sorted 132 /* keep_samples=on writes the samples sorted, not as measured */
#define MUTANT_ID_a64_reps_not_divided 133 /* aarch64: a sample of R back-to-back operations keeps the total, not total / R */
/* R per sample for flush_ceiling (core/exp/arm64/flush_ceiling.c) and the Linux methods
 * (core/exp/arm64/tlbi_broadcast.c): 119, 138, killed by tests/sim/arm64_app.sh's model counts */
#define MUTANT_ID_fc_reps_one_timed 119 /* aarch64 flush_ceiling: one flush timed, the sample still divided by R */
#define MUTANT_ID_a64_linux_reps_one_timed 138 /* aarch64 broadcast_linux(_busy), batch_linux: one flush timed, divided by R */
/* issue 32, part A (the plan keeps Linux's answer) and flush_ceiling's metrics: 140-149 */
#define MUTANT_ID_plan_drops_linux_flush 140 /* seq/conc's plan keeps INVPCID's variant, not CR3's */
#define MUTANT_ID_plan_one_column 141  /* the last resort is one page count, dense range or not */
#define MUTANT_ID_crossover_span_confidence 142 /* p*'s confidence counts the grid points it spans */
#define MUTANT_ID_fc_initiator_no_refill 143 /* flush_ceiling: the initiator does not refill */
#define MUTANT_ID_fc_warmup_unfloored 144 /* flush_ceiling: a twentieth of the warm-up, even 0 */
#define MUTANT_ID_fc_refine_off 145    /* flush_ceiling: nothing measured around a coarse crossing */
#define MUTANT_ID_rec_ceiling_point 147 /* the ceiling one number however coarse the grid around it */
/* issue 32 part B/D (x86amd: 150-169) */
#define MUTANT_ID_emulate_ignores_pcid 150 /* emulated INVLPGB acts in the current PCID, not rAX's */
#define MUTANT_ID_tce_bsp_only 151 /* EFER.TCE set on the BSP alone */
#define MUTANT_ID_tce_not_restored 152 /* EFER handed back with the tool's TCE */
#define MUTANT_ID_invlpgb_asid_invalid 153 /* a range INVLPGB without Linux's ASID valid bit */
#define MUTANT_ID_lfence_bsp_only 154 /* DE_CFG[1] set on the BSP alone */
#define MUTANT_ID_pti_2m_user_invpcid_skipped 155 /* PTI: no user-PCID INVPCID for 2 MiB pages */
#define MUTANT_ID_invlpgb_2m_user_pass_skipped 156 /* PTI: no user-PCID INVLPGB for the 2 MiB form */
#define MUTANT_ID_pge_toggle_removed 157 /* shootdown_flush_global without INVPCID: no CR4.PGE toggle */
#define MUTANT_ID_flush_local_noflush 158 /* asm/tlb.h flush_local_all() writes CR3 with bit 63 */
#define MUTANT_ID_pte_store_unordered 159 /* the model: a PTE store never pending for the ICR check */
#define MUTANT_ID_lazy_switch_no_barrier 160 /* lazy switch-back: no MFENCE between is_lazy = 0 and reading tlb_gen */
#define MUTANT_ID_xen_switch_no_barrier 161 /* Xen switch-back: no MFENCE between is_running = 1 and reading need_flush */
#define MUTANT_ID_target_lost_first_only 162 /* invlpgb_range busy_ws: one IPI target's loss for the sum */
#define MUTANT_ID_bystander_without_loop 163 /* invlpgb_range: bystander windows without the INVLPGB loop */
#define MUTANT_ID_rec_cpus_from_spread 164 /* invlpgb_vs_ipi reads spread's points, says nearest-first */
/* issue 32, items 14 and 16 (class mix, sub-NUMA nodes, lazy CPUs in MWAIT): 167-169, 177-179 */
#define MUTANT_ID_class_mix_wrong_cpu 167 /* a point's class mix counted from its first target, not the initiator */
#define MUTANT_ID_snc_class_folded 168 /* another node of the same package (SNC, NPS) read as same_package */
#define MUTANT_ID_lazy_hlt_over_mwait 169 /* lazy CPUs left in HLT though a deeper MWAIT state was verified */
#define MUTANT_ID_class_mix_lazy_awake_only 177 /* shootdown_lazy's class mix leaves out its lazy CPUs */
/* issue 32, part C (numbers that add up and say what they are): 170-189 */
#define MUTANT_ID_breakdown_slowest_handler 170 /* delivery+ack subtracts the slowest handler, not the last acker's */
#define MUTANT_ID_residency_any_growth_reached 171 /* any growth of a deeper counter is "reached" */
#define MUTANT_ID_residency_beyond_elapsed 172 /* a residency delta above the elapsed time is accepted */
#define MUTANT_ID_contention_unsettled 173 /* contention rounds open with halted targets still awake */
#define MUTANT_ID_contention_window_as_before 174 /* one steady window per point, 10-250 ms from the plan */
#define MUTANT_ID_cluster_only_seq_conc 175 /* lazy, contention, invlpgb_range send physical IPIs where Linux uses cluster */
#define MUTANT_ID_spread_by_numbering 176 /* spread evenly over the CPU numbering, not round-robin over domains */
#define MUTANT_ID_ring3_loop_at_cpl0 178 /* ipi_target_state: the ring3_loop state spins at CPL 0, still labelled ring 3 */
/* aarch64 TLBI operand encodings (asm/tlbi.h, run on the strict model): 180-182 */
#define MUTANT_ID_arm_range_num_off_by_one 180 /* RVAE1IS: NUM one more than the loop accounts for */
#define MUTANT_ID_arm_asid_bit32 181 /* the TLBI operands' ASID at bit 32, not [63:48] */
#define MUTANT_ID_arm_vae1_not_is 182 /* tlbi_va_is issues TLBI VAE1 (local), not VAE1IS */
#define MUTANT_ID_hang_waited_again 183 /* ipi_roundtrip stops the spinner of a target that missed its ping before naming it hung */
/* compare across architectures by question (reports/tool/compare/arch_questions.h): 184-185 */
#define MUTANT_ID_arch_question_filter_dropped 184 /* a question's side takes any point, not Linux's path */
#define MUTANT_ID_arch_question_other_rate 185 /* a side's ticks turned to ns at another side's rate */
/* tlbscope-sim --arch aarch64 (sim/arm64/), killed by tests/sim/arm64_app.sh: 165-166 */
#define MUTANT_ID_a64sim_profile_tlb_ignored 165 /* the model's CPU has range TLBI whatever the profile's ID_AA64ISAR0_EL1.TLB says */
#define MUTANT_ID_a64sim_wfi_skips_handler 166 /* the model's WFI wakes for a pending SGI but never takes it through irq_handle */
/* the aarch64 IRQ entry (arch/arm64/irq.c), killed under QEMU by tests/qemu/aarch64.sh and on the model by tests/sim/arm64_app.sh */
#define MUTANT_ID_arm_irq_ping_wrong_id 186 /* aarch64 IRQ handler: SGI_CMD counted as the ping, SGI_PING as other */
#define MUTANT_ID_arm_irq_no_eoi 187 /* aarch64 IRQ handler: no EOI, the SGI stays active and later pings pending */
/* aarch64 flush_ceiling's full flushes (core/exp/arm64/tlbi_flush.c, run on the strict model): 188-189 */
#define MUTANT_ID_arm_flush_all_dsb_missing 188 /* tlbi_flush_all: VMALLE1IS without its DSB ISH */
#define MUTANT_ID_arm_asid_flush_wrong_asid 189 /* tlbi_flush_asid invalidates ASID 0, not the caller's */
/* what the aarch64 app runs on (core/run/platform_kind.c), killed by test_platform_kind: 99 */
#define MUTANT_ID_platform_uid_ignored 99 /* the vendor hypervisor UID ignored: a KVM guest taken for QEMU's TCG */
/* Linux's arm64 unmap sequence (core/exp/arm64/linux_tlbi.c), killed by test_arm64_model: 134-135 */
#define MUTANT_ID_arm_repeat_tlbi_skipped 134 /* no TLBI VALE1IS, XZR + DSB ISH on a CPU of the repeat list */
#define MUTANT_ID_arm_linux_ttl_wrong_level 135 /* VALE1IS's TTL hint names level 2, not the leaf's level 3 */
/* issue 31, item 5 (html that concludes): 110-119 */
#define MUTANT_ID_html_headlines_dropped 110 /* html: no headline per experiment at the top */
#define MUTANT_ID_html_ceiling_in_ticks 111 /* html: flush_ceiling curves in TSC ticks, labelled ns */
/* aarch64 SGIs on real Arm servers (asm/gic.h, arch/arm64/gic_sgi.c): 112-113 */
#define MUTANT_ID_arm_sgi_ping_secure 112 /* SGI_PING = 9, in the secure firmware's SGIs 8-15 */
#define MUTANT_ID_arm_sgi_readback_ignored 113 /* gic_cpu_init takes a write to its SGIs that did not stick */
/* aarch64 stores, TLBIs and ASIDs in core/exp/arm64/, on the strict model (tests/sim/arm64_app.sh): 114-116 */
#define MUTANT_ID_a64_remap_no_dsb_ishst 114 /* region_unmap: the break's invalid descriptors without their DSB ISHST before the TLBIs */
#define MUTANT_ID_a64_tlbi_before_store 115 /* region_remap: the timed TLBIs before the break's stores */
#define MUTANT_ID_a64_kpti_asid_zero 116 /* pti_double_invalidation: its by-VA TLBIs of nG pages name ASID 0 */
/* aarch64 hand-back and PSCI checks (arch/arm64/cpu_off.c, psci_fn.c): 117, 118 */
#define MUTANT_ID_a64_cpu_off_skipped 117 /* the secondaries restore their GIC state but never call CPU_OFF */
#define MUTANT_ID_psci_features_unchecked 118 /* CPU_ON called without PSCI_VERSION >= 0.2 and PSCI_FEATURES */
/* issue 21, placement: 75-79 */
/* issue 35, reports and the fleet against hostile input: 190-209 */
#define MUTANT_ID_http_length_lenient 190 /* Content-Length: "" and "-5" read 0, repeats add up, wraps */
#define MUTANT_ID_secret_line_echoed 191 /* a mistyped redact_key's line is read (and quoted) as any other */
#define MUTANT_ID_secret_key_kept 192   /* a key with a blank: its first part taken as the key */
#define MUTANT_ID_pin_mismatch_used 193 /* config_sha256=: a boot server's file that differs is used */
#define MUTANT_ID_free_text_unredacted 194 /* redact=on: messages, notes, args quote values as they are */
#define MUTANT_ID_report_written_in_place 195 /* a report file written under its final name */
#define MUTANT_ID_conflict_taken_as_done 196 /* upload: 409 (the name is taken) read as success */
#define MUTANT_ID_atlas_unit_unescaped 197 /* atlas: a headline's unit written as it is, not escaped */
#define MUTANT_ID_csv_formula_kept 198 /* CSV: a cell that starts =, +, -, @ written as it is */
#define MUTANT_ID_markdown_html_kept 199 /* compare --markdown: < > & of a report written raw */
#define MUTANT_ID_plan_pace_floor_only 200 /* aarch64 pacing: every point at the floor, the share unused */
/* aarch64 pti_double_invalidation (KPTI's two TLBIs a page, core/exp/arm64/kpti.c): 201-203 */
#define MUTANT_ID_arm_user_tlbi_kernel_asid 201 /* KPTI's second TLBI names the kernel ASID, not ASID | 1 */
#define MUTANT_ID_arm_e0pd_wrong_field 202 /* ID_AA64MMFR2_EL1.E0PD read from [3:0] (CnP), not [63:60] */
#define MUTANT_ID_a64_kpti_user_unverified 203 /* pti_double_invalidation verifies under the kernel ASID only */
/* aarch64 ipi_roundtrip's pairs and classes (core/run/topo_arm64.c): 204-206 */
#define MUTANT_ID_a64_mpidr_mt_ignored 204 /* MPIDR classes read as MT = 0 whatever MPIDR_EL1.MT says */
#define MUTANT_ID_a64_pairs_bsp_only 205 /* ipi_roundtrip: only the BSP initiates (the pairs before) */
#define MUTANT_ID_a64_pairs_sampled_in_order 206 /* many pairs: the first ones taken, not each class's share */
#define MUTANT_ID_table_skips_skip_rows 207 /* the summary's experiment table leaves SKIP experiments out */
/* aarch64 on big servers (core/run/bringup_arm64.c, arch/arm64/gic_redist.c, gic_sgi.c's range selector
 * check, core/exp/arm64/a64_exp.c's SGI targets): 136, 137, 139, 148, 149 */
#define MUTANT_ID_a64_bsp_late_slot 136 /* a CPU the MADT lists before the BSP keeps its MADT place as slot */
#define MUTANT_ID_a64_gicr_first_range_only 137 /* the redistributor search stops at the first GICR range */
#define MUTANT_ID_a64_rss_unchecked 139 /* Aff0 > 15 taken as reachable by SGI without the GIC's range selector */
#define MUTANT_ID_a64_rss_icc_ignored 148 /* ICC_CTLR_EL1.RSS ignored: the distributor's range selector taken as enough */
#define MUTANT_ID_a64_sgi_unreachable_targeted 149 /* the IPI experiments target CPUs SGIs do not reach */
/* the secondaries' translation regime (arch/arm64/include/asm/secondary_tcr.h): 208 */
#define MUTANT_ID_a64_secondary_ttbr1_walks 208 /* secondaries get the BSP's TCR as it is: EPD1 clear, TTBR1 walked */
/* aarch64 NUMA nodes from the SRAT's GICC entries (core/run/topo_arm64.c): 214 */
#define MUTANT_ID_a64_srat_nodes_ignored 214 /* two nodes of one package read as one package */
/* tlbi_concurrent past 64 CPUs (core/exp/arm64/concurrent_plan.h): 213 */
#define MUTANT_ID_a64_concurrent_pages_unbounded 213 /* 8 pages per initiator whatever the CPUs: past the region at 65 */
/* aarch64 Secure Boot: 209 */
#define MUTANT_ID_arm_secure_boot_unchecked 209 /* validate: an aarch64 firmware.secure_boot any string */
/* aarch64 break-before-make's make after the TLBIs complete (core/exp/arm64/a64_exp.c): 210 */
#define MUTANT_ID_a64_make_before_tlbi 210 /* region_remap: invalid, the new descriptors, then the timed TLBIs */

#ifdef TLBSCOPE_MUTANT
#define MUTANT(name) (TLBSCOPE_MUTANT == MUTANT_ID_##name)
#else
#define MUTANT(name) 0
#endif

#endif
