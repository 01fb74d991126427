# Disk image and QEMU run.
#
# `make image` writes build/memprobe.img: a GPT disk with one FAT32 EFI
# system partition holding the application, the default configuration and
# README.TXT, built without root (image/mkimage.sh).  `make run` boots it
# under QEMU and OVMF and copies the results out (image/run.sh).
#
# `make image SIGN_KEY=db.key SIGN_CERT=db.crt` signs the application for
# Secure Boot with sbsign (PEM private key and certificate) and checks the
# signature with sbverify before it goes on the image (docs/uefi.md,
# "Secure Boot").  The image is built again whenever the key or
# certificate, or whether it is signed at all, changes.

IMAGE      := $(BUILD)/memprobe.img
SIGN_KEY   ?=
SIGN_CERT  ?=
EFI_SIGNED := $(EFI_OUT)/BOOTX64.signed.EFI
# Which key and certificate signed the image's application ("" when none).
SIGN_STATE := $(BUILD)/image-signing
IMAGE_APP  := $(if $(SIGN_KEY)$(SIGN_CERT),$(EFI_SIGNED),$(EFI_APP))
IMAGE_IN   := $(IMAGE_APP) image/memprobe.cfg image/README.TXT

ifneq ($(filter k c,$(if $(SIGN_KEY),k)$(if $(SIGN_CERT),c)),)
$(error signing needs both SIGN_KEY (the private key) and SIGN_CERT (its certificate))
endif

image: $(IMAGE)

$(IMAGE): $(IMAGE_IN) image/mkimage.sh $(SIGN_STATE)
	./image/mkimage.sh $@ $(IMAGE_IN)

$(SIGN_STATE): FORCE
	@mkdir -p $(dir $@)
	@echo '$(SIGN_KEY) $(SIGN_CERT)' | cmp -s - $@ || echo '$(SIGN_KEY) $(SIGN_CERT)' >$@

$(EFI_SIGNED): $(EFI_APP) $(SIGN_KEY) $(SIGN_CERT) $(SIGN_STATE)
	sbsign --key '$(SIGN_KEY)' --cert '$(SIGN_CERT)' --output $@.tmp $<
	sbverify --cert '$(SIGN_CERT)' $@.tmp
	mv $@.tmp $@

run: deps $(IMAGE)
	./image/run.sh $(IMAGE)
