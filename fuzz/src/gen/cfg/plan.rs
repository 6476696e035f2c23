//! The module plan: what functions, signatures and globals a cfg program has, decided
//! before any body is generated.
//!
//! Why: a caller must know its callees' signatures (and how expensive they are to call)
//! while its body is generated, and every pointer parameter needs a *contract* — what the
//! pointer points to — that callers can satisfy and callees can rely on.
//!
//! Invariants:
//! - function `i` calls only functions `j > i`: the call graph is acyclic, so no recursion;
//! - a pointer parameter's contract is `(elem, count)`: the pointer addresses `count`
//!   initialized elements of type `elem`; every contract is satisfied by some global, so a
//!   caller can always pass one;
//! - data globals hold integers only (never data pointers), so no pointer outlives its
//!   frame; function pointers live in separate one-item globals (`fp_fN = [ptr @fN]`, one
//!   pointer per global so the layout does not depend on the pointer width) that no code
//!   writes;
//! - a function is referenced in exactly the way its [`CallStyle`] says: `Direct` ones are
//!   only called by name, `Address` ones only through `globaladdr @f` and an indirect call,
//!   `Table` ones only through their function-pointer global, `Unused` ones not at all — so
//!   a `static` function whose style is `Address` or `Table` is kept alive by its address
//!   alone, which is what dead static function elimination must notice;
//! - format strings are `const` globals created on first use;
//! - a *wide* callee takes 7..=`max_wide_params` parameters of mixed widths (past the
//!   register arguments of every target, so its callers pass some on the stack) and always
//!   returns an integer; a callee whose `mixes_params` is set folds its incoming parameter
//!   values, in order, into its result (`function::emit_return`), so a swapped, shifted or
//!   clobbered argument changes what its caller sees.

use super::CfgGenConfig;
use crate::gen::choice::Pick;
use crate::gen::consts::interesting;
use arbitrary::{Result, Unstructured};
use compiler::ir::{FuncAttrs, GlobalInit, GlobalItem, IrGlobal, IrType};

/// What a `ptr` value points to: `count` initialized elements of type `elem`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    pub elem: IrType,
    pub count: u32,
}

/// One parameter of a generated function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Int(IrType),
    Ptr(Contract),
}

impl Param {
    /// The parameter's IR type.
    pub fn ty(&self) -> IrType {
        match self {
            Param::Int(t) => *t,
            Param::Ptr(_) => IrType::Ptr,
        }
    }
}

/// How callers reach a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallStyle {
    /// `call @f(...)`.
    Direct,
    /// `%fp = globaladdr @f`, sometimes kept in a `ptr` slot, then `call %fp(...)`.
    Address,
    /// `%fp = load ptr @fp_f` (the function-pointer global), then `call %fp(...)`.
    Table,
    /// Never called nor referenced (a `static` one is dead code).
    Unused,
}

/// A function's signature and attributes.
#[derive(Clone, Debug)]
pub struct Signature {
    pub name: String,
    pub params: Vec<Param>,
    pub ret: IrType,
    pub attrs: FuncAttrs,
    /// How callers reach it (the entry: `Direct`, nobody calls it).
    pub style: CallStyle,
    /// Whether its function-pointer global (`Table` style) is `const`.
    pub table_const: bool,
    /// Whether its result folds in every incoming parameter value in parameter order.
    pub mixes_params: bool,
}

impl Signature {
    /// Name of the global holding this function's address (used by `Table` style).
    pub fn table_global(&self) -> String {
        format!("fp_{}", self.name)
    }
}

/// A data global: `count` elements of `elem`, initialized by items or all zero.
#[derive(Clone, Debug)]
pub struct GlobalVar {
    pub name: String,
    pub elem: IrType,
    pub count: u32,
    /// `None`: `zeroinit`.
    pub init: Option<Vec<i64>>,
}

/// Which printf formats the module uses (each becomes a const global).
#[derive(Clone, Copy, Debug, Default)]
pub struct Formats {
    pub d: bool,
    pub lld: bool,
}

/// Name of the `%d\n` format global.
pub const FMT_D: &str = "fmt_d";
/// Name of the `%lld\n` format global.
pub const FMT_LLD: &str = "fmt_lld";

/// Everything decided before bodies: signatures, globals, and per-function bounds filled
/// in as bodies are generated (callees first).
#[derive(Clone, Debug)]
pub struct ModulePlan {
    pub sigs: Vec<Signature>,
    pub globals: Vec<GlobalVar>,
    /// Upper bound on instructions one call of function `i` executes (callees included).
    pub costs: Vec<u64>,
    /// Upper bound on lines one call of function `i` prints (callees included).
    pub prints: Vec<u64>,
    pub formats: Formats,
}

/// The entry function's name.
pub const ENTRY: &str = "main";

