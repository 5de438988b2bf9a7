#include "orphans.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

void rigor_orphans_adopt(void) {
  prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* The parent of process `pid` from /proc/PID/stat, or -1. The command name may hold spaces and
 * parentheses, so the fields are read after its last ')'. */
static pid_t parent_of(const char *pid) {
  char path[64], line[512];
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(line, 1, sizeof line - 1, f);
  fclose(f);
  line[n] = '\0';
  char *close = strrchr(line, ')');
  char state;
  int ppid;
  if (!close || sscanf(close + 1, " %c %d", &state, &ppid) != 2) return -1;
  return (pid_t)ppid;
}

int rigor_orphans_reap(void) {
  pid_t self = getpid();
  int killed = 0;
  /* Killing one may let its own children be reparented to us, so look again until none is left. */
  for (int round = 0; round < 8; round++) {
    DIR *d = opendir("/proc");
    if (!d) return killed;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!isdigit((unsigned char)e->d_name[0]) || parent_of(e->d_name) != self) continue;
      pid_t pid = (pid_t)atoi(e->d_name);
      if (kill(pid, SIGKILL) == 0) found++;
      while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    }
    closedir(d);
    killed += found;
    if (!found) break;
  }
  return killed;
}
