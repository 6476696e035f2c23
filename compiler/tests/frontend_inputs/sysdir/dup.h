int dup_from_system;
