/* SPDX-License-Identifier: MIT */
#include "app/efi/finish.h"
#include "app/efi/out.h"
#include "platform/efi/fw.h"

/* Key polls per second while counting down. */
#define POLLS_PER_SECOND 20u
#define POLL_US (1000000u / POLLS_PER_SECOND)

static const char *const action_names[] = {
	[MP_FINISH_SHUTDOWN] = "powering off",
	[MP_FINISH_REBOOT] = "rebooting",
	[MP_FINISH_RETURN] = "returning to the firmware",
};

/* Was a key pressed within `seconds`?  A dot per second shows it counting. */
static bool key_within(uint32_t seconds)
{
	for (uint32_t s = 0; s < seconds; s++) {
		for (unsigned i = 0; i < POLLS_PER_SECOND; i++) {
			if (mp_fw_key_pressed())
				return true;
			mp_fw_stall(POLL_US);
		}
		mp_efi_say(".");
	}
	return false;
}

static void wait_key(void)
{
	while (!mp_fw_key_pressed())
		mp_fw_stall(POLL_US);
}

void mp_efi_finish(const struct mp_config *cfg)
{
	const char *action = action_names[cfg->on_finish];

	if (cfg->finish_delay) {
		mp_efi_sayf("memprobe: %s in %u s; press any key to stay\n", action,
			    cfg->finish_delay);
		if (key_within(cfg->finish_delay)) {
			mp_efi_say("\nmemprobe: staying up; "
				   "press any key to return to the firmware\n");
			wait_key();
			return;
		}
		mp_efi_say("\n");
	}
	mp_efi_sayf("memprobe: %s\n", action);
	if (cfg->on_finish == MP_FINISH_SHUTDOWN)
		mp_fw_reset(MP_FW_SHUTDOWN);
	else if (cfg->on_finish == MP_FINISH_REBOOT)
		mp_fw_reset(MP_FW_REBOOT);
	if (cfg->on_finish != MP_FINISH_RETURN)
		mp_efi_say("memprobe: the firmware did not reset; returning to it\n");
}
