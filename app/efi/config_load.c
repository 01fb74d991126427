/* SPDX-License-Identifier: MIT */
#include "app/efi/config_load.h"
#include "app/efi/out.h"
#include "core/lib/buf.h"
#include "platform/efi/fw.h"

/* Problems named one by one; a file of garbage has one a line, and the rest are counted. */
#define PROBLEMS_SHOWN 16u

static void complain(void *arg, uint32_t line, const char *msg)
{
	uint32_t *shown = arg;

	if (++*shown > PROBLEMS_SHOWN)
		return;
	if (line)
		mp_efi_sayf("memprobe: %s line %u: %s\n", MP_EFI_CONFIG_PATH, line, msg);
	else
		mp_efi_sayf("memprobe: %s: %s\n", MP_EFI_CONFIG_PATH, msg);
}

static void parse(struct mp_config *cfg, const char *text, size_t len)
{
	uint32_t shown = 0;
	uint32_t problems = mp_config_parse(cfg, text, len, complain, &shown);

	if (problems > PROBLEMS_SHOWN)
		mp_efi_sayf("memprobe: %u problems in %s, the first %u shown\n", problems,
			    MP_EFI_CONFIG_PATH, PROBLEMS_SHOWN);
	else if (problems)
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
	char line[MP_EFI_LINE];
	struct mp_buf b;

	mp_buf_init(&b, line, sizeof(line));
	mp_config_show(cfg, &b);
	mp_efi_sayf("memprobe: config: %s\n", line);
}
