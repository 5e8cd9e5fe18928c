#include "core/machine/smp.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/power.h"
#include "asm/fault.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/machine/timing.h"

#if defined(__SANITIZE_THREAD__)
uint64_t tsan_fence_word;
#endif

const char *command_name(uint32_t id)
{
    static const char *const names[] = { "none", "release", "ping", "probe", "spin-as-target",
                                         "ipi-initiate", "touch", "verify", "lazy", "catch-up",
                                         "control", "generic" };
    return id < ARRAY_SIZE(names) ? names[id] : "unknown";
}

bool deadline_passed(uint64_t deadline) { return tsc_now() > deadline; }

bool wait_u64_eq(const volatile uint64_t *p, uint64_t want, uint64_t deadline)
{
    while (load_acquire(p) != want) {
        if (deadline_passed(deadline))
            return load_acquire(p) == want;
        cpu_relax();
    }
    return true;
}

bool wait_u64_ne(const volatile uint64_t *p, uint64_t old, uint64_t deadline)
{
    while (load_acquire(p) == old) {
        if (deadline_passed(deadline))
            return load_acquire(p) != old;
        cpu_relax();
    }
    return true;
}

bool wait_u64_ge(const volatile uint64_t *p, uint64_t want, uint64_t deadline)
{
    while (load_acquire(p) < want) {
        if (deadline_passed(deadline))
            return load_acquire(p) >= want;
        cpu_relax();
    }
    return true;
}

static bool answered(const volatile uint64_t *p, enum answer_test test, uint64_t v)
{
    uint64_t x = load_acquire(p);
    return test == ANSWER_EQ ? x == v : test == ANSWER_NE ? x != v : x >= v;
}

/* atomic max: several waiters may record lateness of the same CPU at once */
static void note_max(volatile uint64_t *max, uint64_t v)
{
    uint64_t old = load_relaxed(max);
    /* spin-ok: each failed CAS means another waiter stored a larger value; it ends */
    while (old < v && !cas(max, &old, v))
        ;
}

/*
 * The grace of smp_wait_answer(): `grace` ticks more (none without a
 * hypervisor); false when the CPU used up its graces or missed this one too.
 */
static bool late_answer(struct smp *s, uint32_t cpu, const volatile uint64_t *p,
                        enum answer_test test, uint64_t v, uint64_t deadline, uint64_t grace)
{
    struct percpu *pc = cpu < s->count ? s->cpu[cpu] : NULL;
    uint64_t until, now = tsc_now();
    if (!s->late_grace_ticks || !pc || load_acquire(&pc->fault.valid) ||
        add_fetch(&pc->late.graces, 1) > SMP_LATE_MAX)
        return false;
    /* from the deadline, or from now when this waiter itself ran late (it was descheduled) */
    until = (now > deadline ? now : deadline) + grace;
    while (!answered(p, test, v)) {
        if (load_acquire(&pc->fault.valid) || load_acquire(&s->aborting))
            return false;
        if (deadline_passed(until)) {
            if (answered(p, test, v))
                break;
            return false;
        }
        cpu_relax();
    }
    add_fetch(&pc->late.answers, 1);
    now = tsc_now();
    note_max(&pc->late.max_ticks, now > deadline ? now - deadline : 0);
    return true;
}

bool smp_wait_answer(struct smp *s, uint32_t cpu, const volatile uint64_t *p, enum answer_test test,
                     uint64_t v, uint64_t deadline)
{
    bool ok = test == ANSWER_EQ ? wait_u64_eq(p, v, deadline)
              : test == ANSWER_NE ? wait_u64_ne(p, v, deadline)
                                  : wait_u64_ge(p, v, deadline);
    return ok || late_answer(s, cpu, p, test, v, deadline, s->late_grace_ticks);
}

