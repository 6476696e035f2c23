#include "inc_guarded.h"
#include "inc_guarded.h"
#define HDR "inc_plain.h"
#include HDR
#include "inc_plain.h"
#define STR(x) #x
#define XSTR(x) STR(x)
#define NAME inc_plain.h
#include XSTR(NAME)
guarded_value GUARDED
