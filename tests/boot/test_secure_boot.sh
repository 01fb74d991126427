#!/bin/sh
# Secure Boot end to end.  The application's PE layout is one that shim and
# firmware with memory protection accept and sbsign signs cleanly
# (tests/boot/pe_check.py); `make image SIGN_KEY= SIGN_CERT=` signs it
# without warnings and the signature verifies; under OVMF with Secure Boot
# enforced and Debian's test key enrolled (image/qemu.sh), the unsigned
# image is refused before memprobe says a word and leaves no results, and
# the image signed with the test key runs the quick profile, says Secure
# Boot is on, powers off by itself and writes valid results.  The test
# key's private half is decrypted into the scratch directory, never kept
# in the tree.  One PASS or FAIL line per check.
set -u
cd "$(dirname "$0")/../.."
. tests/boot/lib.sh
scratch_dir build/tests/secure_boot
# What OVMF's boot manager says when LoadImage refuses an image's signature
# (EFI_ACCESS_DENIED or EFI_SECURITY_VIOLATION), and when it has given up.
REFUSED='BdsDxe: failed to load .*(Access Denied|Security Violation)'
GAVE_UP='BdsDxe: No bootable option or device was found'

image_built
version=$(sed -n 's/^#define MP_VERSION "\(.*\)"$/\1/p' core/results/result.h)
python3 tests/boot/pe_check.py build/efi/BOOTX64.EFI "$version"

# sign_image: `make image` with the test key, into the scratch directory.
sign_image() {
	openssl rsa -in "$TEST_KEY" -passin "pass:$TEST_KEY_PASS" -out "$out/db.key" 2>&1 &&
		MAKEFLAGS= make -s image IMAGE="$out/signed.img" EFI_SIGNED="$out/BOOTX64.EFI" \
			SIGN_STATE="$out/signing" SIGN_KEY="$out/db.key" SIGN_CERT="$TEST_CERT" \
			>"$out/sign.log" 2>&1
	rc=$?
	cat "$out/sign.log"
	rm -f "$out/db.key"
	[ "$rc" -eq 0 ] && ! grep -q '^warning' "$out/sign.log"
}

on_image_verifies() { # the application on the signed image carries a valid signature
	MTOOLS_SKIP_CHECK=1 mcopy -o -i "$(part_fs "$out/signed.img")" ::/EFI/BOOT/BOOTX64.EFI \
		"$out/on-image.efi" && sbverify --cert "$TEST_CERT" "$out/on-image.efi"
}

check "make image SIGN_KEY= SIGN_CERT=: signed, verified, no sbsign warning" sign_image
check "the application on the image verifies with the test certificate" on_image_verifies
check "the signed application keeps the clean layout" \
	python3 tests/boot/pe_check.py "$out/on-image.efi" "$version"

# boot_until NAME IMAGE PATTERN: a Secure Boot boot stopped once the serial
# log matches PATTERN (or after timeout_s); sets secs.
boot_until() {
	cp "$OVMF_VARS_TEST_KEY" "$out/$1.vars"
	: >"$out/$1.log"
	t0=$(date +%s)
	boot "$2" "$out/$1.vars" "$timeout_s" "-accel tcg -cpu max" "file:$out/$1.log" secure \
		</dev/null >"$out/$1.qemu" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && ! grep -Eaq "$3" "$out/$1.log"; do
		sleep 0.5
	done
	# The background job is a subshell running `timeout qemu`: stop its child.
	pkill -TERM -P "$pid" 2>/dev/null
	wait "$pid"
	secs=$(($(date +%s) - t0))
}

no_results() { # no run directory on NAME.img
	copy_results "$out/$1.img" "$out/$1-results"
	ls -A "$out/$1-results"
	[ -z "$(ls -A "$out/$1-results")" ]
}

# The unsigned application: refused by the firmware.
scratch unsigned "$SHORT"
boot_until unsigned "$out/unsigned.img" "$GAVE_UP|$BANNER"
echo "INFO boot: Secure Boot: the unsigned image's boot stopped after $secs s"
check "unsigned: the firmware refused it" in_log unsigned "$REFUSED"
check "unsigned: memprobe never started" not_in_log unsigned "$BANNER"
check "unsigned: no results written" no_results unsigned

# The signed application: runs the quick profile and writes its results.
set_cfg signed "$QUICK"
run_boot signed "$out/signed.img" max secure
check "signed: powered off by itself ($secs s)" powered_off signed
echo "INFO boot: Secure Boot: the signed image ran the quick profile in $secs s"
check "signed: started, and says Secure Boot is on" \
	in_log signed "^memprobe: firmware .*, Secure Boot on"
check "signed: sentinel" in_log signed "^$SENTINEL"
copy_results "$out/signed.img" "$out/signed-results"
check "signed: result.json valid" valid_json "$out/signed-results/run-0001/result.json"
check "signed: result.json equal to the copy on the serial port" \
	serial_json_is signed "$out/signed-results/run-0001/result.json"
probe_info "$out/signed.json" "Secure Boot"