/// Plans a module of 1..=`max_functions` functions and 0..=`max_globals` globals.
pub fn plan_module(u: &mut Unstructured, cfg: &CfgGenConfig) -> Result<ModulePlan> {
    let (max_functions, max_params, max_globals) =
        (cfg.max_functions, cfg.max_params, cfg.max_globals);
    let nglobals = u.between(0, max_globals)?;
    let mut globals = Vec::new();
    for g in 0..nglobals {
        let elem = IrType::INTEGERS[u.index(IrType::INTEGERS.len())?];
        let count = u.between(1, 4)?;
        let init = if u.chance(25)? {
            None
        } else {
            let mut vals = Vec::new();
            for _ in 0..count {
                vals.push(interesting(u, elem)?);
            }
            Some(vals)
        };
        globals.push(GlobalVar {
            name: format!("g{g}"),
            elem,
            count,
            init,
        });
    }
    let nfuncs = u.between(1, max_functions.max(1))?;
    let mut sigs = Vec::new();
    for i in 0..nfuncs {
        let name = if i == 0 {
            ENTRY.to_string()
        } else {
            format!("f{i}")
        };
        let wide = i > 0 && u.chance(cfg.wide_signature_percent)?;
        let nparams = if wide {
            u.between(7, cfg.max_wide_params.max(7))?
        } else {
            u.between(if i == 0 { 1 } else { 0 }, max_params)?
        };
        let mut params = Vec::new();
        for _ in 0..nparams {
            // The entry takes integers only (its arguments come from the harness);
            // callees sometimes take a pointer satisfied by a global's shape.
            if i > 0 && !globals.is_empty() && u.chance(35)? {
                let g = &globals[u.index(globals.len())?];
                let count = u.between(1, g.count)?;
                params.push(Param::Ptr(Contract {
                    elem: g.elem,
                    count,
                }));
            } else {
                params.push(Param::Int(
                    IrType::INTEGERS[u.index(IrType::INTEGERS.len())?],
                ));
            }
        }
        let ret = if i == 0 {
            if u.chance(50)? {
                IrType::I64
            } else {
                IrType::I32
            }
        } else if !wide && u.chance(15)? {
            IrType::Void
        } else {
            IrType::INTEGERS[u.index(IrType::INTEGERS.len())?]
        };
        let attrs = if i == 0 {
            FuncAttrs::default()
        } else {
            FuncAttrs {
                is_static: u.chance(30)?,
                is_inline: u.chance(15)?,
                is_noinline: u.chance(15)?,
                align: 0,
            }
        };
        let attrs = FuncAttrs {
            is_noinline: attrs.is_noinline && !attrs.is_inline,
            ..attrs
        };
        let style = if i == 0 {
            CallStyle::Direct
        } else {
            call_style(u, attrs.is_static)?
        };
        let table_const = style == CallStyle::Table && u.chance(50)?;
        let mixes_params = i > 0 && (wide || (nparams >= 2 && u.chance(50)?));
        sigs.push(Signature {
            mixes_params,
            name,
            params,
            ret,
            attrs,
            style,
            table_const,
        });
    }
    let n = sigs.len();
    Ok(ModulePlan {
        sigs,
        globals,
        costs: vec![0; n],
        prints: vec![0; n],
        formats: Formats::default(),
    })
}

/// How a callee is reached. Static functions are often reached only through their
/// address (what dead static elimination must count as a use) and sometimes never (what
/// it may delete); others mostly by name.
fn call_style(u: &mut Unstructured, is_static: bool) -> Result<CallStyle> {
    let weights: [u32; 4] = if is_static {
        [4, 3, 2, 1]
    } else {
        [12, 2, 1, 0]
    };
    Ok([
        CallStyle::Direct,
        CallStyle::Address,
        CallStyle::Table,
        CallStyle::Unused,
    ][u.weighted(&weights)?])
}

/// The module's globals: data globals, the function-pointer globals of `Table` callees,
/// then the format strings in use.
pub fn build_globals(plan: &ModulePlan) -> Vec<IrGlobal> {
    let mut out = Vec::new();
    for g in &plan.globals {
        let size = g.elem.max_size() * g.count;
        let init = match &g.init {
            None => GlobalInit::Zero,
            Some(vals) => {
                GlobalInit::Items(vals.iter().map(|&v| GlobalItem::Int(g.elem, v)).collect())
            }
        };
        out.push(IrGlobal {
            name: g.name.clone(),
            size,
            align: g.elem.max_size(),
            is_const: false,
            init,
        });
    }
    // One pointer per global, at offset 0: the layout is the same at every pointer width.
    for sig in plan.sigs.iter().filter(|s| s.style == CallStyle::Table) {
        out.push(IrGlobal {
            name: sig.table_global(),
            size: IrType::Ptr.max_size(),
            align: IrType::Ptr.max_size(),
            is_const: sig.table_const,
            init: GlobalInit::Items(vec![GlobalItem::Ptr(sig.name.clone(), 0)]),
        });
    }
    let mut fmt = |name: &str, text: &[u8]| {
        out.push(IrGlobal {
            name: name.to_string(),
            size: text.len() as u32,
            align: 1,
            is_const: true,
            init: GlobalInit::Items(vec![GlobalItem::Str(text.to_vec())]),
        });
    };
    if plan.formats.d {
        fmt(FMT_D, b"%d\n\0");
    }
    if plan.formats.lld {
        fmt(FMT_LLD, b"%lld\n\0");
    }
    out
}
