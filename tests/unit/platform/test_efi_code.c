/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the UEFI platform's code_build and kernel_build
 * (platform/efi/platform.c): generated code, chains and arithmetic kernels
 * alike, is built only where our page tables are in use, and
 * without them the answer is "unsupported" with the reason said once.
 * platform.c is compiled here directly, with the page tables, the arena
 * and the firmware as stubs; the platform is never opened (that needs
 * ring 0), its state is set up by hand.
 */
#include <stdint.h>
#include <stdlib.h>

#include "platform/efi/platform.c"
#include "tests/check.h"

#define WHY "the firmware uses 5-level paging (CR4.LA57)"

static unsigned warnings, mmu_leaves;
static char last_log[512];

bool mp_efi_mmu_open(struct mp_platform *p, struct mp_efi_mmu *m, const struct mp_cpuid *c,
		     const struct mp_efi_arena *a)
{
	(void)p, (void)m, (void)c, (void)a;
	return false;
}
enum mp_status mp_efi_mmu_map(struct mp_efi_mmu *m, const uint8_t *base, uint64_t bytes,
			      uint64_t page_bytes)
{
	(void)m, (void)base, (void)bytes, (void)page_bytes;
	return MP_OK;
}
uint64_t mp_efi_mmu_page_of(const uint8_t *base, uint64_t bytes)
{
	(void)base, (void)bytes;
	return 4096;
}
void mp_efi_mmu_enter(struct mp_efi_mmu *m) { (void)m; }
void mp_efi_mmu_leave(struct mp_efi_mmu *m) { (void)m; mmu_leaves++; }
void mp_efi_mmu_close(struct mp_efi_mmu *m) { (void)m; }
uint8_t *mp_efi_arena_alloc(struct mp_efi_arena *a, uint64_t bytes, uint64_t align)
{
	(void)a, (void)bytes, (void)align;
	return NULL;
}
void mp_efi_arena_free(struct mp_efi_arena *a, const uint8_t *p) { (void)a, (void)p; }
void *mp_fw_pool_alloc(size_t bytes) { return calloc(1, bytes); }
void mp_fw_pool_free(void *p) { free(p); }
void mp_fw_stall(uint64_t us) { (void)us; }
/* The other processors (platform/efi/cpus.c): not reached by these tests. */
void mp_efi_cpus_open(struct mp_platform *p, struct mp_efi_cpus *c, struct mp_result *r)
{
	(void)p, (void)c, (void)r;
}
void mp_efi_cpus_close(struct mp_efi_cpus *c) { (void)c; }
enum mp_status mp_efi_cpus_select(struct mp_efi_cpus *c, uint32_t cpu)
{
	(void)c, (void)cpu;
	return MP_UNSUPPORTED;
}
enum mp_status mp_efi_cpus_run(struct mp_efi_cpus *c, const struct mp_x86_pmc *pmc,
			       const struct mp_run *r, struct mp_sample *s)
{
	(void)c, (void)pmc, (void)r, (void)s;
	return MP_UNSUPPORTED;
}
enum mp_status mp_efi_cpus_flush_all(struct mp_efi_cpus *c)
{
	(void)c;
	return MP_UNSUPPORTED;
}
enum mp_status mp_efi_cpus_run_beside(struct mp_efi_cpus *c, const struct mp_x86_pmc *pmc,
				      const struct mp_run *r, struct mp_sample *out,
				      uint32_t other, const struct mp_run *load)
{
	(void)c, (void)pmc, (void)r, (void)out, (void)other, (void)load;
	return MP_UNSUPPORTED;
}
enum mp_status mp_efi_cpus_pingpong(struct mp_efi_cpus *c, uint32_t a, uint32_t b, void *line,
				    uint64_t rounds, struct mp_sample *out)
{
	(void)c, (void)a, (void)b, (void)line, (void)rounds, (void)out;
	return MP_UNSUPPORTED;
}

static void app_log(void *ctx, enum mp_log_level lvl, const char *msg)
{
	(void)ctx;
	warnings += lvl == MP_LOG_WARN;
	snprintf(last_log, sizeof(last_log), "%s", msg);
}

static const struct mp_output app = { .log = app_log };

static struct efi_state state;
static uint8_t block[4096];
static void *entry;

/* A platform state as mp_efi_open leaves it, our tables in use or not. */
static void setup(bool tables)
{
	state = (struct efi_state){
		.p = { .name = MP_EFI_PLATFORM, .ops = &efi_ops, .out = &state.out, .priv = &state },
		.app = &app,
		.out = { .log = fw_log, .ctx = &state },
		.mmu = { .ready = tables, .why = WHY },
		.session = true,
	};
	memset(block, 0, sizeof(block));
	entry = NULL;
	warnings = mmu_leaves = 0;
}

/* Two blocks, at 0 and 64. */
static enum mp_status build(void)
{
	struct mp_mem m = { .base = block, .bytes = sizeof(block) };
	uint64_t offs[2] = { 0, 64 };
	struct mp_code c = { .offsets = offs, .n = 2, .block_bytes = 64 };

	return state.p.ops->code_build(&state.p, &m, &c, &entry);
}

static enum mp_status build_kernel(void)
{
	struct mp_mem m = { .base = block, .bytes = sizeof(block) };
	struct mp_kernel k = { .op = MP_ARITH_INT_ADD, .width = MP_WIDTH_SCALAR, .chains = 1, .ops = 8 };

	return state.p.ops->kernel_build(&state.p, &m, &k, &entry);
}

static void test_refused_without_our_tables(void)
{
	setup(false);
	CHECK_EQ_INT(build(), MP_UNSUPPORTED, "firmware's tables: code_build unsupported");
	CHECK(entry == NULL && block[0] == 0, "nothing written, no entry");
	CHECK_EQ_INT(warnings, 1, "one warning");
	CHECK(strstr(last_log, "generated code is not run") && strstr(last_log, WHY),
	      "the warning says why: \"%s\"", last_log);
	CHECK(mmu_leaves == 1, "the warning went out on the firmware's tables");
	CHECK_EQ_INT(build(), MP_UNSUPPORTED, "asked again: unsupported");
	CHECK_EQ_INT(build_kernel(), MP_UNSUPPORTED, "an arithmetic kernel: unsupported too");
	CHECK(entry == NULL && block[0] == 0, "no kernel written");
	CHECK_EQ_INT(warnings, 1, "the reason is said once");
}

static void test_built_with_our_tables(void)
{
	setup(true);
	CHECK_EQ_INT(build(), MP_OK, "our tables: code_build ok");
	CHECK(entry == block && block[0] != 0 && block[64] != 0, "both blocks written");
	CHECK_EQ_INT(warnings, 0, "no warning");
}

int main(void)
{
	test_refused_without_our_tables();
	test_built_with_our_tables();
	return check_done();
}
