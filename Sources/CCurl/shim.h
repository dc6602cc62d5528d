#ifndef UQUIZ_CCURL_SHIM_H
#define UQUIZ_CCURL_SHIM_H

#include <curl/curl.h>

#endif
