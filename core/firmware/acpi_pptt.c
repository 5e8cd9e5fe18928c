/* The PPTT's processor hierarchy nodes above one processor: see acpi_pptt.h. */
#include "core/firmware/acpi_pptt.h"
#include "core/firmware/acpi_internal.h"
#include "core/lib/bytes.h"
#include "core/lib/mem.h"

/* Processor Hierarchy Node (ACPI 6.5, Table 5.157): Type 0, Length, 2 reserved, then */
#define NODE_TYPE 0
#define NODE_FLAGS 4
#define NODE_PARENT 8
#define NODE_ID 12
#define NODE_MIN_LEN 20 /* up to "Number of Private Resources" */
#define MAX_DEPTH 16    /* levels followed up a parent chain: more is a loop */

struct find {
    uint32_t uid, candidate, found; /* found: the leaf's offset, 0 while none */
    const uint8_t *table;
    uint32_t length;
};

/* the node at `off` if it is a well-formed hierarchy node within the table, else NULL */
static const uint8_t *node_at(const uint8_t *t, uint32_t length, uint32_t off)
{
    if (off < ACPI_HEADER_LEN || off > length || length - off < NODE_MIN_LEN)
        return NULL;
    if (t[off] != NODE_TYPE || t[off + 1] < NODE_MIN_LEN || t[off + 1] > length - off)
        return NULL;
    return t + off;
}

/* one entry: does any node name the candidate as its parent? */
static void names_parent(void *ctx, const uint8_t *e, uint8_t type, uint8_t elen, uint32_t off)
{
    struct find *f = ctx;
    (void)off;
    if (type == NODE_TYPE && elen >= NODE_MIN_LEN && le32_at(e + NODE_PARENT) == f->candidate)
        f->candidate = 0;
}

/* one entry: the leaf of uid, the first found */
static void find_leaf(void *ctx, const uint8_t *e, uint8_t type, uint8_t elen, uint32_t off)
{
    struct find *f = ctx;
    uint32_t flags;
    if (f->found || type != NODE_TYPE || elen < NODE_MIN_LEN)
        return;
    flags = le32_at(e + NODE_FLAGS);
    if (!(flags & PPTT_ID_VALID) || le32_at(e + NODE_ID) != f->uid)
        return;
    f->candidate = off;
    /* a cluster or package may carry a valid ID from the same number space: only a node
     * with no children is the processor */
    if (!(flags & PPTT_LEAF))
        acpi_walk_entries(f->table, f->length, ACPI_HEADER_LEN, "PPTT", names_parent, f, NULL);
    if (f->candidate)
        f->found = off;
}

bool acpi_pptt_cpu(const uint8_t *pptt, size_t len, uint32_t uid, struct pptt_cpu *out, struct msg_list *msgs)
{
    struct find f;
    uint32_t chain[MAX_DEPTH], depth = 0, off, i;
    const uint8_t *n;
    mem_zero(out, sizeof(*out));
    if (!acpi_header_ok(pptt, len, "PPTT", ACPI_HEADER_LEN, msgs))
        return false;
    mem_zero(&f, sizeof(f));
    f.uid = uid;
    f.table = pptt;
    f.length = acpi_table_length(pptt);
    if (!acpi_walk_entries(pptt, f.length, ACPI_HEADER_LEN, "PPTT", find_leaf, &f, msgs))
        return false;
    if (!f.found) {
        acpi_msg(msgs, "PPTT: no processor node for ACPI Processor UID %u", uid);
        return false;
    }
    /* the chain from the leaf up to the root (Parent 0) */
    for (off = f.found; off; off = le32_at(n + NODE_PARENT)) {
        if (depth == MAX_DEPTH || !(n = node_at(pptt, f.length, off))) {
            acpi_msg(msgs, "PPTT: UID %u's parent chain %s at offset %u", uid,
                     depth == MAX_DEPTH ? "loops" : "leaves the table or its nodes", off);
            return false;
        }
        chain[depth++] = off;
    }
    out->leaf = chain[0];
    out->thread = (le32_at(pptt + chain[0] + NODE_FLAGS) & PPTT_THREAD) != 0 && depth > 1;
    i = out->thread ? 1 : 0; /* the core's place in the chain */
    out->core = chain[i];
    out->package = chain[depth - 1];
    for (off = i; off < depth; off++)
        if (le32_at(pptt + chain[off] + NODE_FLAGS) & PPTT_PHYSICAL_PACKAGE) {
            out->package = chain[off];
            break;
        }
    out->cluster = i + 1 < depth && chain[i + 1] != out->package && chain[i] != out->package ? chain[i + 1] : 0;
    return true;
}
