# UEFI application: filled in by the efi work.
.PHONY: efi
efi:
