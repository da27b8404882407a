/* gst-cudasmooth tests — ask a question in a child process.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CUDA may not be used in a process forked after CUDA was initialised, and Check forks a
 * child per test: a suite that probes for a device in main() must do it in a throwaway
 * child, or every test child inherits an unusable CUDA state.
 */
#ifndef CS_TEST_PROBE_H
#define CS_TEST_PROBE_H

#include <glib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef gboolean (*CsProbeFn) (gchar **why);

static inline gboolean cs_probe_in_child (CsProbeFn fn, gchar **why)
{
  int fds[2];
  char buf[1024] = { 0 };
  int status = 0;
  if (pipe (fds) != 0)
    return fn (why);
  const pid_t pid = fork ();
  if (pid == 0) {
    gchar *w = NULL;
    const gboolean ok = fn (&w);
    if (w && write (fds[1], w, strlen (w)) < 0)
      _exit (2);
    _exit (ok ? 0 : 1);
  }
  close (fds[1]);
  const ssize_t n = read (fds[0], buf, sizeof buf - 1);
  close (fds[0]);
  waitpid (pid, &status, 0);
  if (n > 0)
    *why = g_strndup (buf, (gsize) n);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

#endif
