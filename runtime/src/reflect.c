/*
 * Reflection: read, write and list fields of any decoded unit through the
 * generated isa_type_desc tables, by XML path ("CommonWord0.SphType",
 * "ImapGenericVector[3].ImapX").  The CLI's JSON output, the generic
 * dump and the property tests are built on this; none of it knows an ISA.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isagen/isagen.h"

#define PATH_CAP (2 * ISA_PATH_MAX)

/* ---- scalar members ------------------------------------------------------ */

int64_t isa_member_get(const void *p, const struct isa_field_desc *fd)
{
   bool is_signed = fd->kind == ISA_K_SINT || fd->kind == ISA_K_SFIXED;
   if (fd->role == ISA_ROLE_FIXED)
      return fd->value;
   if (fd->kind == ISA_K_BOOL) {
      unsigned char b;
      memcpy(&b, p, 1);
      return b != 0;
   }
   if (fd->kind == ISA_K_ENUM)
      is_signed = true; /* C enums are int-sized; values are below 2^31 */
   switch (fd->c_size) {
   case 1: {
      uint8_t u;
      memcpy(&u, p, 1);
      return is_signed ? (int64_t)(int8_t)u : (int64_t)u;
   }
   case 2: {
      uint16_t u;
      memcpy(&u, p, 2);
      return is_signed ? (int64_t)(int16_t)u : (int64_t)u;
   }
   case 4: {
      uint32_t u;
      memcpy(&u, p, 4);
      return is_signed ? (int64_t)(int32_t)u : (int64_t)u;
   }
   default: {
      uint64_t u;
      memcpy(&u, p, 8);
      return (int64_t)u;
   }
   }
}

void isa_member_set(void *p, const struct isa_field_desc *fd, int64_t value)
{
   if (fd->role == ISA_ROLE_FIXED)
      return;
   if (fd->kind == ISA_K_BOOL) {
      bool b = value != 0;
      memcpy(p, &b, sizeof b);
      return;
   }
   switch (fd->c_size) {
   case 1: {
      uint8_t u = (uint8_t)value;
      memcpy(p, &u, 1);
      break;
   }
   case 2: {
      uint16_t u = (uint16_t)value;
      memcpy(p, &u, 2);
      break;
   }
   case 4: {
      uint32_t u = (uint32_t)value;
      memcpy(p, &u, 4);
      break;
   }
   default: {
      uint64_t u = (uint64_t)value;
      memcpy(p, &u, 8);
      break;
   }
   }
}

static unsigned variant_of(const struct isa_type_desc *t, const void *obj)
{
   uint16_t v;
   if (t->variant_offset == ISA_NO_OFFSET)
      return 0;
   memcpy(&v, (const char *)obj + t->variant_offset, sizeof v);
   return v <= t->n_variants ? v : 0;
}

/* Select variant v: with its view initialised where the variants share
 * storage (a union), so that no byte of the previous one is read as this
 * one's; views of an overlay all hold the same bits and are kept. */
static void set_variant(const struct isa_type_desc *t, void *obj, unsigned v)
{
   uint16_t u = (uint16_t)v;
   if (t->set_variant)
      t->set_variant(obj, v);
   else
      memcpy((char *)obj + t->variant_offset, &u, sizeof u);
}

static bool item_present(const struct isa_field_desc *fd, const void *base)
{
   bool has;
   if (fd->has_offset == ISA_NO_OFFSET)
      return true;
   memcpy(&has, (const char *)base + fd->has_offset, sizeof has);
   return has;
}

/* How many elements of fd exist in the object at base. */
static unsigned elements(const struct isa_field_desc *fd, const void *base)
{
   if (fd->n_offset != ISA_NO_OFFSET) {
      unsigned n;
      memcpy(&n, (const char *)base + fd->n_offset, sizeof n);
      return n < fd->count ? n : fd->count;
   }
   return item_present(fd, base) ? fd->count : 0;
}

