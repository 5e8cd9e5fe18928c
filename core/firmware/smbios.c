/* SMBIOS entry points, the bounded structure walk, and string lookup (DSP0134 3.x). */
#include "core/firmware/smbios.h"
#include "core/lib/bytes.h"
#include "core/lib/mem.h"

/* 2.1 (32-bit) entry point, 5.2.1 Table 1 */
#define EP2_CHECKSUM_LEN 5 /* u8 Entry Point Length at offset 5; checksum at 4 covers it all */
#define EP2_MAJOR 6
#define EP2_MINOR 7
#define EP2_DMI_ANCHOR 0x10      /* "_DMI_" */
#define EP2_DMI_LEN 15           /* the intermediate checksum covers 0x10..0x1e */
#define EP2_TABLE_LENGTH 0x16    /* u16 */
#define EP2_TABLE_ADDRESS 0x18   /* u32 */
#define EP2_STRUCTURES 0x1c      /* u16 */
/* An SMBIOS 2.1 erratum gave the Entry Point Length as 0x1e for the 0x1f-byte
 * structure; dmidecode accepts it too (the checksum then covers 0x1e bytes). */
#define EP2_MIN_LEN_FIELD 0x1e

/* 3.0 (64-bit) entry point, 5.2.2 Table 2 */
#define EP3_LENGTH 6
#define EP3_MAJOR 7
#define EP3_MINOR 8
#define EP3_DOCREV 9
#define EP3_MAX_SIZE 0x0c        /* u32 Structure Table Maximum Size */
#define EP3_TABLE_ADDRESS 0x10   /* u64 */
#define EP_MAX_LEN 0x40          /* sanity bound on the Entry Point Length byte */

#define TYPE_END 127             /* 7.45 End-of-Table */
#define STRUCT_HEADER_LEN 4      /* type, length, handle: 6.1.2 */

