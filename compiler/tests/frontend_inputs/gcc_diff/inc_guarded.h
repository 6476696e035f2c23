#ifndef INC_GUARDED_H
#define INC_GUARDED_H
#define GUARDED 17
int guarded_h;
#endif
