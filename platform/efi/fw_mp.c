/* SPDX-License-Identifier: MIT */
/*
 * The firmware's multi-processor services: EFI_MP_SERVICES_PROTOCOL (UEFI
 * Platform Initialization Specification 1.7, Vol. 2, section 13.4).
 * GNU-EFI has no header for it (it is a PI protocol, not a UEFI one): the
 * GUID, the function table and the processor information below are the
 * specification's, in its order.
 *
 * An AP runs a procedure we give it (StartupThisAP) and goes back to the
 * firmware's wait when it returns; the procedure may call no firmware
 * service (13.4.1, "APs ... cannot call boot services").  Blocking calls
 * wait in the firmware until the AP is back; a non-blocking one (with a
 * WaitEvent) returns at once, and the caller learns the end from a flag
 * the procedure sets.  The firmware itself notices a non-blocking
 * procedure's end only when it next checks the APs (EDK II: a timer, every
 * PcdCpuApStatusCheckIntervalInMicroSeconds, 100 ms by default, and at the
 * start of every StartupThisAP), and an AP woken before the firmware has
 * seen its last procedure end may skip the new one; so after each
 * non-blocking procedure the AP is given an empty blocking one
 * (mp_fw_mp_reclaim), which returns once the firmware counts it idle.
 */
#include "core/lib/buf.h"
#include "platform/efi/fw_priv.h"

/* 13.4: "3FDDA605-A76E-4F46-AD29-12F4531B3D08". */
#define MP_SERVICES_GUID                                                         \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

/* 13.4.3 GetProcessorInfo: StatusFlag bits. */
#define PROCESSOR_AS_BSP_BIT 0x1u
#define PROCESSOR_ENABLED_BIT 0x2u

/* A blocking procedure that has not come back after this long has hung (0 would wait forever). */
#define AP_TIMEOUT_US 60000000u

typedef VOID(EFIAPI *AP_PROCEDURE)(VOID *arg);

/* 13.4.3: EFI_CPU_PHYSICAL_LOCATION, and the PI 1.7 extension (filled only on request). */
typedef struct {
	UINT32 Package, Core, Thread;
} CPU_LOCATION;

typedef struct {
	UINT32 Package, Die, Tile, Module, Core, Thread;
} CPU_LOCATION2;

typedef struct {
	UINT64 ProcessorId;
	UINT32 StatusFlag;
	CPU_LOCATION Location;
	CPU_LOCATION2 Location2;
} PROCESSOR_INFO;

typedef struct MP_SERVICES MP_SERVICES;
struct MP_SERVICES {
	EFI_STATUS(EFIAPI *GetNumberOfProcessors)(MP_SERVICES *self, UINTN *count, UINTN *enabled);
	EFI_STATUS(EFIAPI *GetProcessorInfo)(MP_SERVICES *self, UINTN n, PROCESSOR_INFO *info);
	EFI_STATUS(EFIAPI *StartupAllAPs)(MP_SERVICES *self, AP_PROCEDURE fn, BOOLEAN single,
					  EFI_EVENT wait, UINTN timeout_us, VOID *arg,
					  UINTN **failed);
	EFI_STATUS(EFIAPI *StartupThisAP)(MP_SERVICES *self, AP_PROCEDURE fn, UINTN n,
					  EFI_EVENT wait, UINTN timeout_us, VOID *arg,
					  BOOLEAN *finished);
	EFI_STATUS(EFIAPI *SwitchBSP)(MP_SERVICES *self, UINTN n, BOOLEAN enable_old);
	EFI_STATUS(EFIAPI *EnableDisableAP)(MP_SERVICES *self, UINTN n, BOOLEAN enable,
					    UINT32 *health);
	EFI_STATUS(EFIAPI *WhoAmI)(MP_SERVICES *self, UINTN *n);
};

/* What an AP runs: our plain C procedure, behind the firmware's calling convention. */
struct call {
	mp_fw_ap_fn fn;
	void *arg;
	EFI_EVENT event;       /* the non-blocking start's WaitEvent, never waited on */
};

static MP_SERVICES *mps;
static struct call *calls;
static UINTN ncalls;

static VOID EFIAPI ap_entry(VOID *arg)
{
	struct call *c = arg;

	c->fn(c->arg);
}

