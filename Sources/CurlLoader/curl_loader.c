#include "curl_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

#define RESOLVE(field, symbol)                                                                                         \
    do {                                                                                                               \
        *(void **)(&api.field) = dlsym(library, symbol);                                                               \
        if (api.field == NULL) {                                                                                       \
            snprintf(load_error, sizeof load_error, "libcurl lacks %s", symbol);                                       \
            return;                                                                                                    \
        }                                                                                                              \
    } while (0)

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl.so.4 (%s); install libcurl4", dlerror());
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_reset, "curl_easy_reset");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl failed to initialise");
        api.easy_init = NULL;
    }
}

int uquiz_curl_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (load_error[0] != '\0' || api.easy_init == NULL) {
        snprintf(error, error_size, "%s", load_error[0] ? load_error : "libcurl failed to initialise");
        return -1;
    }
    return 0;
}

CURL *uquiz_curl_easy_init(void) { return api.easy_init(); }
void uquiz_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void uquiz_curl_easy_reset(CURL *handle) { api.easy_reset(handle); }
CURLcode uquiz_curl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *uquiz_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURLcode uquiz_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode uquiz_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode uquiz_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode uquiz_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode uquiz_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode uquiz_easy_setopt_callback(CURL *handle, CURLoption option, uquiz_data_callback callback) {
    return api.easy_setopt(handle, option, callback);
}
CURLcode uquiz_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLM *uquiz_curl_multi_init(void) { return api.multi_init(); }
void uquiz_curl_multi_cleanup(CURLM *multi) { api.multi_cleanup(multi); }
CURLMcode uquiz_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return api.multi_setopt(multi, option, value);
}
CURLMcode uquiz_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode uquiz_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode uquiz_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode uquiz_curl_multi_poll(CURLM *multi, int timeout_ms) {
    return api.multi_poll(multi, NULL, 0, timeout_ms, NULL);
}
CURLMcode uquiz_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
CURLMsg *uquiz_curl_multi_info_read(CURLM *multi, int *queued) { return api.multi_info_read(multi, queued); }

struct curl_slist *uquiz_curl_slist_append(struct curl_slist *list, const char *text) {
    return api.slist_append(list, text);
}
void uquiz_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
