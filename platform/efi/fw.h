/* SPDX-License-Identifier: MIT */
/*
 * The firmware in plain C: every UEFI service the application uses.
 *
 * efi/fw_*.c are the only files that include <efi.h> (the build gives the
 * UEFI headers to them alone).  They turn firmware state into the plain
 * types below; the rest of efi/ never sees an EFI type.
 */
#ifndef MEMPROBE_PLATFORM_EFI_FW_H
#define MEMPROBE_PLATFORM_EFI_FW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mp_fw_status {
	MP_FW_OK = 0,
	MP_FW_NOT_FOUND,
	MP_FW_EXISTS,
	MP_FW_READ_ONLY,     /* write-protected medium or read-only file */
	MP_FW_FULL,          /* no room left on the volume */
	MP_FW_NO_VOLUME,     /* the boot partition has no file system we can use */
	MP_FW_TOO_LARGE,     /* the file does not fit the caller's buffer */
	MP_FW_NO_MEMORY,
	MP_FW_ERROR,         /* anything else the firmware answered */
};

/* One line for a message: "the volume is full", ... */
const char *mp_fw_status_text(enum mp_fw_status s);

struct mp_fw_time {
	bool valid;
	uint16_t year;
	uint8_t month, day, hour, minute, second;
};

/* What the firmware told us at start. */
struct mp_fw_info {
	char vendor[48];             /* firmware vendor, ASCII */
	uint32_t revision;           /* firmware revision */
	uint16_t uefi_major, uefi_minor;
	struct mp_fw_time start;     /* wall clock at start (GetTime) */
	const char *secure_boot;     /* "on", "off", or why it is not known */
};

enum mp_fw_reset { MP_FW_SHUTDOWN = 0, MP_FW_REBOOT };

/* Boot and runtime services (fw_boot.c). */
void mp_fw_describe(struct mp_fw_info *out);
void mp_fw_watchdog_off(void);
void mp_fw_stall(uint64_t us);
void mp_fw_time(struct mp_fw_time *t);
/* Pool memory (firmware heap), zeroed; NULL when there is none. */
void *mp_fw_pool_alloc(size_t bytes);
void mp_fw_pool_free(void *p);
/* Whole pages of data anywhere in memory, identity mapped, maybe non-executable. */
enum mp_fw_status mp_fw_pages_alloc(uint64_t bytes, uint64_t *addr);
void mp_fw_pages_free(uint64_t addr, uint64_t bytes);
/* Power off or reset; returns only if the firmware refuses. */
void mp_fw_reset(enum mp_fw_reset how);

/*
 * Firmware tables (fw_tables.c): the SMBIOS entry point ("_SM3_" or
 * "_SM_") and the ACPI root pointer ("RSD PTR "), NULL when the firmware
 * lists none.
 */
const void *mp_fw_smbios_entry(void);
const void *mp_fw_acpi_root(void);

/*
 * The firmware's multi-processor services (fw_mp.c, EFI_MP_SERVICES_PROTOCOL):
 * processors by the firmware's numbers 0 .. count-1.  A procedure given to
 * an AP runs there on the firmware's page tables and may call nothing of
 * the firmware.
 */
struct mp_fw_cpu {
	uint64_t apic_id;
	uint32_t package, core, thread;  /* the firmware's location */
	bool enabled, bsp;
};

typedef void (*mp_fw_ap_fn)(void *arg);

/* Find the services; false, and why, when the firmware has none.  self: the caller's number. */
bool mp_fw_mp_open(uint32_t *count, uint32_t *self, char *why, size_t why_len);
enum mp_fw_status mp_fw_mp_cpu(uint32_t n, struct mp_fw_cpu *out);
/* fn(arg) on AP n; returns when it has (StartupThisAP, blocking). */
enum mp_fw_status mp_fw_mp_run(uint32_t n, mp_fw_ap_fn fn, void *arg);
/* fn(arg) on AP n; returns at once (non-blocking): fn must tell its end itself. */
enum mp_fw_status mp_fw_mp_start(uint32_t n, mp_fw_ap_fn fn, void *arg);
/* After a started fn has ended: AP n idle again for the firmware (an empty blocking run). */
enum mp_fw_status mp_fw_mp_reclaim(uint32_t n);
void mp_fw_mp_close(void);

/* Console (fw_console.c).  ASCII text; '\n' becomes CR LF. */
void mp_fw_con_write(const char *s);
/* Was a key pressed?  Consumes it. */
bool mp_fw_key_pressed(void);
/* Does the firmware itself copy the console to a serial port? */
bool mp_fw_console_on_serial(void);

/*
 * Files on the partition the application was loaded from (fw_files.c).
 * Paths are relative to its root and use '/'.
 */
enum mp_fw_status mp_fw_volume_open(void);
enum mp_fw_status mp_fw_read(const char *path, char *buf, size_t cap, size_t *len);
/* Create or replace a file with exactly these bytes, flushed to the medium; on
 * failure an existing file keeps its old content (fw_files.c). */
enum mp_fw_status mp_fw_write(const char *path, const void *data, size_t len);
/* Create a directory; MP_FW_OK only when it did not exist before. */
enum mp_fw_status mp_fw_mkdir_new(const char *path);
/* Create a directory unless it exists. */
enum mp_fw_status mp_fw_mkdir(const char *path);

#endif
