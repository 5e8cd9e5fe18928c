/*
 * Writes the stick's tlbscope.cfg to standard output: every configuration key
 * with its values, default and help, from the key table in core/run/config_keys.c
 * (config_write_file). Built and run on the host by `make image`, so the file
 * on the stick lists what the binary on it reads, and no one keeps it by hand.
 */
#include <stdio.h>

#include "core/run/config.h"
#include "core/lib/strbuf.h"
#include "sim/hostmem.h"

int main(void)
{
    struct strbuf sb;
    host_init(); /* core/lib/mem.h's allocator on malloc */
    if (!sb_init_dynamic(&sb, 16 * 1024)) {
        fputs("gen-cfg: out of memory\n", stderr);
        return 1;
    }
    config_write_file(&sb);
    if (sb.truncated || fwrite(sb.data, 1, sb.len, stdout) != sb.len || fflush(stdout) != 0) {
        fputs("gen-cfg: cannot write the configuration file\n", stderr);
        return 1;
    }
    sb_release(&sb);
    return 0;
}
