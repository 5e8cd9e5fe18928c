/*
 * ACPI and SMBIOS tables from the UEFI configuration table: see acpi.h.
 * Tables are byte-packed and XSDT entries are only 4-byte aligned, so every
 * multi-byte field is read byte by byte (rd) rather than through packed
 * structs: an unaligned 64-bit load faults if firmware has SCTLR.A set, and
 * is slower either way.
 */
#include "efi/arm64/acpi.h"

#include "core/lib/mem.h"

static const EFI_GUID acpi20_guid = { 0x8868e871, 0xe4f1, 0x11d3, { 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
/* SMBIOS 3.0 entry point (UEFI 2.10, "EFI Configuration Table & Properties Table": SMBIOS3_TABLE_GUID) */
static const EFI_GUID smbios3_guid = { 0xf2fd1544, 0x9794, 0x4a2c, { 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 } };

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int sig_is(const uint8_t *p, const char *s)
{
    for (unsigned i = 0; s[i]; i++)
        if (p[i] != (uint8_t)s[i])
            return 0;
    return 1;
}

static int guid_eq(const EFI_GUID *a, const EFI_GUID *b)
{
    const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
    for (unsigned i = 0; i < sizeof *a; i++)
        if (x[i] != y[i])
            return 0;
    return 1;
}

static int checksum_ok(const uint8_t *p, uint32_t len)
{
    uint8_t sum = 0;
    for (uint32_t i = 0; i < len; i++)
        sum += p[i];
    return sum == 0;
}

/* MADT (ACPI 6.5, "Multiple APIC Description Table"): 36-byte header, 4 bytes local interrupt controller
 * address, 4 bytes flags, then type/length records. */
static void parse_madt(const uint8_t *madt, struct fw_tables *ai)
{
    uint32_t len = (uint32_t)rd(madt + 4, 4);
    for (uint32_t off = 44; off + 2 <= len;) {
        const uint8_t *e = madt + off;
        uint8_t type = e[0], elen = e[1];
        if (elen < 2)
            break;
        switch (type) {
        case 0xB: /* GICC: "GIC CPU Interface (GICC) Structure" */
            if (elen < 76)
                break;
            if (ai->ncpus >= ACPI_MAX_CPUS) {
                ai->ncpus_dropped++;
                break;
            }
            {
                struct acpi_gicc *c = &ai->cpu[ai->ncpus++];
                c->uid = (uint32_t)rd(e + 8, 4);
                c->flags = (uint32_t)rd(e + 12, 4);
                c->gicr_base = rd(e + 60, 8);
                c->gicc_base = rd(e + 32, 8);
                c->mpidr = rd(e + 68, 8);
            }
            break;
        case 0xC: /* GICD: "GIC Distributor (GICD) Structure" */
            ai->gicd_base = rd(e + 8, 8);
            ai->gic_version = e[20];
            break;
        case 0xE: /* "GIC Redistributor (GICR) Structure": a discovery range */
            /* every one: a server has one per socket or die */
            if (elen < 16)
                break;
            if (ai->ngicr >= GIC_MAX_REDIST_RANGES) {
                ai->ngicr_dropped++;
                break;
            }
            ai->gicr[ai->ngicr].base = rd(e + 4, 8);
            ai->gicr[ai->ngicr++].len = rd(e + 12, 4);
            break;
        default:
            break;
        }
        off += elen;
    }
}

static void parse_xsdt(const uint8_t *xsdt, struct fw_tables *ai)
{
    uint32_t xlen = (uint32_t)rd(xsdt + 4, 4), off;
    for (off = 36; off + 8 <= xlen; off += 8) {
        const uint8_t *t = (const uint8_t *)rd(xsdt + off, 8);
        if (!t)
            continue;
        if (sig_is(t, "APIC")) {
            parse_madt(t, ai);
            ai->have_madt = true;
        } else if (sig_is(t, "FACP")) {
            /* ARM_BOOT_ARCH: 2 bytes at offset 129 (FADT revision 5.1 and later) */
            if (rd(t + 4, 4) >= 131) {
                ai->arm_boot_flags = (uint16_t)rd(t + 129, 2);
                ai->have_fadt = true;
            }
        } else if (sig_is(t, "PPTT")) {
            ai->pptt = t;
        } else if (sig_is(t, "SRAT")) {
            ai->srat = t;
        } else if (sig_is(t, "SPCR")) {
            /* base address: Generic Address Structure at 40, its 64-bit address at 44 */
            ai->uart_base = rd(t + 44, 8);
        }
    }
}

/* string number n (1-based) of an SMBIOS structure, copied printable ASCII; "" if none */
static void sm_string(const uint8_t *s, const uint8_t *end, unsigned n, char *out, size_t cap)
{
    const char *p = (const char *)s + s[1];
    size_t i = 0;
    out[0] = 0;
    if (n == 0)
        return;
    while (--n && (const uint8_t *)p < end) {
        while ((const uint8_t *)p < end && *p)
            p++;
        p++;
    }
    for (; (const uint8_t *)p < end && *p && i + 1 < cap; p++)
        out[i++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    out[i] = 0;
}

/* SMBIOS 3.0: anchor "_SM3_", structure table address at 0x10, maximum size at
 * 0x0c; type 1 "System Information": Manufacturer string at 0x04, Product at 0x05 */
static void parse_smbios3(const uint8_t *ep, struct fw_tables *ai)
{
    const uint8_t *p, *end;
    if (!sig_is(ep, "_SM3_"))
        return;
    p = (const uint8_t *)rd(ep + 0x10, 8);
    end = p + rd(ep + 0x0c, 4);
    ai->have_smbios = true;
    while (p + 4 <= end && p[0] != 127) {
        const uint8_t *next = p + p[1];
        if (p[1] < 4)
            return;
        while (next + 1 < end && (next[0] || next[1]))
            next++;
        if (p[0] == 1 && p[1] >= 6) {
            sm_string(p, next, p[4], ai->sm_manufacturer, sizeof(ai->sm_manufacturer));
            sm_string(p, next, p[5], ai->sm_product, sizeof(ai->sm_product));
            return;
        }
        p = next + 2;
    }
}

void fw_tables_read(EFI_SYSTEM_TABLE *st, struct fw_tables *ai)
{
    const uint8_t *rsdp = 0, *xsdt;
    uint64_t i;
    mem_zero(ai, sizeof(*ai));
    for (i = 0; i < st->NumberOfTableEntries; i++) {
        if (guid_eq(&st->ConfigurationTable[i].VendorGuid, &acpi20_guid))
            rsdp = st->ConfigurationTable[i].VendorTable;
        else if (guid_eq(&st->ConfigurationTable[i].VendorGuid, &smbios3_guid))
            parse_smbios3(st->ConfigurationTable[i].VendorTable, ai);
    }
    if (!rsdp || !sig_is(rsdp, "RSD PTR ") || rsdp[15] < 2)
        return;
    ai->have_rsdp = true;
    /* OEMID: 6 bytes at offset 9 ("BOCHS " under QEMU) */
    for (i = 0; i < 6; i++)
        ai->oem_id[i] = (rsdp[9 + i] >= 0x20 && rsdp[9 + i] < 0x7f) ? (char)rsdp[9 + i] : '?';
    ai->oem_id[6] = 0;
    /* RSDP revision 2: XsdtAddress at offset 24 (ACPI 6.5, "Root System Description Pointer (RSDP) Structure") */
    xsdt = (const uint8_t *)rd(rsdp + 24, 8);
    if (xsdt && sig_is(xsdt, "XSDT") && checksum_ok(xsdt, (uint32_t)rd(xsdt + 4, 4)))
        parse_xsdt(xsdt, ai);
}
