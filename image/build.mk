# Disk image and QEMU run.
