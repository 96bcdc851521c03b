/* isa: disassemble, inspect and check binaries of the specs compiled into
 * the isagen runtime.  See docs/cli.md. */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
   "usage: isa COMMAND [OPTIONS]\n"
   "\n"
   "commands:\n"
   "  list                          the specs compiled in\n"
   "  dis   --isa NAME INPUT        decode and print\n"
   "  check --isa NAME INPUT        run the spec's validators\n"
   "  as    --isa NAME FILE|-       assemble text into bytes\n"
   "  help [COMMAND]                this text, or a command's (also COMMAND --help)\n"
   "  --version                     isagen's version\n"
   "\n"
   "exit status: 0 ok, 1 invalid input (or check found errors), 2 usage\n";

static const char usage_list[] =
   "usage: isa list [--load LIB.so]...\n"
   "\n"
   "The specs compiled in, one a line (NAME, title, source file, version), each\n"
   "with its options (--NAME VALUE...) and their values; first those of the\n"
   "libraries given with --load.\n";

#define INPUT_HELP                                                                 \
   "INPUT is one of:\n"                                                            \
   "  --hex HEX                     bytes in memory order, e.g. 6104020000...\n"   \
   "                                (groups may be separated by whitespace , ; :\n" \
   "                                and start with 0x)\n"                           \
   "  FILE                          a file, binary (or hex text with --input hex)\n" \
   "  -                             standard input, the same\n"                     \
   "\n"                                                                            \
   "input options:\n"                                                              \
   "  --input bin|hex               how FILE and - are read (default bin)\n"        \
   "  --section NAME                of an ELF file, the section to decode (its\n"   \
   "                                address is the --base)\n"                        \
   "  --start N, --stop M           only bytes N up to M of the program (after its\n" \
   "                                container is unwrapped); decimal or 0x hex\n"     \
   "  --base ADDR                   add ADDR to the offsets printed\n"               \
   "  --OPTION VALUE                a spec's option, e.g. --gpu t720 (isa list\n"    \
   "                                shows them)\n"                                  \
   "  --load LIB.so                 also the specs of a library built by\n"          \
   "                                isagen build (looked up first)\n"

static const char usage_dis[] =
   "usage: isa dis --isa NAME [OPTIONS] INPUT\n"
   "       isa dis --isa NAME [--json] [--offsets] --batch FILE|-\n"
   "\n"
   "Decode a program of spec NAME and print it as the spec's reference tool does.\n"
   "\n"
   INPUT_HELP
   "\n"
   "output options:\n"
   "  --offsets                     each unit's offset before it\n"
   "  --show-bytes                  each unit's bytes before its text\n"
   "  --json                        JSON Lines, one object per unit:\n"
   "                                {offset, size, hex, name, fields, text}\n"
   "  --batch FILE|-                each line of FILE is a hex program; print one\n"
   "                                JSON object {hex, text, ok, error} per line\n"
   "                                (with --json also units: the --json objects)\n";

static const char usage_check[] =
   "usage: isa check --isa NAME [OPTIONS] INPUT\n"
   "\n"
   "Decode a program of spec NAME and run the spec's validators over it: one line\n"
   "per finding (OFFSET: SEVERITY: FIELD: MESSAGE [RULE]); exit status 1 on an\n"
   "error, and on a warning too with --strict.\n"
   "\n"
   INPUT_HELP
   "\n"
   "output options:\n"
   "  --json                        JSON Lines, one object per finding\n"
   "  --strict                      warnings count as errors\n";

static const char usage_as[] =
   "usage: isa as --isa NAME [--OPTION VALUE]... (FILE | -) [-o OUT] [--hex]\n"
   "       isa as --isa NAME --batch FILE|-\n"
   "\n"
   "Assemble a program of spec NAME written as isa dis prints it (with or without\n"
   "--offsets prefixes; blanks are free, # and ; start comments) into bytes.\n"
   "Errors go to standard error as FILE:LINE:COL: error: MESSAGE.\n"
   "\n"
   "options:\n"
   "  -o OUT                        write the bytes to OUT (default: standard output)\n"
   "  --hex                         write hex text instead of bytes\n"
   "  --OPTION VALUE                a spec's option, e.g. --gpu t720\n"
   "  --load LIB.so                 also the specs of a library built by isagen build\n"
   "  --batch FILE|-                each line of FILE is a JSON string, a program's\n"
   "                                text; print one JSON object {text, hex, ok, error}\n"
   "                                per line\n";

