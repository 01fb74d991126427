/* SPDX-License-Identifier: MIT */
/*
 * A polled driver for a 16550-compatible UART at an I/O port (COM1 is
 * 0x3F8): 115200 baud, 8 data bits, no parity, 1 stop bit, FIFOs on, no
 * interrupts.  Ring 0 only (port I/O).  Writing to a port where no UART
 * answers does nothing.
 */
#ifndef MEMPROBE_ARCH_X86_64_UART16550_H
#define MEMPROBE_ARCH_X86_64_UART16550_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MP_UART_COM1 0x3F8

struct mp_uart {
	uint16_t port;
	bool present;
};

/* Program the UART at `port` (0: none); false when no UART answers there. */
bool mp_uart_init(struct mp_uart *u, uint16_t port);

/* Send n bytes, '\n' as CR LF.  Gives up on a byte the UART never takes. */
void mp_uart_write(const struct mp_uart *u, const char *s, size_t n);

#endif
