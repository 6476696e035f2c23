int c_h;
