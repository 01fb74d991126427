# The UEFI application build/efi/BOOTX64.EFI.
#
# core/, arch/x86_64/, platform/efi/ and app/efi/ are compiled again for the
# firmware: position
# independent (GNU-EFI's _relocate applies the relocations at load time), no
# red zone (firmware interrupt handlers run on our stack), wchar_t as the
# firmware's 16-bit CHAR16.  Only the fw_*.c files get the UEFI headers:
# nothing else can include them.  The objects are linked as a shared object
# with GNU-EFI's start code and our linker script (app/efi/memprobe.lds: one
# page-aligned section per kind of content, no gaps, so that the image can
# be signed and mapped W^X), objcopy turns that into a PE32+ EFI
# application (subsystem 10) without symbols, and app/efi/pe_nxcompat.py
# marks it NX-compatible.

EFI_OUT   := $(BUILD)/efi
EFI_APP   := $(EFI_OUT)/BOOTX64.EFI
EFI_SO    := $(EFI_OUT)/memprobe.so
EFI_INC   := /usr/include/efi
EFI_LIBS  := /usr/lib
EFI_CRT0  := $(EFI_LIBS)/crt0-efi-x86_64.o
EFI_LDS   := app/efi/memprobe.lds

EFI_ARCH_CFLAGS := -fpic -fshort-wchar -mno-red-zone -maccumulate-outgoing-args \
                   -fno-strict-aliasing -fno-stack-check
EFI_FREE_CFLAGS := $(FREE_CFLAGS) $(EFI_ARCH_CFLAGS)
# GNU_EFI_USE_MS_ABI: firmware calls through ms_abi function pointers, no wrapper.
EFI_FW_CFLAGS   := $(EFI_FREE_CFLAGS) -isystem $(EFI_INC) -isystem $(EFI_INC)/x86_64 \
                   -DGNU_EFI_USE_MS_ABI
EFI_LDFLAGS     := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
                   -z noexecstack -T $(EFI_LDS)
# The PE sections, in address order (app/efi/memprobe.lds).
EFI_SECTIONS    := .text .reloc .rodata .sbat .data .dynamic .rela .bss

EFI_SRC := $(call srcs,platform/efi app/efi)
EFI_OBJ := $(patsubst %,$(EFI_OUT)/%.o,$(basename $(CORE_SRC) $(ARCH_SRC) $(EFI_SRC)))

.PHONY: efi
efi: $(EFI_APP)

# Only the fw_*.c files (firmware glue) get the UEFI headers.
efi_cflags = $(if $(filter fw_%,$(notdir $<)),$(EFI_FW_CFLAGS),$(EFI_FREE_CFLAGS))

$(EFI_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(efi_cflags) -c $< -o $@
$(EFI_OUT)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(EFI_FREE_CFLAGS) -c $< -o $@

# The shim must not have its loops turned back into calls to itself.
$(EFI_OUT)/app/efi/libc_shim.o: EFI_FREE_CFLAGS += -fno-tree-loop-distribute-patterns

$(EFI_SO): $(EFI_OBJ) $(EFI_LDS)
	$(LD) $(EFI_LDFLAGS) $(EFI_CRT0) $(EFI_OBJ) -L$(EFI_LIBS) -lefi -lgnuefi -o $@

# SOURCE_DATE_EPOCH fixes the PE header's time stamp, so the same sources
# give the same bytes.
$(EFI_APP): $(EFI_SO) app/efi/pe_nxcompat.py
	SOURCE_DATE_EPOCH=0 objcopy $(foreach s,$(EFI_SECTIONS),-j '$(s)') --strip-all \
		--target efi-app-x86_64 --subsystem=10 $< $@.tmp
	python3 app/efi/pe_nxcompat.py $@.tmp
	mv $@.tmp $@