void isa_select_variants(const struct isa_type_desc *t, void *obj)
{
   char *o = (char *)obj;
   unsigned i, v;
   if (t->kind == ISA_T_CHOICE) {
      v = variant_of(t, obj);
      if (v) {
         const struct isa_field_desc *fd = &t->variants[v - 1].fields[0];
         isa_select_variants(fd->type, o + fd->c_offset);
      }
      return;
   }
   /* nested aggregates first: a struct's selection may read them */
   for (i = 0; i < t->n_fields; i++) {
      const struct isa_field_desc *fd = &t->fields[i];
      unsigned n = elements(fd, o), k;
      if (fd->kind != ISA_K_AGG)
         continue;
      for (k = 0; k < n; k++)
         isa_select_variants(fd->type, o + fd->c_offset + k * fd->c_stride);
   }
   if (t->n_variants && t->select && !variant_of(t, obj))
      t->select(obj);
   v = variant_of(t, obj);
   for (unsigned w = 0; w < t->n_variants; w++) {
      const struct isa_variant_desc *vd = &t->variants[w];
      if (!t->overlay && w + 1 != v)
         continue;
      for (i = 0; i < vd->n_fields; i++) {
         const struct isa_field_desc *fd = &vd->fields[i];
         unsigned n = elements(fd, o), k;
         if (fd->kind != ISA_K_AGG)
            continue;
         for (k = 0; k < n; k++)
            isa_select_variants(fd->type, o + fd->c_offset + k * fd->c_stride);
      }
   }
}

int isa_variant_set(const struct isa_type_desc *t, void *obj, const char *name)
{
   for (unsigned i = 0; i < t->n_variants; i++)
      if (strcmp(t->variants[i].name, name) == 0) {
         set_variant(t, obj, i + 1);
         return ISA_OK;
      }
   return ISA_ERR_ARG;
}

const char *isa_variant_name(const struct isa_type_desc *t, const void *obj)
{
   unsigned v = variant_of(t, obj);
   return v ? t->variants[v - 1].name : 0;
}

/* ---- walking ------------------------------------------------------------- */

struct walk {
   isa_field_visitor fn;
   void *user;
   char path[PATH_CAP];
};

static void walk_type(struct walk *w, const struct isa_type_desc *t, const char *obj, size_t plen);

static void walk_field(struct walk *w, const struct isa_field_desc *fd, const char *base, size_t plen)
{
   unsigned n = elements(fd, base), i;
   bool indexed = fd->count > 1 || fd->n_offset != ISA_NO_OFFSET;
   for (i = 0; i < n; i++) {
      size_t len = plen;
      int k = indexed ? snprintf(w->path + len, PATH_CAP - len, "%s[%u]", fd->name, i)
                      : snprintf(w->path + len, PATH_CAP - len, "%s", fd->name);
      if (k < 0 || (size_t)k >= PATH_CAP - len)
         continue;
      len += (size_t)k;
      if (fd->kind == ISA_K_AGG) {
         if (len + 1 < PATH_CAP) {
            w->path[len] = '.';
            w->path[len + 1] = '\0';
            walk_type(w, fd->type, base + fd->c_offset + i * fd->c_stride, len + 1);
         }
      } else {
         int64_t v = fd->role == ISA_ROLE_FIXED
                        ? fd->value
                        : isa_member_get(base + fd->c_offset + i * fd->c_stride, fd);
         w->fn(w->user, w->path, fd, v);
      }
      w->path[plen] = '\0';
   }
}