uint64_t smp_take_late(struct smp *s, uint32_t cpu, uint64_t *max_ticks)
{
    struct percpu *pc = cpu < s->count ? s->cpu[cpu] : NULL;
    uint64_t answers, fresh;
    *max_ticks = 0;
    if (!pc)
        return 0;
    answers = load_acquire(&pc->late.answers);
    fresh = answers - pc->late.noted;
    if (!fresh)
        return 0;
    pc->late.noted = answers;
    *max_ticks = __atomic_exchange_n(&pc->late.max_ticks, 0, __ATOMIC_ACQ_REL);
    if (*max_ticks > pc->late.run_max_ticks)
        pc->late.run_max_ticks = *max_ticks;
    return fresh;
}

bool smp_init(struct smp *s, struct cpu_table *topo, const struct injection *inject,
              uint32_t inject_count, uint64_t timeout_ticks)
{
    uint32_t i, j;
    mem_zero(s, sizeof(*s));
    s->topo = topo;
    s->count = topo->count;
    s->timeout_ticks = timeout_ticks;
    s->cpu = mem_zalloc((size_t)s->count * sizeof(*s->cpu));
    s->apic_id = mem_zalloc((size_t)s->count * sizeof(*s->apic_id));
    if (!s->cpu || !s->apic_id)
        return false;
    for (i = 0; i < s->count; i++) {
        struct cpu_info *c = &topo->cpus[i];
        struct percpu *pc;
        if (c->state == CPU_DISABLED)
            continue;
        pc = mem_alloc_aligned(sizeof(*pc), CACHE_LINE);
        if (!pc)
            return false;
        pc->arch.self = &pc->arch;
        pc->arch.cpu_index = i;
        pc->arch.parked = &pc->idle.parked;
        pc->index = i;
        pc->apic_id = c->apic_id;
        s->apic_id[i] = c->apic_id;
        pc->smp = s;
        pc->tlbs.is_running = 1;
        pc->checkin = c->bsp ? CHECKIN_DONE : CHECKIN_WAITING;
        for (j = 0; inject && j < inject_count; j++) {
            /* per-CPU kinds only (no_mp and mp_fail are machine-wide) */
            if (inject[j].cpu == i && inject[j].kind <= INJECT_ABSENT) {
                pc->inject_kind = inject[j].kind;
                pc->inject_vector = inject[j].vector;
                pc->inject_late_left = SMP_INJECTED_LATE;
            }
        }
        s->cpu[i] = pc;
    }
    return true;
}

void smp_release_memory(struct smp *s)
{
    uint32_t i;
    if (!s->cpu)
        return;
    for (i = 0; i < s->count; i++)
        mem_free_aligned(s->cpu[i]);
    mem_free(s->cpu);
    mem_free(s->apic_id);
    s->cpu = NULL;
    s->apic_id = NULL;
}

struct percpu *smp_cpu(struct smp *s, uint32_t index)
{
    return index < s->count ? s->cpu[index] : NULL;
}

bool smp_usable(struct smp *s, uint32_t index)
{
    return index < s->count && s->cpu[index] && cpu_usable(&s->topo->cpus[index]);
}

static void kick(struct smp *s, uint32_t index, uint8_t vector)
{
    struct percpu *pc = s->cpu[index];
    if (pc && index != 0)
        apic_send_ipi(pc->apic_id, vector);
}

void smp_kick(struct smp *s, uint32_t index) { kick(s, index, VEC_WAKE); }

void smp_post(struct smp *s, uint32_t index, uint32_t command, cpu_fn fn, void *arg)
{
    struct percpu *pc = s->cpu[index];
    pc->mb.fn = fn;
    pc->mb.arg = arg;
    pc->mb.command = command;
    pc->mb.experiment = s->current_experiment;
    /* the release store publishes fn/arg before the new sequence number */
    store_release(&pc->mb.seq, pc->mb.seq + 1);
    kick(s, index, command == CMD_RELEASE ? VEC_RELEASE : VEC_WAKE);
}

