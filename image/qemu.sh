# Shell functions shared by image/run.sh and tests/boot/test_boot.sh (sourced,
# not run): booting a memprobe image under QEMU with OVMF, and reading the
# files of its EFI system partition with mtools.

OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
QEMU_MEM=1G
# Seconds a KVM trial may run: the failures seen with nested KVM under
# OVMF (an emulation failure, or QEMU asserting on MSR 0x10a) come within
# the first second.
KVM_TRIAL_SECONDS=4
KVM_FAILURE='KVM internal error|emulation failure|failed to set MSR|Assertion'

# Byte offset of partition 1, for mtools' IMAGE@@OFFSET.
part_offset() {
	sgdisk --info=1 "$1" | sed -n 's/^First sector: \([0-9]*\).*/\1/p' |
		awk '{ print $1 * 512 }'
}

# The mtools drive for partition 1 of an image: IMAGE@@OFFSET.
part_fs() {
	echo "$1@@$(part_offset "$1")"
}

# Firmware flash drives: the shared code and a writable copy of the variables.
ovmf_args() {
	echo "-drive if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE" \
		"-drive if=pflash,format=raw,unit=1,file=$1"
}

# Does KVM run OVMF here?  Boots the firmware alone for a few seconds and
# watches for the failures nested KVM shows.
kvm_works() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	trial=$(mktemp -d)
	cp "$OVMF_VARS" "$trial/vars.fd"
	# shellcheck disable=SC2046
	timeout "$KVM_TRIAL_SECONDS" qemu-system-x86_64 -enable-kvm -machine q35 -cpu host \
		-m "$QEMU_MEM" $(ovmf_args "$trial/vars.fd") -display none -serial none \
		-monitor none -nic none -no-reboot >/dev/null 2>"$trial/err" </dev/null
	rc=$?
	ok=1
	[ "$rc" -eq 124 ] && ! grep -Eq "$KVM_FAILURE" "$trial/err" && ok=0
	rm -rf "$trial"
	return $ok
}

# Accelerator arguments: KVM when it works, otherwise TCG with a one-line note.
accel_args() {
	if kvm_works; then
		echo "-enable-kvm -cpu host"
	else
		echo "note: KVM is not usable for OVMF here; using TCG (slower)" >&2
		echo "-accel tcg -cpu max"
	fi
}

# boot IMAGE VARS SECONDS ACCEL SERIAL [READONLY]: run until the machine
# powers off or SECONDS pass.  SERIAL is a QEMU character device
# ("file:LOG", "mon:stdio").  Status: QEMU's, or 124 on timeout.
boot() {
	ro=${6:+,readonly=on}
	# shellcheck disable=SC2046,SC2086
	timeout -k 5 "$3" qemu-system-x86_64 -machine q35 $4 -smp 1 -m "$QEMU_MEM" \
		$(ovmf_args "$2") -drive "file=$1,format=raw,if=virtio$ro" \
		-display none -serial "$5" -monitor none -nic none -no-reboot
}

# copy_results IMAGE DIR: memprobe/results/* of the image into DIR.
copy_results() {
	rm -rf "$2"
	mkdir -p "$2"
	MTOOLS_SKIP_CHECK=1 mcopy -s -m -n -i "$(part_fs "$1")" '::/memprobe/results/*' "$2/" \
		2>/dev/null
}
