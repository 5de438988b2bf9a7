/* Names of telemetry signals, shared by the sampler and plugins that write them and the analysis
 * that reads them. A clock signal is any whose name ends in RIGOR_CLOCK_SUFFIX: the sampler's
 * "cpu<N>_mhz" and, by convention, plugin clocks such as "gpu0_sm_mhz". */
#ifndef RIGOR_TELEMETRY_NAMES_H
#define RIGOR_TELEMETRY_NAMES_H
#define RIGOR_CLOCK_SUFFIX "_mhz"
/* A run is flagged low_clock below this fraction of the experiment's median clock. */
#define RIGOR_CLOCK_THRESHOLD_DEFAULT 0.8

#endif
