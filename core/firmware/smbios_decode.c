/* SMBIOS types 0, 1, 2 and 4 -> struct smbios_info (DSP0134 3.x, chapter 7), and smbios_read(),
 * which maps the table through core/firmware/smbios.c and decodes it. */
#include "core/lib/bytes.h"
#include "core/lib/mem.h"
#include "core/firmware/smbios.h"

/* 7.1 BIOS Information (type 0): string numbers of Vendor, Version, Release Date */
#define T0_VENDOR 0x04
#define T0_VERSION 0x05
#define T0_DATE 0x08
/* 7.2 System Information (type 1) */
#define T1_MANUFACTURER 0x04
#define T1_PRODUCT 0x05
#define T1_VERSION 0x06
#define T1_SERIAL 0x07
#define T1_UUID 0x08 /* 16 bytes, SMBIOS 2.1+ */
/* 7.3 Baseboard Information (type 2) */
#define T2_MANUFACTURER 0x04
#define T2_PRODUCT 0x05
#define T2_VERSION 0x06
/* 7.5 Processor Information (type 4) */
#define T4_SOCKET 0x04
#define T4_MANUFACTURER 0x07
#define T4_ID 0x08            /* 8 bytes: CPUID 1 EAX then EDX (7.5.3) */
#define T4_VERSION 0x10
#define T4_MAX_SPEED 0x14     /* u16 MHz, 0 unknown */
#define T4_STATUS 0x18        /* bit 6: socket populated (7.5.?, Table 21) */
#define T4_CORE_COUNT 0x23    /* 2.5+ */
#define T4_THREAD_COUNT 0x25  /* 2.5+ */
#define T4_CORE_COUNT2 0x2a   /* u16, 3.0+: holds the count when Core Count is FFh (7.5.22) */
#define T4_THREAD_COUNT2 0x2e /* u16, 3.0+: holds the count when Thread Count is FFh (7.5.24) */

#define STATUS_POPULATED (1u << 6)
#define COUNT_USE_WIDE 0xff

struct decode_ctx {
    struct smbios_info *out;
    struct msg_list *msgs;
    bool seen_bios, seen_system, seen_board;
    uint32_t bad_strings;
};

/* A field that the structure is long enough to have. */
static bool has(const struct smbios_struct *s, uint32_t offset, uint32_t size)
{
    return offset + size <= s->length;
}

/*
 * Copies string field `at` into dst. Whatever the firmware wrote is kept
 * (placeholders such as "To Be Filled By O.E.M." included); only control
 * and non-ASCII bytes become spaces and the padding around the text goes.
 */
static void get_string(struct decode_ctx *c, const struct smbios_struct *s, uint32_t at,
                       char *dst, size_t cap, const char *field)
{
    const char *v;
    uint8_t index;
    dst[0] = 0;
    if (!has(s, at, 1))
        return;
    index = s->data[at];
    if (index == 0)
        return; /* 6.1.3: 0 means "no string" */
    v = smbios_string(s, index);
    if (!v) {
        if (c->bad_strings++ < 8 && c->msgs)
            msg_add(c->msgs, "smbios",
                    "type %u (handle 0x%04x): %s refers to string %u but the structure has %u; "
                    "left empty", s->type, s->handle, field, index, smbios_string_count(s));
        return;
    }
    copy_printable(dst, cap, (const uint8_t *)v, str_len(v));
}

static void decode_bios(struct decode_ctx *c, const struct smbios_struct *s)
{
    struct smbios_info *o = c->out;
    get_string(c, s, T0_VENDOR, o->bios_vendor, sizeof(o->bios_vendor), "BIOS Vendor");
    get_string(c, s, T0_VERSION, o->bios_version, sizeof(o->bios_version), "BIOS Version");
    get_string(c, s, T0_DATE, o->bios_date, sizeof(o->bios_date), "BIOS Release Date");
}

static void decode_system(struct decode_ctx *c, const struct smbios_struct *s)
{
    struct smbios_info *o = c->out;
    get_string(c, s, T1_MANUFACTURER, o->sys_manufacturer, sizeof(o->sys_manufacturer),
               "Manufacturer");
    get_string(c, s, T1_PRODUCT, o->sys_product, sizeof(o->sys_product), "Product Name");
    get_string(c, s, T1_VERSION, o->sys_version, sizeof(o->sys_version), "Version");
    get_string(c, s, T1_SERIAL, o->sys_serial, sizeof(o->sys_serial), "Serial Number");
    if (has(s, T1_UUID, 16)) {
        /* 7.2.1: all 00h "not settable", all FFh "not present" */
        bool all0 = true, allff = true;
        uint32_t i;
        for (i = 0; i < 16; i++) {
            all0 &= s->data[T1_UUID + i] == 0x00;
            allff &= s->data[T1_UUID + i] == 0xff;
        }
        o->has_uuid = !all0 && !allff;
        if (o->has_uuid)
            mem_copy(o->uuid, s->data + T1_UUID, 16);
    }
}

