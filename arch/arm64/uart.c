/* PL011 output from any CPU: see asm/uart.h. */
#include "asm/uart.h"
#include "asm/sysreg.h"

static volatile uint32_t *uart;
static uint32_t uart_lock;

void uart_set_base(uint64_t pl011_base)
{
    uart = (volatile uint32_t *)pl011_base;
}

/* a bound on every wait here: a wedged UART or a CPU that faulted while
 * holding the lock must not stop the others (the character is then lost) */
#define UART_SPINS 1000000u

/* PL011: UARTDR at 0x00, UARTFR at 0x18 with TXFF = bit 5 (PL011 TRM, 3.3). */
static void uart_putc(char c)
{
    unsigned spins = 0;
    while ((uart[0x18 / 4] & (1u << 5)) && spins < UART_SPINS)
        spins++;
    uart[0] = (uint8_t)c;
}

void uart_puts(const char *s)
{
    unsigned spins = 0;
    if (!uart)
        return;
    while (__atomic_exchange_n(&uart_lock, 1, __ATOMIC_ACQUIRE) && spins < UART_SPINS) {
        spins++;
        cpu_relax();
    }
    for (; *s; s++) {
        if (*s == '\n')
            uart_putc('\r');
        uart_putc(*s);
    }
    __atomic_store_n(&uart_lock, 0, __ATOMIC_RELEASE);
}
