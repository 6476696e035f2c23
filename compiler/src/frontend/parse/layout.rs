//! Record layout (owner: the declarations work; stub).
