/* A spec's <option>s: choices the caller makes for a whole program (the GPU
 * model a Midgard binary is for), by name. */
#include <string.h>

#include "isagen/isagen.h"

void isa_options_init(const struct isa_spec *spec, int64_t *options)
{
   for (unsigned k = 0; k < spec->n_options; k++)
      options[k] = spec->options[k].def;
}

int isa_option_set(const struct isa_spec *spec, int64_t *options, const char *name, const char *value_name)
{
   for (unsigned k = 0; k < spec->n_options; k++) {
      const struct isa_option *o = &spec->options[k];
      if (strcmp(o->name, name) != 0)
         continue;
      for (unsigned i = 0; i < o->n_values; i++)
         if (strcmp(o->value_names[i], value_name) == 0) {
            options[k] = o->values[i];
            return ISA_OK;
         }
      return ISA_ERR_ARG;
   }
   return ISA_ERR_ARG;
}
