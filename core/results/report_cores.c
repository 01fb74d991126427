/* SPDX-License-Identifier: MIT */
/*
 * The report's multi-core sections (probes topology, cores, c2c): the
 * topology, each core type with its CPUs and its levels, each level's
 * sharing measured against the documented "shared by", and the
 * core-to-core matrix.
 */
#include "core/lib/str.h"
#include "core/results/report_int.h"

/* Columns of the matrix: wide enough for "1234.5". */
#define C2C_CELL 8

void mp_cpu_list(char *out, size_t n, const uint16_t *cpus, int32_t count)
{
	struct mp_buf b;

	mp_buf_init(&b, out, n);
	for (int32_t i = 0; i < count; i++) {
		int32_t j = i;

		while (j + 1 < count && cpus[j + 1] == cpus[j] + 1)
			j++;
		mp_buf_printf(&b, "%s%u", i ? "," : "", (unsigned)cpus[i]);
		if (j > i)
			mp_buf_printf(&b, "-%u", (unsigned)cpus[j]);
		i = j;
	}
	if (b.overflow && n > 4)
		mp_strlcpy(out + n - 4, "...", 4);
}

/* The core type whose levels the table shows (mp_report_table passes only the row). */
static const struct mp_core_type *shown;

static const char *const level_head[] = {
	"level", "type", "size", "effective", "line", "ways", "latency(cyc)",
	"shared-by (measured)", "shared-by (documented)", NULL,
};

static void put_count(char *cell, int64_t v)
{
	if (v < 0)
		mp_strlcpy(cell, "-", MP_REPORT_CELL);
	else
		mp_snprintf(cell, MP_REPORT_CELL, "%lld", (long long)v);
}

static void put_size(char *cell, int64_t v)
{
	struct mp_buf b;

	mp_buf_init(&b, cell, MP_REPORT_CELL);
	if (v > 0)
		mp_buf_size(&b, (uint64_t)v);
	else
		mp_buf_puts(&b, "-");
}

static void level_row(const struct mp_result *r, int32_t i, char cells[MP_REPORT_COLS][MP_REPORT_CELL])
{
	const struct mp_cache *c = &shown->caches[i];
	const struct mp_cache *d = shown == &r->core_types[0]
					   ? mp_result_documented_side(r, c->level, c->type)
					   : NULL;

	mp_snprintf(cells[0], MP_TEXT_LEN, "L%d", (int)c->level);
	mp_strlcpy(cells[1], mp_kind_name(c->type) ? mp_kind_name(c->type) : "-", MP_TEXT_LEN);
	put_size(cells[2], c->size_bytes);
	put_size(cells[3], c->effective_size_bytes);
	put_count(cells[4], c->line_bytes);
	put_count(cells[5], c->ways);
	if (mp_is_na(c->latency_cycles))
		mp_strlcpy(cells[6], "-", MP_TEXT_LEN);
	else
		mp_snprintf(cells[6], MP_TEXT_LEN, "%.1f", c->latency_cycles);
	put_count(cells[7], c->shared_by);
	put_count(cells[8], d ? d->shared_by : MP_NA);
}

static void put_types(struct mp_buf *b, const struct mp_result *r)
{
	char list[MP_TEXT_LEN];

	for (int32_t i = 0; i < mp_count(r->ncore_types, MP_MAX_CORE_TYPES); i++) {
		shown = &r->core_types[i];
		mp_cpu_list(list, sizeof(list), shown->cpus, mp_count(shown->ncpus, MP_MAX_CPUS));
		mp_buf_printf(b, "\nCore type %s%s: %d logical CPU(s): %s\n", shown->name,
			      i == 0 ? " (the boot CPU's: the tables above)" : "",
			      (int)shown->ncpus, list);
		mp_report_table(b, level_head, mp_count(shown->ncaches, MP_MAX_CACHES), level_row,
				r);
	}
}

static void put_matrix(struct mp_buf *b, const struct mp_c2c *c)
{
	int32_t cpus[2 * MP_MAX_PAIRS], n = mp_c2c_cpus(c, cpus, 2 * MP_MAX_PAIRS);

	mp_buf_printf(b, "\nCore to core (one-way transfer of a cache line, %s: a ping-pong "
			 "round over two)\n", c->unit[0] ? c->unit : "-");
	if (n == 0) {
		mp_buf_puts(b, "  (none)\n");
		return;
	}
	mp_buf_printf(b, "  %*s", C2C_CELL, "CPU");
	for (int32_t j = 0; j < n; j++)
		mp_buf_printf(b, "%*d", C2C_CELL, (int)cpus[j]);
	for (int32_t i = 0; i < n; i++) {
		mp_buf_printf(b, "\n  %*d", C2C_CELL, (int)cpus[i]);
		for (int32_t j = 0; j < n; j++) {
			double v = mp_c2c_latency(c, cpus[i], cpus[j]);

			if (mp_is_na(v))
				mp_buf_printf(b, "%*s", C2C_CELL, i == j ? "" : "-");
			else
				mp_buf_printf(b, "%*.1f", C2C_CELL, v);
		}
	}
	mp_buf_putc(b, '\n');
}

void mp_write_report_cores(struct mp_buf *b, const struct mp_result *r)
{
	const struct mp_topology *t = &r->topology;
	char n[3][MP_TEXT_LEN];

	put_count(n[0], t->packages);
	put_count(n[1], t->cores);
	put_count(n[2], t->threads);
	mp_buf_puts(b, "\nTopology (logical CPUs as the platform describes them)\n");
	mp_buf_printf(b, "  packages %s, cores %s, logical CPUs %s\n", n[0], n[1], n[2]);
	put_types(b, r);
	put_matrix(b, &r->core_to_core);
}
