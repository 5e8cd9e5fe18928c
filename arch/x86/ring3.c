#include "asm/ring3.h"

#include "asm/cpu.h"
#include "asm/desc.h"
#include "asm/percpu.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/mutant.h"

#define RING3_KSTACK 16384u
#define MSR_FS_BASE 0xc0000100

#ifdef TLBSCOPE_HOST

bool ring3_supported(char *why, size_t cap)
{
    fmt_into(why, cap, "the host model runs each CPU as a host thread: there is no CPL 3 to "
                       "enter, so no interrupt pays the privilege change");
    return false;
}
bool ring3_prepare(struct pt_ctx *pt, uint64_t va, char *why, size_t cap)
{
    (void)pt;
    (void)va;
    return ring3_supported(why, cap);
}
struct ring3_shared *ring3_shared(void) { return NULL; }
bool ring3_run(uint64_t deadline, struct ring3_exit *out)
{
    (void)deadline;
    out->vector = 0;
    out->fw_tr = 0;
    return false;
}

#else

/* 64-bit TSS (SDM vol. 3A, 8.7): only RSP0 is used; no I/O bitmap (base past the limit). */
struct __attribute__((packed)) tss64 {
    uint32_t reserved0;
    uint64_t rsp[3];
    uint64_t reserved1;
    uint64_t ist[7];
    uint64_t reserved2;
    uint16_t reserved3;
    uint16_t iomap_base;
};

extern char ring3_blob_start[], ring3_blob_end[];
void ring3_iret(uint64_t rip, uint64_t rsp, uint64_t arg) __attribute__((noreturn));

static struct tss64 tss __attribute__((aligned(64)));
static uint8_t kstack[RING3_KSTACK] __attribute__((aligned(64)));
static uint8_t *code_frame;
static struct ring3_shared *shared;
static uint64_t code_va, data_va; /* the user view of the two pages */
/* one CPU at a time runs the loop (ipi_target_state's target): one resume point */
static struct arch_jmpbuf resume;
static struct ring3_exit last_exit;

bool ring3_supported(char *why, size_t cap)
{
    (void)why;
    (void)cap;
    return true;
}

struct ring3_shared *ring3_shared(void) { return shared; }

bool ring3_prepare(struct pt_ctx *pt, uint64_t va, char *why, size_t cap)
{
    size_t blob = (size_t)(ring3_blob_end - ring3_blob_start);
    if (!code_frame) {
        code_frame = mem_alloc_aligned(PAGE_4K, PAGE_4K);
        shared = mem_alloc_aligned(PAGE_4K, PAGE_4K);
        if (!code_frame || !shared || blob > PAGE_4K) {
            fmt_into(why, cap, "out of memory for the CPL 3 loop's pages");
            return false;
        }
        mem_zero(code_frame, PAGE_4K);
        mem_copy(code_frame, ring3_blob_start, blob);
        code_va = va;
        data_va = va + PAGE_4K;
        /* user pages at their own VAs: the identity map stays supervisor-only */
        if (!pt_map(pt, code_va, (uint64_t)(uintptr_t)code_frame, PAGE_4K, PTE_US | PTE_A, false) ||
            !pt_map(pt, data_va, (uint64_t)(uintptr_t)shared, PAGE_4K,
                    PTE_US | PTE_RW | PTE_A | PTE_D, false)) {
            fmt_into(why, cap, "could not map the CPL 3 loop's pages (page tables out of memory)");
            return false;
        }
    }
    mem_zero(shared, PAGE_4K);
    mem_zero(&tss, sizeof(tss));
    tss.rsp[0] = (uint64_t)(uintptr_t)(kstack + RING3_KSTACK);
    tss.iomap_base = sizeof(tss);
    desc_set_tss((uint64_t)(uintptr_t)&tss, sizeof(tss) - 1);
    return true;
}

static uint16_t load_tr(void)
{
    uint16_t tr;
    __asm__ volatile("str %0" : "=r"(tr));
    if (tr == TOOL_TSS)
        return tr;
    desc_tss_available(); /* another CPU's LTR left it busy; LTR of a busy one faults */
    __asm__ volatile("ltr %0" ::"r"((uint16_t)TOOL_TSS) : "memory");
    return tr;
}

static void load_fs_gs(uint16_t sel)
{
    __asm__ volatile("mov %0, %%fs; mov %0, %%gs" ::"r"((uint64_t)sel) : "memory");
}

static bool ring3_trap(struct trap_frame *f);

bool ring3_run(uint64_t deadline, struct ring3_exit *out)
{
    uint64_t gs_base = rdmsr(MSR_GS_BASE), fs_base = rdmsr(MSR_FS_BASE);
    uint16_t fw_tr;
    irq_disable();
    fw_tr = load_tr();
    store_relaxed(&shared->stop, 0);
    store_relaxed(&shared->entered, 0);
    store_relaxed(&shared->deadline, deadline);
    /*
     * IRETQ to CPL 3 nulls a segment register whose descriptor is DPL 0,
     * and a null load may clear FS/GS bases on some CPUs: the per-CPU block
     * hangs off GS. Both take the DPL 3 data selector, bases written back.
     */
    load_fs_gs(USER_DS);
    wrmsr(MSR_GS_BASE, gs_base);
    wrmsr(MSR_FS_BASE, fs_base);
    /* set on this CPU, the one that takes the loop's traps, before it can take one */
    trap_set_cpl3_hook(ring3_trap);
    if (!arch_setjmp(&resume)) {
        if (MUTANT(ring3_loop_at_cpl0)) {
            /* the same loop at CPL 0, still labelled ring 3 */
            store_release(&shared->entered, 1);
            irq_enable();
            while (!load_acquire(&shared->stop) && tsc_now() < deadline)
                cpu_relax();
            irq_disable();
            last_exit.vector = RING3_EXIT_VECTOR;
            last_exit.cs = TOOL_CS;
        } else {
            ring3_iret(code_va, data_va + PAGE_4K, data_va);
        }
    }
    /* back at CPL 0 with interrupts off (ring3_trap) */
    __asm__ volatile("mov %0, %%ds; mov %0, %%es" ::"r"((uint64_t)TOOL_DS) : "memory");
    load_fs_gs(TOOL_DS);
    wrmsr(MSR_GS_BASE, gs_base);
    wrmsr(MSR_FS_BASE, fs_base);
    *out = last_exit;
    if (fw_tr != TOOL_TSS)
        out->fw_tr = fw_tr;
    return last_exit.vector == RING3_EXIT_VECTOR;
}

/* A trap from CPL 3 that ends the loop (its exit INT or an exception), through trap.c's hook. */
static bool ring3_trap(struct trap_frame *f)
{
    last_exit.vector = (uint32_t)(f->vector & 0xff);
    last_exit.rip = f->rip;
    last_exit.cs = (uint16_t)f->cs;
    /* resume in ring3_run's arch_setjmp, returning 1, at CPL 0 with IF clear */
    trap_resume_at(f, &resume);
    f->cs = TOOL_CS;
    f->ss = TOOL_DS;
    f->rflags = 0x2;
    return true;
}

#endif
