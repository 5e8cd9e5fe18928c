/*
 * The "redaction" record of a redacted report (reports/SCHEMA.md) and the
 * identifying fields it speaks for: every field it lists holds a token of
 * the kind it says (keyed or random), and no identifying field holds a
 * token it does not list, or a value when the report says it is redacted.
 */
#include <stdbool.h>
#include <string.h>

#include "core/run/redact.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

#define MAX_FIELDS 16

static enum redact_kind kind_of(const json_t *v)
{
    if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v))
        return REDACT_NOT_TOKEN;
    return redact_token_kind(json_string_value(v));
}

static void check_listed(struct vctx *c, const json_t *root, const char *field, bool have_keyed,
                         bool keyed)
{
    const json_t *v = jget_path(root, field);
    enum redact_kind kind = kind_of(v);
    if (!v)
        vc_error(c, NULL, "lists %s, which the report does not have", field);
    else if (kind == REDACT_NOT_TOKEN)
        vc_error(c, NULL, "lists %s, but that field does not hold a redaction token "
                 "(\"redacted:hmac:\" or \"redacted:random:\" and 16 hex digits)", field);
    else if (have_keyed && (kind == REDACT_TOKEN_HMAC) != keyed)
        vc_error(c, NULL, "%s holds a %s token, but keyed is %s", field,
                 kind == REDACT_TOKEN_HMAC ? "keyed (hmac)" : "random",
                 keyed ? "true" : "false");
}

static bool upload_field(const char *path)
{
    return !strcmp(path, REDACT_FIELD_NET_UPLOAD_URL) || !strcmp(path, REDACT_FIELD_CFG_UPLOAD);
}

void validate_redaction(struct vctx *c, const json_t *root)
{
    bool listed[MAX_FIELDS] = { false };
    bool keyed = false, have_keyed = false, redacted;
    const json_t *version = json_object_get(root, "schema_version");
    bool older = json_is_integer(version) && json_integer_value(version) < 3;
    size_t mark, m, i;
    const json_t *rec = vc_enter(c, root, "redaction", VF_OPTIONAL, &mark), *fields;
    if (rec) {
        if (vc_bool(c, rec, "redacted", 0, &redacted) && !redacted)
            vc_error(c, "redacted", "is false: only a redacted report has a redaction record");
        have_keyed = vc_bool(c, rec, "keyed", 0, &keyed);
        vc_string(c, rec, "by", 0);
        fields = vc_member(c, rec, "fields", VT_ARRAY, 0);
        m = jpath_push_key(&c->path, "fields");
        for (i = 0; fields && i < json_array_size(fields); i++) {
            const char *f = json_string_value(json_array_get(fields, i));
            size_t m2 = jpath_push_index(&c->path, i);
            int idx = redact_field_index(f);
            if (!f)
                vc_error(c, NULL, "expected a string, found %s",
                         jget_type_word(json_array_get(fields, i)));
            else if (idx < 0 || idx >= MAX_FIELDS)
                vc_warn(c, NULL, "\"%.80s\" is not an identifying field this tool knows; not "
                        "checked", f);
            else if (listed[idx])
                vc_error(c, NULL, "%s is listed twice", f);
            else {
                listed[idx] = true;
                check_listed(c, root, f, have_keyed, keyed);
            }
            jpath_pop(&c->path, m2);
        }
        jpath_pop(&c->path, m);
        vc_leave(c, mark);
    }
    /* the identifying fields themselves: never printed here, only named */
    for (i = 0; redact_fields[i] && i < MAX_FIELDS; i++) {
        const json_t *v = jget_path(root, redact_fields[i]);
        enum redact_kind kind = kind_of(v);
        if (!v || json_is_null(v) || (json_is_string(v) && json_string_length(v) == 0))
            continue;
        if (kind != REDACT_NOT_TOKEN && !listed[i])
            diag_add(c->diags, DIAG_ERROR, redact_fields[i], "holds a redaction token, but %s",
                     rec ? "redaction.fields does not list it"
                         : "the report has no redaction record");
        else if (kind == REDACT_NOT_TOKEN && rec)
            /* the upload URLs became identifying fields in version 3 (issue 35) */
            diag_add(c->diags, older && upload_field(redact_fields[i]) ? DIAG_WARNING
                                                                       : DIAG_ERROR,
                     redact_fields[i],
                     "identifies the machine, but the report says it is redacted (redaction "
                     "record): the value was left in; run tlbscope-report redact on it");
    }
}
