# memprobe: see README.md.  `make` builds the Linux command, the simulator
# command and the UEFI application; `make test`, `make bench`, `make image`,
# `make run`, `make clean`.
#
# Sources are found by directory, so adding a file needs no edit here:
#   core/*.c          freestanding C11, linked into all three programs
#   arch/x86_64/*.c,S freestanding, linked into the Linux and UEFI programs
#   host/*.c          the Linux command (host/main.c is its main)
#   tests/sim/*.c     the simulator (tests/sim/main.c is its main)
#   efi/              see efi/build.mk

CC      ?= gcc
BUILD   := build
GCCINC  := $(shell $(CC) -print-file-name=include)
WARN    := -Wall -Wextra -Werror
DEPS    := -MMD -MP
OPT     := -O2 -g

# core/ and arch/ must build without libc: only the compiler's own headers.
FREE_CFLAGS := -std=c11 -ffreestanding -nostdinc -isystem $(GCCINC) -I. \
               -fno-stack-protector -fno-builtin $(OPT) $(WARN) $(DEPS)
HOST_CFLAGS := -std=gnu11 -I. $(OPT) $(WARN) $(DEPS)

CORE_SRC := $(wildcard core/*.c)
ARCH_SRC := $(wildcard arch/x86_64/*.c arch/x86_64/*.S)
HOSTLIB_SRC := $(filter-out host/main.c,$(wildcard host/*.c))
SIM_SRC  := $(filter-out tests/sim/main.c,$(wildcard tests/sim/*.c))

obj = $(patsubst %,$(BUILD)/host/%.o,$(basename $(1)))

CORE_OBJ := $(call obj,$(CORE_SRC))
ARCH_OBJ := $(call obj,$(ARCH_SRC))
HOSTLIB_OBJ := $(call obj,$(HOSTLIB_SRC))
SIM_OBJ  := $(call obj,$(SIM_SRC))

.PHONY: all deps test bench image run clean
all: $(BUILD)/memprobe $(BUILD)/memprobe-sim efi

$(BUILD)/host/core/%.o: core/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FREE_CFLAGS) -c $< -o $@
$(BUILD)/host/arch/%.o: arch/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FREE_CFLAGS) -c $< -o $@
$(BUILD)/host/arch/%.o: arch/%.S
	@mkdir -p $(dir $@)
	$(CC) $(FREE_CFLAGS) -c $< -o $@
$(BUILD)/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/memprobe: $(BUILD)/host/host/main.o $(HOSTLIB_OBJ) $(ARCH_OBJ) $(CORE_OBJ)
	$(CC) -o $@ $^ -lm

$(BUILD)/memprobe-sim: $(BUILD)/host/tests/sim/main.o $(SIM_OBJ) $(HOSTLIB_OBJ) $(ARCH_OBJ) $(CORE_OBJ)
	$(CC) -o $@ $^ -lm

include efi/build.mk
include tests/build.mk
include image/build.mk

deps:
	@./image/deps.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
