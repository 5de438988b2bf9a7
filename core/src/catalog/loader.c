#include "loader.h"
#include "capabilities.h"
#include "snapshot.h"
#include "suggest.h"
#include "trust.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DIRS 64

static bool name_is_safe(const char *name) {
  if (!name || !*name || strchr(name, '/') || strstr(name, "..")) return false;
  for (const char *c = name; *c; c++)
    if (!(*c == '_' || *c == '-' || *c == '.' || (*c >= '0' && *c <= '9') ||
          (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
      return false;
  return true;
}

/* The folder holding the running executable, for the install-relative plugin folder. */
static int exe_dir(char *out, size_t cap) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (!slash) return -1;
  *slash = '\0';
  snprintf(out, cap, "%s", buf);
  return 0;
}

/* Collects the search folders in order; duplicates (same real path) are dropped. */
static size_t search_dirs(const rigor_plugin_search_t *search, char dirs[][PATH_MAX]) {
  size_t n = 0;
  char candidates[MAX_DIRS][PATH_MAX];
  size_t nc = 0;
  if (search && search->extra_dirs)
    for (const char *const *d = search->extra_dirs; *d && nc < MAX_DIRS; d++)
      snprintf(candidates[nc++], PATH_MAX, "%s", *d);
  bool exclusive = search && search->exclusive;
  const char *env = exclusive ? NULL : getenv("RIGOR_PLUGIN_PATH");
  if (env && *env) {
    char *copy = strdup(env), *save = NULL;
    for (char *tok = strtok_r(copy, ":", &save); tok && nc < MAX_DIRS;
         tok = strtok_r(NULL, ":", &save))
      if (*tok) snprintf(candidates[nc++], PATH_MAX, "%s", tok);
    free(copy);
  }
  char dir[PATH_MAX];
  if (!exclusive && exe_dir(dir, sizeof dir) == 0 && nc < MAX_DIRS &&
      snprintf(candidates[nc], PATH_MAX, "%s/%s", dir, RIGOR_PLUGIN_REL_DIR) < PATH_MAX)
    nc++;
  for (size_t i = 0; i < nc; i++) {
    char real[PATH_MAX];
    if (!realpath(candidates[i], real)) continue;
    bool dup = false;
    for (size_t j = 0; j < n; j++)
      dup = dup || strcmp(dirs[j], real) == 0;
    if (!dup) snprintf(dirs[n++], PATH_MAX, "%s", real);
  }
  return n;
}

/* A plugin is code rigor runs: refuse one that someone else could have replaced (trust.h). */
static int check_path_safe(const char *path, bool allow_unsafe, char *err, size_t errlen) {
  rigor_distrust_t bad;
  if (allow_unsafe || rigor_trust_check(path, &bad) == 0) return 0;
  snprintf(err, errlen,
           "%s: refused: %s%s %s, so anyone could plant a plugin there (fix its permissions "
           "or pass --allow-unsafe-plugin-path)",
           path, strcmp(bad.path, path) ? "its path " : "", bad.path, bad.why);
  return RIGOR_EINVAL;
}

/* Every pointer of a descriptor must point into the plugin's own file: a table longer than the
 * plugin says (n_params one too large) ends in bytes that are no pointer of its. Checking means
 * reading past what the plugin declared, on purpose and within its mapped file, so the checks are
 * built without AddressSanitizer's instrumentation, which would report the very overrun they
 * refuse. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIGOR_READS_PAST_TABLES __attribute__((no_sanitize_address))
#endif
#endif
#if !defined(RIGOR_READS_PAST_TABLES) && defined(__SANITIZE_ADDRESS__)
#define RIGOR_READS_PAST_TABLES __attribute__((no_sanitize_address))
#endif
#ifndef RIGOR_READS_PAST_TABLES
#define RIGOR_READS_PAST_TABLES
#endif
static bool in_object(const void *ptr, const void *base) {
  Dl_info info;
  return ptr && dladdr(ptr, &info) != 0 && info.dli_fbase == base;
}

RIGOR_READS_PAST_TABLES static bool string_ok(const char *s, const void *base, bool optional) {
  return optional && !s ? true : in_object(s, base) && memchr(s, '\0', 4096) != NULL;
}

RIGOR_READS_PAST_TABLES static bool list_ok(const char *const *list, const void *base) {
  if (!list) return true;
  for (size_t i = 0; i < 1024; i++) {
    if (!in_object(&list[i], base)) return false;
    if (!list[i]) return true;
    if (!string_ok(list[i], base, false)) return false;
  }
  return false;
}

static size_t param_size(rigor_param_type_t type) {
  switch (type) {
  case RIGOR_PARAM_BOOL:
    return sizeof(bool);
  case RIGOR_PARAM_INT:
    return sizeof(int64_t);
  case RIGOR_PARAM_UINT:
  case RIGOR_PARAM_SIZE:
    return sizeof(uint64_t);
  case RIGOR_PARAM_DOUBLE:
    return sizeof(double);
  case RIGOR_PARAM_STRING:
  case RIGOR_PARAM_JSON:
    return sizeof(const char *);
  case RIGOR_PARAM_ENUM:
    return sizeof(int32_t);
  }
  return 0;
}

/* A table of n entries of `size` bytes the descriptor declares (`missing`: it lacks what the
 * table needs, which `needs` names): n at most max, and its last entry in the plugin's object. */
static int check_table(const rigor_plugin_t *d, const char *file, const char *what, uint32_t n,
                       uint32_t max, bool missing, const char *needs, const void *table,
                       size_t size, const void *base, char *err, size_t errlen) {
  if (n && missing) {
    snprintf(err, errlen, "%s: plugin '%s' declares %u %s but %s", file, d->name, n, what, needs);
    return RIGOR_EABI;
  }
  if (n > max || (n && !in_object((const char *)table + (size_t)(n - 1) * size, base))) {
    snprintf(err, errlen, "%s: plugin '%s' declares %u %s, more than its table holds", file,
             d->name, n, what);
    return RIGOR_EABI;
  }
  return 0;
}

RIGOR_READS_PAST_TABLES static int check_params(const rigor_plugin_t *d, const void *base,
                                                const char *file, char *err, size_t errlen) {
  int rc = check_table(d, file, "params", d->n_params, 4096, !d->params || d->params_size == 0,
                       "no table or params_size", d->params, sizeof *d->params, base, err, errlen);
  if (rc) return rc;
  for (uint32_t i = 0; i < d->n_params; i++) {
    const rigor_param_t *p = &d->params[i];
    const char *why = NULL;
    size_t size =
        p->type >= RIGOR_PARAM_BOOL && p->type <= RIGOR_PARAM_JSON ? param_size(p->type) : 0;
    if (!string_ok(p->name, base, false))
      why = "has no name in the plugin (is n_params too large?)";
    else if (!size)
      why = "has an unknown type";
    else if (p->offset > d->params_size || size > d->params_size - p->offset)
      why = "lies outside the params struct (offset + size > params_size)";
    else if (p->offset % size != 0)
      why = "is misaligned in the params struct";
    else if (p->type == RIGOR_PARAM_ENUM && (!p->choices || !p->choices[0]))
      why = "is an enum without choices";
    else if (!string_ok(p->def, base, true) || !string_ok(p->min, base, true) ||
             !string_ok(p->max, base, true) || !string_ok(p->help, base, true) ||
             !list_ok(p->choices, base) || !list_ok(p->aliases, base))
      why = "has a pointer outside the plugin";
    if (why) {
      snprintf(err, errlen, "%s: plugin '%s': param #%u ('%s') %s", file, d->name, i,
               string_ok(p->name, base, false) ? p->name : "?", why);
      return RIGOR_EABI;
    }
  }
  return 0;
}

RIGOR_READS_PAST_TABLES static int check_metrics(const rigor_plugin_t *d, const void *base,
                                                 const char *file, char *err, size_t errlen) {
  int rc = check_table(d, file, "metrics", d->n_metrics, 256, !d->metrics, "no table", d->metrics,
                       sizeof *d->metrics, base, err, errlen);
  if (rc) return rc;
  for (uint32_t i = 0; i < d->n_metrics; i++) {
    const rigor_metric_t *m = &d->metrics[i];
    if (!string_ok(m->name, base, false) || !string_ok(m->unit, base, true) ||
        !string_ok(m->help, base, true) ||
        (m->better != RIGOR_LOWER_IS_BETTER && m->better != RIGOR_HIGHER_IS_BETTER &&
         m->better != RIGOR_NOT_A_FIGURE)) {
      snprintf(err, errlen, "%s: plugin '%s': metric #%u is malformed", file, d->name, i);
      return RIGOR_EABI;
    }
  }
  return 0;
}

static const char *const required_names[] = {"init", "prime", "run", "fini"};

int rigor_plugin_check(const rigor_plugin_t *raw, const char *file, rigor_plugin_t *out, char *err,
                       size_t errlen) {
  if (raw->abi_major != RIGOR_ABI_MAJOR) {
    snprintf(err, errlen, "%s: plugin '%s' was built for rigor ABI %u, this rigor has ABI %u", file,
             raw->name ? raw->name : "?", raw->abi_major, RIGOR_ABI_MAJOR);
    return RIGOR_EABI;
  }
  size_t min_size = offsetof(rigor_plugin_t, fini) + sizeof raw->fini;
  if (raw->size < min_size) {
    snprintf(err, errlen,
             "%s: descriptor size %u is smaller than the smallest ABI %u descriptor (%zu bytes)",
             file, raw->size, RIGOR_ABI_MAJOR, min_size);
    return RIGOR_EABI;
  }
  memset(out, 0, sizeof *out);
  memcpy(out, raw, raw->size < sizeof *out ? raw->size : sizeof *out);
  out->size = (uint32_t)(raw->size < sizeof *out ? raw->size : sizeof *out);
  if (!out->name || !name_is_safe(out->name)) {
    snprintf(err, errlen, "%s: plugin name '%s' is missing or not a plain name", file,
             out->name ? out->name : "");
    return RIGOR_EABI;
  }
  const void *required[] = {(const void *)out->init, (const void *)out->prime,
                            (const void *)out->run, (const void *)out->fini};
  for (size_t i = 0; i < sizeof required / sizeof *required; i++)
    if (!required[i]) {
      snprintf(err, errlen, "%s: plugin '%s' lacks the required callback '%s'", file, out->name,
               required_names[i]);
      return RIGOR_EABI;
    }
  Dl_info self;
  /* NULL for a descriptor built into the host (tests): nothing to hold its pointers to. */
  const void *base = dladdr(raw, &self) ? self.dli_fbase : NULL;
  if (base) {
    if (!string_ok(out->version, base, true) || !string_ok(out->summary, base, true)) {
      snprintf(err, errlen, "%s: plugin '%s': version or summary points outside the plugin", file,
               out->name);
      return RIGOR_EABI;
    }
    int rc = check_params(out, base, file, err, errlen);
    if (rc == 0) rc = check_metrics(out, base, file, err, errlen);
    if (rc < 0) return rc;
  }
  if (out->primary_metric) {
    bool readable = !base || string_ok(out->primary_metric, base, false), declared = false;
    for (uint32_t i = 0; readable && i < out->n_metrics && !declared; i++)
      declared = out->metrics[i].name && strcmp(out->metrics[i].name, out->primary_metric) == 0;
    if (!declared) {
      snprintf(err, errlen, "%s: plugin '%s': primary metric '%s' is not one of its metrics", file,
               out->name, readable ? out->primary_metric : "(outside the plugin)");
      return RIGOR_EABI;
    }
  }
  return rigor_caps_settle(out, file, err, errlen);
}

/* Opens one file and checks every descriptor it holds. */
static int open_file(const char *path, void **handle, rigor_plugin_get_fn *get, char *err,
                     size_t errlen) {
  dlerror();
  /* NODELETE: a plugin's runtime (an OpenMP pool, a fork-join pool) may keep threads alive after
   * fini; unmapping their code under them would crash the process at exit. */
  *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!*handle) {
    /* Bounded so that the loader's own words survive in a short message buffer. */
    snprintf(err, errlen, "%.288s: cannot load: %.200s", path, dlerror());
    return RIGOR_EIO;
  }
  *get = (rigor_plugin_get_fn)dlsym(*handle, RIGOR_PLUGIN_GET_SYMBOL);
  if (!*get) {
    snprintf(err, errlen, "%.400s: not a rigor plugin (no exported %s)", path,
             RIGOR_PLUGIN_GET_SYMBOL);
    dlclose(*handle);
    *handle = NULL;
    return RIGOR_EABI;
  }
  return 0;
}

static rigor_loaded_t *loaded_new(void *handle, const rigor_plugin_t *desc, const char *origin,
                                  const char *path, const char *dir) {
  rigor_loaded_t *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->desc = *desc;
  p->handle = handle;
  p->origin = strdup(origin);
  p->path = strdup(path);
  p->dir = strdup(dir);
  return p;
}

/* The folder part of `path`. */
static void folder_of(const char *path, char *out, size_t cap) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(out, cap, ".");
  else
    snprintf(out, cap, "%.*s", (int)(slash == path ? 1 : slash - path), path);
}

