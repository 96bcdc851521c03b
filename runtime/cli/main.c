/* isa: disassemble, inspect and check binaries of the specs compiled into
 * the isagen runtime.  See docs/cli.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
   "usage: isa COMMAND [OPTIONS]\n"
   "\n"
   "commands:\n"
   "  list                          the specs compiled in\n"
   "  dis   --isa NAME INPUT        decode and print\n"
   "  check --isa NAME INPUT        run the spec's validators\n"
   "  help                          this text (also --help)\n"
   "  --version                     isagen's version\n"
   "\n"
   "INPUT is one of:\n"
   "  --hex HEX                     bytes in memory order, e.g. 6104020000...\n"
   "  FILE                          a binary file\n"
   "  -                             standard input (binary)\n"
   "\n"
   "options:\n"
   "  --json                        JSON Lines: dis prints one object per unit\n"
   "                                {offset, size, name, fields, text};\n"
   "                                check prints one object per finding\n"
   "  --offsets                     dis: prefix each unit with its offset\n"
   "  --batch FILE|-                dis: each line of FILE is a hex program; print\n"
   "                                one JSON object {hex, text, ok, error} per line\n"
   "                                (with --json also units: the --json objects)\n"
   "  --strict                      check: warnings count as errors\n"
   "  --OPTION VALUE                a spec's option, e.g. --gpu t720 (isa list\n"
   "                                shows them)\n"
   "\n"
   "exit status: 0 ok, 1 invalid input (or check found errors), 2 usage\n";

static int usage_error(const char *fmt, const char *arg)
{
   fprintf(stderr, "isa: ");
   fprintf(stderr, fmt, arg);
   fprintf(stderr, "\nisa: run 'isa --help' for usage\n");
   return EXIT_USAGE;
}

void describe_error(const struct isa_spec *spec, size_t offset, const struct isa_error *err, char *buf,
                    size_t size)
{
   char detail[400];
   (void)spec;
   isa_error_format(err, detail, sizeof detail);
   snprintf(buf, size, "offset 0x%zx: %s", offset, detail);
}

/* A program may come in one of the spec's containers (an MBS file...):
 * then the program is the payload inside. */
bool unwrap(const struct isa_spec *spec, struct bytes *in, char *msg, size_t msgsize)
{
   for (unsigned i = 0; i < spec->n_containers; i++) {
      struct isa_error err;
      size_t off = 0, size = 0;
      int r;
      isa_error_clear(&err);
      r = isa_container_payload(&spec->containers[i], in->data, in->len, &off, &size, &err);
      if (r == ISA_ERR_NO_MATCH)
         continue;
      if (r != ISA_OK) {
         char detail[300];
         isa_error_format(&err, detail, sizeof detail);
         snprintf(msg, msgsize, "damaged %s container: %s", spec->containers[i].name, detail);
         return false;
      }
      memmove(in->data, in->data + off, size);
      in->len = size;
      return true;
   }
   return true;
}

bool load_input(const struct options *o, struct bytes *in)
{
   char err[400];
   bool ok = o->hex ? parse_hex(o->hex, strlen(o->hex), in, err, sizeof err)
                    : read_file(o->file, in, err, sizeof err);
   if (ok && !unwrap(o->spec, in, err, sizeof err)) {
      bytes_free(in);
      ok = false;
   }
   if (!ok)
      fprintf(stderr, "isa: %s\n", err);
   return ok;
}

static int cmd_list(void)
{
   unsigned n, i;
   int width = 10;
   const struct isa_spec *const *specs = isa_specs(&n);
   for (i = 0; i < n; i++)
      if ((int)strlen(specs[i]->name) > width)
         width = (int)strlen(specs[i]->name);
   for (i = 0; i < n; i++) {
      printf("%-*s %s (%s%s%s)\n", width, specs[i]->name, specs[i]->title, specs[i]->source,
             specs[i]->version[0] ? ", version " : "", specs[i]->version);
      for (unsigned k = 0; k < specs[i]->n_options; k++) {
         const struct isa_option *opt = &specs[i]->options[k];
         printf("%-*s  --%s ", width, "", opt->name);
         for (unsigned v = 0; v < opt->n_values; v++)
            printf("%s%s%s", v ? "|" : "", opt->value_names[v], opt->values[v] == opt->def ? " (default)" : "");
         printf("\n");
      }
   }
   return EXIT_OK;
}

