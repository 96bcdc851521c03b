/* isa --load LIB.so: specs from a library that isagen build made, looked
 * up before the ones compiled in. */
#define _POSIX_C_SOURCE 200809L /* dlopen */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef const struct isa_spec *const *(*plugin_entry)(unsigned *count, long *version);

bool load_specs(struct options *o, const char *path, char *err, size_t errsize)
{
   void *lib;
   plugin_entry entry;
   long version = 0;
   struct loaded_specs *l;
   if (o->n_loaded == MAX_LOADED) {
      snprintf(err, errsize, "more than %d --load libraries", MAX_LOADED);
      return false;
   }
   /* a name without a slash would be searched for on the library path */
   if (!strchr(path, '/')) {
      snprintf(err, errsize, "--load %s: give a path (./%s for the current directory)", path, path);
      return false;
   }
   lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   if (!lib) {
      snprintf(err, errsize, "--load %s: %s", path, dlerror());
      return false;
   }
   /* POSIX's way to a function pointer from dlsym's object pointer */
   *(void **)&entry = dlsym(lib, "isagen_plugin_specs");
   if (!entry) {
      snprintf(err, errsize, "--load %s: not a spec library (no isagen_plugin_specs; make one with isagen build)",
               path);
      dlclose(lib);
      return false;
   }
   l = &o->loaded[o->n_loaded];
   l->specs = entry(&l->n, &version);
   if (version != ISAGEN_VERSION_NUMBER) {
      snprintf(err, errsize, "--load %s: built by isagen %ld.%ld.%ld, and this isa is %s: rebuild it with isagen build",
               path, version / 10000, version / 100 % 100, version % 100, ISAGEN_VERSION);
      dlclose(lib);
      return false;
   }
   l->path = path; /* the library stays loaded until isa exits */
   o->n_loaded++;
   return true;
}

const struct isa_spec *spec_at(const struct options *o, unsigned i)
{
   unsigned n;
   const struct isa_spec *const *specs = isa_specs(&n);
   for (unsigned k = 0; k < o->n_loaded; k++) {
      if (i < o->loaded[k].n)
         return o->loaded[k].specs[i];
      i -= o->loaded[k].n;
   }
   return i < n ? specs[i] : NULL;
}

const struct isa_spec *find_spec(const struct options *o, const char *name)
{
   const struct isa_spec *spec;
   for (unsigned i = 0; (spec = spec_at(o, i)) != NULL; i++)
      if (!strcmp(spec->name, name))
         return spec;
   return NULL;
}
