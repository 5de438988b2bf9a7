/* GPU telemetry through NVML, loaded at run time with dlopen (no NVML header or link needed).
 * Where the library or a device is missing, sampling yields no values. */
#ifndef RIGOR_NCCL_NVML_H
#define RIGOR_NCCL_NVML_H

#include "rigor/plugin.h"

#define NCCL_NVML_LIBRARY "libnvidia-ml.so.1"

typedef struct nccl_nvml nccl_nvml_t;

/* Opens `library` and finds one device per PCI bus id ("0000:3b:00.0"). Returns NULL when the
 * library cannot be loaded or initialised; devices it cannot find are skipped when sampling. */
nccl_nvml_t *nccl_nvml_open(const char *library, const char *const *pci_bus_ids, int n);
/* Writes gpu<i>.sm_clock_mhz, .mem_clock_mhz, .temperature_c, .power_w and .pstate for each
 * device; returns the count written. Thread-safe; NULL yields 0. */
int nccl_nvml_sample(nccl_nvml_t *nvml, rigor_telemetry_value_t *out, int cap);
void nccl_nvml_close(nccl_nvml_t *nvml);

#endif
