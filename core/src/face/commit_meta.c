#include "commit_meta.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Runs git with argv (NULL-terminated, without "git") and keeps the first line it prints;
 * false when git is missing or fails. */
static bool git_line(const char *const *args, char *out, size_t len) {
  const char *argv[16] = {"git"};
  size_t n = 1;
  for (; args[n - 1] && n < 15; n++)
    argv[n] = args[n - 1];
  argv[n] = NULL;
  int fd[2];
  if (pipe(fd) != 0) return false;
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]), close(fd[1]);
    return false;
  }
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(fd[1], STDOUT_FILENO);
    if (devnull >= 0) dup2(devnull, STDERR_FILENO);
    close(fd[0]), close(fd[1]);
    execvp("git", (char *const *)argv);
    _exit(127);
  }
  close(fd[1]);
  size_t used = 0;
  ssize_t got;
  char buf[4096];
  while ((got = read(fd[0], buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < got; i++)
      if (used + 1 < len) out[used++] = buf[i];
  close(fd[0]);
  out[used] = '\0';
  out[strcspn(out, "\n")] = '\0';
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Dates are kept as text that sorts as time, which holds for four-digit years only. */
#define FIRST_DATE_S (-62135596800LL) /* 0001-01-01T00:00:00Z */
#define LAST_DATE_S  253402300799LL   /* 9999-12-31T23:59:59Z */

static bool epoch_to_iso(long long seconds, char out[32]) {
  if (seconds < FIRST_DATE_S || seconds > LAST_DATE_S) return false;
  time_t t = (time_t)seconds;
  struct tm tm;
  return gmtime_r(&t, &tm) && strftime(out, 32, "%Y-%m-%dT%H:%M:%S.000Z", &tm) > 0;
}

void rigor_commit_meta_read(const char *commit, rigor_commit_meta_t *out) {
  memset(out, 0, sizeof *out);
  out->dirty = -1;
  char ref[160], line[512];
  snprintf(ref, sizeof ref, "%s^{commit}", commit ? commit : "HEAD");
  const char *verify[] = {"rev-parse", "--verify", "--quiet", ref, NULL};
  if (!git_line(verify, line, sizeof line) || !line[0]) {
    if (commit) snprintf(out->sha, sizeof out->sha, "%s", commit);
    return;
  }
  out->from_git = true;
  snprintf(out->sha, sizeof out->sha, "%.127s", line);
  const char *date[] = {"show", "-s", "--format=%ct", out->sha, NULL};
  if (git_line(date, line, sizeof line) && line[0])
    epoch_to_iso(strtoll(line, NULL, 10), out->date);
  if (commit) return;
  const char *branch[] = {"rev-parse", "--abbrev-ref", "HEAD", NULL};
  if (git_line(branch, line, sizeof line) && strcmp(line, "HEAD") != 0)
    snprintf(out->branch, sizeof out->branch, "%.255s", line);
  /* Only tracked files count: results and build folders are usually untracked. */
  const char *status[] = {"status", "--porcelain", "--untracked-files=no", NULL};
  if (git_line(status, line, sizeof line)) out->dirty = line[0] != '\0';
}

static int days_in_month(int year, int month) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

static bool digits(const char **p, int n, int *v) {
  *v = 0;
  for (int i = 0; i < n; i++, (*p)++) {
    if (**p < '0' || **p > '9') return false;
    *v = *v * 10 + (**p - '0');
  }
  return true;
}

bool rigor_date_normalize(const char *text, char out[32]) {
  if (!text || !text[0]) return false;
  if (text[0] == '@') {
    char *end;
    errno = 0;
    long long s = strtoll(text + 1, &end, 10);
    if (end == text + 1 || *end || errno == ERANGE) return false;
    return epoch_to_iso(s, out);
  }
  const char *p = text;
  struct tm tm = {0};
  int y, mo, d, h = 0, mi = 0, s = 0;
  if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' || !digits(&p, 2, &d))
    return false;
  long offset = 0;
  if (*p == 'T' || *p == ' ') {
    p++;
    if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi)) return false;
    if (*p == ':' && (p++, !digits(&p, 2, &s))) return false;
    if (*p == '.')
      for (p++; *p >= '0' && *p <= '9'; p++)
        ;
    if (*p == 'Z') {
      p++;
    } else if (*p == '+' || *p == '-') {
      int sign = *p++ == '-' ? -1 : 1, oh, om = 0;
      if (!digits(&p, 2, &oh)) return false;
      if (*p == ':') p++;
      if (*p && !digits(&p, 2, &om)) return false;
      offset = sign * (oh * 3600L + om * 60L);
    }
  }
  if (*p || y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
    return false;
  tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = d;
  tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = s;
  if (d > days_in_month(y, mo)) return false; /* timegm would move 2024-02-31 to March */
  return epoch_to_iso((long long)timegm(&tm) - offset, out);
}