static void walk_type(struct walk *w, const struct isa_type_desc *t, const char *obj, size_t plen)
{
   unsigned i, v;
   if (t->kind == ISA_T_CHOICE) {
      v = variant_of(t, obj);
      if (v) {
         const struct isa_field_desc *fd = &t->variants[v - 1].fields[0];
         walk_type(w, fd->type, obj + fd->c_offset, plen);
      }
      return;
   }
   for (i = 0; i < t->n_fields; i++)
      walk_field(w, &t->fields[i], obj, plen);
   if (t->overlay) {
      /* every view holds the same bits: list them all, each under its name */
      for (v = 0; v < t->n_variants; v++) {
         const struct isa_variant_desc *vd = &t->variants[v];
         int k = snprintf(w->path + plen, PATH_CAP - plen, "%s.", vd->name);
         if (k < 0 || (size_t)k >= PATH_CAP - plen)
            continue;
         for (i = 0; i < vd->n_fields; i++)
            walk_field(w, &vd->fields[i], obj, plen + (size_t)k);
         w->path[plen] = '\0';
      }
      return;
   }
   v = variant_of(t, obj);
   if (v) {
      const struct isa_variant_desc *vd = &t->variants[v - 1];
      size_t len = plen;
      if (vd->named_path) {
         int k = snprintf(w->path + len, PATH_CAP - len, "%s.", vd->name);
         if (k < 0 || (size_t)k >= PATH_CAP - len)
            return;
         len += (size_t)k;
      }
      for (i = 0; i < vd->n_fields; i++)
         walk_field(w, &vd->fields[i], obj, len);
      w->path[plen] = '\0';
   }
}

void isa_walk_fields(const struct isa_type_desc *t, const void *obj, isa_field_visitor fn, void *user)
{
   struct walk w;
   w.fn = fn;
   w.user = user;
   w.path[0] = '\0';
   walk_type(&w, t, (const char *)obj, 0);
}

/* ---- access by path ------------------------------------------------------ */

/* One path component: name and optional [index]. */
struct comp {
   const char *name;
   size_t len;
   long index; /* -1: none */
   const char *rest; /* after the '.', or NULL at the end */
};

static bool parse_comp(const char *p, struct comp *c)
{
   const char *s = p;
   while (*s && *s != '.' && *s != '[')
      s++;
   c->name = p;
   c->len = (size_t)(s - p);
   c->index = -1;
   if (c->len == 0)
      return false;
   if (*s == '[') {
      char *end;
      long i = strtol(s + 1, &end, 10);
      if (end == s + 1 || *end != ']' || i < 0)
         return false;
      c->index = i;
      s = end + 1;
   }
   if (*s == '.')
      c->rest = s + 1;
   else if (*s == '\0')
      c->rest = 0;
   else
      return false;
   return true;
}

static bool name_is(const char *name, const struct comp *c)
{
   return strlen(name) == c->len && memcmp(name, c->name, c->len) == 0;
}

static const struct isa_field_desc *find(const struct isa_field_desc *fields, unsigned n, const struct comp *c)
{
   unsigned i;
   for (i = 0; i < n; i++)
      if (name_is(fields[i].name, c))
         return &fields[i];
   return 0;
}

/* Does variant vd of t hold the path starting at c? */
static bool variant_has(const struct isa_variant_desc *vd, const struct comp *c)
{
   if (vd->named_path) {
      struct comp sub;
      return name_is(vd->name, c) && c->rest && parse_comp(c->rest, &sub) &&
             find(vd->fields, vd->n_fields, &sub);
   }
   return find(vd->fields, vd->n_fields, c) != 0;
}

/* Resolve `path` in object obj of type t.  With `create`, make optional
 * items present, grow counts and select variants on the way. */
