/* SPDX-License-Identifier: MIT */
/*
 * Files on the partition the application was loaded from: Loaded Image
 * (its DeviceHandle) -> Simple File System -> the volume's root directory
 * (UEFI Specification 2.10, sections 9.1, 13.4 and 13.5).
 */
#include "core/lib/buf.h"
#include "core/lib/str.h"
#include "platform/efi/fw_priv.h"

/* Longest path we build ("memprobe/results/run-0001/result.json" and such). */
#define PATH_CHARS 128
/* EFI_FILE_INFO with room for a file name of PATH_CHARS characters. */
#define INFO_BYTES (SIZE_OF_EFI_FILE_INFO + PATH_CHARS * sizeof(CHAR16))
/* Where mp_fw_write puts a file's new content until it is complete. */
#define NEW_SUFFIX ".new"

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

/*
 * Give an open file another name in its directory: EFI_FILE_INFO.FileName
 * through SetInfo(), a name without '\' being relative to the file's
 * directory (section 13.5, SetInfo()).
 */
static EFI_STATUS rename_to(EFI_FILE_HANDLE h, const char *name)
{
	EFI_GUID info_guid = EFI_FILE_INFO_ID;
	UINT64 mem[(INFO_BYTES + 7) / 8];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)mem;
	UINTN n = sizeof(mem), chars;
	EFI_STATUS s = h->GetInfo(h, &info_guid, &n, info);

	if (s != EFI_SUCCESS)
		return s;
	if (!mp_fw_ucs2(info->FileName, PATH_CHARS, name))
		return EFI_INVALID_PARAMETER;
	for (chars = 0; info->FileName[chars]; chars++)
		;
	info->Size = SIZE_OF_EFI_FILE_INFO + (chars + 1) * sizeof(CHAR16);
	return h->SetInfo(h, &info_guid, info->Size, info);
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

/* Delete the file at path; success when there was none. */
static EFI_STATUS delete_path(const char *path)
{
	EFI_FILE_HANDLE h;
	EFI_STATUS s = open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &h);

	if (s == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (s != EFI_SUCCESS)
		return s;
	return h->Delete(h) == EFI_SUCCESS ? EFI_SUCCESS : EFI_ACCESS_DENIED;
}

static const char *base_name(const char *path)
{
	const char *b = path;

	for (; *path; path++)
		if (*path == '/')
			b = path + 1;
	return b;
}

/*
 * The new content goes to PATH.new first; only once it is whole on the
 * medium does the old file go and the new one take its name.  A write that
 * fails (a full partition) deletes PATH.new and leaves PATH as it was; a
 * stop between the two steps leaves the complete PATH.new.
 */
enum mp_fw_status mp_fw_write(const char *path, const void *data, size_t len)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	char tmp[PATH_CHARS];
	EFI_FILE_HANDLE h;
	EFI_STATUS s;

	if (mp_snprintf(tmp, sizeof(tmp), "%s%s", path, NEW_SUFFIX) !=
	    mp_strlen(path) + sizeof(NEW_SUFFIX) - 1)
		return MP_FW_TOO_LARGE;
	s = open_path(tmp, mode, 0, &h);
	if (s != EFI_SUCCESS)
		return mp_fw_status_of(s);
	s = write_all(h, data, len);
	if (s != EFI_SUCCESS) {
		h->Delete(h);
		return mp_fw_status_of(s);
	}
	s = delete_path(path);
	if (s == EFI_SUCCESS)
		s = rename_to(h, base_name(path));
	h->Close(h);
	return mp_fw_status_of(s);
}

/*
 * Room for a new directory: one block for the directory itself and one for
 * its parent's entries to grow into (EFI_FILE_SYSTEM_INFO, section 13.5).
 * Asked first because a FAT driver (EDK II's, on a full partition) can write
 * the new directory's entry with no cluster of its own, pointing at the
 * root directory: a broken file system.
 */
static EFI_STATUS room_for_dir(void)
{
	EFI_GUID info_guid = EFI_FILE_SYSTEM_INFO_ID;
	UINT64 mem[(SIZE_OF_EFI_FILE_SYSTEM_INFO + PATH_CHARS * sizeof(CHAR16) + 7) / 8];
	EFI_FILE_SYSTEM_INFO *info = (EFI_FILE_SYSTEM_INFO *)mem;
	UINTN n = sizeof(mem);
	EFI_STATUS s;

	if (!root)
		return EFI_NO_MEDIA;
	s = root->GetInfo(root, &info_guid, &n, info);
	if (s != EFI_SUCCESS)
		return s;
	if (info->ReadOnly)
		return EFI_WRITE_PROTECTED;
	return info->FreeSpace < 2ull * info->BlockSize ? EFI_VOLUME_FULL : EFI_SUCCESS;
}

/* Does path exist?  EFI_SUCCESS when it does, else why not (EFI_NOT_FOUND). */
static EFI_STATUS look_up(const char *path)
{
	EFI_FILE_HANDLE h;
	EFI_STATUS s = open_path(path, EFI_FILE_MODE_READ, 0, &h);

	if (s == EFI_SUCCESS)
		h->Close(h);
	return s;
}

static enum mp_fw_status create_dir(const char *path)
{
	UINT64 mode = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	EFI_FILE_HANDLE h;
	EFI_STATUS s = room_for_dir();

	if (s == EFI_SUCCESS)
		s = open_path(path, mode, EFI_FILE_DIRECTORY, &h);
	if (s != EFI_SUCCESS)
		return mp_fw_status_of(s);
	h->Close(h);
	return MP_FW_OK;
}

enum mp_fw_status mp_fw_mkdir(const char *path)
{
	return look_up(path) == EFI_SUCCESS ? MP_FW_OK : create_dir(path);
}

enum mp_fw_status mp_fw_mkdir_new(const char *path)
{
	EFI_STATUS s = look_up(path);

	if (s == EFI_SUCCESS)
		return MP_FW_EXISTS;
	return s == EFI_NOT_FOUND ? create_dir(path) : mp_fw_status_of(s);
}