static const char *command_usage(const char *cmd)
{
   return !strcmp(cmd, "list") ? usage_list : !strcmp(cmd, "dis") ? usage_dis : !strcmp(cmd, "check") ? usage_check
                                                                                            : !strcmp(cmd, "as") ? usage_as
                                                                                                           : NULL;
}

static int usage_error(const char *fmt, const char *arg)
{
   fprintf(stderr, "isa: ");
   fprintf(stderr, fmt, arg);
   fprintf(stderr, "\nisa: run 'isa --help' for usage\n");
   return EXIT_USAGE;
}

/* Edit distance between a and b (both at most 64 bytes) */
static unsigned edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
   unsigned row[65];
   for (size_t j = 0; j <= lb; j++)
      row[j] = (unsigned)j;
   for (size_t k = 1; k <= la; k++) {
      unsigned diag = row[0];
      row[0] = (unsigned)k;
      for (size_t j = 1; j <= lb; j++) {
         unsigned up = row[j], cost = diag + (a[k - 1] != b[j - 1]);
         if (row[j - 1] + 1 < cost)
            cost = row[j - 1] + 1;
         if (up + 1 < cost)
            cost = up + 1;
         diag = up;
         row[j] = cost;
      }
   }
   return row[lb];
}

/* The name of the i-th spec --isa can name (spec_at), or NULL */
static const char *spec_name_at(const struct options *o, unsigned i)
{
   const struct isa_spec *spec = spec_at(o, i);
   return spec ? spec->name : NULL;
}

/* The specs (loaded or compiled in) a misspelt name may have meant, as
 * "'a' or 'b'" into buf: those it begins, or else those nearest to it (an
 * edit distance of at most a third of the name, 2 at least); "" when none
 * is near. */
static void suggest_specs(const struct options *o, const char *name, char *buf, size_t size)
{
   unsigned best = ~0u, pass;
   const char *b;
   size_t la = strlen(name), used = 0, shown = 0;
   buf[0] = '\0';
   if (la > 64)
      return;
   for (unsigned i = 0; (b = spec_name_at(o, i)) != NULL; i++) { /* the nearest distance, for the second pass */
      size_t lb = strlen(b);
      unsigned d = lb <= 64 ? edit_distance(name, la, b, lb) : ~0u;
      if (d <= (lb / 3 > 2 ? lb / 3 : 2) && d < best)
         best = d;
   }
   for (pass = 0; pass < 2 && !shown; pass++)
      for (unsigned i = 0; (b = spec_name_at(o, i)) != NULL && shown < 3; i++) {
         size_t lb = strlen(b);
         bool near = pass == 0 ? la >= 2 && lb > la && !strncmp(b, name, la)
                               : lb <= 64 && edit_distance(name, la, b, lb) == best;
         if (!near)
            continue;
         used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s'%s'", shown ? " or " : "", b);
         shown++;
      }
   if (used >= size)
      buf[size - 1] = '\0';
}

/* Spec options, which the command line names --NAME VALUE */
static const struct isa_option *spec_option(const struct isa_spec *spec, const char *name)
{
   for (unsigned k = 0; k < spec->n_options; k++)
      if (!strcmp(spec->options[k].name, name))
         return &spec->options[k];
   return NULL;
}

static bool some_spec_has_option(const struct options *o, const char *name)
{
   const struct isa_spec *spec;
   for (unsigned i = 0; (spec = spec_at(o, i)) != NULL; i++)
      if (spec_option(spec, name))
         return true;
   return false;
}

