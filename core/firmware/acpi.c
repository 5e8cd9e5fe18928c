/* ACPI common header checks, the entry walker, and the RSDP -> XSDT/RSDT walk. */
#include "core/firmware/acpi_internal.h"
#include "core/lib/bytes.h"
#include "core/lib/mem.h"

/* System Description Table Header, ACPI 6.5 5.2.6 Table 5.4 */
#define HDR_LENGTH 4
#define HDR_REVISION 8
#define HDR_OEM_ID 10
#define HDR_OEM_TABLE_ID 16

/* RSDP, ACPI 6.5 5.2.5.3 Table 5.3 */
#define RSDP_V1_LEN 20 /* the part covered by Checksum */
#define RSDP_V2_LEN 36
#define RSDP_OEM_ID 9
#define RSDP_REVISION 15
#define RSDP_RSDT 16
#define RSDP_LENGTH 20
#define RSDP_XSDT 24
#define RSDP_MAX_LEN 1024 /* sanity bound on the RSDP Length field */

void acpi_msg(struct msg_list *msgs, const char *fmt, ...)
{
    va_list ap;
    if (!msgs)
        return;
    va_start(ap, fmt);
    msg_vadd(msgs, "acpi", fmt, ap);
    va_end(ap);
}

enum acpi_check acpi_check_header(const void *table, size_t avail, const char *signature)
{
    const uint8_t *t = table;
    uint32_t len;
    if (!t || avail < ACPI_HEADER_LEN)
        return ACPI_TOO_SHORT;
    if (signature && mem_cmp(t, signature, 4) != 0)
        return ACPI_BAD_SIGNATURE;
    len = le32_at(t + HDR_LENGTH);
    if (len < ACPI_HEADER_LEN || len > avail || len > ACPI_MAX_TABLE_LEN)
        return ACPI_BAD_LENGTH;
    if (byte_sum8(t, len) != 0)
        return ACPI_BAD_CHECKSUM;
    return ACPI_OK;
}

const char *acpi_check_text(enum acpi_check c)
{
    switch (c) {
    case ACPI_OK:
        return "ok";
    case ACPI_TOO_SHORT:
        return "shorter than the 36-byte header";
    case ACPI_BAD_SIGNATURE:
        return "wrong signature";
    case ACPI_BAD_LENGTH:
        return "header Length out of range";
    case ACPI_BAD_CHECKSUM:
        return "checksum does not add up to 0";
    }
    return "?";
}

uint32_t acpi_table_length(const void *table) { return le32_at((const uint8_t *)table + HDR_LENGTH); }

/* Signatures are 4 bytes of any value; print only the printable ones. */
static void signature_text(char out[5], const uint8_t *sig)
{
    int i;
    for (i = 0; i < 4; i++)
        out[i] = (sig[i] >= 0x20 && sig[i] <= 0x7e) ? (char)sig[i] : '?';
    out[4] = 0;
}

bool acpi_header_ok(const void *table, size_t len, const char *signature, uint32_t min_length,
                    struct msg_list *msgs)
{
    enum acpi_check c = acpi_check_header(table, len, signature);
    if (c == ACPI_OK && acpi_table_length(table) < min_length) {
        acpi_msg(msgs, "%s: Length %u is shorter than its fixed part (%u bytes); table ignored",
                 signature, acpi_table_length(table), min_length);
        return false;
    }
    if (c != ACPI_OK) {
        if (c == ACPI_BAD_LENGTH)
            acpi_msg(msgs, "%s: %s (Length %u, %zu bytes available); table ignored", signature,
                     acpi_check_text(c), acpi_table_length(table), len);
        else
            acpi_msg(msgs, "%s: %s; table ignored", signature, acpi_check_text(c));
        return false;
    }
    return true;
}