static VOID EFIAPI ap_nothing(VOID *arg)
{
	(void)arg;
}

bool mp_fw_mp_open(uint32_t *count, uint32_t *self, char *why, size_t why_len)
{
	EFI_GUID guid = MP_SERVICES_GUID;
	EFI_BOOT_SERVICES *bs = mp_fw_st->BootServices;
	UINTN n = 0, enabled = 0, me = 0;
	EFI_STATUS s;

	s = bs->LocateProtocol(&guid, NULL, (VOID **)&mps);
	if (s != EFI_SUCCESS) {
		mps = NULL;
		mp_snprintf(why, why_len, "the firmware has no EFI_MP_SERVICES_PROTOCOL (%s)",
			    mp_fw_status_text(mp_fw_status_of(s)));
		return false;
	}
	if (mps->GetNumberOfProcessors(mps, &n, &enabled) != EFI_SUCCESS ||
	    mps->WhoAmI(mps, &me) != EFI_SUCCESS || n == 0 ||
	    bs->AllocatePool(EfiLoaderData, n * sizeof(*calls), (VOID **)&calls) != EFI_SUCCESS) {
		mps = NULL;
		mp_snprintf(why, why_len, "the MP services did not count the processors");
		return false;
	}
	for (UINTN i = 0; i < n; i++)
		calls[i] = (struct call){ 0 };
	ncalls = n;
	*count = (uint32_t)n;
	*self = (uint32_t)me;
	why[0] = '\0';
	return true;
}

enum mp_fw_status mp_fw_mp_cpu(uint32_t n, struct mp_fw_cpu *out)
{
	PROCESSOR_INFO info = { 0 };

	if (!mps || mps->GetProcessorInfo(mps, n, &info) != EFI_SUCCESS)
		return MP_FW_ERROR;
	*out = (struct mp_fw_cpu){
		.apic_id = info.ProcessorId,
		.package = info.Location.Package,
		.core = info.Location.Core,
		.thread = info.Location.Thread,
		.enabled = (info.StatusFlag & PROCESSOR_ENABLED_BIT) != 0,
		.bsp = (info.StatusFlag & PROCESSOR_AS_BSP_BIT) != 0,
	};
	return MP_FW_OK;
}

static struct call *call_of(uint32_t n, mp_fw_ap_fn fn, void *arg)
{
	if (!mps || n >= ncalls)
		return NULL;
	calls[n].fn = fn;
	calls[n].arg = arg;
	return &calls[n];
}

enum mp_fw_status mp_fw_mp_run(uint32_t n, mp_fw_ap_fn fn, void *arg)
{
	struct call *c = call_of(n, fn, arg);

	if (!c)
		return MP_FW_ERROR;
	return mp_fw_status_of(mps->StartupThisAP(mps, ap_entry, n, NULL, AP_TIMEOUT_US, c, NULL));
}

enum mp_fw_status mp_fw_mp_start(uint32_t n, mp_fw_ap_fn fn, void *arg)
{
	struct call *c = call_of(n, fn, arg);
	EFI_STATUS s;

	if (!c)
		return MP_FW_ERROR;
	if (!c->event) {
		s = mp_fw_st->BootServices->CreateEvent(0, TPL_CALLBACK, NULL, NULL, &c->event);
		if (s != EFI_SUCCESS)
			return mp_fw_status_of(s);
	}
	return mp_fw_status_of(mps->StartupThisAP(mps, ap_entry, n, c->event, 0, c, NULL));
}

enum mp_fw_status mp_fw_mp_reclaim(uint32_t n)
{
	if (!mps || n >= ncalls)
		return MP_FW_ERROR;
	return mp_fw_status_of(mps->StartupThisAP(mps, ap_nothing, n, NULL, AP_TIMEOUT_US, NULL,
						  NULL));
}

void mp_fw_mp_close(void)
{
	if (!calls)
		return;
	for (UINTN i = 0; i < ncalls; i++)
		if (calls[i].event)
			mp_fw_st->BootServices->CloseEvent(calls[i].event);
	mp_fw_st->BootServices->FreePool(calls);
	calls = NULL;
	ncalls = 0;
	mps = NULL;
}
