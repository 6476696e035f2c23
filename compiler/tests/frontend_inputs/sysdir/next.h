int next_from_system;
