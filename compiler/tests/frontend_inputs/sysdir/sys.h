int sys_h;
