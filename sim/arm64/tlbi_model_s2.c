/*
 * The strict model's stage-2 rules at EL2 (tlbi_model.h, "stage 2 at EL2"): KVM's
 * __kvm_tlb_flush_vmid_ipa is TLBI IPAS2E1IS per IPA, DSB ISH, TLBI VMALLE1IS, DSB ISH, ISB
 * on the VMID VTTBR_EL2 holds. No guest runs under the tool's stage 2, so the model holds no
 * entry these TLBIs could drop; it checks the order the sequence depends on instead, per CPU,
 * as tlbi_model_bbm.c checks break-before-make. Every function runs with m->lock held but
 * a64m_set_el and a64m_s2_switch, which take it.
 */
#include "sim/arm64/tlbi_model_int.h"

#define OPND_IPA_PAGE(x) ((x) & ((1ull << TLBI_IPA_FIELD_BITS) - 1))
#define OPND_IPA_RES0 0xffff000000000000ull /* [63:48]: NS (RES0 from the non-secure EL2) and RES0 */
#define VMID_OF(vttbr) ((unsigned)(((vttbr) >> 48) & 0xff))

void a64m_set_el(struct a64_model *m, unsigned el)
{
    pthread_mutex_lock(&m->lock);
    m->el = el;
    pthread_mutex_unlock(&m->lock);
}

/* an ISB or a change of VTTBR_EL2 ends CPU c's sequence: it must be whole */
static void sequence_end(struct a64_model *m, uint32_t ci, const char *at)
{
    struct a64m_s2 *s = &m->cpu[ci].s2;
    if (s->ipa_open || s->ipa_done)
        a64m_violation(m, ci, "%s ends a stage-2 invalidation with no TLBI VMALLE1IS after its IPAS2E1IS: "
                       "combined stage 1+2 entries from the old stage 2 stay", at);
    else if (s->vmall_open)
        a64m_violation(m, ci, "%s ends a stage-2 invalidation with TLBI VMALLE1IS not completed by a DSB ISH", at);
    s->ipa_open = s->ipa_done = s->vmall_open = false;
}

void a64m_s2_switch(struct a64_model *m, uint32_t ci, uint64_t vtcr, uint64_t vttbr, uint64_t *vtcr_old,
                    uint64_t *vttbr_old)
{
    struct a64m_s2 *s = &m->cpu[ci].s2;
    pthread_mutex_lock(&m->lock);
    if (m->el != 2)
        a64m_violation(m, ci, "VTCR_EL2/VTTBR_EL2 written at EL%u", m->el);
    sequence_end(m, ci, "a VTTBR_EL2 write");
    *vtcr_old = s->vtcr;
    *vttbr_old = s->vttbr;
    s->vtcr = vtcr;
    s->vttbr = vttbr;
    pthread_mutex_unlock(&m->lock);
}

void a64m_s2_tlbi(struct a64_model *m, uint32_t ci, enum tlbi_op op, uint64_t operand)
{
    struct a64m_cpu *c = &m->cpu[ci];
    const char *name = op == TLBI_IPAS2E1IS ? "IPAS2E1IS" : "VMALLE1IS (at EL2)";
    if (op == TLBI_IPAS2E1IS)
        c->n.tlbi_ipas2++;
    else
        c->n.tlbi_vmall_vmid++;
    if (m->el != 2) {
        a64m_violation(m, ci, "TLBI %s at EL%u: a guest kernel cannot issue stage-2 TLBIs", name, m->el);
        return;
    }
    if (VMID_OF(c->s2.vttbr) == 0) {
        a64m_violation(m, ci, "TLBI %s with VTTBR_EL2 0x%llx: VMID 0, the tool's VMID not loaded (it would act "
                       "on a host's or the firmware's)", name, (unsigned long long)c->s2.vttbr);
        return;
    }
    if (op == TLBI_IPAS2E1IS) {
        if ((operand & OPND_IPA_RES0) || OPND_IPA_PAGE(operand) >= m->frames)
            a64m_violation(m, ci, "TLBI IPAS2E1IS operand 0x%llx: RES0 bits set or an IPA outside the region's "
                           "frames", (unsigned long long)operand);
        c->s2.ipa_open = true;
        return;
    }
    if (c->s2.ipa_open) /* KVM's comment: complete stage 2 first, or a walk refills from the old one */
        a64m_violation(m, ci, "TLBI VMALLE1IS before a DSB ISH completed the IPAS2E1IS: another CPU's walk "
                       "could refill a combined stage 1+2 entry from the old stage 2");
    c->s2.ipa_open = c->s2.ipa_done = false;
    c->s2.vmall_open = true;
}

void a64m_s2_dsb(struct a64_model *m, uint32_t ci)
{
    struct a64m_s2 *s = &m->cpu[ci].s2;
    if (s->ipa_open) {
        s->ipa_open = false;
        s->ipa_done = true;
    }
    s->vmall_open = false;
}

void a64m_s2_isb(struct a64_model *m, uint32_t ci) { sequence_end(m, ci, "an ISB"); }
