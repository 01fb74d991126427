#!/bin/sh
# Builds the memprobe boot disk without root or loop devices:
#   image/mkimage.sh OUT.img BOOTX64.EFI memprobe.cfg README.TXT
#
# A GPT disk (sgdisk on the file) with one EFI system partition, formatted
# FAT32 in place by mtools at the partition's byte offset.  Every identifier
# and time stamp is fixed (disk and partition GUIDs, the volume serial,
# SOURCE_DATE_EPOCH for mtools' file times), so the same inputs give the
# same bytes.
set -eu

[ $# -eq 4 ] || { echo "usage: $0 OUT.img BOOTX64.EFI memprobe.cfg README.TXT" >&2; exit 2; }
out=$1 app=$2 cfg=$3 readme=$4

IMG_MB=64                 # FAT32 needs at least 65525 clusters: about 33 MB of 512-byte ones
SECTOR=512
PART_START=2048           # first sector of the partition: 1 MiB, the usual alignment
# sgdisk's short code for the EFI system partition type GUID
# C12A7328-F81F-11D2-BA4B-00A0C93EC93B (UEFI Specification 2.10, section 5.3.3).
ESP_TYPE=ef00
DISK_GUID=4D454D50-524F-4245-8000-000000000001
PART_GUID=4D454D50-524F-4245-8000-000000000002
VOL_SERIAL=4D454D50       # "MEMP"
VOL_LABEL=MEMPROBE
CLUSTER_SECTORS=1

# mtools stamps files and directories with SOURCE_DATE_EPOCH when it is set.
: "${SOURCE_DATE_EPOCH:=1704067200}"   # 2024-01-01 00:00:00 UTC
export SOURCE_DATE_EPOCH TZ=UTC
export MTOOLS_SKIP_CHECK=1

tmp=$out.tmp
rm -f "$tmp"
truncate -s "${IMG_MB}M" "$tmp"
sgdisk --clear --disk-guid="$DISK_GUID" --new="1:$PART_START:0" --typecode="1:$ESP_TYPE" \
	--change-name=1:"EFI system partition" --partition-guid="1:$PART_GUID" "$tmp" >/dev/null
last=$(sgdisk --info=1 "$tmp" | sed -n 's/^Last sector: \([0-9]*\).*/\1/p')
sectors=$((last - PART_START + 1))

fs="$tmp@@$((PART_START * SECTOR))"
mformat -i "$fs" -F -T "$sectors" -H "$PART_START" -c "$CLUSTER_SECTORS" \
	-N "$VOL_SERIAL" -v "$VOL_LABEL" ::
mmd -i "$fs" ::/EFI ::/EFI/BOOT ::/memprobe
mcopy -i "$fs" "$app" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$fs" "$cfg" ::/memprobe/memprobe.cfg
mcopy -i "$fs" "$readme" ::/README.TXT
mv "$tmp" "$out"
echo "$out: $IMG_MB MB, EFI system partition at sector $PART_START ($sectors sectors)"