void smp_mark_lost(struct smp *s, uint32_t index, enum wait_status why, uint32_t command)
{
    struct percpu *pc = s->cpu[index];
    struct cpu_info *c = &s->topo->cpus[index];
    if (why == WAIT_FAULTED && pc->fault.valid) {
        c->fault.valid = true;
        c->fault.vector = pc->fault.vector;
        c->fault.error_code = pc->fault.error_code;
        c->fault.rip = pc->fault.rip;
        c->fault.cr2 = pc->fault.cr2;
        c->fault.last_command = pc->fault.command;
        mem_copy(c->fault.regs, pc->fault.regs, sizeof(c->fault.regs));
        cpu_mark(c, CPU_FAULTED, "exception %u (%s) at RIP 0x%llx, error code 0x%llx, during '%s'",
                 pc->fault.vector, exception_name(pc->fault.vector),
                 (unsigned long long)pc->fault.rip, (unsigned long long)pc->fault.error_code,
                 command_name(pc->fault.command));
    } else {
        pc->missed_watch = &pc->ack.ack_seq;
        pc->missed_want = pc->mb.seq;
        c->fault.last_command = command;
        cpu_mark(c, CPU_HUNG, "no answer within %llu ms to '%s'",
                 (unsigned long long)ticks_to_ms(s->timeout_ticks), command_name(command));
    }
}

void smp_mark_unanswered(struct smp *s, uint32_t index, const char *what,
                         const volatile uint64_t *watch, uint64_t want)
{
    struct percpu *pc = s->cpu[index];
    struct cpu_info *c = &s->topo->cpus[index];
    if (c->state != CPU_OK)
        return;
    if (pc->fault.valid) {
        smp_mark_lost(s, index, WAIT_FAULTED, pc->fault.command);
        return;
    }
    pc->missed_watch = watch;
    pc->missed_want = want;
    c->fault.last_command = pc->mb.command;
    cpu_mark(c, CPU_HUNG, "no answer to a %s within %llu ms (during '%s')", what,
             (unsigned long long)ticks_to_ms(s->timeout_ticks), command_name(pc->mb.command));
}

/*
 * With halt_waits the BSP sleeps between checks, woken by its own 1 ms
 * heartbeat (or an IPI it takes as a target: the pings of ipi_roundtrip
 * when an AP initiates). APs never send it a wake-up: one could arrive
 * after the BSP went back to the firmware's IDT, whose handler does not EOI
 * it (arch/x86/include/asm/apic.h, apic_vectors_pending). The heartbeat is periodic,
 * armed once per wait by wait_common(): re-arming a one-shot around every
 * HLT put five APIC writes behind every ping the BSP took as a target.
 */
static void bsp_pause(struct smp *s, const volatile uint64_t *ack, uint64_t want)
{
    bool was_on;
    if (!s->halt_waits) {
        cpu_relax();
        return;
    }
    was_on = irq_enabled();
    irq_disable();
    if (load_acquire(ack) != want) {
        smp_halt_parked(s->cpu[0]);
        irq_disable();
    }
    if (was_on)
        irq_enable();
}

void smp_halt_parked(struct percpu *pc)
{
    store_release(&pc->idle.parked, 1);
    cpu_halt_until_irq();
    /* an NMI ends HLT without clearing it at interrupt entry */
    store_relaxed(&pc->idle.parked, 0);
}

void smp_mwait_parked(struct percpu *pc, uint32_t hint)
{
    store_release(&pc->idle.parked, 1); /* not the monitored line: no self-inflicted wake-up */
    power_mwait_until_irq(hint);
    store_relaxed(&pc->idle.parked, 0);
}