static int resolve(const struct isa_type_desc *t, char *obj, const char *path, bool create,
                   const struct isa_field_desc **out_fd, char **out_ptr)
{
   struct comp c;
   const struct isa_field_desc *fd = 0;
   if (!path || !parse_comp(path, &c))
      return ISA_ERR_ARG;
   if (t->kind == ISA_T_CHOICE) {
      unsigned v = variant_of(t, obj), i;
      if (!v && create) {
         /* pick the only alternative whose type knows the first name */
         for (i = 0; i < t->n_variants; i++) {
            const struct isa_field_desc *pd = &t->variants[i].fields[0];
            const struct isa_field_desc *of;
            char *op;
            if (resolve(pd->type, obj + pd->c_offset, path, false, &of, &op) == ISA_OK ||
                find(pd->type->fields, pd->type->n_fields, &c)) {
               if (v)
                  return ISA_ERR_ARG; /* ambiguous: set the variant first */
               v = i + 1;
            }
         }
         if (v)
            set_variant(t, obj, v);
      }
      if (!v)
         return ISA_ERR_ARG;
      fd = &t->variants[v - 1].fields[0];
      return resolve(fd->type, obj + fd->c_offset, path, create, out_fd, out_ptr);
   }
   fd = find(t->fields, t->n_fields, &c);
   if (!fd && t->overlay) {
      /* a view, by name: all views are always there */
      unsigned i;
      for (i = 0; i < t->n_variants; i++)
         if (name_is(t->variants[i].name, &c))
            break;
      if (i == t->n_variants || !c.rest || !parse_comp(c.rest, &c))
         return ISA_ERR_ARG;
      fd = find(t->variants[i].fields, t->variants[i].n_fields, &c);
   } else if (!fd && t->n_variants) {
      unsigned v = variant_of(t, obj), i;
      if (!v && create) {
         if (t->select)
            v = t->select(obj);
         if (!v) {
            for (i = 0; i < t->n_variants; i++)
               if (variant_has(&t->variants[i], &c)) {
                  if (v)
                     return ISA_ERR_ARG; /* in several variants: set a selector first */
                  v = i + 1;
               }
         }
         if (v)
            set_variant(t, obj, v);
      }
      if (v) {
         const struct isa_variant_desc *vd = &t->variants[v - 1];
         if (vd->named_path) {
            if (!name_is(vd->name, &c) || !c.rest || !parse_comp(c.rest, &c))
               return ISA_ERR_ARG;
         }
         fd = find(vd->fields, vd->n_fields, &c);
      }
   }
   if (!fd)
      return ISA_ERR_ARG;
   {
      unsigned idx = 0;
      bool indexed = fd->count > 1 || fd->n_offset != ISA_NO_OFFSET;
      char *elem;
      if (indexed != (c.index >= 0))
         return ISA_ERR_ARG;
      if (c.index >= 0) {
         if ((unsigned long)c.index >= fd->count)
            return ISA_ERR_ARG;
         idx = (unsigned)c.index;
      }
      if (fd->n_offset != ISA_NO_OFFSET) {
         unsigned n;
         memcpy(&n, obj + fd->n_offset, sizeof n);
         if (idx >= n) {
            if (!create)
               return ISA_ERR_ARG;
            n = idx + 1;
            memcpy(obj + fd->n_offset, &n, sizeof n);
         }
      } else if (fd->has_offset != ISA_NO_OFFSET) {
         bool has;
         memcpy(&has, obj + fd->has_offset, sizeof has);
         if (!has) {
            if (!create)
               return ISA_ERR_ARG;
            has = true;
            memcpy(obj + fd->has_offset, &has, sizeof has);
         }
      }
      if (fd->c_offset == ISA_NO_OFFSET) {
         /* constant bits: no C member to point at */
         if (c.rest)
            return ISA_ERR_ARG;
         *out_fd = fd;
         *out_ptr = NULL;
         return ISA_OK;
      }
      elem = obj + fd->c_offset + idx * fd->c_stride;
      if (fd->kind == ISA_K_AGG) {
         if (!c.rest)
            return ISA_ERR_ARG;
         return resolve(fd->type, elem, c.rest, create, out_fd, out_ptr);
      }
      if (c.rest)
         return ISA_ERR_ARG;
      *out_fd = fd;
      *out_ptr = elem;
      return ISA_OK;
   }
}

