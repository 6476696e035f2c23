#include "a.h"
#include <sys.h>
#include "guarded.h"
#include "guarded.h"
#include "once.h"
#include "once.h"
#define H "sub/c.h"
#include H
#define SYS <sys.h>
#include SYS
#include <dup.h>
#include <next.h>
main_end __FILE__
