/*
 * tlbscope-report: reads the JSON reports that tlbscope writes to the USB
 * stick (reports/SCHEMA.md). This file is only the command line; the work is
 * in the library (commands.c and what it calls), which the unit tests and the
 * fuzz target link too.
 */
#include <stdbool.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/nearest.h"
#include "reports/tool/cli/commands.h"
#include "reports/tool/cli/wrap80.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_where.h"
#include "reports/tool/model/json_arena.h"
#include "reports/tool/show/show.h"
#include "reports/tool/model/vocab.h"
#ifdef TLBSCOPE_FLEETDB
#include "reports/tool/fleet/cli.h"
#endif

#define PREFIX "tlbscope-report: "

#ifndef TLBSCOPE_FLEETDB
/* What a build without SQLite answers to the fleet database's commands. */
static const char fleet_missing_help[] =
    "import, atlas and query: not in this build (made without SQLite).\n"
    "Build tlbscope-report with libsqlite3-dev installed (Debian, Ubuntu:\n"
    "apt-get install libsqlite3-dev; then make in the release's host-tool/, or\n"
    "make tool in the source tree), or use the release's bin/tlbscope-report,\n"
    "which has them.\n";

static int fleet_missing(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, PREFIX "%s: not in this build\n%s", argv[1], fleet_missing_help);
    return EXIT_USAGE;
}
#endif

/*
 * The Makefile passes the VERSION file and the commit (tool.mk); a build
 * from the release's host-tool/ sources without them says "unknown".
 */
#ifndef TLBSCOPE_VERSION
#define TLBSCOPE_VERSION "unknown"
#endif
#ifndef TLBSCOPE_COMMIT
#define TLBSCOPE_COMMIT "unknown"
#endif
/* "2": the schema version the tool writes and reads up to (vocab.h), in every text that says it */
#define STR_(x) #x
#define STR(x) STR_(x)
#define SCHEMA STR(TOOL_SCHEMA_VERSION)

static const char usage_text[] =
    "usage: tlbscope-report COMMAND [OPTIONS] ARGS...\n"
    "Reads the JSON reports that tlbscope writes (schema version " SCHEMA ", and every earlier\n"
    "version: reports/SCHEMA.md).\n"
    "\n"
    "commands:\n"
    "  validate FILE|DIR...                check reports against the schema\n"
    "  show [--wide] [--json] FILE         text summary of one report\n"
    "  compare [--csv|--markdown|--json] [--baseline FILE] [--group] [OPTIONS] A B...\n"
    "                                      reports side by side: conditions, ratios\n"
    "                                      to the baseline, spread and verdict\n"
    "  html -o OUT.html FILE|DIR...        one self-contained page with charts\n"
    "  redact [-o OUT.json] [--key KEY|--key-file FILE] FILE\n"
    "                                      a copy without serial number and UUID\n"
/* only in a build with the fleet database (SQLite; PostgreSQL too where libpq was there):
 * a build without SQLite says so instead, and its generated man page and completion do not
 * offer them */
#ifdef TLBSCOPE_FLEETDB
    "  import --db DB FILE|DIR...          reports into the fleet database (SQLite\n"
    "                                      file or postgresql://...)\n"
    "  atlas --db DB -o OUT.html           one page: every CPU model in the database\n"
    "  query --db DB [--format F] SQL      one SQL statement on the fleet database\n"
#endif
    "\n"
#ifndef TLBSCOPE_FLEETDB
    "import, atlas and query (the fleet database) are not in this build: it was made\n"
    "without SQLite (libsqlite3-dev).\n"
#endif
    "A DIR stands for the *.json files in it, sorted by name.\n"
    "`tlbscope-report help COMMAND` (or COMMAND --help) describes one command;\n"
    "`tlbscope-report --version` prints the version.\n"
    "Simulated reports (tlbscope-sim) are compared and charted only with each other.\n"
    "Exit status: 0 success, 1 an input is not a valid report (or unreadable), 2 bad\n"
    "usage (also: simulated and non-simulated reports given together to compare or\n"
    "html, more than 26 reports or sides to compare or 48 CPU models to html), 3\n"
    "compare --fail-if-slower found a slower point, 4 compare --strict or\n"
    "--fail-if-slower found nothing compared.\n"
    "html and compare never print serial numbers or UUIDs; show does, and the JSON\n"
    "files carry them: `tlbscope-report redact` makes a copy to share.\n";

