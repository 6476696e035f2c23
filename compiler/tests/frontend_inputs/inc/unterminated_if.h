#if 1
int u;
