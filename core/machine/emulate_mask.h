/*
 * The configuration's `emulate` mask (emulate=invlpgb,invpcid): which
 * instructions the x86 #UD hook stands in for (core/machine/emulate.h).
 * Apart from emulate.h so the config parser (core/run/config*.c) compiles
 * without the x86 SMP layer: the aarch64 app parses the same files.
 */
#ifndef TLBSCOPE_CORE_EMULATE_MASK_H
#define TLBSCOPE_CORE_EMULATE_MASK_H

#define EMULATE_INVLPGB (1u << 0)
#define EMULATE_INVPCID (1u << 1)

#endif
