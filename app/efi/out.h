/* SPDX-License-Identifier: MIT */
/*
 * Output for people: everything goes to the firmware console and, written
 * directly, to the 16550 serial port, so a headless server's serial
 * console carries all of it.  When the firmware already copies its console
 * to a serial port (console redirection, and OVMF under QEMU), the direct
 * copy of console text is left out: it would show every line twice.
 */
#ifndef MEMPROBE_APP_EFI_OUT_H
#define MEMPROBE_APP_EFI_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest line built by mp_efi_sayf: a longer one is cut, its newline kept. */
#define MP_EFI_LINE 320

/* Look at the firmware console; call first.  True when it reaches a serial port. */
bool mp_efi_out_init(void);

/* Use the UART at `port` (0: none); false when no UART answers there. */
bool mp_efi_out_serial(uint16_t port);

/* Console and serial port. */
void mp_efi_say(const char *s);
void mp_efi_sayf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Serial port only: bulk text such as the whole result.json. */
void mp_efi_serial(const char *s, size_t n);

#endif
