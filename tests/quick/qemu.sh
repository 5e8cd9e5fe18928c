#!/usr/bin/env bash
# make check: one QEMU boot per architecture (the edit loop's share of tests/qemu/*.sh):
# x86 at -smp 2 with the quick profile must be a healthy run of exactly the shape asked
# for (tests/qemu/lib.sh check_healthy_run); aarch64 at -smp 2 must end COMPLETE with a
# report that validates and every CPU ok.
source "$(dirname "$0")/../qemu/lib.sh"

SMP=2 ARGS="profile=quick run_budget_s=0" boot check-x86-smp2
check_healthy_run "x86 smp=2" 2 profile=quick

if ! command -v qemu-system-aarch64 >/dev/null || [ ! -f /usr/share/AAVMF/AAVMF_CODE.fd ]; then
    skip "aarch64 boot" "qemu-system-aarch64 or AAVMF missing (scripts/deps.sh aarch64)"
    exit 0
fi
if make -s ARCH=aarch64 image >"$here/build/aarch64-make.log" 2>&1; then
    ok "aarch64 app and image build"
else
    not_ok "aarch64 app and image build (build/aarch64-make.log)"; exit 0
fi
RUN=$here/build/test-runs/check-aarch64-smp2
rm -rf "$RUN"; mkdir -p "$RUN"
# 10 samples a point (the fewest samples= takes), unplanned: the boot, not the pacing (tests/qemu/aarch64.sh paces one)
SMP=2 TIMEOUT=150 OUT=$RUN/reports LOG=$RUN/console.log ARGS="samples=10 run_budget_s=0" \
    "$here/scripts/qemu-run-aarch64.sh" build/aarch64/tlbscope.img >"$RUN/run.out" 2>&1
RC=$? LOG=$RUN/console.log
REPORT=$(ls "$RUN"/reports/*.json 2>/dev/null | head -n1)
check "aarch64 smp=2: QEMU exits 0 after PSCI SYSTEM_OFF" test "$RC" = 0
check "aarch64 smp=2: RESULT line says COMPLETE" eval '[ "$(result_word)" = COMPLETE ]'
check "aarch64 smp=2: report saved and validates" eval '[ -s "$REPORT" ] && validates'
[ -s "$REPORT" ] && check "aarch64 smp=2: 2 CPUs, every one ok" \
    test "$(jqr '[.topology.cpu_count, .topology.cpus_ok] | join(",")')" = "2,2"