/* "one of t600, t620 or t720" */
static void option_values(const struct isa_option *opt, char *buf, size_t size)
{
   size_t used = (size_t)snprintf(buf, size, "one of ");
   for (unsigned i = 0; i < opt->n_values && used < size; i++)
      used += (size_t)snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : i + 1 == opt->n_values ? " or " : ", ",
                               opt->value_names[i]);
}

/* A byte count or address: decimal, or hex after 0x */
static bool parse_number(const char *s, uint64_t *v)
{
   char *end;
   if (!*s || *s == '-' || *s == '+')
      return false;
   *v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
   return *end == '\0';
}

static void list_one(const struct isa_spec *spec, int width, const char *from)
{
   printf("%-*s %s (%s%s%s)%s%s\n", width, spec->name, spec->title, spec->source, spec->version[0] ? ", version " : "",
          spec->version, from ? " from " : "", from ? from : "");
   for (unsigned k = 0; k < spec->n_options; k++) {
      const struct isa_option *opt = &spec->options[k];
      printf("%-*s  --%s ", width, "", opt->name);
      for (unsigned v = 0; v < opt->n_values; v++)
         printf("%s%s%s", v ? "|" : "", opt->value_names[v], opt->values[v] == opt->def ? " (default)" : "");
      printf("\n");
   }
}

/* The specs of the --load libraries (with where they come from), then
 * those compiled in */
static int cmd_list(const struct options *o)
{
   unsigned n, i;
   int width = 10;
   const struct isa_spec *const *specs = isa_specs(&n);
   for (unsigned k = 0; k < o->n_loaded; k++)
      for (i = 0; i < o->loaded[k].n; i++)
         if ((int)strlen(o->loaded[k].specs[i]->name) > width)
            width = (int)strlen(o->loaded[k].specs[i]->name);
   for (i = 0; i < n; i++)
      if ((int)strlen(specs[i]->name) > width)
         width = (int)strlen(specs[i]->name);
   for (unsigned k = 0; k < o->n_loaded; k++)
      for (i = 0; i < o->loaded[k].n; i++)
         list_one(o->loaded[k].specs[i], width, o->loaded[k].path);
   for (i = 0; i < n; i++)
      list_one(specs[i], width, NULL);
   return EXIT_OK;
}

/* How standard output is buffered, set once before anything is written to
 * it.  isa dis --batch gathers its answers in 64 KiB blocks of its own
 * (dis.c), so stdio adds no buffer and no copy.  Other output goes out in
 * 64 KiB writes when it is not a terminal, not stdio's 4 KiB (a terminal
 * keeps its line buffering). */
static void stdout_buffering(bool own_blocks)
{
   static char out_buffer[1 << 16];
   if (own_blocks)
      setvbuf(stdout, NULL, _IONBF, 0);
   else if (!isatty(fileno(stdout)))
      setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
   errno = 0; /* isatty's ENOTTY is not a write's error (main's message) */
}

