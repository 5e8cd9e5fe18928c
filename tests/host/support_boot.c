#include "tests/host/support_boot.h"

struct boot_work support_boot_work;

int support_boot_setup(void **state)
{
    (void)state;
    return boot_work_init(&support_boot_work, 4096) ? 0 : -1;
}

int support_boot_teardown(void **state)
{
    (void)state;
    boot_work_release(&support_boot_work);
    return 0;
}
