//! Spelling C types the way gcc prints them in diagnostics (`long unsigned int`,
//! `const char *`, `int (*)(int)`, `char[4]`, `struct S`).
//!
//! Why it exists: every type error message quotes types, and gcc's wording is the
//! reference the tests compare against. Invariant: the output is exactly gcc's spelling
//! for the types csmith and our headers use (declarator syntax for pointers to arrays
//! and functions included).

use super::Parser;
use crate::frontend::types::{IntKind, QualType, RecordKind, Type};

impl Parser<'_> {
    /// gcc's spelling of a qualified type.
    pub(crate) fn type_name(&self, ty: &QualType) -> String {
        let (prefix, suffix) = self.declarator_parts(ty, String::new());
        let mut s = prefix;
        if !suffix.is_empty() {
            if suffix.starts_with("(*") {
                s.push(' ');
            }
            s.push_str(&suffix);
        }
        s
    }

    /// gcc's spelling of an unqualified type.
    pub(crate) fn type_name_of(&self, ty: &Type) -> String {
        self.type_name(&QualType::new(ty.clone()))
    }

    /// Splits `ty` into the specifier part and the declarator part around an abstract
    /// declarator `inner` (e.g. `*` for a pointer being built).
    fn declarator_parts(&self, ty: &QualType, inner: String) -> (String, String) {
        let quals = |q: &QualType| {
            let mut s = String::new();
            if q.is_const {
                s.push_str("const ");
            }
            if q.is_volatile {
                s.push_str("volatile ");
            }
            s
        };
        match &ty.ty {
            Type::Pointer(p) => {
                let mut star = String::from("*");
                if ty.is_const {
                    star.push_str(" const");
                }
                if ty.is_volatile {
                    star.push_str(" volatile");
                }
                let inner = format!("{star}{inner}");
                match &p.ty {
                    Type::Array(..) | Type::Function(_) => {
                        self.declarator_parts(p, format!("({inner})"))
                    }
                    _ => {
                        let (base, suffix) = self.declarator_parts(p, String::new());
                        let sep = if base.ends_with('*') { "" } else { " " };
                        (format!("{base}{sep}{inner}"), suffix)
                    }
                }
            }
            Type::Array(elem, n) => {
                let dim = match n {
                    Some(n) => format!("[{n}]"),
                    None => "[]".to_string(),
                };
                self.declarator_parts(elem, format!("{inner}{dim}"))
            }
            Type::Function(f) => {
                let mut params: Vec<String> = f.params.iter().map(|p| self.type_name(p)).collect();
                if f.variadic {
                    params.push("...".to_string());
                } else if params.is_empty() && f.has_prototype {
                    params.push("void".to_string());
                }
                let (base, _) = self.declarator_parts(&f.ret, String::new());
                (base, format!("{inner}({})", params.join(", ")))
            }
            other => {
                let base = match other {
                    Type::Void => "void".to_string(),
                    Type::Bool => "_Bool".to_string(),
                    Type::Int(k) => int_kind_name(*k).to_string(),
                    Type::Float(k) => match k {
                        crate::frontend::types::FloatKind::Float => "float",
                        crate::frontend::types::FloatKind::Double => "double",
                        crate::frontend::types::FloatKind::LongDouble => "long double",
                    }
                    .to_string(),
                    Type::Record(id) => {
                        let r = self.records.records.get(id.0 as usize);
                        let kw = match r.map(|r| r.kind) {
                            Some(RecordKind::Union) => "union",
                            _ => "struct",
                        };
                        match r.and_then(|r| r.tag.as_deref()) {
                            Some(tag) => format!("{kw} {tag}"),
                            None => format!("{kw} <anonymous>"),
                        }
                    }
                    _ => String::new(),
                };
                (format!("{}{base}", quals(ty)), inner)
            }
        }
    }
}

/// gcc's spelling of an integer type.
pub(crate) fn int_kind_name(k: IntKind) -> &'static str {
    match k {
        IntKind::Char => "char",
        IntKind::SChar => "signed char",
        IntKind::UChar => "unsigned char",
        IntKind::Short => "short int",
        IntKind::UShort => "short unsigned int",
        IntKind::Int => "int",
        IntKind::UInt => "unsigned int",
        IntKind::Long => "long int",
        IntKind::ULong => "long unsigned int",
        IntKind::LongLong => "long long int",
        IntKind::ULongLong => "long long unsigned int",
    }
}
