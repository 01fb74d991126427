/* SPDX-License-Identifier: MIT */
/*
 * One run: banner, configuration, arena, platform, the suite, the report on
 * the console and the serial port, then on_finish.
 */
#include "app/efi/app.h"
#include "app/efi/config_load.h"
#include "app/efi/finish.h"
#include "app/efi/out.h"
#include "app/efi/output.h"
#include "app/efi/sources.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/uart16550.h"
#include "core/lib/buf.h"
#include "core/results/writers.h"
#include "core/suite.h"
#include "platform/efi/fw.h"
#include "platform/efi/platform.h"

/* Room for the final report and for the whole result.json. */
#define TEXT_BYTES (1u << 20)

#define JSON_BEGIN "----- BEGIN result.json -----\n"
#define JSON_END "----- END result.json -----\n"
#define SENTINEL "memprobe: done\n"

static void banner(const struct mp_fw_info *fw)
{
	const struct mp_fw_time *t = &fw->start;

	mp_efi_sayf("\n%s %s: memory-hierarchy characterization, %s\n", MP_TOOL_NAME, MP_VERSION,
		    MP_EFI_PLATFORM);
	mp_efi_sayf("memprobe: firmware %s revision 0x%x, UEFI %u.%u, Secure Boot %s\n", fw->vendor,
		    fw->revision, fw->uefi_major, fw->uefi_minor, fw->secure_boot);
	if (t->valid)
		mp_efi_sayf("memprobe: started %04u-%02u-%02u %02u:%02u:%02u (firmware clock)\n",
			    t->year, t->month, t->day, t->hour, t->minute, t->second);
}

static void note_start(struct mp_result *r, const struct mp_fw_info *fw,
		       const struct mp_efi_results *res)
{
	const struct mp_fw_time *t = &fw->start;
	char note[MP_NOTE_LEN];

	if (!t->valid)
		return;
	mp_snprintf(note, sizeof(note), "%s started %04u-%02u-%02u %02u:%02u:%02u (firmware clock)",
		    res->dir[0] ? res->dir : "run", t->year, t->month, t->day, t->hour, t->minute,
		    t->second);
	mp_result_add_note(r, note);
}

static void serial_switch(const struct mp_config *cfg)
{
	if (cfg->serial_port == MP_UART_COM1)
		return;
	if (!mp_efi_out_serial((uint16_t)cfg->serial_port) && cfg->serial_port)
		mp_efi_sayf("memprobe: no UART answers at port 0x%x; console only\n",
			    cfg->serial_port);
}

static bool arena_setup(struct mp_efi_arena *a, struct mp_config *cfg)
{
	char want[24], got[24];

	mp_snprintf(want, sizeof(want), "%lluM", (unsigned long long)(cfg->arena_bytes >> 20));
	if (!mp_efi_arena_take(a, cfg->arena_bytes)) {
		mp_efi_sayf("memprobe: error: not even %lluM of memory is free for the arena\n",
			    (unsigned long long)(MP_EFI_ARENA_MIN >> 20));
		return false;
	}
	mp_snprintf(got, sizeof(got), "%lluM", (unsigned long long)(a->bytes >> 20));
	if (a->bytes < cfg->arena_bytes)
		mp_efi_sayf("memprobe: warning: arena of %s asked, %s free: the probes use %s\n",
			    want, got, got);
	if ((uintptr_t)a->base % MP_EFI_ARENA_ALIGN)
		mp_efi_say("memprobe: warning: the arena is not 2 MB aligned\n");
	mp_efi_sayf("memprobe: arena %s at 0x%llx\n", got, (unsigned long long)(uintptr_t)a->base);
	cfg->arena_bytes = a->bytes;
	return true;
}

/* The report on the console and the serial port; the whole JSON on the serial port. */
static void show_results(const struct mp_result *r)
{
	char *mem = mp_fw_pool_alloc(TEXT_BYTES);
	struct mp_buf b;

	if (!mem) {
		mp_efi_say("memprobe: no memory left to print the report\n");
		return;
	}
	mp_buf_init(&b, mem, TEXT_BYTES);
	mp_write_report(&b, r);
	mp_efi_say("\n");
	mp_efi_say(b.data);
	mp_buf_reset(&b);
	mp_write_json(&b, r);
	mp_efi_serial(JSON_BEGIN, sizeof(JSON_BEGIN) - 1);
	mp_efi_serial(b.data, b.len);
	mp_efi_serial(JSON_END, sizeof(JSON_END) - 1);
	mp_fw_pool_free(mem);
}

static void run(struct mp_config *cfg, const struct mp_fw_info *fw, struct mp_efi_results *res)
{
	struct mp_result *r = mp_fw_pool_alloc(sizeof(*r));
	struct mp_efi_output out;
	struct mp_efi_arena arena;
	struct mp_platform *p;

	if (!r) {
		mp_efi_say("memprobe: error: no memory for the results\n");
		return;
	}
	mp_efi_output_init(&out, res);
	if (arena_setup(&arena, cfg)) {
		mp_result_init(r, MP_EFI_PLATFORM);
		mp_cpuid_fill(r, mp_cpuid_hw, NULL);
		mp_efi_sources(r);
		note_start(r, fw, res);
		p = mp_efi_open(&arena, &out.out, r);
		if (p) {
			mp_suite_run(p, cfg, r);
			mp_efi_close(p);
		} else {
			mp_efi_say("memprobe: error: no memory for the platform\n");
		}
		show_results(r);
		mp_efi_arena_give_back(&arena);
	}
	mp_fw_pool_free(r);
}

int mp_efi_app(void)
{
	struct mp_efi_results res;
	struct mp_config cfg;
	struct mp_fw_info fw;
	enum mp_fw_status vol;
	bool mirrored;

	mp_fw_watchdog_off();
	mirrored = mp_efi_out_init();
	mp_efi_out_serial(MP_UART_COM1);
	mp_fw_describe(&fw);
	banner(&fw);
	if (mirrored)
		mp_efi_say("memprobe: the firmware copies this console to a serial port; "
			   "memprobe adds only result.json there\n");
	vol = mp_fw_volume_open();
	if (vol != MP_FW_OK)
		mp_efi_sayf("memprobe: error: %s\n", mp_fw_status_text(vol));
	mp_efi_config_load(&cfg);
	serial_switch(&cfg);
	mp_efi_config_show(&cfg);
	mp_efi_results_open(&res);
	run(&cfg, &fw, &res);
	mp_efi_say(SENTINEL);
	mp_efi_finish(&cfg);
	return 0;
}
