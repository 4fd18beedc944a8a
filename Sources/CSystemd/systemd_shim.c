// Loads libsystemd.so.0 at run time so neither building nor running requires it; see
// CSystemd.h. The prototypes below are written out here because libsystemd-dev (and with
// it <systemd/sd-daemon.h>) is deliberately not a build dependency. They match the
// documented, stable sd-daemon ABI.

#include "CSystemd.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef int (*listen_fds_with_names_fn)(int unset_environment, char ***names);
typedef int (*is_socket_fn)(int fd, int family, int type, int listening);
typedef int (*notify_fn)(int unset_environment, const char *state);
typedef int (*watchdog_enabled_fn)(int unset_environment, uint64_t *usec);

// Written once inside pthread_once and only read afterwards; pthread_once provides the
// happens-before edge, so no further locking is needed.
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static listen_fds_with_names_fn listen_fds_with_names;
static is_socket_fn is_socket;
static notify_fn notify;
static watchdog_enabled_fn watchdog_enabled;
static int available;
// dlerror() text is thread-local and overwritten by the next dl call, so it is copied.
static char load_error[512];

// Converts dlsym's object pointer to a function pointer without the cast ISO C forbids.
static int resolve(void *handle, const char *name, void *function_pointer) {
  void *symbol = dlsym(handle, name);
  if (symbol == NULL) {
    const char *reason = dlerror();
    snprintf(load_error, sizeof load_error, "%s",
             reason != NULL ? reason : "libsystemd.so.0 lacks a required symbol");
    return 0;
  }
  memcpy(function_pointer, &symbol, sizeof symbol);
  return 1;
}

static void load(void) {
  (void)dlerror();
  // RTLD_LOCAL keeps libsystemd's symbols out of the global namespace; RTLD_NOW surfaces a
  // broken installation here rather than at the first call.
  void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(load_error, sizeof load_error, "%s",
             reason != NULL ? reason : "dlopen(libsystemd.so.0) failed");
    return;
  }
  if (!resolve(handle, "sd_listen_fds_with_names", &listen_fds_with_names) ||
      !resolve(handle, "sd_is_socket", &is_socket) ||
      !resolve(handle, "sd_notify", &notify) ||
      !resolve(handle, "sd_watchdog_enabled", &watchdog_enabled)) {
    listen_fds_with_names = NULL;
    is_socket = NULL;
    notify = NULL;
    watchdog_enabled = NULL;
    dlclose(handle);
    return;
  }
  // The handle is never closed: the functions stay in use for the life of the process.
  available = 1;
}

static int ensure_loaded(void) {
  pthread_once(&load_once, load);
  return available;
}

int observable_systemd_available(void) { return ensure_loaded(); }

const char *observable_systemd_load_error(void) {
  return ensure_loaded() ? NULL : load_error;
}

int observable_sd_listen_fds_with_names(int unset_environment, char ***names) {
  if (!ensure_loaded()) {
    return -ENOSYS;
  }
  return listen_fds_with_names(unset_environment, names);
}

int observable_sd_is_socket(int fd, int family, int type, int listening) {
  if (!ensure_loaded()) {
    return -ENOSYS;
  }
  return is_socket(fd, family, type, listening);
}

int observable_sd_notify(int unset_environment, const char *state) {
  if (!ensure_loaded()) {
    return -ENOSYS;
  }
  return notify(unset_environment, state);
}

int observable_sd_watchdog_enabled(int unset_environment, uint64_t *usec) {
  if (!ensure_loaded()) {
    return -ENOSYS;
  }
  return watchdog_enabled(unset_environment, usec);
}
