/* The report's run section: see run_json.h. */
#include "core/report/run_json.h"

/* A network value: its token under redact=on, null when the firmware did not tell. */
static void kv_address(struct json_writer *w, const char *key, const char *value,
                       const char *token)
{
    jw_key(w, key);
    if (!value[0])
        jw_null(w);
    else
        jw_str(w, token[0] ? token : value);
}

/* run.network: how the machine booted (disk, PXE/TFTP, HTTP), its addresses and the boot URL
 * (their tokens under redact=on), the JSON's upload URL as shown (NULL: no upload=), the boot
 * server's tlbscope.cfg's SHA-256 as it came */
static void write_network(struct json_writer *w, const struct net_info *net,
                          const char *upload_url, const struct redaction *red)
{
    jw_key(w, "network");
    jw_object_begin(w);
    jw_kv_str(w, "boot", boot_kind_name(net->boot));
    kv_address(w, "boot_url", net->boot_url, red->boot_url);
    kv_address(w, "mac", net->mac, red->mac);
    kv_address(w, "ip", net->ip, red->ip);
    jw_kv_str(w, "upload_url", upload_url);
    /* the boot server's tlbscope.cfg as it came (issue 35), whether it was used or not */
    jw_kv_str(w, "config_sha256", net->config_sha256[0] ? net->config_sha256 : NULL);
    jw_object_end(w);
}

void report_write_run(struct json_writer *w, const struct run_section *s)
{
    /*
     * args: cut after the first name of redact_key (or of any misspelling of it), which is
     * followed by "*": the key stays on the stick (with it, anyone could check a guessed
     * serial number against its token), and a key with a blank in it has a second part
     * that no rule could tell from a key.
     */
    char args[CONFIG_MAX_LINE * 2];
    jw_key(w, "run");
    jw_object_begin(w);
    jw_kv_str(w, "id", s->id);
    jw_kv_u64(w, "counter", s->counter);
    jw_kv_str(w, "start_time", s->start_time);
    jw_kv_bool(w, "rtc_plausible", s->rtc_plausible);
    jw_kv_u64(w, "duration_ms", s->duration_ms);
    jw_kv_str(w, "status", s->partial ? "partial" : "complete");
    config_mask_args(s->args, args, sizeof(args));
    jw_key(w, "args");
    redaction_write_text(w, args, s->red); /* upload=URL: the URL's token under redaction */
    jw_kv_bool(w, "config_file", s->config_file);
    jw_kv_str(w, "config_source", s->config_source);
    jw_key(w, "config_origins"); /* which source set each key given */
    config_write_origins(s->cfg, w);
    write_network(w, s->net, redaction_shown_upload_url(s->cfg, s->upload, s->red), s->red);
    jw_key(w, "config");
    config_write_json_shown(s->cfg, w, s->red->cfg_upload[0] ? s->red->cfg_upload : s->cfg->upload);
    /* a message may quote a URL or an address (a failed fetch names the boot server) */
    report_write_msgs_shown(w, "errors", s->errors, redaction_write_text, s->red);
    report_write_msgs_shown(w, "warnings", s->warnings, redaction_write_text, s->red);
    jw_object_end(w);
}
