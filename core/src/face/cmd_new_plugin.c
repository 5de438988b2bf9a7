/* rigor new-plugin NAME [DIR]: writes the plugin skeleton (examples/plugin-template, embedded at
 * build time) with its name replaced by NAME, ready to build against rigor's build folder or an
 * installed rigor. */
#include "cli.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct rigor_template_file {
  const char *path;
  const unsigned char *data;
  size_t size;
} rigor_template_file_t;

#include "plugin_template.inc"

#define NEW_PLUGIN_NAME_MAX 48

static const char new_plugin_about[] =
    "Writes a minimal plugin called NAME into DIR, ./NAME by default: its params declared once\n"
    "(src/NAME_params.h), the plugin built from them (src/NAME.c), a unit test and a config that\n"
    "follow the params as they change, a CMake project and a README. It builds and passes its\n"
    "tests as written, against rigor's build folder or an installed rigor. DIR must not exist or\n"
    "be empty. NAME: a lowercase letter, then lowercase letters, digits or '_'.\n";

static int new_plugin_name_ok(const char *name) {
  size_t len = strlen(name);
  if (len == 0 || len > NEW_PLUGIN_NAME_MAX || !islower((unsigned char)name[0])) return 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (!(islower(c) || isdigit(c) || c == '_')) return 0;
  }
  return 1;
}

/* Every occurrence of `from` in text[0..len) replaced by `to`; NULL when out of memory. */
static char *new_plugin_replace(const char *text, size_t len, const char *from, const char *to,
                                size_t *out_len) {
  size_t from_len = strlen(from), to_len = strlen(to), count = 0;
  for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), from, from_len));
       p += from_len)
    count++;
  size_t total = len - count * from_len + count * to_len;
  char *out = malloc(total + 1);
  if (!out) return NULL;
  char *w = out;
  const char *r = text, *end = text + len;
  for (const char *p; (p = memmem(r, (size_t)(end - r), from, from_len)); r = p + from_len) {
    memcpy(w, r, (size_t)(p - r));
    w += p - r;
    memcpy(w, to, to_len);
    w += to_len;
  }
  memcpy(w, r, (size_t)(end - r));
  out[total] = '\0';
  *out_len = total;
  return out;
}

/* The template's name is lowercase in identifiers and file names, uppercase in macros. */
static char *new_plugin_fill(const char *text, size_t len, const char *name, size_t *out_len) {
  char upper_from[sizeof rigor_template_name], upper_to[NEW_PLUGIN_NAME_MAX + 1];
  for (size_t i = 0; i < sizeof upper_from; i++)
    upper_from[i] = (char)toupper((unsigned char)rigor_template_name[i]);
  size_t i = 0;
  for (; name[i]; i++)
    upper_to[i] = (char)toupper((unsigned char)name[i]);
  upper_to[i] = '\0';

  size_t lower_len;
  char *lower = new_plugin_replace(text, len, rigor_template_name, name, &lower_len);
  if (!lower) return NULL;
  char *filled = new_plugin_replace(lower, lower_len, upper_from, upper_to, out_len);
  free(lower);
  return filled;
}

