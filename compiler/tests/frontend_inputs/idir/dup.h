int dup_from_I;
