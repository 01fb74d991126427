/* SPDX-License-Identifier: MIT */
/*
 * 16550 UART, polled.  Register offsets and bits are from the National
 * Semiconductor (now TI) PC16550D datasheet, "Register Summary" table and
 * sections 8.1 to 8.7; divisor values from its "Baud Rates Using 1.8432 MHz
 * Crystal" table, the clock every PC-compatible COM port uses.
 */
#include "arch/x86_64/ring0.h"
#include "arch/x86_64/uart16550.h"
#include "arch/x86_64/x86.h"

/* Register offsets from the base port. */
#define UART_THR 0 /* transmitter holding (write, DLAB = 0) */
#define UART_DLL 0 /* divisor latch low (DLAB = 1) */
#define UART_IER 1 /* interrupt enable (DLAB = 0) */
#define UART_DLM 1 /* divisor latch high (DLAB = 1) */
#define UART_FCR 2 /* FIFO control (write) */
#define UART_LCR 3 /* line control */
#define UART_MCR 4 /* modem control */
#define UART_LSR 5 /* line status */
#define UART_SCR 7 /* scratch */

#define LCR_8N1 0x03       /* word length 8 (bits 0-1 = 11), 1 stop bit, no parity */
#define LCR_DLAB 0x80      /* divisor latch access */
#define FCR_ENABLE 0x01    /* FIFO enable */
#define FCR_CLEAR_RX 0x02
#define FCR_CLEAR_TX 0x04
#define MCR_DTR 0x01
#define MCR_RTS 0x02
#define LSR_THRE 0x20      /* transmitter holding register empty */

#define UART_CLOCK_HZ 1843200u
#define UART_BAUD 115200u
#define UART_DIVISOR (UART_CLOCK_HZ / (16u * UART_BAUD)) /* 1 */

/* Polls of LSR before a byte is dropped: each inb takes about 1 us, so
 * this waits far longer than one character time (87 us at 115200). */
#define THRE_POLLS 100000u

#define SCRATCH_PATTERN 0x5A

static void reg_write(const struct mp_uart *u, unsigned reg, uint8_t v)
{
	mp_x86_outb((uint16_t)(u->port + reg), v);
}

static uint8_t reg_read(const struct mp_uart *u, unsigned reg)
{
	return mp_x86_inb((uint16_t)(u->port + reg));
}

/* A port with nothing behind it reads 0xFF; a 16550 keeps its scratch byte. */
static bool answers(const struct mp_uart *u)
{
	reg_write(u, UART_SCR, SCRATCH_PATTERN);
	return reg_read(u, UART_SCR) == SCRATCH_PATTERN;
}

bool mp_uart_init(struct mp_uart *u, uint16_t port)
{
	u->port = port;
	u->present = port != 0 && answers(u);
	if (!u->present)
		return false;
	reg_write(u, UART_IER, 0);
	reg_write(u, UART_LCR, LCR_DLAB);
	reg_write(u, UART_DLL, (uint8_t)(UART_DIVISOR & 0xff));
	reg_write(u, UART_DLM, (uint8_t)(UART_DIVISOR >> 8));
	reg_write(u, UART_LCR, LCR_8N1);
	reg_write(u, UART_FCR, FCR_ENABLE | FCR_CLEAR_RX | FCR_CLEAR_TX);
	reg_write(u, UART_MCR, MCR_DTR | MCR_RTS);
	return true;
}

static void put_byte(const struct mp_uart *u, uint8_t c)
{
	for (unsigned i = 0; i < THRE_POLLS; i++) {
		if (reg_read(u, UART_LSR) & LSR_THRE) {
			reg_write(u, UART_THR, c);
			return;
		}
		mp_x86_pause();
	}
}

void mp_uart_write(const struct mp_uart *u, const char *s, size_t n)
{
	if (!u->present)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			put_byte(u, '\r');
		put_byte(u, (uint8_t)s[i]);
	}
}