static const char validate_help[] =
    "usage: tlbscope-report validate FILE|DIR...\n"
    "Checks each report against its schema version (1 to " SCHEMA "): every key, type,\n"
    "range and vocabulary word, and the invariants between them (cpu_count ==\n"
    "len(cpus), min <= p50 <= p99 <= max, the run result at least as severe as each\n"
    "experiment's). Keys this tool does not know are accepted. Prints \"OK FILE\" for\n"
    "each valid report; every problem goes to stderr as\n"
    "\"tlbscope-report: FILE: JSON.PATH: what is wrong\".\n"
    "Exit status 0 only when every file is a valid report.\n";

static const char show_help[] =
    "usage: tlbscope-report show [--wide] [--json] FILE\n"
    "Prints the text summary of one report: machine, CPU, features, warnings about\n"
    "hypervisors, emulation and simulation (tlbscope-sim), CPU problems, the\n"
    "experiment table, then per experiment its tables (IPI matrix up to 16 CPUs where\n"
    "it fits, else per topology class; seq vs conc with the ratio computed from the\n"
    "two p50s; every other experiment by its axes). Times scaled to ns, us, ms or s;\n"
    "\"no samples\" for a point with n = 0; a TSC rate outside 100 MHz..10 GHz is\n"
    "warned. It fits 80 columns (the UEFI console of most servers is 80x25).\n"
    "Control characters in the report are printed escaped (\\x1b). It prints the\n"
    "machine's serial number and UUID, which compare and html leave out:\n"
    "`tlbscope-report redact` makes a copy to share without them. A report that\n"
    "fails validation is exit status 1 (`tlbscope-report validate` lists why).\n"
    "  --wide   100 columns: each time with its TSC ticks (\"11.8 us (30,524)\"), the\n"
    "           IPI matrix up to 16 CPUs\n"
    "  --json   the summary as one JSON object (reports/SCHEMA.md, \"show --json\"):\n"
    "           machine, result, each experiment's status, points, checks\n";

