/* Fixed NVML readings for one device, bus id 0000:3b:00.0. */
#include <string.h>

typedef struct fake_device *fake_device_t;
static struct fake_device { int unused; } device;

int nvmlInit_v2(void) {
  return 0;
}

int nvmlShutdown(void) {
  return 0;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, fake_device_t *out) {
  if (strcmp(bus_id, "0000:3b:00.0") != 0) return 6; /* NVML_ERROR_NOT_FOUND */
  *out = &device;
  return 0;
}

int nvmlDeviceGetClockInfo(fake_device_t d, int type, unsigned int *mhz) {
  (void)d;
  *mhz = type == 1 ? 1530 : 877;
  return 0;
}

int nvmlDeviceGetTemperature(fake_device_t d, int sensor, unsigned int *c) {
  (void)d, (void)sensor;
  *c = 46;
  return 0;
}

int nvmlDeviceGetPowerUsage(fake_device_t d, unsigned int *mw) {
  (void)d;
  *mw = 136250;
  return 0;
}

int nvmlDeviceGetPerformanceState(fake_device_t d, int *p) {
  (void)d;
  *p = 0;
  return 0;
}
