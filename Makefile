# memprobe: see README.md.  `make` builds the three programs; `make test`,
# `make bench`, `make image`, `make run`, `make clean`.
#
# Sources are found by directory, so adding a file needs no edit here.
# Which directories a program links says which layers it uses:
#
#   memprobe      app/linux  app/cli  platform/linux platform/hosted  arch/x86_64  core
#   memprobe-sim  app/sim    app/cli  platform/sim   platform/hosted  sim          core
#   BOOTX64.EFI   app/efi             platform/efi                    arch/x86_64  core
#
# core/ and arch/ are freestanding (no libc: only the compiler's own
# headers); the hosted directories are ordinary C with libc.

CC      ?= gcc
BUILD   := build
GCCINC  := $(shell $(CC) -print-file-name=include)
WARN    := -Wall -Wextra -Werror
DEPS    := -MMD -MP
OPT     := -O2 -g

FREE_CFLAGS := -std=c11 -ffreestanding -nostdinc -isystem $(GCCINC) -I. \
               -fno-stack-protector -fno-builtin $(OPT) $(WARN) $(DEPS)
HOST_CFLAGS := -std=gnu11 -I. $(OPT) $(WARN) $(DEPS)

srcs = $(shell find $(1) -name '*.c' -o -name '*.S' 2>/dev/null | sort)
obj = $(patsubst %,$(BUILD)/host/%.o,$(basename $(1)))

CORE_SRC   := $(call srcs,core)
ARCH_SRC   := $(call srcs,arch/x86_64)
HOSTED_SRC := $(call srcs,platform/hosted)
LINUX_SRC  := $(call srcs,platform/linux)
SIMP_SRC   := $(call srcs,sim platform/sim)
CLI_SRC    := $(call srcs,app/cli)

CORE_OBJ   := $(call obj,$(CORE_SRC))
ARCH_OBJ   := $(call obj,$(ARCH_SRC))
HOSTED_OBJ := $(call obj,$(HOSTED_SRC))
LINUX_OBJ  := $(call obj,$(LINUX_SRC))
SIMP_OBJ   := $(call obj,$(SIMP_SRC))
CLI_OBJ    := $(call obj,$(CLI_SRC))

LINUX_PROG_OBJ := $(call obj,$(call srcs,app/linux)) $(CLI_OBJ) $(LINUX_OBJ) $(HOSTED_OBJ) \
                  $(ARCH_OBJ) $(CORE_OBJ)
SIM_PROG_OBJ   := $(call obj,$(call srcs,app/sim)) $(CLI_OBJ) $(SIMP_OBJ) $(HOSTED_OBJ) \
                  $(CORE_OBJ)

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

$(BUILD)/memprobe: $(LINUX_PROG_OBJ)
	$(CC) -o $@ $^ -lm

$(BUILD)/memprobe-sim: $(SIM_PROG_OBJ)
	$(CC) -o $@ $^ -lm

include app/efi/build.mk
include tests/build.mk
include image/build.mk

deps:
	@./image/deps.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