static const char compare_help[] =
    "usage: tlbscope-report compare [OPTIONS] [NAME=]FILE|DIR [NAME=]FILE|DIR...\n"
    "Shows reports side by side (files or directories; a directory is its *.json\n"
    "files, sorted, without latest.json; a bad file in a directory is reported and\n"
    "skipped; a named file that is not a valid report is exit status 1). Each side\n"
    "is named: NAME=FILE (NAME=f1.json,f2.json pools runs), else a short CPU name\n"
    "(EPYC-7763, Xeon-8180), made unique (QEMU-TCG_2); a pooled side's later runs\n"
    "are NAME#2, NAME#3. It opens with each side's CPU, microcode, CPU count and\n"
    "machine, then the conditions: those the same in every report on one line,\n"
    "those that differ in a table, and a WARNING for each difference that makes\n"
    "numbers incomparable (APIC mode, full-flush method, target_wait, clock far\n"
    "apart or from nominal, SMIs, samples, emulated or simulated sides).\n"
    "Then per experiment and parameter point: p50 and p99 of the latency per side,\n"
    "times scaled (1.66 ms, 2.72 us) from each report's own TSC rate, and each p50\n"
    "divided by the base's with the percentage (\"1.12 +12%\": slower). The base is the\n"
    "baseline, or for an experiment it did not measure the first side that did (said\n"
    "so). Points are matched by value and by role (\"all other CPUs\", \"all lazy\";\n"
    "a CPU a parameter names, as ipi_target_state's target, is a role; ipi_roundtrip\n"
    "by topology class, and over all pairs where two sides share no class); a\n"
    "parameter an older report lacks takes its documented default\n"
    "(reports/SCHEMA.md), and the section says so. Points only some sides have are\n"
    "listed below the table. Everything fits 80 columns: p99 is dropped, then a\n"
    "long layout (one row per point and side) is used where sides do not fit.\n"
    "Values from a hypervisor are marked *, from emulated instructions ~, from\n"
    "tlbscope-sim's model ^; a ratio followed by ? divides such a value. Simulated\n"
    "reports are compared only with each other (a mix is refused, exit status 2).\n"
    "Verdicts: each ratio gets an interval, from each side's p50 interval (one run:\n"
    "its 95% interval, p50_ci95; pooled runs: the p50s' range over them), and a\n"
    "verdict: slower or faster when the interval is on one side of 1 and the ratio\n"
    "more than the dead band (3%) from 1, else no difference; without intervals\n"
    "(reports before schema 3) \"spread unknown\". One headline per pair and\n"
    "experiment names its interval (\"B is 1.31x slower than A over 42 points,\n"
    "interval from the p50s' 95% intervals [1.22, 1.40]; ...\"), and a closing\n"
    "summary table gives each experiment's geometric mean and verdict per side.\n"
    "Reports of one machine (the same serial number and UUID, or the same tokens\n"
    "after `tlbscope-report redact` with one key) share a machine ID (M1, M2, ...);\n"
    "serial numbers and UUIDs are never printed. A file given twice, or two\n"
    "identical reports, are said to be so.\n"
    "  --baseline FILE      the side the ratios divide by (default: the first); the\n"
    "                       sides keep the operands' order\n"
    "  --group              pool reports of one machine and configuration (identity\n"
    "                       or machine and CPU names, CPU count, profile, samples,\n"
    "                       methods)\n"
    "  --experiment ID      only this experiment (repeatable); an ID no report has is\n"
    "                       an error (exit status 2)\n"
    "  --where KEY=VALUE    only the points whose parameter KEY has VALUE, in the\n"
    "                       experiments that have KEY (repeatable: all must hold)\n"
    "  --threshold PCT      the dead band of the verdicts (default 3)\n"
    "  --sort ratio         rows by their largest ratio, slowest first\n"
    "  --only-differences   rows whose verdict is slower or faster (without an\n"
    "                       interval: a ratio outside 0.9-1.1)\n"
    "  --fail-if-slower PCT exit status 3 when a point is slower than the base by\n"
    "                       more than PCT percent (the interval's low end above\n"
    "                       1 + PCT/100; without an interval, the ratio), each one\n"
    "                       named on stderr; exit status 4 when nothing was compared\n"
    "  --strict             exit status 4 when two sides share an experiment but no\n"
    "                       point of it (else a warning, and the rest is compared)\n"
    "  --wide               every side side by side with p99, however wide\n"
    "  --json               every row, the headlines and the verdict as one JSON\n"
    "                       object (reports/SCHEMA.md, \"compare --json\")\n"
    "  --csv                the tidy table: one row per report x experiment x point x\n"
    "                       metric, fixed columns (reports/SCHEMA.md, \"Tidy CSV\");\n"
    "                       a cell that starts = + - @ (no number) gets a leading '\n"
    "  --markdown           Markdown: conditions and machine tables, one table per\n"
    "                       experiment, the summary; a report's < > & written as\n"
    "                       entities\n"
    "Options may come anywhere; after \"--\" every argument is a file.\n"
    "Exit status: 0; 1 an input is unreadable or not a valid report; 2 bad usage; 3\n"
    "slower (--fail-if-slower); 4 nothing compared, under --strict or\n"
    "--fail-if-slower: two sides share an experiment but no point of it (the error\n"
    "names the experiment, the parameter and both values), or no point at all.\n";

static const char html_help[] =
    "usage: tlbscope-report html -o OUT.html FILE|DIR...\n"
    "Writes one self-contained HTML page (inline CSS and SVG, no JavaScript, no\n"
    "network references): machine table, experiment overview, per experiment its\n"
    "charts (one series per report), an IPI heatmap per report, and the data table.\n"
    "-o - writes to standard output. Simulated reports are charted only with each\n"
    "other (exit status 2 for a mix, and no page). Serial numbers and UUIDs are not\n"
    "shown; reports of one machine share an ID (M1, M2, ...) in the machine table.\n"
    "Reports are named as compare names its sides (NAME=FILE, else a short CPU\n"
    "name). Past 48 reports the page has a column per CPU model, as the atlas does:\n"
    "a model's reports pooled as compare pools runs (the median of their p50s, the\n"
    "range as interval), the page saying how many each pools; more than 48 models\n"
    "is exit status 2. The heatmaps of an experiment sit in a grid, a few a row.\n"
    "A report that fails validation is exit status 1, and no page.\n";

