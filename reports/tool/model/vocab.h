/*
 * The closed vocabularies of schema version 1: every word the writer
 * (core/report/report_json.c and the name functions it calls) can put in these
 * fields. Lists end with NULL. Kept in one place so SCHEMA.md, the validator
 * and the views agree.
 */
#ifndef TLBSCOPE_REPORT_VOCAB_H
#define TLBSCOPE_REPORT_VOCAB_H

#define TOOL_SCHEMA_NAME "tlbscope-report"
#define TOOL_SCHEMA_VERSION 3

/* Ordered by severity: the most severe one wins (core/run/result.h). */
extern const char *const vocab_results[];
extern const char *const vocab_run_status[];
extern const char *const vocab_cpu_states[];
extern const char *const vocab_secure_boot[];
extern const char *const vocab_tsc_sources[];
extern const char *const vocab_test_mappings[];
extern const char *const vocab_profiles[];
extern const char *const vocab_exit_modes[];
extern const char *const vocab_mp_modes[];
extern const char *const vocab_bring_up[];
extern const char *const vocab_apic_requests[];
/* run.config.emulator: the emulator the harness named (CPUID does not show it) */
extern const char *const vocab_emulators[];
extern const char *const vocab_smbios_entry_points[];
/* Topology classes of ipi_roundtrip, nearest first. */
extern const char *const vocab_topo_classes[];
/* aarch64's (core/run/topo_arm64.h), nearest first */
extern const char *const vocab_arm64_topo_classes[];
extern const char *const vocab_l3_sources[];
extern const char *const vocab_linux_ipi_modes[];
extern const char *const vocab_placements[];

/* Position of `word` in `list`, or -1 (also for a NULL word). */
int vocab_index(const char *const list[], const char *word);
/* A topology class's place, nearest first: x86's position, else aarch64's (the classes of one
 * report are one architecture's; a class the two share has x86's), else 100. */
int vocab_class_rank(const char *cls);
/* "a, b or c", for messages. */
void vocab_describe(const char *const list[], char *buf, unsigned long cap);

#endif
