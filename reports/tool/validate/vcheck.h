/*
 * Typed member checks for the validator. Each check looks at obj[key],
 * reports what is wrong at the member's JSON path, and returns what it found
 * (NULL / false when missing, null or of the wrong type), so a section
 * validator reads as a list of the schema's fields.
 */
#ifndef TLBSCOPE_REPORT_VCHECK_H
#define TLBSCOPE_REPORT_VCHECK_H

#include <jansson.h>
#include <stdbool.h>

#include "reports/tool/validate/diag.h"
#include "reports/tool/validate/jpath.h"

#define VF_NULLABLE 1u /* null is a valid value */
#define VF_OPTIONAL 2u /* the key may be absent */

struct vpoints;

struct vctx {
    struct diag_list *diags;
    const struct vpoints *points; /* NULL: every point is in the document (validate.h) */
    size_t exp_index;             /* the experiment being checked */
    struct jpath path; /* of the object being checked */
    long long cpu_count; /* topology.cpus length, -1 until known */
    bool aarch64;        /* top-level architecture (absent: x86_64) */
    bool hypervisor;     /* aarch64: cpu.hypervisor names one */
    bool e0pd_known, e0pd; /* aarch64: cpu.features.e0pd is there, and its value */
    long long schema_version; /* the report's, 0 when unreadable */
};

enum vtype { VT_STRING, VT_INT, VT_NUMBER, VT_BOOL, VT_OBJECT, VT_ARRAY };

void vc_error(struct vctx *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void vc_warn(struct vctx *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* obj[key] if present and of type t; null passes (and returns NULL) with VF_NULLABLE. */
const json_t *vc_member(struct vctx *c, const json_t *obj, const char *key, enum vtype t,
                        unsigned flags);
const char *vc_string(struct vctx *c, const json_t *obj, const char *key, unsigned flags);
/* A string from `words`; returns its index or -1. */
int vc_word(struct vctx *c, const json_t *obj, const char *key, const char *const words[],
            unsigned flags);
/* An integer in [min, max]; *out is set only when it is. */
bool vc_int(struct vctx *c, const json_t *obj, const char *key, long long min, long long max,
            unsigned flags, long long *out);
bool vc_bool(struct vctx *c, const json_t *obj, const char *key, unsigned flags, bool *out);
/* A 64-bit identifier written as "0x" and 1..16 hex digits. */
bool vc_hex(struct vctx *c, const json_t *obj, const char *key, unsigned flags);
/* Every element of an array member is a string. */
void vc_string_array(struct vctx *c, const json_t *obj, const char *key, unsigned flags);

/* Point i of the array `section` ("results", "summary") of the experiment being checked. */
const json_t *vc_point(struct vctx *c, const json_t *array, const char *section, size_t i);

/* Descend into obj[key] (an object) for a nested check; returns it or NULL. */
const json_t *vc_enter(struct vctx *c, const json_t *obj, const char *key, unsigned flags,
                       size_t *mark);
void vc_leave(struct vctx *c, size_t mark);

#endif