static const char redact_help[] =
    "usage: tlbscope-report redact [-o OUT.json] [--key KEY | --key-file FILE] FILE\n"
    "Writes a copy of a report without the values that identify the machine (the\n"
    "system serial number and UUID: reports/SCHEMA.md, \"Identifying fields\"), to\n"
    "attach or publish it. Vendor, product, BIOS, CPU, microcode and every\n"
    "measurement stay. Each value becomes a token, and a top-level \"redaction\"\n"
    "record lists the fields:\n"
    "  with a key:  \"redacted:hmac:\" + 16 hex digits of HMAC-SHA-256 under the\n"
    "               key, the same for one machine in every report redacted with\n"
    "               that key (and in reports the app wrote with redact=on\n"
    "               redact_key=KEY), so compare can group its runs;\n"
    "  without:     \"redacted:random:\" + 16 hex digits, different in every file.\n"
    "Only those values and the record change (diff shows them). Tokens are\n"
    "recognised: a redacted report comes out unchanged.\n"
    "  -o OUT.json       the copy (default: FILE without .json, plus .redacted.json;\n"
    "                    - for standard output). Never overwrites a file, least of\n"
    "                    all FILE.\n"
    "  --key KEY         the HMAC key; other users of this machine can see it (ps,\n"
    "                    shell history): prefer --key-file\n"
    "  --key-file FILE   the key is the file's contents, a final line end dropped\n"
    "Exit status 0 when the copy is written; 1 when FILE is not a readable report,\n"
    "the key file cannot be read or is empty, or OUT exists or cannot be written;\n"
    "2 bad usage.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs(PREFIX, stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

static int command_usage_error(const char *help, const char *what)
{
    fprintf(stderr, PREFIX "%s\n\n%s", what, help);
    return EXIT_USAGE;
}

/* "CMD: unknown option ARG", with the nearest of the options CMD's help lists. */
static int unknown_option(const char *help, const char *cmd, const char *arg)
{
    static char names[32][32];
    const char *opts[32], *p = help, *near;
    size_t n = 0, len, k;
    while (n < 32 && (p = strstr(p, "--")) != NULL) {
        len = 2;
        while (p[len] == '-' || (p[len] >= 'a' && p[len] <= 'z'))
            len++;
        if (len > 2 && len < sizeof(names[0])) {
            bool seen = false;
            memcpy(names[n], p, len);
            names[n][len] = 0;
            for (k = 0; k < n && !seen; k++)
                seen = strcmp(opts[k], names[n]) == 0;
            if (!seen) {
                opts[n] = names[n];
                n++;
            }
        }
        p += len;
    }
    near = nearest_name(arg, opts, n);
    fprintf(stderr, PREFIX "%s: unknown option %s%s%s%s\n\n%s", cmd, arg,
            near ? " (did you mean " : "", near ? near : "", near ? "?)" : "", help);
    return EXIT_USAGE;
}

static bool wants_help(int argc, char **argv)
{
    int i;
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    }
    return false;
}

/* Arguments after the command: options first, then operands; "--" ends options. */
static int first_operand(int argc, char **argv, int start)
{
    int i = start;
    while (i < argc && argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--") != 0)
        i++;
    return i < argc && strcmp(argv[i], "--") == 0 ? i + 1 : i;
}

static int run_validate(int argc, char **argv)
{
    int first = first_operand(argc, argv, 2);
    if (first != 2 && strcmp(argv[first - 1], "--") != 0)
        return unknown_option(validate_help, "validate", argv[2]);
    if (first >= argc)
        return command_usage_error(validate_help, "validate: no FILE or DIR given");
    return cmd_validate(argv + first, (size_t)(argc - first), stdout, stderr);
}

static int run_show(int argc, char **argv)
{
    const char *file = NULL;
    bool options = true, json = false;
    int i;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0)
            options = false;
        else if (options && strcmp(a, "--wide") == 0)
            show_wide = true;
        else if (options && strcmp(a, "--json") == 0)
            json = true;
        else if (options && a[0] == '-' && a[1])
            return unknown_option(show_help, "show", a);
        else if (file)
            return command_usage_error(show_help, "show: give exactly one FILE");
        else
            file = a;
    }
    if (!file)
        return command_usage_error(show_help, "show: give exactly one FILE");
    return json ? cmd_show_json(file, stdout, stderr) : cmd_show(file, stdout, stderr);
}

/* "--key VALUE" or "--key=VALUE"; advances *i past what it took. NULL when `arg` is not `name`. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing);

/*
 * compare's arguments: options may come anywhere before "--" (a file named
 * like an option goes after "--"); every other argument is an operand.
 */
