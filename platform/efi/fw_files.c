/* SPDX-License-Identifier: MIT */
/*
 * Files on the partition the application was loaded from: Loaded Image
 * (its DeviceHandle) -> Simple File System -> the volume's root directory
 * (UEFI Specification 2.10, sections 9.1, 13.4 and 13.5).
 */
#include "platform/efi/fw_priv.h"

/* Longest path we build ("memprobe/results/run-0001/result.json" and such). */
#define PATH_CHARS 128
/* EFI_FILE_INFO with room for a file name of PATH_CHARS characters. */
#define INFO_BYTES (SIZE_OF_EFI_FILE_INFO + PATH_CHARS * sizeof(CHAR16))

static EFI_FILE_HANDLE root;

static EFI_STATUS get_protocol(EFI_HANDLE h, EFI_GUID *guid, void **iface)
{
	return mp_fw_st->BootServices->OpenProtocol(h, guid, iface, mp_fw_image, NULL,
						    EFI_OPEN_PROTOCOL_GET_PROTOCOL);
}

enum mp_fw_status mp_fw_volume_open(void)
{
	EFI_GUID image_guid = LOADED_IMAGE_PROTOCOL;
	EFI_GUID fs_guid = SIMPLE_FILE_SYSTEM_PROTOCOL;
	EFI_LOADED_IMAGE *image;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_STATUS s;

	s = get_protocol(mp_fw_image, &image_guid, (void **)&image);
	if (s == EFI_SUCCESS)
		s = get_protocol(image->DeviceHandle, &fs_guid, (void **)&fs);
	if (s == EFI_SUCCESS)
		s = fs->OpenVolume(fs, &root);
	if (s != EFI_SUCCESS) {
		root = NULL;
		return MP_FW_NO_VOLUME;
	}
	return MP_FW_OK;
}

/* Open a '/'-separated path under the root. */
static EFI_STATUS open_path(const char *path, UINT64 mode, UINT64 attr, EFI_FILE_HANDLE *h)
{
	CHAR16 name[PATH_CHARS];

	if (!root)
		return EFI_NO_MEDIA;
	if (!mp_fw_ucs2(name, PATH_CHARS, path))
		return EFI_INVALID_PARAMETER;
	for (size_t i = 0; name[i]; i++) {
		if (name[i] == L'/')
			name[i] = L'\\';
	}
	return root->Open(root, h, name, mode, attr);
}

enum mp_fw_status mp_fw_read(const char *path, char *buf, size_t cap, size_t *len)
{
	EFI_FILE_HANDLE h;
	UINTN n = cap;
	EFI_STATUS s = open_path(path, EFI_FILE_MODE_READ, 0, &h);

	*len = 0;
	if (s != EFI_SUCCESS)
		return mp_fw_status_of(s);
	s = h->Read(h, &n, buf);
	h->Close(h);
	if (s != EFI_SUCCESS)
		return mp_fw_status_of(s);
	*len = n;
	return n == cap ? MP_FW_TOO_LARGE : MP_FW_OK;
}

/* Cut the file to `len` bytes: EFI_FILE_INFO.FileSize through SetInfo(). */
static EFI_STATUS truncate(EFI_FILE_HANDLE h, UINT64 len)
{
	EFI_GUID info_guid = EFI_FILE_INFO_ID;
	UINT64 mem[(INFO_BYTES + 7) / 8];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)mem;
	UINTN n = sizeof(mem);
	EFI_STATUS s = h->GetInfo(h, &info_guid, &n, info);

	if (s != EFI_SUCCESS || info->FileSize == len)
		return s;
	info->FileSize = len;
	return h->SetInfo(h, &info_guid, n, info);
}

static EFI_STATUS write_all(EFI_FILE_HANDLE h, const void *data, size_t len)
{
	UINTN n = len;
	EFI_STATUS s = h->SetPosition(h, 0);

	if (s == EFI_SUCCESS)
		s = h->Write(h, &n, (void *)data);
	if (s == EFI_SUCCESS && n != len)
		s = EFI_VOLUME_FULL;
	if (s == EFI_SUCCESS)
		s = truncate(h, len);
	if (s == EFI_SUCCESS)
		s = h->Flush(h);
	return s;
}

enum mp_fw_status mp_fw_write(const char *path, const void *data, size_t len)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_HANDLE h;
	EFI_STATUS s = open_path(path, mode, 0, &h);

	if (s != EFI_SUCCESS)
		return mp_fw_status_of(s);
	s = write_all(h, data, len);
	h->Close(h);
	return mp_fw_status_of(s);
}

enum mp_fw_status mp_fw_mkdir(const char *path)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_HANDLE h;
	EFI_STATUS s = open_path(path, mode, EFI_FILE_DIRECTORY, &h);

	if (s != EFI_SUCCESS)
		return mp_fw_status_of(s);
	h->Close(h);
	return MP_FW_OK;
}

enum mp_fw_status mp_fw_mkdir_new(const char *path)
{
	EFI_FILE_HANDLE h;
	EFI_STATUS s = open_path(path, EFI_FILE_MODE_READ, 0, &h);

	if (s == EFI_SUCCESS) {
		h->Close(h);
		return MP_FW_EXISTS;
	}
	if (s != EFI_NOT_FOUND)
		return mp_fw_status_of(s);
	return mp_fw_mkdir(path);
}
