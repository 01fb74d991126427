/* SPDX-License-Identifier: MIT */
#include <stdarg.h>

#include "app/efi/out.h"
#include "arch/x86_64/uart16550.h"
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "platform/efi/fw.h"

static struct mp_uart uart;
/* The firmware console already reaches a serial port. */
static bool console_on_serial;

bool mp_efi_out_init(void)
{
	console_on_serial = mp_fw_console_on_serial();
	return console_on_serial;
}

bool mp_efi_out_serial(uint16_t port)
{
	return mp_uart_init(&uart, port);
}

void mp_efi_say(const char *s)
{
	mp_fw_con_write(s);
	if (!console_on_serial)
		mp_uart_write(&uart, s, mp_strlen(s));
}

void mp_efi_sayf(const char *fmt, ...)
{
	char line[MP_EFI_LINE];
	va_list ap;
	size_t n, f = mp_strlen(fmt);

	va_start(ap, fmt);
	n = mp_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n + 1 == sizeof(line) && f && fmt[f - 1] == '\n')
		line[n - 1] = '\n';	/* cut short, the line still ends */
	mp_efi_say(line);
}

void mp_efi_serial(const char *s, size_t n)
{
	mp_uart_write(&uart, s, n);
}