bool acpi_walk_entries(const uint8_t *table, uint32_t length, uint32_t first, const char *name,
                       acpi_entry_fn fn, void *ctx, struct msg_list *msgs)
{
    uint32_t off = first, index = 0;
    while (off < length) {
        uint32_t left = length - off;
        uint8_t type, elen;
        if (left < 2) {
            acpi_msg(msgs, "%s: %u stray byte(s) after the last entry at offset %u", name, left,
                     off);
            return false;
        }
        type = table[off];
        elen = table[off + 1];
        if (elen < 2) {
            /* a zero length would never advance: stop instead of looping */
            acpi_msg(msgs, "%s: entry %u (type %u) at offset %u has length %u; rest of the table "
                     "ignored", name, index, type, off, elen);
            return false;
        }
        if (elen > left) {
            acpi_msg(msgs, "%s: entry %u (type %u) at offset %u is %u bytes but only %u remain "
                     "in the table; rest ignored", name, index, type, off, elen, left);
            return false;
        }
        if (fn)
            fn(ctx, table + off, type, elen, off);
        off += elen;
        index++;
    }
    return true;
}

/* ---- RSDP and root table ---- */

/* Maps a whole table: its header first, then Length bytes. NULL with a message on failure. */
static const uint8_t *map_table(uint64_t phys, acpi_map_fn map, void *ctx, const char *what,
                                struct msg_list *msgs, uint32_t *length)
{
    const uint8_t *h = map(ctx, phys, ACPI_HEADER_LEN), *t;
    char sig[5];
    uint32_t len;
    enum acpi_check c;
    if (!h) {
        acpi_msg(msgs, "%s at 0x%llx cannot be read", what, (unsigned long long)phys);
        return NULL;
    }
    signature_text(sig, h);
    len = le32_at(h + HDR_LENGTH);
    if (len < ACPI_HEADER_LEN || len > ACPI_MAX_TABLE_LEN) {
        acpi_msg(msgs, "%s '%s' at 0x%llx: header Length %u out of range; table ignored", what,
                 sig, (unsigned long long)phys, len);
        return NULL;
    }
    t = map(ctx, phys, len);
    if (!t) {
        acpi_msg(msgs, "%s '%s' at 0x%llx (%u bytes) cannot be read", what, sig,
                 (unsigned long long)phys, len);
        return NULL;
    }
    c = acpi_check_header(t, len, NULL);
    if (c != ACPI_OK) {
        acpi_msg(msgs, "%s '%s' at 0x%llx: %s; table ignored", what, sig,
                 (unsigned long long)phys, acpi_check_text(c));
        return NULL;
    }
    *length = len;
    return t;
}

static struct acpi_table *slot_for(struct acpi_tables *out, const uint8_t *sig)
{
    if (mem_cmp(sig, "FACP", 4) == 0)
        return &out->fadt;
    if (mem_cmp(sig, "APIC", 4) == 0)
        return &out->madt;
    if (mem_cmp(sig, "SRAT", 4) == 0)
        return &out->srat;
    if (mem_cmp(sig, "SLIT", 4) == 0)
        return &out->slit;
    if (mem_cmp(sig, "DMAR", 4) == 0)
        return &out->dmar;
    if (mem_cmp(sig, "IVRS", 4) == 0)
        return &out->ivrs;
    return NULL;
}

