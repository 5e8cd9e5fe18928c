/* What names the tool in every report and on every console, on every architecture. */
#ifndef TLBSCOPE_CORE_RUN_VERSION_H
#define TLBSCOPE_CORE_RUN_VERSION_H

#define REPORT_SCHEMA "tlbscope-report"

/* the build passes both (Makefile: the release version and the commit it was built from) */
#ifndef TLBSCOPE_VERSION
#define TLBSCOPE_VERSION "0.0.0"
#endif
#ifndef TLBSCOPE_COMMIT
#define TLBSCOPE_COMMIT "unknown"
#endif

#endif
