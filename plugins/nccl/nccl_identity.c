#include <stdio.h>
#include <string.h>

#include "nccl_state.h"
#include "nccl_version.h"
#include "rigor/plugin_identity.h"

static void format_uuid(const cudaUUID_t *uuid, char *out, size_t cap) {
  const unsigned char *b = (const unsigned char *)uuid->bytes;
  snprintf(out, cap, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
           b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
           b[14], b[15]);
}

/* "1,2,3": the devices this one can access directly. */
static void peers_of(int device, int count, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (int peer = 0; peer < count && used < cap; peer++) {
    int can = 0;
    if (peer == device || cudaDeviceCanAccessPeer(&can, device, peer) != cudaSuccess || !can)
      continue;
    used += (size_t)snprintf(out + used, cap - used, "%s%d", used ? "," : "", peer);
  }
  if (used == 0) snprintf(out, cap, "none");
}

int nccl_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  nccl_state_t *s = state;
  char text[256];
  int k = 0;
  int driver = 0, runtime = 0, library = 0, count = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaGetDeviceCount(&count);
  k = rigor_kv_put(out, cap, k, "cuda_driver_version", "%d.%d", driver / 1000, driver % 1000 / 10);
  k = rigor_kv_put(out, cap, k, "cuda_runtime_version", "%d.%d", runtime / 1000,
                   runtime % 1000 / 10);
  nccl_version_format(NCCL_VERSION_CODE, text, sizeof text);
  k = rigor_kv_put(out, cap, k, "nccl_version_header", "%s", text);
  if (ncclGetVersion(&library) == ncclSuccess) {
    nccl_version_format(library, text, sizeof text);
    k = rigor_kv_put(out, cap, k, "nccl_version_library", "%s", text);
  }
  k = rigor_kv_put(out, cap, k, "gpu_count", "%d", count);
  k = rigor_kv_put(out, cap, k, "gpus_per_process", "%d", s->n_gpus);
  k = rigor_kv_put(out, cap, k, "nccl_nranks", "%d", s->nranks);
  k = rigor_kv_put(out, cap, k, "nvml", "%s", s->nvml ? "loaded" : "unavailable");
  k = rigor_kv_put(out, cap, k, "check_kernels", "%s",
                   nccl_check_kernels_built() ? "built" : "absent");
  for (int g = 0; g < s->n_gpus; g++) {
    struct cudaDeviceProp prop;
    memset(&prop, 0, sizeof prop);
    if (cudaGetDeviceProperties(&prop, s->gpus[g].device) != cudaSuccess) continue;
    char key[64];
    snprintf(key, sizeof key, "gpu%d.name", g);
    k = rigor_kv_put(out, cap, k, key, "%s", prop.name);
    snprintf(key, sizeof key, "gpu%d.uuid", g);
    format_uuid(&prop.uuid, text, sizeof text);
    k = rigor_kv_put(out, cap, k, key, "%s", text);
    snprintf(key, sizeof key, "gpu%d.pci_bus_id", g);
    k = rigor_kv_put(out, cap, k, key, "%s", s->gpus[g].pci_bus_id);
    snprintf(key, sizeof key, "gpu%d.compute_capability", g);
    k = rigor_kv_put(out, cap, k, key, "%d.%d", prop.major, prop.minor);
    snprintf(key, sizeof key, "gpu%d.device", g);
    k = rigor_kv_put(out, cap, k, key, "%d", s->gpus[g].device);
    snprintf(key, sizeof key, "gpu%d.p2p_peers", g);
    peers_of(s->gpus[g].device, count, text, sizeof text);
    k = rigor_kv_put(out, cap, k, key, "%s", text);
  }
  return k;
}
