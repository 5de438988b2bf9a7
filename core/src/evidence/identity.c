#include "identity.h"
#include "rigor/plugin.h"

#include "digest.h"
#include "sysfs.h"
#include "telemetry.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char **environ;

static bool cpu_dir_name(const char *name, int *cpu) {
  if (strncmp(name, "cpu", 3) != 0 || !isdigit((unsigned char)name[3])) return false;
  char *end;
  long v = strtol(name + 3, &end, 10);
  if (*end != '\0') return false;
  *cpu = (int)v;
  return true;
}

static int int_cmp(const void *a, const void *b) {
  return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Groups CPUs by governor: {"performance": [0, 1], ...}. */
static json_t *governors_by_cpu(const char *root) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/sys/devices/system/cpu", root);
  DIR *d = opendir(dir);
  json_t *groups = json_object();
  if (!d) return groups;
  int cpus[4096] = {0}, n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 4096)
    if (cpu_dir_name(e->d_name, &cpus[n])) n++;
  closedir(d);
  qsort(cpus, (size_t)n, sizeof *cpus, int_cmp);
  for (int i = 0; i < n; i++) {
    char path[128], gov[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpus[i]);
    if (rigor_sysfs_read_line(root, path, gov, sizeof gov) != 0) continue;
    json_t *list = json_object_get(groups, gov);
    if (!list) json_object_set_new(groups, gov, list = json_array());
    json_array_append_new(list, json_integer(cpus[i]));
  }
  return groups;
}

json_t *rigor__cpufreq_state(const char *root) {
  json_t *groups = governors_by_cpu(root);
  json_t *state = json_object();
  char buf[256];
  json_object_set_new(state, "driver",
                      rigor_sysfs_read_line(root,
                                            "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
                                            buf, sizeof buf) == 0
                          ? json_string(buf)
                          : json_null());
  if (json_object_size(groups) == 0) {
    json_object_set_new(state, "governor", json_null());
  } else if (json_object_size(groups) == 1) {
    json_object_set_new(state, "governor",
                        json_string(json_object_iter_key(json_object_iter(groups))));
  } else {
    json_object_set_new(state, "governor", json_string("mixed"));
  }
  json_object_set_new(state, "governors", groups);

  /* cpufreq/boost: 1 means on; intel_pstate/no_turbo: 1 means off. */
  json_t *boost = json_null();
  const char *source = NULL;
  if (rigor_sysfs_read_line(root, "/sys/devices/system/cpu/cpufreq/boost", buf, sizeof buf) == 0) {
    boost = json_boolean(atoi(buf) != 0);
    source = "/sys/devices/system/cpu/cpufreq/boost";
  } else if (rigor_sysfs_read_line(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", buf,
                                   sizeof buf) == 0) {
    boost = json_boolean(atoi(buf) == 0);
    source = "/sys/devices/system/cpu/intel_pstate/no_turbo";
  }
  json_object_set_new(state, "boost", boost);
  json_object_set_new(state, "boost_source", source ? json_string(source) : json_null());
  return state;
}

static json_t *cpu_model(const char *root, hwloc_topology_t topo) {
  hwloc_obj_t pkg = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PACKAGE, NULL);
  const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
  if (model) return json_string(model);
  char path[4096], line[512];
  snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
  FILE *f = fopen(path, "r");
  if (!f) return json_null();
  json_t *out = json_null();
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) != 0) continue;
    char *colon = strchr(line, ':');
    if (!colon) continue;
    colon += 1 + strspn(colon + 1, " \t");
    colon[strcspn(colon, "\n")] = '\0';
    out = json_string(colon);
    break;
  }
  fclose(f);
  return out;
}

static json_t *caches(hwloc_topology_t topo) {
  json_t *list = json_array();
  for (hwloc_obj_type_t t = HWLOC_OBJ_L1CACHE; t <= HWLOC_OBJ_L3ICACHE; t++) {
    hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, t, NULL);
    if (!o || !o->attr) continue;
    const char *kind = o->attr->cache.type == HWLOC_OBJ_CACHE_DATA          ? "data"
                       : o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? "instruction"
                                                                            : "unified";
    json_array_append_new(
        list, json_pack("{s:i, s:s, s:I, s:i, s:i}", "level", (int)o->attr->cache.depth, "type",
                        kind, "size", (json_int_t)o->attr->cache.size, "line",
                        (int)o->attr->cache.linesize, "count", hwloc_get_nbobjs_by_type(topo, t)));
  }
  return list;
}

static json_t *numa_nodes(hwloc_topology_t topo) {
  json_t *list = json_array();
  for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, NULL); o;
       o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, o)) {
    char cpus[256] = "";
    if (o->cpuset) hwloc_bitmap_list_snprintf(cpus, sizeof cpus, o->cpuset);
    json_array_append_new(list, json_pack("{s:i, s:s, s:I}", "node", (int)o->os_index, "cpus", cpus,
                                          "memory", (json_int_t)o->attr->numanode.local_memory));
  }
  return list;
}