static int run(int argc, char **argv)
{
   struct options o;
   const char *cmd, *isa_name = NULL;
   int i;
   memset(&o, 0, sizeof o);
   if (argc < 2)
      return usage_error("%s", "missing command");
   cmd = argv[1];
   if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
      const char *text = argc > 2 ? command_usage(argv[2]) : usage;
      if (!text)
         return usage_error("no command '%s' to help with", argv[2]);
      fputs(text, stdout);
      return EXIT_OK;
   }
   if (!strcmp(cmd, "--version")) {
      printf("isa (isagen) %s\n", isa_version());
      return EXIT_OK;
   }
   if (!command_usage(cmd))
      return usage_error("unknown command '%s'", cmd);
   for (i = 2; i < argc; i++) {
      const char *a = argv[i];
      /* the options that take a value, as --NAME VALUE or --NAME=VALUE */
      static const char *const valued[] = {"--isa", "--hex", "--batch", "--input", "--start", "--stop", "--base",
                                          "--load", "--section"};
      const char *value = NULL, *eq = strchr(a, '=');
      size_t k, len = eq && a[0] == '-' ? (size_t)(eq - a) : strlen(a);
      for (k = 0; k < sizeof valued / sizeof valued[0]; k++)
         if (strlen(valued[k]) == len && !strncmp(a, valued[k], len))
            break;
      if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         fputs(command_usage(cmd), stdout);
         return EXIT_OK;
      }
      if (!strcmp(cmd, "as") && !strcmp(a, "--hex")) {
         o.out_hex = true;
         continue;
      }
      if (!strcmp(cmd, "as") && (!strcmp(a, "-o") || !strncmp(a, "--output=", 9) || !strcmp(a, "--output"))) {
         if (a[1] == '-' && a[8] == '=')
            o.output = a + 9;
         else if (i + 1 < argc)
            o.output = argv[++i];
         else
            return usage_error("%s needs a value", a);
         continue;
      }
      if (!strcmp(cmd, "list") && !(k < sizeof valued / sizeof valued[0] && !strcmp(valued[k], "--load")))
         return usage_error("list takes no arguments but --load (got '%s')", a);
      if (k < sizeof valued / sizeof valued[0]) {
         char opt[16];
         snprintf(opt, sizeof opt, "%.*s", (int)len, a);
         if (eq && a[0] == '-')
            value = eq + 1;
         else if (i + 1 < argc)
            value = argv[++i];
         else
            return usage_error("%s needs a value", opt);
         if (!strcmp(opt, "--load")) {
            char err[600];
            if (!load_specs(&o, value, err, sizeof err)) {
               fprintf(stderr, "isa: %s\n", err);
               return EXIT_USAGE;
            }
         } else if (!strcmp(opt, "--section")) {
            o.section = value;
         } else if (!strcmp(opt, "--isa")) {
            isa_name = value;
         } else if (!strcmp(opt, "--hex")) {
            o.hex = value;
         } else if (!strcmp(opt, "--batch")) {
            o.batch = value;
         } else if (!strcmp(opt, "--input")) {
            if (strcmp(value, "bin") && strcmp(value, "hex"))
               return usage_error("--input is bin or hex, not '%s'", value);
            o.input_hex = !strcmp(value, "hex");
         } else {
            uint64_t *to = !strcmp(opt, "--start") ? &o.start : !strcmp(opt, "--stop") ? &o.stop : &o.base;
            if (!parse_number(value, to)) {
               char what[200];
               snprintf(what, sizeof what, "%s %s", opt, value);
               return usage_error("'%s': not a number (decimal, or hex after 0x)", what);
            }
            o.have_stop |= to == &o.stop;
            o.have_base |= to == &o.base;
         }
      } else if (!strcmp(a, "--json")) {
         o.json = true;
      } else if (!strcmp(a, "--offsets") && !strcmp(cmd, "dis")) {
         o.offsets = true;
      } else if (!strcmp(a, "--show-bytes") && !strcmp(cmd, "dis")) {
         o.show_bytes = true;
      } else if (!strcmp(a, "--strict") && !strcmp(cmd, "check")) {
         o.strict = true;
      } else if (a[0] == '-' && a[1] == '-' && a[2] != '\0' && o.n_opt < MAX_SPEC_OPTIONS &&
                 ((i + 1 < argc && argv[i + 1][0] != '-') || some_spec_has_option(&o, a + 2))) {
         /* --NAME VALUE: a spec's option, checked once the spec is known
          * (without VALUE when some spec has it: then that is the error) */
         o.opt_name[o.n_opt] = a + 2;
         o.opt_value[o.n_opt++] = i + 1 < argc && argv[i + 1][0] != '-' ? argv[++i] : NULL;
      } else if (a[0] == '-' && a[1] != '\0') {
         return usage_error("unknown option '%s'", a);
      } else if (o.file) {
         return usage_error("more than one input file (also '%s')", a);
      } else {
         o.file = a;
      }
   }
   if (!strcmp(cmd, "list"))
      return cmd_list(&o);
   if (!isa_name)
      return usage_error("%s needs --isa NAME (see 'isa list')", cmd);
   o.spec = find_spec(&o, isa_name);
   if (!o.spec) {
      char near[200], what[400];
      suggest_specs(&o, isa_name, near, sizeof near);
      if (!near[0])
         return usage_error("unknown spec '%s' (see 'isa list')", isa_name);
      snprintf(what, sizeof what, "%.100s' (did you mean %s? see 'isa list')", isa_name, near);
      return usage_error("unknown spec '%s", what);
   }
   if (o.spec->n_options > MAX_SPEC_OPTIONS)
      return usage_error("spec '%s' has more options than this command handles", isa_name);
   isa_options_init(o.spec, o.spec_options);
   for (unsigned k = 0; k < o.n_opt; k++) {
      const struct isa_option *opt = spec_option(o.spec, o.opt_name[k]);
      char what[1000], values[400];
      if (o.opt_value[k] && isa_option_set(o.spec, o.spec_options, o.opt_name[k], o.opt_value[k]) == ISA_OK)
         continue;
      if (!opt) {
         snprintf(what, sizeof what, "--%.100s' (spec %s has %s", o.opt_name[k], o.spec->name,
                  o.spec->n_options ? "other options; see 'isa list')" : "no options)");
         return usage_error("unknown option '%s", what);
      }
      option_values(opt, values, sizeof values);
      if (!o.opt_value[k])
         snprintf(what, sizeof what, "--%.100s needs a value: %s", o.opt_name[k], values);
      else
         snprintf(what, sizeof what, "--%.100s %.100s: not a value of --%.100s, which is %s", o.opt_name[k],
                  o.opt_value[k], o.opt_name[k], values);
      return usage_error("%s", what);
   }
   if (!strcmp(cmd, "as")) {
      if (o.hex || o.input_hex || o.start || o.have_stop || o.have_base || o.section || o.json)
         return usage_error("%s", "as reads text: --hex (as input), --input, --section, --start, --stop, --base and "
                                  "--json do not apply");
      if (o.batch && (o.file || o.output || o.out_hex))
         return usage_error("%s", "--batch reads its own input and answers in JSON; drop FILE, -o and --hex");
      if (!o.batch && !o.file)
         return usage_error("%s", "no input: give a FILE or -");
      return cmd_as(&o);
   }
   if (o.batch && strcmp(cmd, "dis"))
      return usage_error("%s", "--batch only applies to dis and as");
   if (o.batch && (o.hex || o.file))
      return usage_error("%s", "--batch reads its own input; drop --hex and FILE");
   if (o.batch && (o.input_hex || o.start || o.have_stop || o.have_base || o.show_bytes || o.section))
      return usage_error("%s", "--batch lines are whole hex programs: --input, --section, --start, --stop, --base "
                               "and --show-bytes do not apply");
   if (o.json && o.offsets && !o.batch)
      return usage_error("%s", "--offsets is for text: each --json object has its \"offset\" already");
   if (o.hex && o.input_hex)
      return usage_error("%s", "--input hex is for FILE and -; --hex is hex already");
   if (!o.batch && !!o.hex + !!o.file != 1)
      return usage_error("%s", o.hex ? "give either --hex or a FILE, not both" : "no input: give --hex HEX, a FILE or -");
   stdout_buffering(o.batch != NULL);
   return !strcmp(cmd, "dis") ? cmd_dis(&o) : cmd_check(&o);
}

/* Every write is checked, as coreutils do: output that could not be
 * written (a full disk, a closed pipe when SIGPIPE is ignored) is an error,
 * whatever the command found. */
int main(int argc, char **argv)
{
   int status = run(argc, argv);
   if (fflush(stdout) != 0 || ferror(stdout)) {
      if (errno) /* set by the write that failed (stdio keeps no other record) */
         fprintf(stderr, "isa: cannot write the output: %s\n", strerror(errno));
      else
         fprintf(stderr, "isa: cannot write the output\n");
      return status == EXIT_USAGE ? EXIT_USAGE : EXIT_INVALID;
   }
   return status;
}
