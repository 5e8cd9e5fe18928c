#include "tests/host/support_msgs.h"

#include <stdio.h>
#include <string.h>

const struct msg *msgs_find(const struct msg_list *l, const char *where, const char *needle)
{
    for (uint32_t i = 0; i < l->count; i++)
        if (strstr(l->items[i].text, needle) && (!where || !strcmp(l->items[i].where, where)))
            return &l->items[i];
    return NULL;
}

bool msgs_contain(const struct msg_list *l, const char *needle)
{
    return msgs_find(l, NULL, needle) != NULL;
}

void msgs_print(const struct msg_list *l)
{
    for (uint32_t i = 0; i < l->count; i++)
        printf("#   [%s] %s\n", l->items[i].where, l->items[i].text);
}
