/*
 * The INIT-SIPI trampoline's layout (issue 25), byte by byte, as
 * trampoline_build() prepares it for a page below 1 MiB: the real-mode
 * entry, the GDT pointer and the 64-bit code descriptor it loads, the CR3
 * load reading the parameter block's root, and the far jump whose 32-bit
 * target must be the physical address of the 64-bit code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/trampoline.h"
#include "tests/host/support_host.h"

#define PHYS 0x8000u
#define ROOT 0x7ffe1000u

static uint8_t page[4096] __attribute__((aligned(4096)));

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static struct trampoline_params *build(void)
{
    struct trampoline_params in;
    const char *why = "unset";
    struct trampoline_params *p;
    memset(&in, 0, sizeof(in));
    in.cr4 = 0x668;
    in.efer = 0xd00;
    in.cr0 = 0x80010033u;
    in.entry = 0x12345678abcull;
    in.stack_base = 0x100000000ull;
    in.stack_size = 0x8000;
    in.arg = 0xfeedull;
    in.next_slot = 7;
    memset(page, 0xcc, sizeof(page));
    p = trampoline_build(page, PHYS, ROOT, &in, &why);
    assert_non_null(p);
    assert_null(why);
    return p;
}

static void test_fits_one_page_and_starts_in_real_mode(void **state)
{
    (void)state;
    build();
    assert_true(trampoline_size() <= 4096);
    assert_int_equal(page[0], 0xfa); /* cli */
    assert_int_equal(TRAMP_OFF(ap_tramp_params) % 8, 0);
    assert_int_equal(trampoline_sipi_vector(PHYS), 0x08);
}

static void test_far_jump_reaches_the_64bit_code(void **state)
{
    const uint8_t *j;
    (void)state;
    build();
    j = page + TRAMP_OFF(ap_tramp_far_jump);
    /* 66 EA: ljmpl ptr16:32 from 16-bit code, right after the MOV to CR0 (0F 22 C0) */
    assert_memory_equal(j - 3, "\x0f\x22\xc0", 3);
    assert_int_equal(j[0], 0x66);
    assert_int_equal(j[1], 0xea);
    assert_int_equal(get32(j + 2), PHYS + TRAMP_OFF(ap_tramp_long64));
    assert_int_equal(get16(j + 6), TRAMPOLINE_CODE64_SEL);
    /* the 64-bit code follows the jump's 8 bytes directly */
    assert_int_equal(TRAMP_OFF(ap_tramp_long64), TRAMP_OFF(ap_tramp_far_jump) + 8);
}

static void test_gdt_pointer_and_code64_descriptor(void **state)
{
    const uint8_t *gp, *code;
    uint64_t d;
    (void)state;
    build();
    gp = page + TRAMP_OFF(ap_tramp_gdt_ptr);
    assert_int_equal(get16(gp), 3 * 8 - 1);
    assert_int_equal(get32(gp + 2), PHYS + TRAMP_OFF(ap_tramp_gdt));
    /* lgdtl (66 0F 01 16 disp16) reads the pointer through DS = CS: an offset in the page */
    assert_memory_equal(page + 6, "\x66\x0f\x01\x16", 4);
    assert_int_equal(get16(page + 10), TRAMP_OFF(ap_tramp_gdt_ptr));
    code = page + TRAMP_OFF(ap_tramp_gdt) + TRAMPOLINE_CODE64_SEL;
    d = (uint64_t)get32(code) | (uint64_t)get32(code + 4) << 32;
    assert_true(d & (1ull << 47));  /* present */
    assert_true(d & (1ull << 44));  /* code/data */
    assert_true(d & (1ull << 43));  /* executable */
    assert_true(d & (1ull << 53));  /* L: 64-bit */
    assert_false(d & (1ull << 54)); /* D must be 0 with L */
    assert_int_equal((d >> 45) & 3, 0); /* DPL 0 */
}

static void test_cr3_load_reads_the_tool_root(void **state)
{
    struct trampoline_params *p;
    const uint8_t *l;
    (void)state;
    p = build();
    l = page + TRAMP_OFF(ap_tramp_load_cr3);
    /* 66 A1 disp16: mov eax, [params.cr3]; 0F 22 D8: mov cr3, eax */
    assert_int_equal(l[0], 0x66);
    assert_int_equal(l[1], 0xa1);
    assert_int_equal(get16(l + 2), TRAMP_OFF(ap_tramp_params) + offsetof(struct trampoline_params, cr3));
    assert_memory_equal(l + 4, "\x0f\x22\xd8", 3);
    assert_int_equal(p->cr3, ROOT);
    assert_ptr_equal((uint8_t *)p, page + TRAMP_OFF(ap_tramp_params));
    /* the rest of the block as given, the counters reset */
    assert_int_equal(p->cr4, 0x668);
    assert_int_equal(p->cr0, 0x80010033u);
    assert_int_equal(p->entry, 0x12345678abcull);
    assert_int_equal(p->stack_size, 0x8000);
    assert_int_equal(p->next_slot, 0);
    assert_int_equal(p->arrived, 0);
}

static void test_root_above_4g_is_refused(void **state)
{
    struct trampoline_params in;
    const char *why = NULL;
    (void)state;
    memset(&in, 0, sizeof(in));
    assert_null(trampoline_build(page, PHYS, 0x100001000ull, &in, &why));
    assert_non_null(why);
    why = NULL;
    assert_null(trampoline_build(page, 0x100000, ROOT, &in, &why)); /* not below 1 MiB */
    assert_non_null(why);
    assert_null(trampoline_build(page, 0x8800, ROOT, &in, &why));   /* not page-aligned */
    assert_null(trampoline_build(page, 0, ROOT, &in, &why));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits_one_page_and_starts_in_real_mode),
        cmocka_unit_test(test_far_jump_reaches_the_64bit_code),
        cmocka_unit_test(test_gdt_pointer_and_code64_descriptor),
        cmocka_unit_test(test_cr3_load_reads_the_tool_root),
        cmocka_unit_test(test_root_above_4g_is_refused),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