static int run_compare(int argc, char **argv)
{
    struct compare_cli cli;
    char **ops = calloc((size_t)argc, sizeof(*ops));
    const char *v;
    bool options = true, missing = false;
    size_t nops = 0;
    int i, rc;
    if (!ops)
        return EXIT_INVALID;
    memset(&cli, 0, sizeof(cli));
    cli.fail_if_slower = NAN;
    cli.threshold = CMP_DEFAULT_THRESHOLD * 100;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *why = NULL;
        if (!options || a[0] != '-' || !a[1]) {
            ops[nops++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            options = false;
        } else if (strcmp(a, "--csv") == 0 || strcmp(a, "--markdown") == 0) {
            if (cli.fmt != TABLE_TEXT || cli.json)
                why = "compare: give one of --csv, --markdown and --json";
            cli.fmt = a[2] == 'c' ? TABLE_CSV : TABLE_MARKDOWN;
        } else if (strcmp(a, "--group") == 0) {
            cli.group = true;
        } else if (strcmp(a, "--wide") == 0) {
            cli.wide = true;
        } else if (strcmp(a, "--json") == 0) {
            if (cli.fmt != TABLE_TEXT)
                why = "compare: give one of --csv, --markdown and --json";
            cli.json = true;
        } else if (strcmp(a, "--only-differences") == 0) {
            cli.only_differences = true;
        } else if (strcmp(a, "--strict") == 0) {
            cli.strict = true;
        } else if ((v = option_value(argc, argv, &i, "--baseline", &missing)) || missing) {
            if (missing || cli.baseline)
                why = missing ? "compare: --baseline needs a FILE" : "compare: give --baseline once";
            cli.baseline = v;
        } else if ((v = option_value(argc, argv, &i, "--experiment", &missing)) || missing) {
            if (missing || !*v)
                why = "compare: --experiment needs an ID";
            else if (cli.nexperiments == sizeof(cli.experiments) / sizeof(cli.experiments[0]))
                why = "compare: too many --experiment options";
            else
                cli.experiments[cli.nexperiments++] = v;
        } else if ((v = option_value(argc, argv, &i, "--sort", &missing)) || missing) {
            if (missing || strcmp(v, "ratio") != 0)
                why = "compare: --sort takes \"ratio\"";
            cli.sort_ratio = true;
        } else if ((v = option_value(argc, argv, &i, "--threshold", &missing)) || missing) {
            char *end = NULL;
            double pct = missing ? NAN : strtod(v, &end);
            if (missing || !end || end == v || (*end && strcmp(end, "%") != 0) || !(pct >= 0) ||
                !(pct < 100))
                why = "compare: --threshold needs a percentage from 0 to under 100 (3 or 3%)";
            cli.threshold = pct;
        } else if ((v = option_value(argc, argv, &i, "--where", &missing)) || missing) {
            if (missing || !compare_where_valid(v))
                why = "compare: --where needs KEY=VALUE (pages=1)";
            else if (cli.nwhere == sizeof(cli.where) / sizeof(cli.where[0]))
                why = "compare: too many --where options";
            else
                cli.where[cli.nwhere++] = v;
        } else if ((v = option_value(argc, argv, &i, "--fail-if-slower", &missing)) || missing) {
            char *end = NULL;
            double pct = missing ? NAN : strtod(v, &end);
            if (missing || !end || end == v || (*end && strcmp(end, "%") != 0) || !(pct >= 0) ||
                !isfinite(pct))
                why = "compare: --fail-if-slower needs a percentage >= 0 (10 or 10%)";
            cli.fail_if_slower = pct;
        } else {
            free(ops);
            return unknown_option(compare_help, "compare", argv[i]);
        }
        if (why) {
            free(ops);
            return command_usage_error(compare_help, why);
        }
    }
    if (nops < 1) {
        free(ops);
        return command_usage_error(compare_help, "compare: give at least two reports");
    }
    rc = cmd_compare_cli(ops, nops, &cli, stdout, stderr);
    free(ops);
    return rc;
}