/* hwloc loads its I/O discovery plugins when a process's first topology is made: some twenty
 * libraries (libX11 and libicu among them), 5 ms of every `rigor run`, for devices the identity
 * never reads. Only this variable keeps them unloaded; one the user set is left as it is. */
static const char *const io_plugins = "hwloc_pci,hwloc_opencl,hwloc_cuda,hwloc_nvml,hwloc_rsmi,"
                                      "hwloc_levelzero,hwloc_gl,hwloc_xml_libxml";

static int topology_init_without_io(hwloc_topology_t *topo) {
  const bool set =
      !getenv("HWLOC_PLUGINS_BLACKLIST") && setenv("HWLOC_PLUGINS_BLACKLIST", io_plugins, 0) == 0;
  int rc = hwloc_topology_init(topo);
  if (set) unsetenv("HWLOC_PLUGINS_BLACKLIST");
  return rc;
}

static json_t *topology(const char *root) {
  json_t *out = json_object();
  hwloc_topology_t topo;
  if (topology_init_without_io(&topo) != 0) return out;
  if (hwloc_topology_load(topo) == 0) {
    char cpus[256];
    hwloc_bitmap_list_snprintf(cpus, sizeof cpus, hwloc_topology_get_topology_cpuset(topo));
    json_object_set_new(out, "cpu_model", cpu_model(root, topo));
    json_object_set_new(out, "sockets",
                        json_integer(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE)));
    json_object_set_new(out, "cores", json_integer(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE)));
    json_object_set_new(out, "threads", json_integer(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU)));
    json_object_set_new(out, "cpus", json_string(cpus));
    json_object_set_new(out, "caches", caches(topo));
    json_object_set_new(out, "numa", numa_nodes(topo));
  }
  hwloc_topology_destroy(topo);
  return out;
}

static json_t *environment_vars(void) {
  static const char *const prefixes[] = {"OMP_", "GOMP_", "KMP_", "NCCL_", "CUDA_VISIBLE_DEVICES="};
  json_t *vars = json_object();
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
      if (strncmp(*e, prefixes[i], strlen(prefixes[i])) != 0) continue;
      char name[256];
      snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
      json_object_set_new(vars, name, json_string(eq + 1));
      break;
    }
  }
  return vars;
}

static json_t *smt_state(const char *root, const json_t *topo) {
  char buf[64];
  if (rigor_sysfs_read_line(root, "/sys/devices/system/cpu/smt/control", buf, sizeof buf) == 0)
    return json_string(buf);
  json_int_t cores = json_integer_value(json_object_get(topo, "cores"));
  json_int_t threads = json_integer_value(json_object_get(topo, "threads"));
  if (cores <= 0) return json_null();
  return json_string(threads > cores ? "on" : "off");
}

json_t *rigor__identity_host_at(const char *root) {
  json_t *id = json_object();
  char buf[256];
  if (gethostname(buf, sizeof buf) == 0) {
    buf[sizeof buf - 1] = '\0';
    json_object_set_new(id, "host", json_string(buf));
  }
  struct utsname u;
  if (uname(&u) == 0)
    json_object_set_new(id, "kernel",
                        json_pack("{s:s, s:s, s:s, s:s}", "sysname", u.sysname, "release",
                                  u.release, "version", u.version, "machine", u.machine));
  json_t *topo = topology(root);
  json_object_update(id, topo);
  json_object_set_new(id, "smt", smt_state(root, topo));
  json_decref(topo);

  json_t *freq = rigor__cpufreq_state(root);
  json_object_set(id, "governor", json_object_get(freq, "governor"));
  json_object_set(id, "governors", json_object_get(freq, "governors"));
  json_object_set(id, "cpufreq_driver", json_object_get(freq, "driver"));
  json_object_set(id, "boost", json_object_get(freq, "boost"));
  json_decref(freq);

  json_object_set_new(
      id, "aslr",
      rigor_sysfs_read_line(root, "/proc/sys/kernel/randomize_va_space", buf, sizeof buf) == 0
          ? json_integer(atoi(buf))
          : json_null());
  json_object_set_new(id, "compiler", json_string(RIGOR_COMPILER));
  json_object_set_new(id, "cflags", json_string(RIGOR_CFLAGS));
  json_object_set_new(id, "build_type", json_string(RIGOR_BUILD_TYPE));
  json_object_set_new(id, "rigor_version", json_string(RIGOR_VERSION));
  json_object_set_new(id, "rigor_git", json_string(RIGOR_GIT_HASH));
  json_object_set_new(id, "env", environment_vars());
  json_object_set_new(id, "telemetry_sources", rigor_telemetry_sources());
  return id;
}

json_t *rigor_identity_host(void) {
  return rigor__identity_host_at("");
}