static void smbios_msg(struct msg_list *msgs, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void smbios_msg(struct msg_list *msgs, const char *fmt, ...)
{
    va_list ap;
    if (!msgs)
        return;
    va_start(ap, fmt);
    msg_vadd(msgs, "smbios", fmt, ap);
    va_end(ap);
}

static bool parse_ep3(const uint8_t *p, size_t avail, struct smbios_entry *out,
                      struct msg_list *msgs)
{
    uint8_t len;
    if (avail < SMBIOS3_EP_LEN) {
        smbios_msg(msgs, "_SM3_ entry point: only %zu bytes readable", avail);
        return false;
    }
    len = p[EP3_LENGTH];
    if (len < SMBIOS3_EP_LEN || len > avail) {
        smbios_msg(msgs, "_SM3_ entry point: length %u out of range (24..%zu)", len, avail);
        return false;
    }
    if (byte_sum8(p, len) != 0) {
        smbios_msg(msgs, "_SM3_ entry point checksum does not add up to 0; SMBIOS ignored");
        return false;
    }
    out->is_64 = true;
    out->major = p[EP3_MAJOR];
    out->minor = p[EP3_MINOR];
    out->docrev = p[EP3_DOCREV];
    out->table_len = le32_at(p + EP3_MAX_SIZE);
    out->table_phys = le64_at(p + EP3_TABLE_ADDRESS);
    out->max_structures = 0;
    return true;
}

static bool parse_ep2(const uint8_t *p, size_t avail, struct smbios_entry *out,
                      struct msg_list *msgs)
{
    uint8_t len;
    if (avail < SMBIOS2_EP_LEN) {
        smbios_msg(msgs, "_SM_ entry point: only %zu bytes readable", avail);
        return false;
    }
    len = p[EP2_CHECKSUM_LEN];
    if (len < EP2_MIN_LEN_FIELD || len > avail || len > EP_MAX_LEN) {
        smbios_msg(msgs, "_SM_ entry point: length %u out of range (30..%zu)", len, avail);
        return false;
    }
    if (byte_sum8(p, len) != 0) {
        smbios_msg(msgs, "_SM_ entry point checksum does not add up to 0; SMBIOS ignored");
        return false;
    }
    if (mem_cmp(p + EP2_DMI_ANCHOR, "_DMI_", 5) != 0) {
        smbios_msg(msgs, "_SM_ entry point lacks the _DMI_ intermediate anchor; SMBIOS ignored");
        return false;
    }
    if (byte_sum8(p + EP2_DMI_ANCHOR, EP2_DMI_LEN) != 0) {
        smbios_msg(msgs, "_DMI_ intermediate checksum does not add up to 0; SMBIOS ignored");
        return false;
    }
    out->is_64 = false;
    out->major = p[EP2_MAJOR];
    out->minor = p[EP2_MINOR];
    out->docrev = 0;
    out->table_len = le16_at(p + EP2_TABLE_LENGTH);
    out->table_phys = le32_at(p + EP2_TABLE_ADDRESS);
    out->max_structures = le16_at(p + EP2_STRUCTURES);
    return true;
}

bool smbios_parse_entry_point(const void *ep, size_t avail, struct smbios_entry *out,
                              struct msg_list *msgs)
{
    const uint8_t *p = ep;
    mem_zero(out, sizeof(*out));
    if (p && avail >= 5 && mem_cmp(p, "_SM3_", 5) == 0)
        return parse_ep3(p, avail, out, msgs);
    if (p && avail >= 4 && mem_cmp(p, "_SM_", 4) == 0)
        return parse_ep2(p, avail, out, msgs);
    smbios_msg(msgs, "no _SM3_ or _SM_ anchor at the SMBIOS entry point; SMBIOS ignored");
    return false;
}

bool smbios_walk(const void *table, size_t len, uint32_t max_structures, smbios_struct_fn fn,
                 void *ctx, struct msg_list *msgs)
{
    const uint8_t *t = table;
    size_t off = 0;
    uint32_t count = 0;
    if (!max_structures || max_structures > SMBIOS_MAX_STRUCTURES)
        max_structures = SMBIOS_MAX_STRUCTURES;
    while (count < max_structures) {
        struct smbios_struct s;
        size_t str, end;
        if (len - off < STRUCT_HEADER_LEN) {
            if (len - off)
                smbios_msg(msgs, "structure %u at offset %zu: table ends inside its header "
                           "(%zu bytes left)", count, off, len - off);
            /* a 3.x table is only bounded by its maximum size; a 2.x one should not end here */
            return len == off;
        }
        s.type = t[off];
        s.length = t[off + 1];
        s.handle = le16_at(t + off + 2);
        s.offset = (uint32_t)off;
        if (s.length < STRUCT_HEADER_LEN) {
            smbios_msg(msgs, "structure %u (type %u, handle 0x%04x) at offset %zu has length %u; "
                       "rest of the table ignored", count, s.type, s.handle, off, s.length);
            return false;
        }
        if (s.length > len - off) {
            smbios_msg(msgs, "structure %u (type %u, handle 0x%04x) at offset %zu: %u-byte "
                       "formatted area runs past the table end (%zu); rest ignored", count,
                       s.type, s.handle, off, s.length, len);
            return false;
        }
        /* the string set ends at the first double NUL (6.1.3); two NULs when there are none */
        str = off + s.length;
        end = str;
        while (end + 1 < len && !(t[end] == 0 && t[end + 1] == 0))
            end++;
        if (end + 1 >= len) {
            smbios_msg(msgs, "structure %u (type %u, handle 0x%04x) at offset %zu: string set "
                       "has no double-NUL terminator before the table end; rest ignored", count,
                       s.type, s.handle, off);
            return false;
        }
        s.data = t + off;
        s.strings = (const char *)(t + str);
        s.strings_len = (uint32_t)(end + 2 - str);
        count++;
        if (fn && !fn(ctx, &s))
            return true;
        if (s.type == TYPE_END)
            return true;
        off = end + 2;
    }
    return true;
}

uint32_t smbios_string_count(const struct smbios_struct *s)
{
    uint32_t i, n = 0;
    /* strings_len - 1 skips the set's final NUL; an empty set is "\0\0" */
    if (s->strings_len <= 2 && s->strings[0] == 0)
        return 0;
    for (i = 0; i + 1 < s->strings_len; i++)
        if (s->strings[i] == 0)
            n++;
    return n;
}

const char *smbios_string(const struct smbios_struct *s, uint8_t index)
{
    uint32_t i = 0, n = 1;
    if (index == 0 || (s->strings_len <= 2 && s->strings[0] == 0))
        return NULL;
    while (n < index) {
        while (i + 1 < s->strings_len && s->strings[i])
            i++;
        i++; /* past the NUL */
        if (i + 1 >= s->strings_len)
            return NULL; /* reached the set's final NUL */
        n++;
    }
    return s->strings + i;
}

const void *smbios_map_table(uint64_t ep_phys, smbios_map_fn map, void *ctx,
                             struct smbios_entry *ep_out, struct msg_list *msgs)
{
    struct smbios_entry ep;
    const uint8_t *p = map(ctx, ep_phys, 5), *table;
    size_t want, len_at;
    bool is3;
    if (!p) {
        smbios_msg(msgs, "entry point at 0x%llx cannot be read", (unsigned long long)ep_phys);
        return NULL;
    }
    /* map the fixed size first, then the Entry Point Length the firmware gives */
    is3 = mem_cmp(p, "_SM3_", 5) == 0;
    len_at = is3 ? EP3_LENGTH : EP2_CHECKSUM_LEN;
    want = is3 ? SMBIOS3_EP_LEN : SMBIOS2_EP_LEN;
    p = map(ctx, ep_phys, want);
    if (p && p[len_at] > want && p[len_at] <= EP_MAX_LEN) {
        want = p[len_at];
        p = map(ctx, ep_phys, want);
    }
    if (!p || !smbios_parse_entry_point(p, want, &ep, msgs)) {
        if (!p)
            smbios_msg(msgs, "entry point at 0x%llx cannot be read", (unsigned long long)ep_phys);
        return NULL;
    }
    if (ep.table_len == 0 || ep.table_len > SMBIOS_MAX_TABLE_LEN) {
        smbios_msg(msgs, "structure table length %u out of range; SMBIOS ignored", ep.table_len);
        return NULL;
    }
    table = map(ctx, ep.table_phys, ep.table_len);
    if (!table) {
        smbios_msg(msgs, "structure table at 0x%llx (%u bytes) cannot be read",
                   (unsigned long long)ep.table_phys, ep.table_len);
        return NULL;
    }
    *ep_out = ep;
    return table;
}
