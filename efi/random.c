#include "efi/random.h"
#include "efi/efi_util.h"

#include "core/lib/mem.h"
#include "core/lib/sha256.h"

/* UEFI 2.10, 37.5 "EFI RNG Protocol": GetInfo, then GetRNG */
struct rng_protocol;
struct rng_protocol {
    EFI_STATUS(MSABI *GetInfo)(struct rng_protocol *self, UINTN *size, EFI_GUID *algorithms);
    EFI_STATUS(MSABI *GetRNG)(struct rng_protocol *self, EFI_GUID *algorithm, UINTN len, UINT8 *out);
};

static EFI_GUID rng_guid = { 0x3152bca5, 0xeade, 0x433d, { 0x86, 0x2e, 0xc0, 0x1c, 0xdc, 0x29, 0x1f, 0x44 } };

static struct rng_protocol *find_rng(void)
{
    EFI_HANDLE *h = NULL;
    UINTN n = 0;
    struct rng_protocol *rng = NULL;
    if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &rng_guid, NULL, &n, &h)))
        return NULL;
    if (n && EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, h[0], &rng_guid, (void **)&rng)))
        rng = NULL;
    uefi_call_wrapper(BS->FreePool, 1, h);
    return rng;
}

bool efi_random(uint8_t *out, size_t len)
{
    struct sha256_ctx c;
    uint8_t buf[64], digest[SHA256_DIGEST_LEN];
    struct rng_protocol *rng = find_rng();
    bool strong = false;
    unsigned i;
    sha256_init(&c);
    if (rng && !EFI_ERROR(uefi_call_wrapper(rng->GetRNG, 4, rng, NULL, sizeof(buf), buf))) {
        sha256_update(&c, buf, sizeof(buf));
        strong = true;
    }
    for (i = 0; i < 8; i++) {
        uint64_t v;
        if (!arch_random64(&v))
            break;
        sha256_update(&c, &v, sizeof(v));
    }
    strong |= i == 8;
    /* the low bits of the counter around short firmware stalls wander */
    for (i = 0; i < 256; i++) {
        uint64_t t = arch_cycles();
        sha256_update(&c, &t, sizeof(t));
        if ((i & 15) == 0)
            uefi_call_wrapper(BS->Stall, 1, 1);
    }
    sha256_final(&c, digest);
    for (i = 0; i < len && i < sizeof(digest); i++)
        out[i] = digest[i];
    mem_zero(buf, sizeof(buf));
    mem_zero(digest, sizeof(digest));
    return strong;
}
