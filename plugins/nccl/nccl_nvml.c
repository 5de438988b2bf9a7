#include "nccl_nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* The few NVML declarations used, from the documented C API. */
typedef int nvml_return_t;
typedef struct nvml_device *nvml_device_t;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

typedef nvml_return_t (*nvml_init_fn)(void);
typedef nvml_return_t (*nvml_shutdown_fn)(void);
typedef nvml_return_t (*nvml_by_pci_fn)(const char *bus_id, nvml_device_t *device);
typedef nvml_return_t (*nvml_clock_fn)(nvml_device_t device, int type, unsigned int *mhz);
typedef nvml_return_t (*nvml_temperature_fn)(nvml_device_t device, int sensor, unsigned int *c);
typedef nvml_return_t (*nvml_power_fn)(nvml_device_t device, unsigned int *milliwatts);
typedef nvml_return_t (*nvml_pstate_fn)(nvml_device_t device, int *pstate);

struct nccl_nvml {
  void *lib;
  nvml_shutdown_fn shutdown;
  nvml_clock_fn clock;
  nvml_temperature_fn temperature;
  nvml_power_fn power;
  nvml_pstate_fn pstate;
  int n;
  nvml_device_t *devices; /* NULL where the bus id was not found */
};

nccl_nvml_t *nccl_nvml_open(const char *library, const char *const *pci_bus_ids, int n) {
  void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return NULL;
  nvml_init_fn init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
  nvml_by_pci_fn by_pci = (nvml_by_pci_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
  nccl_nvml_t *nv = calloc(1, sizeof *nv);
  if (nv) nv->devices = calloc((size_t)(n > 0 ? n : 1), sizeof *nv->devices);
  if (!nv || !nv->devices || !init || !by_pci || init() != NVML_SUCCESS) {
    if (nv) free(nv->devices);
    free(nv);
    dlclose(lib);
    return NULL;
  }
  nv->lib = lib;
  nv->shutdown = (nvml_shutdown_fn)dlsym(lib, "nvmlShutdown");
  nv->clock = (nvml_clock_fn)dlsym(lib, "nvmlDeviceGetClockInfo");
  nv->temperature = (nvml_temperature_fn)dlsym(lib, "nvmlDeviceGetTemperature");
  nv->power = (nvml_power_fn)dlsym(lib, "nvmlDeviceGetPowerUsage");
  nv->pstate = (nvml_pstate_fn)dlsym(lib, "nvmlDeviceGetPerformanceState");
  nv->n = n;
  for (int i = 0; i < n; i++)
    if (by_pci(pci_bus_ids[i], &nv->devices[i]) != NVML_SUCCESS) nv->devices[i] = NULL;
  return nv;
}

static int put(rigor_telemetry_value_t *out, int cap, int k, int gpu, const char *what,
               double value) {
  if (k >= cap) return k;
  snprintf(out[k].name, sizeof out[k].name, "gpu%d.%s", gpu, what);
  out[k].value = value;
  return k + 1;
}

int nccl_nvml_sample(nccl_nvml_t *nv, rigor_telemetry_value_t *out, int cap) {
  if (!nv) return 0;
  int k = 0;
  for (int i = 0; i < nv->n; i++) {
    nvml_device_t d = nv->devices[i];
    if (!d) continue;
    unsigned int u;
    int p;
    if (nv->clock && nv->clock(d, NVML_CLOCK_SM, &u) == NVML_SUCCESS)
      k = put(out, cap, k, i, "sm_clock_mhz", u);
    if (nv->clock && nv->clock(d, NVML_CLOCK_MEM, &u) == NVML_SUCCESS)
      k = put(out, cap, k, i, "mem_clock_mhz", u);
    if (nv->temperature && nv->temperature(d, NVML_TEMPERATURE_GPU, &u) == NVML_SUCCESS)
      k = put(out, cap, k, i, "temperature_c", u);
    if (nv->power && nv->power(d, &u) == NVML_SUCCESS)
      k = put(out, cap, k, i, "power_w", u / 1000.0);
    if (nv->pstate && nv->pstate(d, &p) == NVML_SUCCESS) k = put(out, cap, k, i, "pstate", p);
  }
  return k;
}

void nccl_nvml_close(nccl_nvml_t *nv) {
  if (!nv) return;
  if (nv->shutdown) nv->shutdown();
  dlclose(nv->lib);
  free(nv->devices);
  free(nv);
}
