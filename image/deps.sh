#!/bin/sh
# Installs the Debian packages memprobe needs to build, test and run.
# As root it runs apt-get; otherwise it prints the exact command and stops.
set -eu
PKGS="gcc make gnu-efi ovmf qemu-system-x86 mtools dosfstools gdisk python3 python3-jsonschema
      chromium sbsigntool openssl"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "memprobe needs these Debian packages:$missing" >&2
	echo "install them with:  sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
