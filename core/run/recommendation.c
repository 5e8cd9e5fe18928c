/* What every architecture's recommendations share: see recommendation.h. */
#include "core/run/recommendation.h"

#include "core/lib/mem.h"

bool recommend_not_hardware(const char *environment)
{
    return environment && !str_eq(environment, "hardware");
}
