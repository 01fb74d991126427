/* SPDX-License-Identifier: MIT */
/*
 * The .sbat section: SBAT revocation metadata, which shim reads before it
 * starts an image and compares with the revocation list in its SBAT
 * variable (shim's SBAT.md).  UTF-8 comma-separated lines of six fields:
 * component, generation, vendor, package, version, URL.  The first line
 * says which SBAT format this is; the second names memprobe, generation 1
 * until a security fix asks for an increase.  A distributor that signs its
 * own build adds a line of its own ("memprobe.vendor,1,...").  No NUL at
 * the end: the section holds the text alone (app/efi/memprobe.lds).
 */
#include "core/results/result.h"

#define SBAT_FORMAT "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
/* A placeholder address (RFC 2606 reserves .invalid) until the project publishes one. */
#define SBAT_URL "https://memprobe.invalid/"
#define SBAT_TEXT SBAT_FORMAT MP_TOOL_NAME ",1," MP_TOOL_NAME "," MP_TOOL_NAME "," MP_VERSION \
	"," SBAT_URL "\n"

__attribute__((section(".sbat"), used)) static const char sbat[sizeof(SBAT_TEXT) - 1] = SBAT_TEXT;
