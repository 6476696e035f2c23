//! Initializers (owner: the declarations work; stub).