static enum wait_status wait_loop(struct smp *s, uint32_t index, uint64_t deadline,
                                  const volatile uint64_t *progress, uint64_t grace)
{
    struct percpu *pc = s->cpu[index];
    uint64_t want = pc->mb.seq, seen = progress ? load_acquire(progress) : 0;
    while (load_acquire(&pc->ack.ack_seq) != want) {
        if (load_acquire(&pc->fault.valid)) {
            smp_mark_lost(s, index, WAIT_FAULTED, pc->mb.command);
            return WAIT_FAULTED;
        }
        if (progress && load_acquire(progress) != seen) {
            seen = load_acquire(progress);
            deadline = tsc_now() + s->timeout_ticks;
        }
        if (deadline_passed(deadline)) {
            if (late_answer(s, index, &pc->ack.ack_seq, ANSWER_EQ, want, deadline, grace))
                break;
            if (load_acquire(&pc->fault.valid)) {
                smp_mark_lost(s, index, WAIT_FAULTED, pc->mb.command);
                return WAIT_FAULTED;
            }
            smp_mark_lost(s, index, WAIT_TIMEOUT, pc->mb.command);
            return WAIT_TIMEOUT;
        }
        bsp_pause(s, &pc->ack.ack_seq, want);
    }
    return WAIT_OK;
}

/*
 * A command may itself wait, with a grace, for a late CPU: its own grace
 * covers that one's and a timeout more. A leaf command waits on no one.
 */
static enum wait_status wait_common(struct smp *s, uint32_t index, uint64_t deadline,
                                    const volatile uint64_t *progress, bool leaf)
{
    enum wait_status w;
    uint64_t grace = leaf ? s->late_grace_ticks : 2 * s->late_grace_ticks + s->timeout_ticks;
    if (s->halt_waits)
        apic_arm_heartbeat_periodic(VEC_WAKE, HEARTBEAT_POLL);
    w = wait_loop(s, index, deadline, progress, grace);
    if (s->halt_waits)
        apic_disarm_heartbeat();
    return w;
}

enum wait_status smp_wait(struct smp *s, uint32_t index, uint64_t deadline)
{
    return wait_common(s, index, deadline, NULL, false);
}

enum wait_status smp_wait_leaf(struct smp *s, uint32_t index, uint64_t deadline)
{
    return wait_common(s, index, deadline, NULL, true);
}

enum wait_status smp_wait_progress(struct smp *s, uint32_t index, const volatile uint64_t *progress)
{
    return wait_common(s, index, tsc_now() + s->timeout_ticks, progress, false);
}

enum wait_status smp_call(struct smp *s, uint32_t index, uint32_t command, cpu_fn fn, void *arg,
                          int64_t *result)
{
    enum wait_status w;
    smp_post(s, index, command, fn, arg);
    w = smp_wait(s, index, tsc_now() + s->timeout_ticks);
    if (w == WAIT_OK && result)
        *result = load_acquire(&s->cpu[index]->ack.result);
    return w;
}

struct percpu *smp_find_by_apic_id(struct smp *s, uint32_t apic_id)
{
    uint32_t i;
    /* once per CPU at check-in; everything afterwards goes by dense index */
    for (i = 0; i < s->count; i++)
        if (s->cpu[i] && s->cpu[i]->apic_id == apic_id)
            return s->cpu[i];
    add_fetch(&s->unknown_checkins, 1);
    return NULL;
}

bool smp_checkin(struct percpu *pc)
{
    uint32_t expected = CHECKIN_WAITING;
    /* loses against the BSP closing check-in at its deadline: then stay out */
    return cas(&pc->checkin, &expected, CHECKIN_DONE);
}

/* A test-only hang: deaf to commands and IPIs until the run is released. */
static void injected_hang(struct percpu *pc)
{
    struct smp *s = pc->smp;
    irq_disable();
    while (!load_acquire(&s->releasing) && !deadline_passed(s->run_deadline))
        cpu_relax();
}

