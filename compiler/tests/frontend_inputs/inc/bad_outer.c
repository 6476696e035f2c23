#include "bad_inner.h"
