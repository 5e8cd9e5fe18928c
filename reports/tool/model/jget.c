#include "reports/tool/model/jget.h"

#include <string.h>

const char *jget_type_word(const json_t *v)
{
    if (!v)
        return "nothing";
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

const json_t *jget_object(const json_t *obj, const char *key)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_object(v) ? v : NULL;
}

const json_t *jget_array(const json_t *obj, const char *key)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_array(v) ? v : NULL;
}

const char *jget_string(const json_t *obj, const char *key)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

double jget_number(const json_t *obj, const char *key, double def)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : def;
}

long long jget_int(const json_t *obj, const char *key, long long def)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_integer(v) ? json_integer_value(v) : def;
}

bool jget_bool(const json_t *obj, const char *key, bool def)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_boolean(v) ? json_is_true(v) : def;
}

const json_t *jget_path(const json_t *root, const char *dotted)
{
    char key[64];
    const json_t *cur = root;
    while (cur && *dotted) {
        size_t n = strcspn(dotted, ".");
        if (n >= sizeof(key) || !json_is_object(cur))
            return NULL;
        memcpy(key, dotted, n);
        key[n] = '\0';
        cur = json_object_get(cur, key);
        dotted += n + (dotted[n] == '.');
    }
    return cur;
}