/* Looks for descriptor `name` in file `path`; 1 found, 0 not there, <0 error. */
static int find_in_file(const char *path, const char *dir, const char *name, rigor_loaded_t **out,
                        char *err, size_t errlen) {
  void *handle;
  rigor_plugin_get_fn get;
  /* The snapshot's copy when one is open: the original is never mapped, so no change to it can
   * reach code this process runs. */
  char mapped[PATH_MAX + 300], mapped_dir[PATH_MAX + 300];
  int rc = rigor_snapshot_take(path, mapped, sizeof mapped, err, errlen);
  if (rc < 0) return rc;
  bool copied = strcmp(mapped, path) != 0;
  if (copied)
    folder_of(mapped, mapped_dir, sizeof mapped_dir);
  else
    snprintf(mapped_dir, sizeof mapped_dir, "%s", dir);
  rc = open_file(mapped, &handle, &get, err, errlen);
  if (rc < 0) return rc;
  for (uint32_t i = 0; i < 1024; i++) {
    const rigor_plugin_t *raw = get(i);
    if (!raw) break;
    if (!raw->name || strcmp(raw->name, name) != 0) continue;
    rigor_plugin_t desc;
    rc = rigor_plugin_check(raw, path, &desc, err, errlen);
    if (rc < 0) {
      dlclose(handle);
      return rc;
    }
    *out = loaded_new(handle, &desc, path, mapped, mapped_dir);
    return *out ? 1 : RIGOR_ENOMEM;
  }
  dlclose(handle);
  return 0;
}

