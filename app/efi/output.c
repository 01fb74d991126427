/* SPDX-License-Identifier: MIT */
#include "app/efi/out.h"
#include "app/efi/output.h"
#include "core/lib/str.h"

/* Progress lines per piece of work: one per tenth done. */
#define PROGRESS_STEPS 10u

static void efi_log(void *ctx, enum mp_log_level lvl, const char *msg)
{
	(void)ctx;
	mp_efi_say("memprobe: ");
	mp_efi_say(mp_log_prefix(lvl));
	mp_efi_say(msg);	/* whole: a line of mp_efi_sayf's length would cut it */
	mp_efi_say("\n");
}

/* A serial console cannot rewrite a line: one line when the work changes and one per tenth. */
static void efi_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct mp_efi_output *o = ctx;
	uint64_t step = total ? done * PROGRESS_STEPS / total : 0;

	if (mp_strcmp(what, o->progress_what) == 0 && step == o->progress_step)
		return;
	mp_strlcpy(o->progress_what, what, sizeof(o->progress_what));
	o->progress_step = step;
	mp_efi_sayf("memprobe: %s: %llu/%llu\n", what, (unsigned long long)done,
		    (unsigned long long)total);
}

static enum mp_status efi_sink(void *ctx, const char *name, const char *data, size_t len)
{
	struct mp_efi_output *o = ctx;

	return mp_efi_results_store(o->results, name, data, len);
}

void mp_efi_output_init(struct mp_efi_output *o, struct mp_efi_results *res)
{
	*o = (struct mp_efi_output){
		.out = { .log = efi_log, .progress = efi_progress, .sink = efi_sink, .ctx = o },
		.results = res,
	};
}
