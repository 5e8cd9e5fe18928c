#include "asm/invlpgb.h"
#include "core/mutant.h"

#define VA_MASK 0xfffffffffffff000ull

struct invlpgb_op invlpgb_encode_range(uint64_t va, uint32_t pages, bool stride_2m, uint16_t pcid,
                                       bool use_pcid)
{
    struct invlpgb_op op;
    /* Linux's __invlpgb() sets ASID valid on every INVLPGB (asm/invlpgb.h) */
    uint32_t flags = INVLPGB_FLAG_VA | (MUTANT(invlpgb_asid_invalid) ? 0 : INVLPGB_FLAG_ASID) |
                     (use_pcid ? INVLPGB_FLAG_PCID : 0);
    op.rax = (va & VA_MASK) | flags;
    op.ecx = ((pages ? pages - 1 : 0) & 0xffffu) | (stride_2m ? INVLPGB_STRIDE_2M : 0);
    op.edx = ((uint32_t)(pcid & 0xfffu) << 16) | 0u /* ASID 0: the host */;
    return op;
}

struct invlpgb_op invlpgb_encode_pcid(uint16_t pcid)
{
    struct invlpgb_op op;
    op.rax = INVLPGB_FLAG_PCID | INVLPGB_FLAG_ASID;
    op.ecx = 0;
    op.edx = (uint32_t)(pcid & 0xfffu) << 16;
    return op;
}

void invlpgb_decode(const struct invlpgb_op *op, struct invlpgb_decoded *d)
{
    d->flags = (uint32_t)(op->rax & 0x3f);
    d->va = op->rax & VA_MASK;
    d->pages = (op->ecx & 0xffffu) + 1;
    d->stride_2m = (op->ecx & INVLPGB_STRIDE_2M) != 0;
    d->pcid = (uint16_t)((op->edx >> 16) & 0xfffu);
    d->asid = (uint16_t)(op->edx & 0xffffu);
}

void invlpgb_range_init(struct invlpgb_range *r, uint64_t start, uint32_t pages, bool stride_2m,
                        uint32_t max_pages, uint16_t pcid, bool use_pcid)
{
    r->next_va = start;
    r->left = pages;
    r->max_pages = max_pages;
    r->stride_2m = stride_2m;
    r->pcid = pcid;
    r->use_pcid = use_pcid;
    r->whole_pcid = false;
}

void invlpgb_flush_init(struct invlpgb_range *r, uint64_t start, uint32_t pages, bool stride_2m,
                        uint32_t max_pages, uint32_t ceiling, uint16_t pcid, bool use_pcid)
{
    invlpgb_range_init(r, start, pages, stride_2m, max_pages, pcid, use_pcid);
    r->whole_pcid = pages > ceiling;
}

bool invlpgb_range_next(struct invlpgb_range *r, struct invlpgb_op *op)
{
    uint64_t stride = r->stride_2m ? (1ull << 21) : (1ull << 12);
    uint32_t now;
    if (r->left == 0 || r->max_pages == 0)
        return false; /* covered, or no INVLPGB: nothing may be issued */
    if (r->whole_pcid) {
        /* without PCIDs, PCID 0: every non-global translation the CPU can use */
        *op = invlpgb_encode_pcid(r->use_pcid ? r->pcid : 0);
        r->left = 0;
        return true;
    }
    now = r->left < r->max_pages ? r->left : r->max_pages;
    *op = invlpgb_encode_range(r->next_va, now, r->stride_2m, r->pcid, r->use_pcid);
    r->next_va += stride * now;
    r->left -= now;
    return true;
}