int isa_field_active(const struct isa_type_desc *t, const void *obj, const char *path)
{
   const char *o = (const char *)obj;
   struct comp c;
   while (path && parse_comp(path, &c)) {
      const struct isa_field_desc *fd;
      unsigned v = variant_of(t, o), i;
      if (t->kind == ISA_T_CHOICE) {
         if (!v)
            return 0;
         fd = &t->variants[v - 1].fields[0];
         o += fd->c_offset;
         t = fd->type;
         continue;
      }
      fd = find(t->fields, t->n_fields, &c);
      if (!fd && t->n_variants) {
         /* the selected variant first: flat variants share field names */
         for (unsigned pass = 0; pass < 2 && !fd; pass++) {
            for (i = 0; i < t->n_variants && !fd; i++) {
               const struct isa_variant_desc *vd = &t->variants[i];
               struct comp sub = c;
               if ((pass == 0) != (i + 1 == v))
                  continue;
               if (vd->named_path) {
                  if (!name_is(vd->name, &c) || !c.rest || !parse_comp(c.rest, &sub))
                     continue;
               }
               fd = find(vd->fields, vd->n_fields, &sub);
               if (fd) {
                  if (pass == 1)
                     return 0; /* another variant or view than the selected one */
                  c = sub;
               }
            }
         }
      }
      if (!fd || fd->role == ISA_ROLE_FIXED)
         return 0;
      if (c.index >= 0 && (unsigned)c.index >= elements(fd, o))
         return 0;
      if (fd->has_offset != ISA_NO_OFFSET && !item_present(fd, o))
         return 0;
      if (fd->kind != ISA_K_AGG)
         return c.rest == NULL;
      o += fd->c_offset + (c.index > 0 ? (size_t)c.index : 0) * fd->c_stride;
      t = fd->type;
      path = c.rest;
   }
   return 0;
}

int isa_field_get(const struct isa_type_desc *t, const void *obj, const char *path, int64_t *value)
{
   const struct isa_field_desc *fd;
   char *p;
   int r = resolve(t, (char *)(uintptr_t)obj, path, false, &fd, &p);
   if (r)
      return r;
   *value = isa_member_get(p, fd);
   return ISA_OK;
}

const struct isa_field_desc *isa_field_find(const struct isa_type_desc *t, void *obj, const char *path)
{
   const struct isa_field_desc *fd;
   char *p;
   return resolve(t, (char *)obj, path, true, &fd, &p) == ISA_OK ? fd : 0;
}

int isa_field_set(const struct isa_type_desc *t, void *obj, const char *path, int64_t value)
{
   const struct isa_field_desc *fd;
   char *p;
   int r = resolve(t, (char *)obj, path, true, &fd, &p);
   if (r)
      return r;
   if (fd->role == ISA_ROLE_FIXED)
      return value == fd->value ? ISA_OK : ISA_ERR_INCONSISTENT;
   /* a value its C member cannot hold would be cut short silently; the
    * encoder checks the field's own width later */
   {
      int64_t old = isa_member_get(p, fd);
      isa_member_set(p, fd, value);
      if (isa_member_get(p, fd) != value) {
         isa_member_set(p, fd, old);
         return ISA_ERR_RANGE;
      }
   }
   return ISA_OK;
}

/* ---- the default display --------------------------------------------------- */

struct dump_row {
   struct isa_out *out;
   size_t prefix; /* characters of the row's path to leave out of leaf names */
   bool any;
};

static void format_value(struct isa_out *out, const struct isa_field_desc *fd, int64_t v)
{
   const char *name;
   switch (fd->kind) {
   case ISA_K_ENUM:
      name = fd->enum_name ? fd->enum_name((uint32_t)v) : 0;
      isa_out_enum(out, name, v);
      return;
   case ISA_K_FLOAT16:
      isa_out_g(out, isa_half_to_double((uint64_t)v));
      return;
   case ISA_K_FIXED:
   case ISA_K_SFIXED:
      isa_out_g(out, (double)v / (double)(UINT64_C(1) << fd->frac));
      return;
   default:
      break;
   }
   if (fd->format == ISA_FMT_HEX || fd->role != ISA_ROLE_FIELD)
      isa_out_hex(out, (uint64_t)v);
   else if (fd->format == ISA_FMT_BIN) {
      isa_out_str(out, "0b");
      isa_out_bin(out, (uint64_t)v, fd->width);
   } else
      isa_out_int(out, v);
}