static int new_plugin_mkdirs(const char *path) {
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* 1 when `dir` does not exist or is an empty folder. */
static int new_plugin_dir_free(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT;
  int empty = 1;
  for (struct dirent *e; empty && (e = readdir(d));)
    empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
  closedir(d);
  return empty;
}

static int new_plugin_write(const char *dir, const rigor_template_file_t *file, const char *name) {
  size_t rel_len, text_len;
  char *rel = new_plugin_fill(file->path, strlen(file->path), name, &rel_len);
  char *text = new_plugin_fill((const char *)file->data, file->size, name, &text_len);
  char path[PATH_MAX];
  int rc = -1;
  if (!rel || !text) {
    fprintf(stderr, "rigor new-plugin: out of memory\n");
    goto out;
  }
  if (snprintf(path, sizeof path, "%s/%s", dir, rel) >= (int)sizeof path) {
    fprintf(stderr, "rigor new-plugin: %s/%s: path too long\n", dir, rel);
    goto out;
  }
  char *slash = strrchr(path, '/');
  *slash = '\0';
  if (new_plugin_mkdirs(path) != 0) {
    fprintf(stderr, "rigor new-plugin: cannot create folder %s: %s\n", path, strerror(errno));
    goto out;
  }
  *slash = '/';
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
  if (fd < 0) {
    fprintf(stderr, "rigor new-plugin: cannot create %s: %s\n", path, strerror(errno));
    goto out;
  }
  size_t done = 0;
  while (done < text_len) {
    ssize_t n = write(fd, text + done, text_len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      fprintf(stderr, "rigor new-plugin: cannot write %s: %s\n", path, strerror(errno));
      close(fd);
      goto out;
    }
    done += (size_t)n;
  }
  if (close(fd) != 0) {
    fprintf(stderr, "rigor new-plugin: cannot write %s: %s\n", path, strerror(errno));
    goto out;
  }
  printf("  %s\n", path);
  rc = 0;
out:
  free(rel);
  free(text);
  return rc;
}

/* The prefix of this rigor binary (its folder's parent: an install prefix or rigor's build
 * folder) when it holds the CMake package, so the printed build command works as is. */
static int new_plugin_prefix(char *out, size_t cap) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return 0;
  exe[n] = '\0';
  for (int up = 0; up < 2; up++) {
    char *slash = strrchr(exe, '/');
    if (!slash) return 0;
    *slash = '\0';
  }
  char probe[PATH_MAX];
  if (snprintf(probe, sizeof probe, "%s/lib/cmake/rigor/rigorConfig.cmake", exe) >=
      (int)sizeof probe)
    return 0;
  if (access(probe, R_OK) != 0) return 0;
  return snprintf(out, cap, "%s", exe) < (int)cap;
}

int rigor_cmd_new_plugin(int argc, char **argv) {
  const char *out_dir = NULL;
  rigor_strings_t args = {0};
  const rigor_option_t options[] = {
      {"output", 'o', "DIR", "write the plugin into DIR (the same as giving DIR)",
       .value = &out_dir},
      {0},
  };
  const rigor_command_t cmd = {"new-plugin", "NAME [DIR] [OPTION]...", new_plugin_about, options};
  int code = rigor_args_parse(&cmd, argc, argv, &args);
  if (code < 0 && args.n == 0) code = rigor_usage_error(&cmd, "no plugin NAME given");
  if (code < 0 && (args.n > 2 || (args.n == 2 && out_dir)))
    code = rigor_usage_error(&cmd, "takes NAME and one DIR");
  if (code >= 0) {
    rigor_strings_free(&args);
    return code;
  }
  char name[NEW_PLUGIN_NAME_MAX + 2], dir[PATH_MAX];
  snprintf(name, sizeof name, "%s", args.v[0]);
  snprintf(dir, sizeof dir, "%s", args.n == 2 ? args.v[1] : out_dir ? out_dir : args.v[0]);
  rigor_strings_free(&args);
  if (!new_plugin_name_ok(name))
    return rigor_usage_error(&cmd,
                             "'%s' is not a valid plugin name: use a lowercase letter, then "
                             "lowercase letters, digits or '_' (at most %d characters)",
                             name, NEW_PLUGIN_NAME_MAX);
  if (!new_plugin_dir_free(dir))
    return rigor_usage_error(&cmd,
                             "%s already exists and is not an empty folder; name a new one "
                             "as DIR",
                             dir);

  printf("rigor new-plugin: writing plugin '%s' to %s\n", name, dir);
  size_t n_files = sizeof rigor_template_files / sizeof rigor_template_files[0];
  for (size_t i = 0; i < n_files; i++)
    if (new_plugin_write(dir, &rigor_template_files[i], name) != 0) return RIGOR_EXIT_RUN_FAILED;

  char prefix[PATH_MAX];
  const char *prefix_arg = new_plugin_prefix(prefix, sizeof prefix) ? prefix : "RIGOR_PREFIX";
  printf("\nBuild it and run its tests:\n"
         "  cmake -S %s -B %s/build -DCMAKE_PREFIX_PATH=%s\n"
         "  cmake --build %s/build\n"
         "  ctest --test-dir %s/build\n"
         "Then declare your params in %s/src/%s_params.h and your kernel in %s/src/%s.c;\n"
         "%s/README.md says what each file holds.\n",
         dir, dir, prefix_arg, dir, dir, dir, name, dir, name, dir);
  return RIGOR_EXIT_OK;
}
