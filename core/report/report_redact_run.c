/*
 * x86's run to core/report/report_redact.c: which of its values identify the
 * machine or its site (the SMBIOS serial and UUID, the network boot's
 * addresses, the upload's URL), and the key the tokens are made with.
 */
#include "core/report/report_redact.h"

#include "core/lib/mem.h"
#include "core/run/run.h"

void redaction_prepare(const struct run *r, struct redaction *red)
{
    const struct smbios_info *s = &r->fw.smbios;
    /* without a random key (host builds): the run's own clock readings and name stand in */
    uint8_t seed[3 * sizeof(uint64_t) + sizeof(r->run_id)];
    size_t id_len = str_len(r->run_id);
    struct redaction_input in = {
        .cfg = &r->cfg,
        .random_key = r->redact_random_key_set ? r->redact_random_key : NULL,
        .fallback_seed = seed,
        .fallback_seed_len = 3 * sizeof(uint64_t) + id_len,
        .serial = s->present ? s->sys_serial : NULL,
        .uuid = s->present && s->has_uuid ? s->uuid : NULL,
        .mac = r->net.mac,
        .ip = r->net.ip,
        .boot_url = r->net.boot_url,
        .upload_url = r->upload.url[0] ? r->upload.url : r->cfg.upload,
    };
    mem_copy(seed, &r->start_tsc, sizeof(uint64_t));
    mem_copy(seed + 8, &r->duration_ms, sizeof(uint64_t));
    mem_copy(seed + 16, &r->tsc_hz, sizeof(uint64_t));
    mem_copy(seed + 24, r->run_id, id_len);
    redaction_prepare_from(&in, red);
    mem_zero(seed, sizeof(seed));
}
