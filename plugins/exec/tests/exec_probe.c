/* A small program the exec plugin's tests run. Each argument is one action, done in order:
 *   out:TEXT  err:TEXT   print TEXT and a newline on stdout / stderr
 *   env:NAME             print NAME=value (or NAME unset)
 *   cwd                  print the working folder
 *   cat                  copy stdin to stdout
 *   bytes:N              print N bytes of 'x' on stdout
 *   nul                  print one NUL byte on stdout
 *   sleep:SECONDS        sleep
 *   grandchild:FILE      fork a child that writes its pid to FILE and sleeps for a minute
 *   signal:N             raise signal N
 *   exit:N               exit with status N
 * It exits 0 after the last action. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void nap(double seconds) {
  struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = strchr(a, ':');
    v = v ? v + 1 : "";
    if (!strncmp(a, "out:", 4)) {
      printf("%s\n", v);
    } else if (!strncmp(a, "err:", 4)) {
      fprintf(stderr, "%s\n", v);
    } else if (!strncmp(a, "env:", 4)) {
      const char *value = getenv(v);
      printf(value ? "%s=%s\n" : "%s unset\n", v, value);
    } else if (!strcmp(a, "cwd")) {
      char buf[4096];
      printf("%s\n", getcwd(buf, sizeof buf) ? buf : "?");
    } else if (!strcmp(a, "cat")) {
      int c;
      while ((c = getchar()) != EOF)
        putchar(c);
    } else if (!strncmp(a, "bytes:", 6)) {
      for (long n = atol(v); n > 0; n--)
        putchar('x');
    } else if (!strcmp(a, "nul")) {
      putchar('\0');
    } else if (!strncmp(a, "sleep:", 6)) {
      fflush(NULL);
      nap(atof(v));
    } else if (!strncmp(a, "grandchild:", 11)) {
      fflush(NULL);
      pid_t pid = fork();
      if (pid == 0) {
        FILE *f = fopen(v, "w");
        if (f) fprintf(f, "%ld\n", (long)getpid()), fclose(f);
        nap(60);
        _exit(0);
      }
      while (access(v, R_OK) != 0)
        nap(0.001);
    } else if (!strncmp(a, "signal:", 7)) {
      fflush(NULL);
      raise(atoi(v));
    } else if (!strncmp(a, "exit:", 5)) {
      fflush(NULL);
      return atoi(v);
    } else {
      fprintf(stderr, "exec_probe: unknown action '%s'\n", a);
      return 64;
    }
  }
  return 0;
}
