/*
 * Tolerant getters over a jansson document: a missing member or one of the
 * wrong type reads as "absent" (NULL, or the default given), never a crash.
 * The views use these on reports that may be invalid; the validator says
 * what is wrong with them.
 */
#ifndef TLBSCOPE_REPORT_JGET_H
#define TLBSCOPE_REPORT_JGET_H

#include <jansson.h>
#include <stdbool.h>

/* "an object", "a string", "null", ... for messages. */
const char *jget_type_word(const json_t *v);

const json_t *jget_object(const json_t *obj, const char *key);
const json_t *jget_array(const json_t *obj, const char *key);
/* The string, or NULL when absent, null or not a string. */
const char *jget_string(const json_t *obj, const char *key);
/* Integer or real as a double; `def` when absent or not a number. */
double jget_number(const json_t *obj, const char *key, double def);
long long jget_int(const json_t *obj, const char *key, long long def);
bool jget_bool(const json_t *obj, const char *key, bool def);
/* obj.a.b.c, with keys separated by '.', through objects only. */
const json_t *jget_path(const json_t *root, const char *dotted);

#endif
