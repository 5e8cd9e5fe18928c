# What of core/ the aarch64 app uses: the freestanding library, the run's configuration,
# records, plan and bootstrap, the report's skeleton and experiments, and its own files
# (core/exp/arm64/, core/*/*_arm64.c). One list for both builds of the app: the UEFI image
# (arch/arm64/arm64.mk) and tlbscope-sim --arch aarch64 on the host (sim/arm64/arm64.mk).
A64_CORE_SRCS := $(sort $(wildcard core/exp/arm64/*.c core/*/*_arm64.c)) \
	core/lib/json.c core/lib/nearest.c core/run/exp_loop.c core/run/platform_kind.c core/lib/cmdline.c core/lib/strbuf.c core/lib/mem.c core/lib/stats.c core/lib/msglist.c \
	core/run/verdict.c core/run/result.c core/run/class_pool.c core/report/report_common.c core/report/experiment_json.c core/report/report_doc.c core/report/recommend_json.c core/report/run_json.c core/report/report_redact.c core/run/redact.c core/lib/sha256.c core/run/netinfo.c core/report/time_text.c \
	core/run/recommendation.c \
	core/report/conditions_report.c core/report/plan_report.c core/report/summary_text.c core/report/point_views.c core/run/record.c core/run/plan.c \
	core/machine/cpu_table.c core/machine/placement.c core/run/bootstrap.c core/run/crossover.c \
	core/run/config.c core/run/config_keys.c core/run/config_values.c core/run/upload.c \
	core/run/config_secret.c core/firmware/acpi.c core/firmware/acpi_pptt.c core/firmware/acpi_srat.c core/lib/bytes.c core/firmware/firmware_info.c
