# Shell functions shared by image/run.sh and tests/boot/test_boot.sh (sourced,
# not run): booting a memprobe image under QEMU with OVMF, and reading the
# files of its EFI system partition with mtools.

OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
# Secure Boot (Debian's ovmf, README.Debian): firmware that needs SMM, and
# variables with Secure Boot on and Debian's test key ("snakeoil") enrolled
# as PK, KEK and db.  The key pair is shipped for testing; its passphrase
# is "snakeoil".
OVMF_CODE_SECURE=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
OVMF_VARS_TEST_KEY=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
TEST_KEY=/usr/share/ovmf/PkKek-1-snakeoil.key
TEST_CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
TEST_KEY_PASS=snakeoil
# The secure firmware runs only on a machine with SMM whose flash QEMU
# guards with it.
SECURE_MACHINE="q35,smm=on -global driver=cfi.pflash01,property=secure,value=on"
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

# ovmf_args VARS [CODE]: firmware flash drives, the shared code and a
# writable copy of the variables.
ovmf_args() {
	echo "-drive if=pflash,format=raw,unit=0,readonly=on,file=${2:-$OVMF_CODE}" \
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

# boot IMAGE VARS SECONDS ACCEL SERIAL [OPTION...]: run until the machine
# powers off or SECONDS pass.  SERIAL is a QEMU character device
# ("file:LOG", "mon:stdio", "none" for a machine without a serial port).
# Options: `readonly` (the disk), `secure` (the Secure Boot firmware; VARS
# a copy of OVMF_VARS_TEST_KEY), `mem=SIZE` (instead of QEMU_MEM),
# `smp=SPEC` (QEMU's -smp, instead of one CPU).
# Status: QEMU's, or 124 on timeout.
boot() {
	b_img=$1 b_vars=$2 b_secs=$3 b_accel=$4 b_serial=$5
	shift 5
	b_ro= b_code=$OVMF_CODE b_machine=q35 b_mem=$QEMU_MEM b_smp=1
	for b_opt in "$@"; do
		case $b_opt in
		readonly) b_ro=,readonly=on ;;
		secure) b_code=$OVMF_CODE_SECURE b_machine=$SECURE_MACHINE ;;
		mem=*) b_mem=${b_opt#mem=} ;;
		smp=*) b_smp=${b_opt#smp=} ;;
		*) echo "boot: unknown option $b_opt" >&2; return 2 ;;
		esac
	done
	# shellcheck disable=SC2046,SC2086
	timeout -k 5 "$b_secs" qemu-system-x86_64 -machine $b_machine $b_accel -smp "$b_smp" -m "$b_mem" \
		$(ovmf_args "$b_vars" "$b_code") -drive "file=$b_img,format=raw,if=virtio$b_ro" \
		-display none -serial "$b_serial" -monitor none -nic none -no-reboot
}

# copy_results IMAGE DIR: memprobe/results/* of the image into DIR.
copy_results() {
	rm -rf "$2"
	mkdir -p "$2"
	MTOOLS_SKIP_CHECK=1 mcopy -s -m -n -i "$(part_fs "$1")" '::/memprobe/results/*' "$2/" \
		2>/dev/null
}
