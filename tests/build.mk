# Tests: every tests/unit/test_*.c is its own program, linked with all
# library objects (core, arch, host library, simulator).  tests/run.sh runs
# them and the shell tests (tests/*.sh) and prints `N passed, N failed`.

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
LIB_OBJ  := $(SIM_OBJ) $(HOSTLIB_OBJ) $(ARCH_OBJ) $(CORE_OBJ)

$(BUILD)/tests/%: $(BUILD)/host/tests/unit/%.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -lm

test: deps all $(UNIT_BIN)
	@./tests/run.sh $(UNIT_BIN)

BENCH_SRC := $(wildcard tests/bench/bench_*.c)
BENCH_BIN := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))
$(BUILD)/bench/%: $(BUILD)/host/tests/bench/%.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -lm

bench: all $(BENCH_BIN)
	@./tests/bench.sh $(BENCH_BIN)
