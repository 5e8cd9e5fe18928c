#include "asm/insn.h"

static int64_t read_disp(const uint8_t *p, uint32_t size)
{
    if (size == 1)
        return (int8_t)p[0];
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

static bool decode_invpcid(const uint8_t *b, size_t avail, struct insn_decoded *d)
{
    size_t i = 1; /* after the 0x66 prefix */
    uint8_t rex = 0, modrm, mod, rm;
    uint32_t disp_size = 0;
    if (i < avail && (b[i] & 0xf0) == 0x40)
        rex = b[i++];
    if (i + 4 > avail || b[i] != 0x0f || b[i + 1] != 0x38 || b[i + 2] != 0x82)
        return false;
    i += 3;
    modrm = b[i++];
    mod = modrm >> 6;
    rm = modrm & 7;
    if (mod == 3)
        return false; /* a register operand is not a valid INVPCID */
    d->reg = ((modrm >> 3) & 7) | ((rex & 4) ? 8 : 0);
    d->index = INSN_REG_NONE;
    d->scale = 1;
    if (rm == 4) {
        uint8_t sib, idx, base;
        if (i >= avail)
            return false;
        sib = b[i++];
        d->scale = 1u << (sib >> 6);
        idx = ((sib >> 3) & 7) | ((rex & 2) ? 8 : 0);
        base = (sib & 7) | ((rex & 1) ? 8 : 0);
        d->index = idx == 4 ? INSN_REG_NONE : idx; /* index 100b without REX.X: none */
        if ((sib & 7) == 5 && mod == 0) {
            d->base = INSN_REG_NONE;
            disp_size = 4;
        } else {
            d->base = base;
        }
    } else if (rm == 5 && mod == 0) {
        d->base = INSN_REG_RIP;
        disp_size = 4;
    } else {
        d->base = rm | ((rex & 1) ? 8 : 0);
    }
    if (mod == 1)
        disp_size = 1;
    else if (mod == 2)
        disp_size = 4;
    if (i + disp_size > avail)
        return false;
    d->disp = disp_size ? read_disp(b + i, disp_size) : 0;
    i += disp_size;
    d->kind = INSN_INVPCID;
    d->length = (uint32_t)i;
    return true;
}

bool insn_decode(const uint8_t *b, size_t avail, struct insn_decoded *d)
{
    d->kind = INSN_UNKNOWN;
    d->length = 0;
    d->reg = d->base = d->index = INSN_REG_NONE;
    d->scale = 1;
    d->disp = 0;
    if (avail >= 3 && b[0] == 0x0f && b[1] == 0x01 && (b[2] == 0xfe || b[2] == 0xff)) {
        d->kind = b[2] == 0xfe ? INSN_INVLPGB : INSN_TLBSYNC;
        d->length = 3;
        return true;
    }
    if (avail >= 5 && b[0] == 0x66)
        return decode_invpcid(b, avail, d);
    return false;
}

uint64_t insn_effective_address(const struct insn_decoded *d, const uint64_t regs[16], uint64_t rip)
{
    uint64_t ea = (uint64_t)d->disp;
    if (d->base == INSN_REG_RIP)
        return rip + d->length + ea; /* relative to the next instruction */
    if (d->base != INSN_REG_NONE)
        ea += regs[d->base];
    if (d->index != INSN_REG_NONE)
        ea += regs[d->index] * d->scale;
    return ea;
}
