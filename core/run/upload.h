/*
 * The upload policy (upload=URL), kept apart from the firmware's HTTP code
 * (efi/upload.c) so the host tests can hold it to its promises:
 *   - which answers are worth another attempt: none for 2xx (done), another
 *     for a transport failure, 408, 429 and 5xx (a server that may recover),
 *     none for the rest (a 403 or 404 will not change by waiting);
 *   - the wait before attempt n+1 doubles from UPLOAD_BACKOFF_FIRST_MS up to
 *     UPLOAD_BACKOFF_CAP_MS; no attempt starts past the overall deadline;
 *   - the report's URL is base/NAME.json (and .txt) for every attempt: a
 *     retry never adds a second copy. The collector (reports/collector/)
 *     never replaces a name either: a retry whose earlier attempt arrived
 *     unanswered meets 409, and reading the name back tells whether those
 *     are this upload's bytes (done) or another file's (failed).
 */
#ifndef TLBSCOPE_CORE_UPLOAD_H
#define TLBSCOPE_CORE_UPLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UPLOAD_BACKOFF_FIRST_MS 1000u
#define UPLOAD_BACKOFF_CAP_MS 16000u

/*
 * UPLOAD_CHECK: 409 Conflict, the collector holds that name already
 * (reports/collector/ never replaces a report): read it back, and the
 * upload is done if it holds these very bytes (an earlier attempt whose
 * answer was lost), failed otherwise.
 */
enum upload_verdict { UPLOAD_DONE = 0, UPLOAD_RETRY, UPLOAD_GIVE_UP, UPLOAD_CHECK };

/* http_status: the answer's status, 0 when no answer came (connection, timeout). */
enum upload_verdict upload_judge(uint32_t http_status);
/* After UPLOAD_CHECK: the GET's status and body against the bytes this attempt sent. */
enum upload_verdict upload_judge_copy(uint32_t get_status, const void *sent, size_t len,
                                      const void *got, size_t got_len);
/* The wait after failed attempt `attempt` (1-based). */
uint32_t upload_backoff_ms(uint32_t attempt);
/*
 * Whether attempt `attempt` + 1 may start: attempts left and, after waiting
 * *wait_ms from now_ms, still before deadline_ms.
 */
bool upload_next_attempt(uint32_t attempt, uint32_t max_attempts, uint64_t now_ms,
                         uint64_t deadline_ms, uint32_t *wait_ms);
/* base (no trailing '/' needed) + "/" + name + ext; false when it does not fit. */
bool upload_object_url(const char *base, const char *name, const char *ext, uint32_t attempt,
                       char *out, size_t cap);
/* "http://HOST[:PORT][/PATH]" or https: the scheme, a host, no blanks, no query or fragment. */
bool upload_url_valid(const char *url, const char **why);

/*
 * The outcome file beside the report on the stick (issue 35: the stick gets
 * the report before the network is touched, so the report cannot say how the
 * upload went): key=value lines, written once before the first attempt
 * (state=started: a power loss after it leaves this) and again at the end.
 * `name` is the report's base name, `sha256_hex` the SHA-256 of the JSON bytes
 * the upload sends, which are the stick's. No URL: the file travels with the
 * stick, and the report's own fields say where (as tokens under redact=on).
 */
struct upload_outcome;
struct strbuf;
void upload_outcome_text(const struct upload_outcome *u, bool text_sent, const char *name,
                         const char *sha256_hex, size_t json_len, struct strbuf *sb);
/*
 * The summary's "Upload" line(s): where this copy goes (pending: in the report
 * itself) or how it went. `configured_url` is upload= as given, `attempts_max`
 * upload_attempts. Redaction is the caller's (the x86 text scrubs the URL).
 */
void upload_status_text(const struct upload_outcome *u, const char *configured_url,
                        uint32_t attempts_max, struct strbuf *sb);

#endif
