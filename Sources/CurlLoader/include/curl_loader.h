#ifndef UQUIZ_CURL_LOADER_H
#define UQUIZ_CURL_LOADER_H

#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl.so.4 and resolves every function below, once per process. Returns 0 on success; otherwise writes the
/// reason into `error` and returns -1, and the functions below must not be called.
int uquiz_curl_load(char *error, size_t error_size);

CURL *uquiz_curl_easy_init(void);
void uquiz_curl_easy_cleanup(CURL *handle);
void uquiz_curl_easy_reset(CURL *handle);
CURLcode uquiz_curl_easy_perform(CURL *handle);
const char *uquiz_curl_easy_strerror(CURLcode code);

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call: one typed wrapper
// per argument type.
CURLcode uquiz_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode uquiz_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode uquiz_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode uquiz_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode uquiz_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
typedef size_t (*uquiz_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode uquiz_easy_setopt_callback(CURL *handle, CURLoption option, uquiz_data_callback callback);
CURLcode uquiz_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);

CURLM *uquiz_curl_multi_init(void);
void uquiz_curl_multi_cleanup(CURLM *multi);
CURLMcode uquiz_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode uquiz_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode uquiz_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode uquiz_curl_multi_perform(CURLM *multi, int *running);
CURLMcode uquiz_curl_multi_poll(CURLM *multi, int timeout_ms);
/// Makes a `uquiz_curl_multi_poll` in progress (or the next one) return at once; the one call safe from any thread.
CURLMcode uquiz_curl_multi_wakeup(CURLM *multi);
CURLMsg *uquiz_curl_multi_info_read(CURLM *multi, int *queued);

struct curl_slist *uquiz_curl_slist_append(struct curl_slist *list, const char *text);
void uquiz_curl_slist_free_all(struct curl_slist *list);

#endif