static bool is_plugin_file(const char *fname) {
  size_t len = strlen(fname);
  return len > 3 && strcmp(fname + len - 3, ".so") == 0;
}

/* The plugin file name in the search folders closest to `name` ("strem" -> "stream"), for a
 * did-you-mean; file names only, no file is opened. */
static bool closest_file(const char *name, char (*dirs)[PATH_MAX], size_t nd, char *out,
                         size_t cap) {
  char stems[64][64];
  const char *list[64];
  size_t n = 0;
  for (size_t i = 0; i < nd && n < 64; i++) {
    DIR *d = opendir(dirs[i]);
    if (!d) continue;
    for (struct dirent *e; n < 64 && (e = readdir(d));) {
      size_t len = strlen(e->d_name);
      if (!is_plugin_file(e->d_name) || len - 3 >= sizeof stems[n]) continue;
      snprintf(stems[n], sizeof stems[n], "%.*s", (int)(len - 3), e->d_name);
      list[n] = stems[n];
      n++;
    }
    closedir(d);
  }
  const char *near = rigor_closest(name, list, n);
  if (near) snprintf(out, cap, "%s", near);
  return near != NULL;
}

int rigor_plugin_load(const char *name, const rigor_plugin_search_t *search, rigor_loaded_t **out,
                      char *err, size_t errlen) {
  *out = NULL;
  if (!name_is_safe(name)) {
    snprintf(err, errlen,
             "plugin name '%s' is not a plain name: plugins are named, never given by path",
             name ? name : "");
    return RIGOR_EINVAL;
  }
  char dirs[MAX_DIRS][PATH_MAX];
  size_t nd = search_dirs(search, dirs);
  bool allow_unsafe = search && search->allow_unsafe;
  /* First the conventional file NAME.so, folder by folder in search order. */
  for (size_t i = 0; i < nd; i++) {
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s.so", dirs[i], name);
    if (access(path, F_OK) != 0) continue;
    int rc = check_path_safe(path, allow_unsafe, err, errlen);
    if (rc < 0) return rc;
    rigor_loaded_t *found = NULL;
    rc = find_in_file(path, dirs[i], name, &found, err, errlen);
    if (rc < 0) return rc;
    if (rc == 0) {
      snprintf(err, errlen, "%s: holds no plugin named '%s'", path, name);
      return RIGOR_EABI;
    }
    /* First found wins, as on PATH: a later folder's file of the same name is only noted. */
    for (size_t j = i + 1; j < nd && !found->shadowed; j++) {
      char other[PATH_MAX + 300];
      snprintf(other, sizeof other, "%s/%s.so", dirs[j], name);
      if (access(other, F_OK) == 0) found->shadowed = strdup(other);
    }
    *out = found;
    return 0;
  }
  /* Then files holding several workloads. */
  for (size_t i = 0; i < nd; i++) {
    DIR *d = opendir(dirs[i]);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!is_plugin_file(e->d_name)) continue;
      char path[PATH_MAX + 300];
      snprintf(path, sizeof path, "%s/%s", dirs[i], e->d_name);
      int rc = check_path_safe(path, allow_unsafe, err, errlen);
      if (rc < 0) {
        closedir(d);
        return rc;
      }
      char ferr[512];
      rigor_loaded_t *found = NULL;
      rc = find_in_file(path, dirs[i], name, &found, ferr, sizeof ferr);
      if (rc == 1) {
        closedir(d);
        *out = found;
        return 0;
      }
      if (rc < 0 && rc != RIGOR_EIO && strstr(ferr, name)) {
        snprintf(err, errlen, "%s", ferr);
        closedir(d);
        return rc;
      }
    }
    closedir(d);
  }
  size_t used = (size_t)snprintf(err, errlen, "no plugin named '%s'", name);
  char near[256];
  if (closest_file(name, dirs, nd, near, sizeof near) && used < errlen)
    used += (size_t)snprintf(err + used, errlen - used, " (did you mean '%s'?)", near);
  if (used < errlen) used += (size_t)snprintf(err + used, errlen - used, " in");
  for (size_t i = 0; i < nd && used < errlen; i++)
    used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "", dirs[i]);
  if (nd == 0 && used < errlen) snprintf(err + used, errlen - used, " any plugin folder");
  return RIGOR_ENOENT;
}

