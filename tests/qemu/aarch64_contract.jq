# Report format A (issue 27 contract): the keys and types an aarch64 report must
# have. Prints one line per violation; nothing when the report conforms.
def hex: type == "string" and test("^0x[0-9a-f]{1,16}$");
def want(path; cond; what): if (path | cond) then empty else "\(what)" end;
[
  want(.schema; . == "tlbscope-report"; "schema"),
  want(.schema_version; . == 3; "schema_version 3"),
  want(.architecture; . == "aarch64"; "architecture aarch64"),
  want(.simulated; . == false; "simulated false"),
  want(.simulation; . == null; "simulation null"),
  want(.result; IN("SUCCESS", "SKIP", "ERROR", "FAILURE"); "result"),
  want(.verdict.word; IN("COMPLETE", "ERROR", "FAILURE"); "verdict.word"),
  # x86's run section (core/report/run_json.c): the stick's run counter (1 on a fresh image),
  # where each key given came from, and the whole configuration with x86's keys
  want(.run; (.id | type == "string") and (.counter | type == "number" and . >= 1) and (.status | IN("complete", "partial"))
       and ([.config_file, .config_source] | IN([false, "none"], [true, "boot_volume"])) and (.errors | type == "array")
       and (.warnings | type == "array") and (.config_origins | type == "object")
       and (.config | has("samples") and has("timeout_ms") and has("apic") and has("console_json") and has("upload") and .cpus == "all"); "run section"),
  want(.firmware; (.uefi.vendor | type == "string") and (.uefi.revision | type == "string")
       and (.acpi.oem_id | type == "string") and (.acpi.madt | type == "boolean")
       and (.acpi.fadt_arm_boot_flags | hex) and (.smbios == null or (.smbios.system | has("manufacturer")))
       and (.secure_boot | IN("unknown", "disabled", "enabled", "setup_mode"));
       "firmware section"),
  want(.cpu; (.midr | hex) and (.implementer | hex) and (.part | hex) and (.variant | type == "number")
       and (.revision | type == "number") and (.id_regs.ID_AA64ISAR0_EL1 | hex)
       and (.id_regs.ID_AA64MMFR0_EL1 | hex) and (.id_regs.ID_AA64MMFR2_EL1 | hex)
       and (.features.tlbi_os | type == "boolean") and (.features.tlbi_range | type == "boolean")
       and (.exception_level | IN(1, 2)) and .counter_hz > 0 and .counter_source == "cntfrq_el0"
       and (.implementer_name == null or (.implementer_name | type == "string")); "cpu section"),
  want(.topology; .source == "madt_gicc" and .cpu_count == (.cpus | length)
       and .cpus_ok == ([.cpus[] | select(.state == "ok")] | length)
       and ([.cpus[] | (.mpidr | hex) and (.state | IN("ok", "absent", "hung", "faulted", "disabled"))
             and (.bring_up | IN("bsp", "psci", null))] | all)
       and ([.cpus[].index] == [range(.cpus | length)]) and .cpus[0].bsp == true; "topology section"),
  want(.method; ([.ipi, .gic_version] | IN(["gicv3_sgi", 3], ["gicv2_sgi", 2])) and (.psci_conduit | IN("hvc", "smc"))
       and (.tlbi_el | IN("el1", "el2")) and .target_wait == "wfi_irq" and .page_size == 4096
       and (.exception_level | IN(1, 2)); "method section"),
  (.experiments[] | . as $e |
    want(.; (.id | type == "string") and (.status | IN("SUCCESS", "SKIP", "ERROR", "FAILURE"))
         and .unit == "counter_ticks" and (.emulated | type == "boolean") and (.partial | type == "boolean")
         and has("plan") and (.axes | has("x") and has("series"))
         and (.verification | has("applicable") and has("checks") and has("stale_reads") and has("stale"))
         and (.status == "SUCCESS" or (.reason | type == "string"))
         and ([.results[] | (.params | type == "object") and (.metrics | type == "object")] | all);
         "experiment \($e.id)")),
  want([.experiments[].id]; . == ["ipi_roundtrip", "ipi_broadcast", "stale_detector_control", "tlbi_broadcast_vs_ipi",
                                  "tlbi_range", "tlbi_concurrent", "flush_ceiling", "pti_double_invalidation",
                                  "shootdown_lazy", "invlpgb_range"];
       "experiment ids and order")
] | .[]
