/* SPDX-License-Identifier: MIT */
/*
 * The firmware console: Simple Text Output for text, Simple Text Input for
 * key presses (UEFI Specification 2.10, sections 12.4 and 12.3).
 */
#include "platform/efi/fw_priv.h"

/* Characters converted per OutputString() call. */
#define CHUNK 128
/* Room for the ConOut variable: a few device paths of some dozen bytes. */
#define CONOUT_BYTES 1024

void mp_fw_con_write(const char *s)
{
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = mp_fw_st->ConOut;
	CHAR16 buf[CHUNK + 2];
	size_t n = 0;

	if (!out)
		return;
	for (; *s; s++) {
		if (*s == '\n')
			buf[n++] = L'\r';
		buf[n++] = (CHAR16)(unsigned char)*s;
		if (n >= CHUNK) {
			buf[n] = 0;
			out->OutputString(out, buf);
			n = 0;
		}
	}
	buf[n] = 0;
	if (n)
		out->OutputString(out, buf);
}

bool mp_fw_key_pressed(void)
{
	SIMPLE_INPUT_INTERFACE *in = mp_fw_st->ConIn;
	EFI_INPUT_KEY key;

	return in && in->ReadKeyStroke(in, &key) == EFI_SUCCESS;
}

/*
 * Does the firmware already copy the console to a serial port?  True when
 * a device path in the ConOut variable (section 3.3, globally defined
 * variables) has a UART node (section 10.3.4, "UART Device Path": type 3,
 * messaging; subtype 14).
 */
bool mp_fw_console_on_serial(void)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT8 paths[CONOUT_BYTES];
	UINTN n = sizeof(paths);
	size_t at = 0;

	if (mp_fw_st->RuntimeServices->GetVariable(L"ConOut", &global, NULL, &n, paths) !=
	    EFI_SUCCESS)
		return false;
	while (at + sizeof(EFI_DEVICE_PATH) <= n) {
		EFI_DEVICE_PATH *node = (EFI_DEVICE_PATH *)(paths + at);
		size_t len = node->Length[0] | (size_t)node->Length[1] << 8;

		if (node->Type == MESSAGING_DEVICE_PATH && node->SubType == MSG_UART_DP)
			return true;
		if (len < sizeof(EFI_DEVICE_PATH))
			return false;
		at += len;
	}
	return false;
}