static int run_html(int argc, char **argv)
{
    const char *out_path = NULL;
    char **ops = calloc((size_t)argc, sizeof(*ops));
    bool options = true;
    size_t nops = 0;
    int i, rc;
    if (!ops)
        return EXIT_INVALID;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!options || a[0] != '-' || !a[1]) {
            ops[nops++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            options = false;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc && !out_path) {
            out_path = argv[++i];
        } else if (strncmp(a, "-o", 2) == 0 && a[2] && !out_path) {
            out_path = a + 2;
        } else if (strncmp(a, "-o", 2) != 0) {
            free(ops);
            return unknown_option(html_help, "html", a);
        } else {
            free(ops);
            return command_usage_error(html_help, "html: -o without a file, or -o twice");
        }
    }
    rc = !out_path ? command_usage_error(html_help, "html: -o OUT.html is required")
         : !nops   ? command_usage_error(html_help, "html: no FILE or DIR given")
                   : cmd_html(ops, nops, out_path, stdout, stderr);
    free(ops);
    return rc;
}

/* "--key VALUE" or "--key=VALUE"; advances *i past what it took. NULL when `arg` is not `name`. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    *missing = false;
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

static int run_redact(int argc, char **argv)
{
    const char *out_path = NULL, *key = NULL, *key_file = NULL, *in = NULL, *v;
    bool options = true, missing = false;
    int i;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = false;
        } else if (options && ((v = option_value(argc, argv, &i, "--key-file", &missing)) ||
                               missing)) {
            if (missing || key_file || key)
                return command_usage_error(redact_help, missing ? "redact: --key-file needs a FILE"
                                                                : "redact: give one --key or "
                                                                  "--key-file");
            key_file = v;
        } else if (options && ((v = option_value(argc, argv, &i, "--key", &missing)) || missing)) {
            if (missing || key_file || key)
                return command_usage_error(redact_help, missing ? "redact: --key needs a KEY"
                                                                : "redact: give one --key or "
                                                                  "--key-file");
            if (!*v)
                return command_usage_error(redact_help, "redact: --key is empty");
            key = v;
        } else if (options && ((v = option_value(argc, argv, &i, "-o", &missing)) || missing ||
                               (strncmp(a, "-o", 2) == 0 && a[2] && (v = a + 2)))) {
            if (missing || out_path || !*v)
                return command_usage_error(redact_help, "redact: give -o OUT.json once");
            out_path = v;
        } else if (options && a[0] == '-' && a[1]) {
            return unknown_option(redact_help, "redact", a);
        } else if (in) {
            return command_usage_error(redact_help, "redact: give exactly one FILE");
        } else {
            in = a;
        }
    }
    if (!in)
        return command_usage_error(redact_help, "redact: no FILE given");
    return cmd_redact(in, out_path, key, key_file, stdout, stderr);
}

int main(int argc, char **argv)
{
    /* arena: jansson allocates from the arena (json_arena.h): every report the command reads
     * lives until exit, or (validate) it reads one at a time and empties the arena after each */
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
        const char *help;
        bool arena;
    } commands[] = {
        { "validate", run_validate, validate_help, true },
        { "show", run_show, show_help, true },
        { "compare", run_compare, compare_help, true },
        { "html", run_html, html_help, true },
        { "redact", run_redact, redact_help, false },
#ifdef TLBSCOPE_FLEETDB
        /* the fleet database (reports/tool/fleet/): one report at a time, freed after it */
        { "import", fleet_run_import, fleet_import_help, false },
        { "atlas", fleet_run_atlas, fleet_atlas_help, false },
        { "query", fleet_run_query, fleet_query_help, false },
#else
        { "import", fleet_missing, fleet_missing_help, false },
        { "atlas", fleet_missing, fleet_missing_help, false },
        { "query", fleet_missing, fleet_missing_help, false },
#endif
    };
    size_t i;
    wrap80_stderr_if_terminal();
    if (argc < 2)
        return usage_error("%s", "no command given");
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("tlbscope-report %s (commit %s; reads report schema versions 1 to " SCHEMA ")\n",
               TLBSCOPE_VERSION, TLBSCOPE_COMMIT);
        return EXIT_VALID;
    }
    if (strcmp(argv[1], "help") == 0 && argc >= 3) {
        for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
            if (strcmp(argv[2], commands[i].name) == 0) {
                fputs(commands[i].help, stdout);
                return EXIT_VALID;
            }
        }
        return usage_error("help: unknown command '%s'", argv[2]);
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_VALID;
    }
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        if (wants_help(argc - 2, argv + 2)) {
            fputs(commands[i].help, stdout);
            return EXIT_VALID;
        }
        if (commands[i].arena)
            json_arena_install();
        return commands[i].run(argc, argv);
    }
    return usage_error("unknown command '%s'", argv[1]);
}
