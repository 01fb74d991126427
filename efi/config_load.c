/* SPDX-License-Identifier: MIT */
#include "core/buf.h"
#include "efi/config_load.h"
#include "efi/fw.h"
#include "efi/out.h"

static const char *const profile_names[] = {
	[MP_PROFILE_QUICK] = "quick",
	[MP_PROFILE_FULL] = "full",
};

static const char *const finish_names[] = {
	[MP_FINISH_SHUTDOWN] = "shutdown",
	[MP_FINISH_REBOOT] = "reboot",
	[MP_FINISH_RETURN] = "return",
};

static void complain(void *arg, uint32_t line, const char *msg)
{
	(void)arg;
	if (line)
		mp_efi_sayf("memprobe: %s line %u: %s\n", MP_EFI_CONFIG_PATH, line, msg);
	else
		mp_efi_sayf("memprobe: %s: %s\n", MP_EFI_CONFIG_PATH, msg);
}

static void parse(struct mp_config *cfg, const char *text, size_t len)
{
	uint32_t problems = mp_config_parse(cfg, text, len, complain, NULL);

	if (problems)
		mp_efi_sayf("memprobe: %u problem%s in %s\n", problems, problems == 1 ? "" : "s",
			    MP_EFI_CONFIG_PATH);
}

void mp_efi_config_load(struct mp_config *cfg)
{
	char *text = mp_fw_pool_alloc(MP_EFI_CONFIG_BYTES);
	size_t len = 0;
	enum mp_fw_status st;

	mp_config_defaults(cfg);
	if (!text) {
		mp_efi_say("memprobe: no memory to read the configuration; using the defaults\n");
		return;
	}
	st = mp_fw_read(MP_EFI_CONFIG_PATH, text, MP_EFI_CONFIG_BYTES, &len);
	if (st == MP_FW_TOO_LARGE)
		mp_efi_sayf("memprobe: %s is larger than %u bytes; nothing is read past that\n",
			    MP_EFI_CONFIG_PATH, MP_EFI_CONFIG_BYTES);
	if (st == MP_FW_OK || st == MP_FW_TOO_LARGE)
		parse(cfg, text, len);
	else
		mp_efi_sayf("memprobe: cannot read %s (%s); using the defaults\n",
			    MP_EFI_CONFIG_PATH, mp_fw_status_text(st));
	mp_fw_pool_free(text);
}

void mp_efi_config_show(const struct mp_config *cfg)
{
	char arena[24], port[12] = "none";
	struct mp_buf b;

	mp_buf_init(&b, arena, sizeof(arena));
	mp_buf_size(&b, cfg->arena_bytes);
	if (cfg->serial_port)
		mp_snprintf(port, sizeof(port), "0x%x", cfg->serial_port);
	mp_efi_sayf("memprobe: config: profile=%s method=%s probes=%s arena=%s on_finish=%s "
		    "finish_delay=%u serial_port=%s seed=%llu\n",
		    profile_names[cfg->profile], mp_method_name(cfg->method),
		    cfg->probes[0] ? cfg->probes : "all", arena, finish_names[cfg->on_finish],
		    cfg->finish_delay, port, (unsigned long long)cfg->seed);
}
