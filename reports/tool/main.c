/*
 * tlbscope-report: reads the JSON reports that tlbscope writes to the USB
 * stick (reports/SCHEMA.md). This file is only the command line; the work is
 * in the library (commands.c and what it calls), which the unit tests and the
 * fuzz target link too.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "reports/tool/commands.h"

#define PREFIX "tlbscope-report: "

static const char usage_text[] =
    "usage: tlbscope-report COMMAND [OPTIONS] ARGS...\n"
    "Reads the JSON reports that tlbscope writes (schema version 1, reports/SCHEMA.md).\n"
    "\n"
    "commands:\n"
    "  validate FILE|DIR...                check reports against the schema\n"
    "  show FILE                           text summary of one report\n"
    "  compare [--csv|--markdown] A B [C...]\n"
    "                                      reports side by side, with ratios to the first\n"
    "  html -o OUT.html FILE|DIR...        one self-contained page with charts\n"
    "  redact [-o OUT.json] [--key KEY|--key-file FILE] FILE\n"
    "                                      a copy without serial number and UUID, to share\n"
    "\n"
    "A DIR stands for the *.json files in it, sorted by name.\n"
    "`tlbscope-report COMMAND --help` describes one command.\n"
    "Simulated reports (tlbscope-sim) are compared and charted only with each other.\n"
    "Exit status: 0 success, 1 an input is not a valid report (or unreadable), 2 bad usage\n"
    "(also: simulated and non-simulated reports given together to compare or html).\n"
    "html and compare never print serial numbers or UUIDs; show does, and the JSON files\n"
    "carry them: `tlbscope-report redact` makes a copy to share.\n";

static const char validate_help[] =
    "usage: tlbscope-report validate FILE|DIR...\n"
    "Checks each report against schema version 1: every key, type, range and vocabulary\n"
    "word, and the invariants between them (cpu_count == len(cpus), min <= p50 <= p99 <=\n"
    "max, the run result at least as severe as each experiment's). Keys this tool does\n"
    "not know are accepted. Prints \"OK FILE\" for each valid report; every problem goes\n"
    "to stderr as \"tlbscope-report: FILE: JSON.PATH: what is wrong\".\n"
    "Exit status 0 only when every file is a valid report.\n";

static const char show_help[] =
    "usage: tlbscope-report show FILE\n"
    "Prints the text summary of one report: machine, CPU, features, warnings about\n"
    "hypervisors, emulation and simulation (tlbscope-sim), CPU problems, the experiment\n"
    "table, then per experiment its tables (IPI matrix up to 16 CPUs, else per topology\n"
    "class; seq vs conc with the ratio; every other experiment by its axes). Times in ns\n"
    "(TSC ticks in parentheses). It prints the machine's serial number and UUID, which\n"
    "compare and html leave out: `tlbscope-report redact` makes a copy to share without them.\n";

static const char compare_help[] =
    "usage: tlbscope-report compare [--csv|--markdown] A B [C...]\n"
    "Shows reports side by side (files or directories; a directory is its *.json files,\n"
    "sorted, without latest.json). Per experiment and parameter point: p50 and p99 of the\n"
    "latency for each report, and each p50 divided by report A's. ipi_roundtrip is\n"
    "compared by topology class. A point missing from a report shows as \"-\".\n"
    "Values from a hypervisor are marked *, from emulated instructions ~, from\n"
    "tlbscope-sim's model ^. Simulated reports are compared only with each other: a mix\n"
    "of simulated and other reports is refused with exit status 2.\n"
    "Reports of one machine (the same serial number and UUID, or the same tokens after\n"
    "`tlbscope-report redact` with one key) are named together (\"Same machine: A, C\";\n"
    "--markdown: the machine column, M1, M2, ...); serial numbers and UUIDs are never printed.\n"
    "  --csv        one CSV table: experiment,point,unit, then per report\n"
    "               X_p50,X_p99,X_flags (and X_over_A_p50); missing values are empty\n"
    "  --markdown   Markdown: a machine table, then one table per experiment\n";

static const char html_help[] =
    "usage: tlbscope-report html -o OUT.html FILE|DIR...\n"
    "Writes one self-contained HTML page (inline CSS and SVG, no JavaScript, no network\n"
    "references): machine table, experiment overview, per experiment its charts (one\n"
    "series per report), an IPI heatmap per report, and the data table. -o - writes to\n"
    "standard output. Simulated reports are charted only with each other (exit status 2\n"
    "for a mix, and no page). Serial numbers and UUIDs are not shown; reports of one\n"
    "machine share an ID (M1, M2, ...) in the machine table.\n";

static const char redact_help[] =
    "usage: tlbscope-report redact [-o OUT.json] [--key KEY | --key-file FILE] FILE\n"
    "Writes a copy of a report without the values that identify the machine (the system\n"
    "serial number and UUID: reports/SCHEMA.md, \"Identifying fields\"), to attach or publish\n"
    "it. Vendor, product, BIOS, CPU, microcode and every measurement stay. Each value becomes\n"
    "a token, and a top-level \"redaction\" record lists the fields:\n"
    "  with a key:  \"redacted:hmac:\" + 16 hex digits of HMAC-SHA-256 under the key, the same\n"
    "               for one machine in every report redacted with that key (and in reports the\n"
    "               app wrote with redact=on redact_key=KEY), so compare can group its runs;\n"
    "  without:     \"redacted:random:\" + 16 hex digits, different in every file.\n"
    "Only those values and the record change (diff shows them). Tokens are recognised: a\n"
    "redacted report comes out unchanged.\n"
    "  -o OUT.json       the copy (default: FILE without .json, plus .redacted.json; - for\n"
    "                    standard output). Never overwrites a file, least of all FILE.\n"
    "  --key KEY         the HMAC key; other users of this machine can see it (ps, shell\n"
    "                    history): prefer --key-file\n"
    "  --key-file FILE   the key is the file's contents, a final line end dropped\n"
    "Exit status 0 when the copy is written; 1 when FILE is not a readable report, the key\n"
    "file cannot be read or is empty, or OUT exists or cannot be written; 2 bad usage.\n";

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
        return command_usage_error(validate_help, "validate: unknown option");
    if (first >= argc)
        return command_usage_error(validate_help, "validate: no FILE or DIR given");
    return cmd_validate(argv + first, (size_t)(argc - first), stdout, stderr);
}

static int run_show(int argc, char **argv)
{
    int first = first_operand(argc, argv, 2);
    if (first != 2 && strcmp(argv[first - 1], "--") != 0)
        return command_usage_error(show_help, "show: unknown option");
    if (argc - first != 1)
        return command_usage_error(show_help, "show: give exactly one FILE");
    return cmd_show(argv[first], stdout, stderr);
}

static int run_compare(int argc, char **argv)
{
    enum table_format fmt = TABLE_TEXT;
    int i;
    for (i = 2; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--csv") == 0 && fmt == TABLE_TEXT)
            fmt = TABLE_CSV;
        else if (strcmp(argv[i], "--markdown") == 0 && fmt == TABLE_TEXT)
            fmt = TABLE_MARKDOWN;
        else
            return command_usage_error(compare_help, "compare: unknown option, or both "
                                                     "--csv and --markdown");
    }
    /* one operand may be a directory of reports: cmd_compare counts the reports */
    if (argc - i < 1)
        return command_usage_error(compare_help, "compare: give at least two reports");
    return cmd_compare(argv + i, (size_t)(argc - i), fmt, stdout, stderr);
}

static int run_html(int argc, char **argv)
{
    const char *out_path = NULL;
    int i;
    for (i = 2; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && !out_path)
            out_path = argv[++i];
        else if (strncmp(argv[i], "-o", 2) == 0 && argv[i][2] && !out_path)
            out_path = argv[i] + 2;
        else
            return command_usage_error(html_help, "html: unknown option or -o without a file");
    }
    if (!out_path)
        return command_usage_error(html_help, "html: -o OUT.html is required");
    if (i >= argc)
        return command_usage_error(html_help, "html: no FILE or DIR given");
    return cmd_html(argv + i, (size_t)(argc - i), out_path, stdout, stderr);
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
            return command_usage_error(redact_help, "redact: unknown option");
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
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
        const char *help;
    } commands[] = {
        { "validate", run_validate, validate_help },
        { "show", run_show, show_help },
        { "compare", run_compare, compare_help },
        { "html", run_html, html_help },
        { "redact", run_redact, redact_help },
    };
    size_t i;
    if (argc < 2)
        return usage_error("%s", "no command given");
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
        return commands[i].run(argc, argv);
    }
    return usage_error("unknown command '%s'", argv[1]);
}