void smp_injected_delay(struct percpu *pc)
{
    struct smp *s = pc->smp;
    uint64_t until;
    if (pc->inject_kind == INJECT_LATE && pc->inject_late_left) {
        pc->inject_late_left--;
        until = tsc_now() + s->timeout_ticks + s->timeout_ticks / 2;
    } else if (pc->inject_kind == INJECT_SLOW) {
        until = tsc_now() + 2 * s->timeout_ticks;
    } else {
        return;
    }
    while (!deadline_passed(until) && !load_acquire(&s->releasing))
        cpu_relax();
}

/*
 * Idle: halt until an IPI arrives. The BSP sends VEC_WAKE after every
 * command; the one-shot APIC timer is a safety net so that the loop still
 * sees the run deadline if a wake-up were ever lost. Halted CPUs also keep
 * an idle SMT sibling from stealing cycles from a measured one, and let an
 * emulator run hundreds of virtual CPUs on a few host cores. Parked, as
 * every halted waiter: a target whose waiting command ended at its
 * deadline still answers IPIs from here, and an initiator settling its
 * targets (ipi_settle_targets()) must not wait on it in vain.
 */
static void idle_wait(struct percpu *pc)
{
    apic_arm_heartbeat(VEC_WAKE, HEARTBEAT_IDLE);
    smp_halt_parked(pc);
    irq_disable();
    apic_disarm_heartbeat();
}

uint64_t smp_ap_loop(struct percpu *pc)
{
    struct smp *s = pc->smp;
    for (;;) {
        uint64_t seq;
        irq_disable();
        seq = load_acquire(&pc->mb.seq);
        if (seq != pc->ack.started_seq) {
            uint32_t command = pc->mb.command;
            bool in_experiment = pc->mb.experiment != 0;
            int64_t result = 0;
            store_relaxed(&pc->ack.started_seq, seq);
            if (command == CMD_RELEASE)
                return seq; /* the caller restores firmware state, then acknowledges */
            if (in_experiment && pc->inject_kind == INJECT_HANG) {
                injected_hang(pc);
                continue; /* this command is never answered */
            }
            if (in_experiment && pc->inject_kind == INJECT_FAULT) {
                pc->inject_kind = INJECT_NONE; /* once */
                arch_raise_exception(pc->inject_vector);
            }
            if (pc->mb.fn)
                result = pc->mb.fn(pc, pc->mb.arg);
            if (in_experiment)
                smp_injected_delay(pc);
            store_relaxed(&pc->ack.result, result);
            store_release(&pc->ack.ack_seq, seq);
            continue;
        }
        store_relaxed(&pc->ack.heartbeat, tsc_now());
        if (deadline_passed(s->run_deadline))
            return 0; /* the BSP never released us: give the CPU back anyway */
        idle_wait(pc);
    }
}

void smp_ap_await_release_kick(struct percpu *pc)
{
    uint64_t deadline = tsc_now() + pc->smp->timeout_ticks;
    irq_enable();
    while (!pc->release_kick_taken && !deadline_passed(deadline))
        cpu_relax();
    irq_disable();
}

bool smp_record_fault(struct trap_frame *f)
{
    struct arch_percpu *ap = this_arch_percpu();
    struct percpu *pc = (struct percpu *)(void *)ap; /* arch is the first member */
    pc->fault.vector = (uint32_t)f->vector;
    pc->fault.error_code = f->error_code;
    pc->fault.rip = f->rip;
    pc->fault.cr2 = read_cr2();
    pc->fault.command = pc->index == 0 ? CMD_NONE : pc->mb.command;
    {
        const uint64_t regs[CPU_FAULT_REGS] = { f->rax, f->rbx, f->rcx, f->rdx, f->rsi, f->rdi,
                                                f->rbp, f->r8,  f->r9,  f->r10, f->r11, f->r12,
                                                f->r13, f->r14, f->r15, f->rsp, f->rflags, f->cs };
        mem_copy(pc->fault.regs, regs, sizeof(regs));
    }
    store_release(&pc->fault.valid, 1);
    if (!load_relaxed(&ap->recover_armed))
        return false;
    trap_resume_at_recovery(f);
    return true;
}
