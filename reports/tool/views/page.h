/*
 * What the head of every page the tool writes carries (html, atlas). The pages are opened
 * from a USB stick or a share by people who did not make the reports in them: they need no
 * script, no fetch and no form, only their own inline <style> and inline SVG, so the policy
 * allows exactly that. Text is escaped wherever a report's string is written (svg_text); the
 * policy is the second wall should an escape ever be missed.
 */
#ifndef TLBSCOPE_REPORT_PAGE_H
#define TLBSCOPE_REPORT_PAGE_H

#define PAGE_CSP "default-src 'none'; style-src 'unsafe-inline'; img-src data:; " \
                 "base-uri 'none'; form-action 'none'"
#define PAGE_CSP_META "<meta http-equiv=\"Content-Security-Policy\" content=\"" PAGE_CSP "\">\n"

#endif