void rigor_plugin_unload(rigor_loaded_t *p) {
  if (!p) return;
  if (p->handle) dlclose(p->handle);
  free(p->origin);
  free(p->path);
  free(p->dir);
  free(p->shadowed);
  free(p);
}

int rigor_plugin_list(const rigor_plugin_search_t *search, rigor_loaded_t ***out, size_t *n,
                      rigor_plugin_warn_fn warn, void *warn_arg) {
  char dirs[MAX_DIRS][PATH_MAX];
  size_t nd = search_dirs(search, dirs);
  rigor_loaded_t **list = NULL;
  size_t count = 0, cap = 0;
  for (size_t i = 0; i < nd; i++) {
    DIR *d = opendir(dirs[i]);
    if (!d) continue;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!is_plugin_file(e->d_name)) continue;
      char path[PATH_MAX + 300], err[512];
      snprintf(path, sizeof path, "%s/%s", dirs[i], e->d_name);
      void *handle;
      rigor_plugin_get_fn get;
      if (open_file(path, &handle, &get, err, sizeof err) < 0) {
        if (warn) warn(warn_arg, err);
        continue;
      }
      bool kept = false;
      for (uint32_t k = 0; k < 1024; k++) {
        const rigor_plugin_t *raw = get(k);
        if (!raw) break;
        rigor_plugin_t desc;
        if (rigor_plugin_check(raw, path, &desc, err, sizeof err) < 0) {
          if (warn) warn(warn_arg, err);
          continue;
        }
        bool dup = false;
        for (size_t j = 0; j < count; j++)
          if (strcmp(list[j]->desc.name, desc.name) == 0) {
            dup = true;
            if (warn) {
              char msg[3 * PATH_MAX];
              snprintf(msg, sizeof msg, "plugin '%s' from %s shadows %s", desc.name,
                       list[j]->origin, path);
              warn(warn_arg, msg);
            }
          }
        if (dup) continue;
        if (count == cap) {
          cap = cap ? cap * 2 : 16;
          list = realloc(list, cap * sizeof *list);
        }
        /* Each entry holds its own reference to the handle. */
        void *ref = kept ? dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) : handle;
        list[count++] = loaded_new(ref, &desc, path, path, dirs[i]);
        kept = true;
      }
      if (!kept) dlclose(handle);
    }
    closedir(d);
  }
  *out = list;
  *n = count;
  return 0;
}