static void decode_board(struct decode_ctx *c, const struct smbios_struct *s)
{
    struct smbios_info *o = c->out;
    get_string(c, s, T2_MANUFACTURER, o->board_manufacturer, sizeof(o->board_manufacturer),
               "Manufacturer");
    get_string(c, s, T2_PRODUCT, o->board_product, sizeof(o->board_product), "Product");
    get_string(c, s, T2_VERSION, o->board_version, sizeof(o->board_version), "Version");
}

/* A count byte of FFh means "see the 16-bit field" when the structure has it (3.0+). */
static uint32_t count_field(const struct smbios_struct *s, uint32_t byte_at, uint32_t word_at)
{
    uint32_t v;
    if (!has(s, byte_at, 1))
        return 0;
    v = s->data[byte_at];
    if (v == COUNT_USE_WIDE && has(s, word_at, 2))
        v = le16_at(s->data + word_at);
    return v;
}

static void decode_processor(struct decode_ctx *c, const struct smbios_struct *s)
{
    struct smbios_info *o = c->out;
    struct smbios_processor *p;
    uint32_t index = o->socket_count++;
    if (index >= FW_MAX_SOCKETS)
        return; /* counted, not kept */
    p = &o->sockets[index];
    mem_zero(p, sizeof(*p));
    get_string(c, s, T4_SOCKET, p->socket, sizeof(p->socket), "Socket Designation");
    get_string(c, s, T4_MANUFACTURER, p->manufacturer, sizeof(p->manufacturer),
               "Processor Manufacturer");
    get_string(c, s, T4_VERSION, p->version, sizeof(p->version), "Processor Version");
    if (has(s, T4_ID, 8))
        mem_copy(p->id, s->data + T4_ID, 8);
    if (has(s, T4_MAX_SPEED, 2))
        p->max_speed_mhz = le16_at(s->data + T4_MAX_SPEED);
    if (has(s, T4_STATUS, 1))
        p->populated = (s->data[T4_STATUS] & STATUS_POPULATED) != 0;
    p->core_count = count_field(s, T4_CORE_COUNT, T4_CORE_COUNT2);
    p->thread_count = count_field(s, T4_THREAD_COUNT, T4_THREAD_COUNT2);
}

static bool decode_one(void *vctx, const struct smbios_struct *s)
{
    struct decode_ctx *c = vctx;
    c->out->structures++;
    switch (s->type) {
    case 0:
        if (!c->seen_bios)
            decode_bios(c, s);
        c->seen_bios = true;
        break;
    case 1:
        if (!c->seen_system)
            decode_system(c, s);
        c->seen_system = true;
        break;
    case 2:
        if (!c->seen_board)
            decode_board(c, s);
        c->seen_board = true;
        break;
    case 4:
        decode_processor(c, s);
        break;
    default:
        break;
    }
    return true;
}

bool smbios_decode_table(const void *table, size_t len, const struct smbios_entry *ep,
                         struct smbios_info *out, struct msg_list *msgs)
{
    struct decode_ctx c;
    bool ok;
    mem_zero(out, sizeof(*out));
    mem_zero(&c, sizeof(c));
    c.out = out;
    c.msgs = msgs;
    out->present = true;
    out->major = ep->major;
    out->minor = ep->minor;
    out->entry_point_64 = ep->is_64;
    ok = smbios_walk(table, len, ep->max_structures, decode_one, &c, msgs);
    if (c.bad_strings > 8 && msgs)
        msg_add(msgs, "smbios", "%u more string references beyond their structure's strings",
                c.bad_strings - 8);
    return ok;
}

bool smbios_read(uint64_t ep_phys, smbios_map_fn map, void *ctx, struct smbios_info *out,
                 struct msg_list *msgs)
{
    struct smbios_entry ep;
    const void *table;
    mem_zero(out, sizeof(*out));
    table = smbios_map_table(ep_phys, map, ctx, &ep, msgs);
    return table && smbios_decode_table(table, ep.table_len, &ep, out, msgs);
}
