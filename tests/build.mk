# Tests.  Every tests/**/test_*.c is its own program, linked with every
# library object (core, arch, the platforms, the simulator, the command
# front end); every tests/**/test_*.sh is a shell test.  `make test` runs
# them all in parallel (one job per CPU), each into its own log under
# build/tests/log/, then tests/run.sh sums the logs up and prints
# `N passed, N failed`.  `make test-matrix` does the same for the boot matrix.

TEST_C   := $(shell find tests -name 'test_*.c' | sort)
TEST_SH  := $(shell find tests -name 'test_*.sh' | sort)
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/bin/%,$(TEST_C))
LIB_OBJ  := $(CLI_OBJ) $(LINUX_OBJ) $(SIMP_OBJ) $(HOSTED_OBJ) $(ARCH_OBJ) $(CORE_OBJ)

# The longest tests start first, so that the parallel run ends sooner.
TEST_FIRST := probes/test_probe_evset boot/test_boot boot/test_boot_smp boot/test_secure_boot probes/test_probe_counters probes/test_probe_tlb \
              probes/test_probe_itlb probes/test_probe_icache probes/test_probe_compact \
              probes/test_probe_l1
TEST_NAMES := $(TEST_FIRST) $(filter-out $(TEST_FIRST), \
              $(patsubst tests/%.c,%,$(TEST_C)) $(patsubst tests/%.sh,%,$(TEST_SH)))
TEST_LOG   := $(patsubst %,$(BUILD)/tests/log/%.log,$(TEST_NAMES))
JOBS       ?= $(shell nproc)

$(BUILD)/tests/bin/%: $(BUILD)/host/tests/%.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -lm

.PHONY: test test-logs FORCE
test: deps
	@$(MAKE) --no-print-directory all $(IMAGE) $(TEST_BIN)
	@rm -rf $(BUILD)/tests/log
	@echo "running $(words $(TEST_LOG)) test programs, $(JOBS) at a time"
	@$(MAKE) --no-print-directory -j$(JOBS) test-logs
	@./tests/run.sh sum $(TEST_LOG)

test-logs: $(TEST_LOG)

$(BUILD)/tests/log/%.log: $(BUILD)/tests/bin/% FORCE
	@./tests/run.sh one $@ $<
$(BUILD)/tests/log/%.log: tests/%.sh FORCE
	@./tests/run.sh one $@ sh $<

# The schema test validates the files the JSON writer's test leaves.
$(BUILD)/tests/log/results/test_schema.log: $(BUILD)/tests/log/unit/results/test_json.log

# `make test-matrix`: the boot matrix (tests/boot/matrix.sh), one QEMU boot
# per case, JOBS at a time, each into its own log; too long for `make test`.
MATRIX_LOG := $(patsubst %,$(BUILD)/tests/log/matrix/%.log,$(shell sh tests/boot/matrix.sh list))

.PHONY: test-matrix matrix-logs
test-matrix: deps
	@$(MAKE) --no-print-directory all $(IMAGE)
	@rm -rf $(BUILD)/tests/log/matrix
	@echo "booting $(words $(MATRIX_LOG)) matrix cases, $(JOBS) at a time"
	@$(MAKE) --no-print-directory -j$(JOBS) matrix-logs
	@SUM_LOG=$(BUILD)/test-matrix.log ./tests/run.sh sum $(MATRIX_LOG)

matrix-logs: $(MATRIX_LOG)

$(BUILD)/tests/log/matrix/%.log: FORCE
	@./tests/run.sh one $@ sh tests/boot/matrix.sh $*

BENCH_SRC := $(wildcard tests/bench/bench_*.c)
BENCH_BIN := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))
$(BUILD)/bench/%: $(BUILD)/host/tests/bench/%.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -lm

bench: all $(BENCH_BIN)
	@./tests/bench.sh $(BENCH_BIN)