static void dump_leaf(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   struct dump_row *row = (struct dump_row *)user;
   if (v == 0 || fd->role == ISA_ROLE_FIXED)
      return;
   isa_out_char(row->out, ' ');
   isa_out_str(row->out, path + row->prefix);
   if (fd->kind == ISA_K_BOOL)
      return;
   isa_out_char(row->out, '=');
   format_value(row->out, fd, v);
}

struct dump {
   struct isa_out *out;
   unsigned lines;
   char path[PATH_CAP];
};

/* Does a sub-object have any non-zero field? */
struct probe {
   bool any;
};

static void probe_leaf(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   (void)path;
   if (v != 0 && fd->role != ISA_ROLE_FIXED)
      ((struct probe *)user)->any = true;
}

static void dump_field(struct dump *d, const struct isa_field_desc *fd, const char *base, const char *prefix)
{
   unsigned n = elements(fd, base), i;
   bool indexed = fd->count > 1 || fd->n_offset != ISA_NO_OFFSET;
   for (i = 0; i < n; i++) {
      /* constant bits have no member (c_offset ISA_NO_OFFSET) */
      const char *elem = fd->c_offset == ISA_NO_OFFSET ? NULL : base + fd->c_offset + i * fd->c_stride;
      char name[PATH_CAP];
      if (indexed)
         snprintf(name, sizeof name, "%s%s[%u]", prefix, fd->name, i);
      else
         snprintf(name, sizeof name, "%s%s", prefix, fd->name);
      if (fd->kind == ISA_K_AGG) {
         struct probe p = {false};
         struct dump_row row;
         isa_walk_fields(fd->type, elem, probe_leaf, &p);
         if (!p.any)
            continue;
         if (d->lines++)
            isa_out_char(d->out, '\n');
         isa_out_str(d->out, name);
         isa_out_char(d->out, ':');
         row.out = d->out;
         row.prefix = 0;
         row.any = false;
         isa_walk_fields(fd->type, elem, dump_leaf, &row);
      } else {
         int64_t v = fd->role == ISA_ROLE_FIXED ? fd->value : isa_member_get(elem, fd);
         if (v == 0 || fd->role == ISA_ROLE_FIXED)
            continue;
         if (d->lines++)
            isa_out_char(d->out, '\n');
         isa_out_str(d->out, name);
         if (fd->kind != ISA_K_BOOL) {
            isa_out_char(d->out, '=');
            format_value(d->out, fd, v);
         }
      }
   }
}

static void dump_type(struct dump *d, const struct isa_type_desc *t, const char *obj)
{
   unsigned i, v;
   if (t->kind == ISA_T_CHOICE) {
      v = variant_of(t, obj);
      if (v) {
         const struct isa_field_desc *fd = &t->variants[v - 1].fields[0];
         dump_type(d, fd->type, obj + fd->c_offset);
      }
      return;
   }
   for (i = 0; i < t->n_fields; i++)
      dump_field(d, &t->fields[i], obj, "");
   v = variant_of(t, obj);
   if (v) {
      const struct isa_variant_desc *vd = &t->variants[v - 1];
      char prefix[ISA_PATH_MAX];
      snprintf(prefix, sizeof prefix, "%s%s", vd->named_path ? vd->name : "", vd->named_path ? "." : "");
      for (i = 0; i < vd->n_fields; i++)
         dump_field(d, &vd->fields[i], obj, prefix);
   }
}

void isa_dump(const struct isa_type_desc *t, const void *obj, struct isa_out *out)
{
   struct dump d;
   d.out = out;
   d.lines = 0;
   dump_type(&d, t, (const char *)obj);
   if (!d.lines)
      isa_out_str(out, "(all fields zero)");
}
