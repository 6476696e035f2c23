int plain_h_line = __LINE__;
const char *plain_file = __FILE__;