int main(int argc, char **argv)
{
   struct options o;
   const char *cmd, *isa_name = NULL;
   int i;
   memset(&o, 0, sizeof o);
   if (argc < 2)
      return usage_error("%s", "missing command");
   cmd = argv[1];
   if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
      fputs(usage, stdout);
      return EXIT_OK;
   }
   if (!strcmp(cmd, "--version")) {
      printf("isa (isagen) %s\n", isa_version());
      return EXIT_OK;
   }
   if (!strcmp(cmd, "list")) {
      if (argc > 2)
         return usage_error("list takes no arguments (got '%s')", argv[2]);
      return cmd_list();
   }
   if (strcmp(cmd, "dis") && strcmp(cmd, "check"))
      return usage_error("unknown command '%s'", cmd);
   for (i = 2; i < argc; i++) {
      const char *a = argv[i];
      if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         fputs(usage, stdout);
         return EXIT_OK;
      } else if (!strcmp(a, "--isa") || !strcmp(a, "--hex") || !strcmp(a, "--batch")) {
         if (i + 1 >= argc)
            return usage_error("%s needs a value", a);
         if (!strcmp(a, "--isa"))
            isa_name = argv[++i];
         else if (!strcmp(a, "--hex"))
            o.hex = argv[++i];
         else
            o.batch = argv[++i];
      } else if (!strncmp(a, "--isa=", 6)) {
         isa_name = a + 6;
      } else if (!strncmp(a, "--hex=", 6)) {
         o.hex = a + 6;
      } else if (!strcmp(a, "--json")) {
         o.json = true;
      } else if (!strcmp(a, "--offsets") && !strcmp(cmd, "dis")) {
         o.offsets = true;
      } else if (!strcmp(a, "--strict") && !strcmp(cmd, "check")) {
         o.strict = true;
      } else if (a[0] == '-' && a[1] == '-' && a[2] != '\0' && i + 1 < argc && o.n_opt < MAX_SPEC_OPTIONS &&
                 argv[i + 1][0] != '-') {
         /* --NAME VALUE: a spec's option, checked once the spec is known */
         o.opt_name[o.n_opt] = a + 2;
         o.opt_value[o.n_opt++] = argv[++i];
      } else if (a[0] == '-' && a[1] != '\0') {
         return usage_error("unknown option '%s'", a);
      } else if (o.file) {
         return usage_error("more than one input file (also '%s')", a);
      } else {
         o.file = a;
      }
   }
   if (!isa_name)
      return usage_error("%s needs --isa NAME (see 'isa list')", cmd);
   o.spec = isa_spec_find(isa_name);
   if (!o.spec)
      return usage_error("unknown spec '%s' (see 'isa list')", isa_name);
   if (o.spec->n_options > MAX_SPEC_OPTIONS)
      return usage_error("spec '%s' has more options than this command handles", isa_name);
   isa_options_init(o.spec, o.spec_options);
   for (unsigned k = 0; k < o.n_opt; k++) {
      char what[200];
      if (isa_option_set(o.spec, o.spec_options, o.opt_name[k], o.opt_value[k]) == ISA_OK)
         continue;
      snprintf(what, sizeof what, "--%s %s", o.opt_name[k], o.opt_value[k]);
      return usage_error("unknown option or value '%s' for this spec (see 'isa list')", what);
   }
   if (o.batch && strcmp(cmd, "dis"))
      return usage_error("%s", "--batch only applies to dis");
   if (o.batch && (o.hex || o.file))
      return usage_error("%s", "--batch reads its own input; drop --hex and FILE");
   if (!o.batch && !!o.hex + !!o.file != 1)
      return usage_error("%s", o.hex ? "give either --hex or a FILE, not both" : "no input: give --hex HEX, a FILE or -");
   return !strcmp(cmd, "dis") ? cmd_dis(&o) : cmd_check(&o);
}
