#include "signals.h"

#include <string.h>

#include "noise.h"

static volatile sig_atomic_t g_stop;
static volatile pid_t g_child_pgid;

static void on_signal(int sig) {
  g_stop = sig;
  pid_t pg = g_child_pgid;
  if (pg > 0) kill(-pg, SIGTERM);
  rigor_noise_kill_all();
}

void rigor_signals_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN); /* a file size limit becomes EFBIG, reported, not a silent death */
  g_stop = 0;
}

void rigor_signals_restore(void) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
}

int rigor_signals_received(void) {
  return g_stop;
}

void rigor_signals_guard(pid_t pgid) {
  g_child_pgid = pgid;
}
