#ifndef UQUIZ_CTURBOJPEG_SHIM_H
#define UQUIZ_CTURBOJPEG_SHIM_H

#include <turbojpeg.h>

#endif
