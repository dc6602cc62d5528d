#ifndef UQUIZ_CQRENCODE_SHIM_H
#define UQUIZ_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
