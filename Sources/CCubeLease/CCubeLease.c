#define _GNU_SOURCE
#include "CCubeLease.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__

// A real-time signal, so that `si_fd` names the lease's descriptor and breaks are queued
// rather than merged; SIGRTMIN + 5 leaves the low ones to libraries that take them.
#define NWP_LEASE_SIGNAL (SIGRTMIN + 5)

static int lease_pipe[2] = {-1, -1};
static pthread_once_t listen_once = PTHREAD_ONCE_INIT;
static int listen_error = 0;

static void on_lease_break(int signal, siginfo_t *info, void *context) {
  (void)signal;
  (void)context;
  int saved = errno;
  int descriptor = info->si_fd;
  // Non-blocking: a full pipe loses this notice, never the process; the reader then finds
  // every breaking lease with F_GETLEASE anyway.
  ssize_t written = write(lease_pipe[1], &descriptor, sizeof descriptor);
  (void)written;
  errno = saved;
}

static void install(void) {
  if (pipe2(lease_pipe, O_CLOEXEC) != 0) {
    listen_error = errno;
    return;
  }
  int flags = fcntl(lease_pipe[1], F_GETFL);
  fcntl(lease_pipe[1], F_SETFL, flags | O_NONBLOCK);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_lease_break;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(NWP_LEASE_SIGNAL, &action, NULL) != 0) listen_error = errno;
}

int nwp_lease_listen(void) {
  pthread_once(&listen_once, install);
  if (listen_error != 0) {
    errno = listen_error;
    return -1;
  }
  return lease_pipe[0];
}

int nwp_lease_take(int descriptor) {
  if (fcntl(descriptor, F_SETSIG, NWP_LEASE_SIGNAL) != 0) return errno;
  if (fcntl(descriptor, F_SETLEASE, F_RDLCK) != 0) return errno;
  return 0;
}

int nwp_lease_is_breaking(int descriptor) { return fcntl(descriptor, F_GETLEASE) == F_UNLCK; }

static void on_sigbus(int signal, siginfo_t *info, void *context) {
  (void)signal;
  (void)context;
  static const char head[] = "nwpcube: SIGBUS reading mapped memory at 0x";
  static const char tail[] =
      " (a mapped file shrank under a read: a cube truncated in place without a lease); exiting\n";
  char address[2 * sizeof(void *)];
  unsigned long value = (unsigned long)info->si_addr;
  for (int index = (int)sizeof address - 1; index >= 0; index--) {
    address[index] = "0123456789abcdef"[value & 15];
    value >>= 4;
  }
  ssize_t ignored = write(2, head, sizeof head - 1);
  ignored = write(2, address, sizeof address);
  ignored = write(2, tail, sizeof tail - 1);
  (void)ignored;
  _exit(128 + SIGBUS);
}

void nwp_exit_on_sigbus(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, NULL);
}

#else

int nwp_lease_listen(void) {
  errno = ENOSYS;
  return -1;
}
int nwp_lease_take(int descriptor) {
  (void)descriptor;
  return ENOSYS;
}
int nwp_lease_is_breaking(int descriptor) {
  (void)descriptor;
  return 0;
}
void nwp_exit_on_sigbus(void) {}

#endif
