/* Exception names and error-code rules: shared by the IDT code and the host simulation. */
#include "asm/trap.h"

bool exception_has_error_code(uint32_t v)
{
    return v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30;
}

const char *exception_name(uint32_t v)
{
    static const char *const names[32] = {
        "#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
        "#BR bound range", "#UD invalid opcode", "#NM device not available",
        "#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
        "#NP segment not present", "#SS stack fault", "#GP general protection",
        "#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check",
        "#MC machine check", "#XM SIMD error", "#VE virtualization", "#CP control protection",
        "reserved 22", "reserved 23", "reserved 24", "reserved 25", "reserved 26",
        "reserved 27", "#HV hypervisor injection", "#VC VMM communication",
        "#SX security", "reserved 31",
    };
    return v < 32 ? names[v] : "interrupt";
}