/* XSDT (5.2.8): 64-bit entries; RSDT (5.2.7): 32-bit entries, both after the header. */
static bool walk_root(uint64_t phys, bool xsdt, acpi_map_fn map, void *ctx, struct acpi_tables *out,
                      struct msg_list *msgs)
{
    const char *name = xsdt ? "XSDT" : "RSDT";
    uint32_t len, entry_size = xsdt ? 8 : 4, n, i;
    const uint8_t *root = map_table(phys, map, ctx, name, msgs, &len);
    if (!root)
        return false;
    if (mem_cmp(root, xsdt ? "XSDT" : "RSDT", 4) != 0) {
        char sig[5];
        signature_text(sig, root);
        acpi_msg(msgs, "%s at 0x%llx has signature '%s'; ignored", name,
                 (unsigned long long)phys, sig);
        return false;
    }
    out->xsdt = xsdt;
    copy_printable(out->oem_id, sizeof(out->oem_id), root + HDR_OEM_ID, 6);
    copy_printable(out->oem_table_id, sizeof(out->oem_table_id), root + HDR_OEM_TABLE_ID, 8);
    n = (len - ACPI_HEADER_LEN) / entry_size;
    if ((len - ACPI_HEADER_LEN) % entry_size)
        acpi_msg(msgs, "%s: Length %u leaves a partial entry; it is ignored", name, len);
    if (n > ACPI_ROOT_MAX_ENTRIES) {
        acpi_msg(msgs, "%s lists %u tables; only the first %u are looked at", name, n,
                 ACPI_ROOT_MAX_ENTRIES);
        n = ACPI_ROOT_MAX_ENTRIES;
    }
    out->root_entries = n;
    for (i = 0; i < n; i++) {
        const uint8_t *e = root + ACPI_HEADER_LEN + i * entry_size;
        uint64_t addr = xsdt ? le64_at(e) : le32_at(e);
        const uint8_t *h, *t;
        struct acpi_table *slot;
        char what[16];
        uint32_t tlen;
        if (!addr)
            continue;
        h = map(ctx, addr, ACPI_HEADER_LEN);
        if (!h) {
            acpi_msg(msgs, "%s entry %u (0x%llx) cannot be read", name, i,
                     (unsigned long long)addr);
            continue;
        }
        slot = slot_for(out, h);
        if (!slot || slot->data)
            continue; /* not wanted, or a second copy: the first one counts */
        signature_text(what, h);
        t = map_table(addr, map, ctx, what, msgs, &tlen);
        if (!t)
            continue;
        slot->data = t;
        slot->length = tlen;
        slot->phys = addr;
    }
    return true;
}

bool acpi_find_tables(uint64_t rsdp_phys, acpi_map_fn map, void *ctx, struct acpi_tables *out,
                      struct msg_list *msgs)
{
    const uint8_t *p;
    uint64_t xsdt = 0;
    uint32_t rsdt;
    mem_zero(out, sizeof(*out));
    p = map(ctx, rsdp_phys, RSDP_V1_LEN);
    if (!p) {
        acpi_msg(msgs, "RSDP at 0x%llx cannot be read", (unsigned long long)rsdp_phys);
        return false;
    }
    if (mem_cmp(p, "RSD PTR ", 8) != 0) {
        acpi_msg(msgs, "RSDP at 0x%llx lacks the 'RSD PTR ' signature",
                 (unsigned long long)rsdp_phys);
        return false;
    }
    if (byte_sum8(p, RSDP_V1_LEN) != 0) {
        acpi_msg(msgs, "RSDP checksum (first 20 bytes) does not add up to 0; ACPI ignored");
        return false;
    }
    out->rsdp_revision = p[RSDP_REVISION];
    copy_printable(out->rsdp_oem_id, sizeof(out->rsdp_oem_id), p + RSDP_OEM_ID, 6);
    rsdt = le32_at(p + RSDP_RSDT);
    if (out->rsdp_revision >= 2) {
        /* ACPI 2.0+: Length and XsdtAddress, covered by the Extended Checksum */
        const uint8_t *p2 = map(ctx, rsdp_phys, RSDP_V2_LEN);
        uint32_t len = p2 ? le32_at(p2 + RSDP_LENGTH) : 0;
        if (p2 && len >= RSDP_V2_LEN && len <= RSDP_MAX_LEN)
            p2 = map(ctx, rsdp_phys, len);
        if (!p2 || len < RSDP_V2_LEN || len > RSDP_MAX_LEN)
            acpi_msg(msgs, "RSDP revision %u: Length %u out of range; using the RSDT",
                     out->rsdp_revision, len);
        else if (byte_sum8(p2, len) != 0)
            acpi_msg(msgs, "RSDP extended checksum does not add up to 0; using the RSDT");
        else
            xsdt = le64_at(p2 + RSDP_XSDT);
    }
    /* Prefer the XSDT (5.2.5.3: OSPM uses it when present); fall back to the RSDT. */
    if (xsdt && walk_root(xsdt, true, map, ctx, out, msgs))
        return true;
    if (rsdt && walk_root(rsdt, false, map, ctx, out, msgs))
        return true;
    acpi_msg(msgs, "no usable XSDT or RSDT; ACPI tables not read");
    return false;
}
