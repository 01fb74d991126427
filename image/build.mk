# Disk image and QEMU run.
#
# `make image` writes build/memprobe.img: a GPT disk with one FAT32 EFI
# system partition holding the application, the default configuration and
# README.TXT, built without root (image/mkimage.sh).  `make run` boots it
# under QEMU and OVMF and copies the results out (image/run.sh).

IMAGE     := $(BUILD)/memprobe.img
IMAGE_IN  := $(EFI_APP) image/memprobe.cfg image/README.TXT

image: $(IMAGE)

$(IMAGE): $(IMAGE_IN) image/mkimage.sh
	./image/mkimage.sh $@ $(IMAGE_IN)

run: deps $(IMAGE)
	./image/run.sh $(IMAGE)
