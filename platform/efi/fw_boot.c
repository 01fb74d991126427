/* SPDX-License-Identifier: MIT */
/*
 * Boot and runtime services, in plain types.  Section numbers are from the
 * UEFI Specification 2.10.
 */
#include "core/lib/str.h"
#include "platform/efi/fw_priv.h"

#define PAGE_BYTES 4096u

static const struct {
	EFI_STATUS efi;
	enum mp_fw_status fw;
} status_map[] = {
	{ EFI_SUCCESS, MP_FW_OK },
	{ EFI_NOT_FOUND, MP_FW_NOT_FOUND },
	{ EFI_WRITE_PROTECTED, MP_FW_READ_ONLY },
	{ EFI_ACCESS_DENIED, MP_FW_READ_ONLY },
	{ EFI_VOLUME_FULL, MP_FW_FULL },
	{ EFI_BUFFER_TOO_SMALL, MP_FW_TOO_LARGE },
	{ EFI_OUT_OF_RESOURCES, MP_FW_NO_MEMORY },
	{ EFI_UNSUPPORTED, MP_FW_NO_VOLUME },
	{ EFI_NO_MEDIA, MP_FW_NO_VOLUME },
};

static const char *const status_text[] = {
	[MP_FW_OK] = "ok",
	[MP_FW_NOT_FOUND] = "not found",
	[MP_FW_EXISTS] = "already exists",
	[MP_FW_READ_ONLY] = "the partition is read-only (write-protected)",
	[MP_FW_FULL] = "the partition is full",
	[MP_FW_NO_VOLUME] = "the boot partition has no usable file system",
	[MP_FW_TOO_LARGE] = "the file is too large",
	[MP_FW_NO_MEMORY] = "the firmware is out of memory",
	[MP_FW_ERROR] = "the firmware reported an error",
};

enum mp_fw_status mp_fw_status_of(EFI_STATUS s)
{
	for (size_t i = 0; i < sizeof(status_map) / sizeof(status_map[0]); i++) {
		if (status_map[i].efi == s)
			return status_map[i].fw;
	}
	return MP_FW_ERROR;
}

const char *mp_fw_status_text(enum mp_fw_status s)
{
	if ((unsigned)s >= sizeof(status_text) / sizeof(status_text[0]))
		return status_text[MP_FW_ERROR];
	return status_text[s];
}

bool mp_fw_ucs2(CHAR16 *dst, size_t n, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < n; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
	return src[i] == 0;
}

static void ascii_of(char *dst, size_t n, const CHAR16 *src)
{
	size_t i;

	for (i = 0; src && src[i] && i + 1 < n; i++)
		dst[i] = src[i] < 0x80 ? (char)src[i] : '?';
	dst[i] = 0;
}

/*
 * Section 3.3, "Globally Defined Variables": SecureBoot is 1 when the
 * platform checks every image's signature before it starts it.  Firmware
 * without Secure Boot has no such variable.
 */
static const char *secure_boot(void)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT8 on = 0;
	UINTN n = sizeof(on);

	if (mp_fw_st->RuntimeServices->GetVariable(L"SecureBoot", &global, NULL, &n, &on) !=
	    EFI_SUCCESS)
		return "not known (the firmware has no SecureBoot variable)";
	return on == 1 ? "on" : "off";
}

void mp_fw_describe(struct mp_fw_info *out)
{
	mp_memset(out, 0, sizeof(*out));
	ascii_of(out->vendor, sizeof(out->vendor), mp_fw_st->FirmwareVendor);
	out->revision = mp_fw_st->FirmwareRevision;
	out->uefi_major = (uint16_t)(mp_fw_st->Hdr.Revision >> 16);
	out->uefi_minor = (uint16_t)(mp_fw_st->Hdr.Revision & 0xffff);
	mp_fw_time(&out->start);
	out->secure_boot = secure_boot();
}

/*
 * The boot manager arms a 5-minute watchdog before it starts a boot option;
 * a zero timeout disables it (section 7.5, SetWatchdogTimer()).
 */
void mp_fw_watchdog_off(void)
{
	mp_fw_st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
}

void mp_fw_stall(uint64_t us)
{
	mp_fw_st->BootServices->Stall((UINTN)us);
}

/* Section 8.3, GetTime(): fails on machines without a working RTC. */
void mp_fw_time(struct mp_fw_time *t)
{
	EFI_TIME now;

	mp_memset(t, 0, sizeof(*t));
	if (mp_fw_st->RuntimeServices->GetTime(&now, NULL) != EFI_SUCCESS)
		return;
	*t = (struct mp_fw_time){
		.valid = now.Year >= 1900 && now.Month >= 1 && now.Month <= 12,
		.year = now.Year, .month = now.Month, .day = now.Day,
		.hour = now.Hour, .minute = now.Minute, .second = now.Second,
	};
}

void *mp_fw_pool_alloc(size_t bytes)
{
	void *p = NULL;

	if (mp_fw_st->BootServices->AllocatePool(EfiLoaderData, bytes, &p) != EFI_SUCCESS)
		return NULL;
	mp_memset(p, 0, bytes);
	return p;
}

void mp_fw_pool_free(void *p)
{
	if (p)
		mp_fw_st->BootServices->FreePool(p);
}

/*
 * Section 7.2, AllocatePages().  EfiLoaderData: the firmware may map it
 * non-executable (EDK II's PcdDxeNxMemoryProtectionPolicy; the image is
 * NX-compatible), so generated code runs only where our own page tables
 * map it (platform/efi/platform.c, code_build).
 */
enum mp_fw_status mp_fw_pages_alloc(uint64_t bytes, uint64_t *addr)
{
	EFI_PHYSICAL_ADDRESS a = 0;
	UINTN pages = (UINTN)((bytes + PAGE_BYTES - 1) / PAGE_BYTES);
	EFI_STATUS s = mp_fw_st->BootServices->AllocatePages(AllocateAnyPages, EfiLoaderData,
							      pages, &a);

	*addr = a;
	return mp_fw_status_of(s);
}

void mp_fw_pages_free(uint64_t addr, uint64_t bytes)
{
	mp_fw_st->BootServices->FreePages(addr, (UINTN)((bytes + PAGE_BYTES - 1) / PAGE_BYTES));
}

/* Section 8.5.1, ResetSystem(): EfiResetShutdown powers the machine off. */
void mp_fw_reset(enum mp_fw_reset how)
{
	EFI_RESET_TYPE type = how == MP_FW_REBOOT ? EfiResetCold : EfiResetShutdown;

	mp_fw_st->RuntimeServices->ResetSystem(type, EFI_SUCCESS, 0, NULL);
}
