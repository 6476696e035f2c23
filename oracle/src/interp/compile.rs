//! Pre-decoding: an `IrModule` becomes a [`CompiledProgram`] once, before any run.
//!
//! Why: resolving names, block labels, operand kinds and conversions at every executed
//! instruction would cost more than executing it. Here each function becomes flat code
//! (see `code.rs` for the form and its invariants), globals become an initial memory
//! image, and every input that cannot be run at all is refused with an [`InterpError`]:
//! an unsupported external, a call to or address of an undefined symbol, a branch to a
//! label the function does not have, a misplaced phi, a value of type `void`.
//!
//! Invariants kept here:
//! - constants are converted to the type of the position that reads them at decode time
//!   (an `i64` literal in an `i32` add is truncated and sign-extended here, once);
//! - a register whose type may differ from its position's type is read through a
//!   `Convert` into a scratch register; each operand of one instruction has its own
//!   scratch register, so call arguments never clobber each other;
//! - reads not proven by `assigned.rs` get a `Check`, and every definition of a register
//!   with such a read is followed by a `Mark` (phi moves and call results mark
//!   themselves);
//! - a direct call whose argument count, argument types or return type differ from the
//!   callee's signature decodes to `CallTarget::Mismatch` (undefined when executed, not an
//!   error: the call may never run);
//! - a function's decoded form depends only on the function itself, the pointer width and
//!   the module's *context* (globals, declarations, and every function's name and
//!   signature, in order: they fix symbol addresses and call targets), so
//!   [`compile_reusing`] shares the decoded form of a function that is equal to the one
//!   at the same index of an earlier module with the same context (pipeline stages
//!   mostly leave most functions alone).

use super::assigned::{Definitions, END_OF_BLOCK};
use super::code::{
    CallSite, CallTarget, CompiledFunc, Edge, FuncRef, Loc, Op, PhiMove, Reg, SwitchTable, NO_INST,
};
use super::exec::setjmp::JmpFn;
use super::float::{FArith, FConv};
use super::libc::LibcFn;
use super::memory::{AllocKind, Memory};
use super::observe::{ObservedOp, ObservedSite};
use super::va::VaFn;
use super::value::{prepare_pred, Canon};
use super::InterpError;
use compiler::abi_intrinsics::{AbiFloatPart, AbiHi, AbiLoad, AbiSret};
use compiler::frame_intrinsics::FrameIntrinsic;
use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::{
    BinOp, BlockId, Callee, GlobalInit, GlobalItem, Inst, IrFunction, IrModule, IrType, Operand,
    Terminator, UnOp, Value,
};
use compiler::ub_intrinsics::UbIntrinsic;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Registers one frame may have.
pub(crate) const MAX_FRAME_SIZE: usize = 1 << 22;

/// A module ready to run.
pub(crate) struct CompiledProgram {
    /// Shared with an earlier program where the function and its context are unchanged.
    pub funcs: Vec<Arc<CompiledFunc>>,
    pub func_by_name: FxHashMap<String, u32>,
    /// Globals and function addresses, as every run starts.
    pub image: Memory,
    pub ptr_bytes: u32,
    /// Prepared with `Op::Observe` ops (`compile_observed`).
    pub observed: bool,
}

/// What a module-level name designates.
#[derive(Clone, Copy, Debug)]
enum Symbol {
    Global,
    Func(u32),
    Libc(LibcFn),
    /// A checked-lowering intrinsic: callable directly only.
    Intrinsic(UbIntrinsic),
    /// A record-piece load (`compiler::abi_intrinsics`): callable directly only.
    AbiLoad(AbiLoad),
    /// A second-result intrinsic (`compiler::abi_intrinsics`): callable directly only.
    AbiHi(AbiHi),
    /// A hidden-pointer intrinsic (`compiler::abi_intrinsics`): callable directly only.
    AbiSret(AbiSret),
    /// A record result's float part (`compiler::abi_intrinsics`): callable directly only.
    AbiFloatPart(AbiFloatPart),
    /// A `va_list` intrinsic or function (`interp::va`).
    Va(VaFn),
    /// `setjmp`, `longjmp` and their kin (`interp/setjmp.rs`).
    Jmp(JmpFn),
    /// A frame intrinsic (`compiler::frame_intrinsics`): callable directly only.
    Frame(FrameIntrinsic),
    /// A declared external the oracle does not model: naming it in a reachable block or
    /// a global's initializer is an error (`unknown_external`); unreachable code may.
    Unknown,
}

/// Why the oracle cannot run a program that uses the external `name`.
fn unknown_external(name: &str) -> InterpError {
    if name.starts_with("__phi_") {
        // phicc's own namespace: every name in it is an intrinsic the oracle knows, so
        // an unknown one is IR that front end and oracle disagree on, not a gap.
        return err(format!(
            "@{name} is in phicc's intrinsic namespace (`__phi_`) but is no intrinsic \
             the oracle knows"
        ));
    }
    if super::libm::UNMODELLED.contains(&name) {
        return InterpError::outside_model(format!(
            "@{name} is not modelled by the oracle: its result is not correctly rounded \
             on every target (docs/c-floats.md)"
        ));
    }
    InterpError::outside_model(format!(
        "external @{name} is not in the oracle's libc subset (oracle/src/interp/libc.rs)"
    ))
}

/// Module-wide facts every function's decoding needs.
struct ModuleContext<'m> {
    symbols: FxHashMap<&'m str, (Symbol, u64)>,
    module: &'m IrModule,
    ptr_bytes: u32,
    /// Emit `Op::Observe` before integer operations (`observe.rs`).
    observe: bool,
}

impl ModuleContext<'_> {
    fn canon(&self, ty: IrType) -> Canon {
        Canon::of(ty, self.ptr_bytes)
    }
}

/// The module is unusable ([`InterpErrorKind::Malformed`](super::InterpErrorKind)).
fn err(msg: String) -> InterpError {
    InterpError::malformed(msg)
}

/// Decodes `module` for `ptr_bytes`-wide pointers.
pub(crate) fn compile(module: &IrModule, ptr_bytes: u32) -> Result<CompiledProgram, InterpError> {
    compile_reusing(module, ptr_bytes, None)
}

/// [`compile`] with an `Op::Observe` before every integer binary operation and comparison
/// (see `observe.rs`).
pub(crate) fn compile_observed(
    module: &IrModule,
    ptr_bytes: u32,
) -> Result<CompiledProgram, InterpError> {
    compile_with(module, ptr_bytes, None, true)
}

/// True when every function's decoded form in `a` would be the same in `b`: the symbol
/// layout and every signature a call can be checked against are equal.
fn same_context(a: &IrModule, b: &IrModule) -> bool {
    a.globals == b.globals
        && a.decls == b.decls
        && a.functions.len() == b.functions.len()
        && a.functions.iter().zip(&b.functions).all(|(f, g)| {
            f.name == g.name && f.params == g.params && f.ret == g.ret && f.variadic == g.variadic
        })
}

/// [`compile`], sharing the decoded form of every function equal to the one at the same
/// index of `earlier` (a module and the program decoded from it with the same
/// `ptr_bytes`), when both modules have the same context. The result is the same as
/// `compile(module, ptr_bytes)`.
pub(crate) fn compile_reusing(
    module: &IrModule,
    ptr_bytes: u32,
    earlier: Option<(&IrModule, &CompiledProgram)>,
) -> Result<CompiledProgram, InterpError> {
    compile_with(module, ptr_bytes, earlier, false)
}

fn compile_with(
    module: &IrModule,
    ptr_bytes: u32,
    earlier: Option<(&IrModule, &CompiledProgram)>,
    observe: bool,
) -> Result<CompiledProgram, InterpError> {
    // An observed program never shares an unobserved function (its operations would go
    // unseen); the converse is harmless: without an observer `Op::Observe` does nothing.
    let earlier = earlier.filter(|(_, p)| !observe || p.observed);
    let earlier = earlier.filter(|(m, p)| p.ptr_bytes == ptr_bytes && same_context(m, module));
    if ptr_bytes != 4 && ptr_bytes != 8 {
        return Err(InterpError::outside_model(format!(
            "pointer width must be 4 or 8 bytes, not {ptr_bytes}"
        )));
    }
    let mut image = Memory::new(ptr_bytes);
    let mut symbols: FxHashMap<&str, (Symbol, u64)> = FxHashMap::default();
    let mut global_ids = Vec::with_capacity(module.globals.len());

    // Addresses first (globals, then functions, then externals), so initializers and
    // code can refer to any symbol.
    for g in &module.globals {
        let kind = if g.is_const {
            AllocKind::ConstGlobal
        } else {
            AllocKind::Global
        };
        let (id, addr) = image
            .allocate(g.size as u64, g.align, kind)
            .ok_or_else(|| {
                err(format!(
                    "global @{} is too large ({} bytes)",
                    g.name, g.size
                ))
            })?;
        if symbols.insert(&g.name, (Symbol::Global, addr)).is_some() {
            return Err(err(format!("symbol @{} is defined twice", g.name)));
        }
        global_ids.push(id);
    }
    let mut func_by_name = FxHashMap::default();
    for (i, f) in module.functions.iter().enumerate() {
        let kind = AllocKind::Function(FuncRef::Module(i as u32));
        let (_, addr) = image
            .allocate(0, 1, kind)
            .ok_or_else(|| err("too many symbols".into()))?;
        if symbols
            .insert(&f.name, (Symbol::Func(i as u32), addr))
            .is_some()
        {
            return Err(err(format!("symbol @{} is defined twice", f.name)));
        }
        func_by_name.insert(f.name.clone(), i as u32);
    }
    for d in &module.decls {
        if symbols.contains_key(d.name.as_str()) {
            // A prototype of something the module defines.
            continue;
        }
        // The front end's intrinsics and `va_*`: each must have exactly its declaration;
        // its address is one nothing can read, write or call.
        let name = d.name.as_str();
        let intrinsic = UbIntrinsic::by_name(name)
            .map(|k| (Symbol::Intrinsic(k), k.decl(), "intrinsic "))
            .or_else(|| {
                AbiSret::by_name(name).map(|k| (Symbol::AbiSret(k), k.decl(), "intrinsic "))
            })
            .or_else(|| {
                AbiFloatPart::by_name(name)
                    .map(|k| (Symbol::AbiFloatPart(k), k.decl(), "intrinsic "))
            })
            .or_else(|| AbiHi::by_name(name).map(|k| (Symbol::AbiHi(k), k.decl(), "intrinsic ")))
            .or_else(|| {
                AbiLoad::by_name(name).map(|k| (Symbol::AbiLoad(k), k.decl(), "intrinsic "))
            })
            .or_else(|| {
                FrameIntrinsic::by_name(name).map(|k| (Symbol::Frame(k), k.decl(), "intrinsic "))
            })
            .or_else(|| VaFn::by_name(name).map(|k| (Symbol::Va(k), k.decl(name), "")))
            .or_else(|| JmpFn::by_name(name).map(|k| (Symbol::Jmp(k), k.decl(name), "")));
        if let Some((symbol, expected, what)) = intrinsic {
            if *d != expected {
                return Err(err(format!(
                    "{what}@{} is declared with the wrong signature",
                    d.name
                )));
            }
            let (_, addr) = image
                .allocate(0, 1, AllocKind::ConstGlobal)
                .ok_or_else(|| err("too many symbols".into()))?;
            symbols.insert(&d.name, (symbol, addr));
            continue;
        }
        if let Some(stream) = super::streams::Stream::by_name(&d.name) {
            // libc's `FILE *` variable (`streams.rs`), never called.
            if d.params.is_empty() && !d.variadic && d.ret == IrType::Ptr {
                let addr = stream
                    .install(&mut image, ptr_bytes)
                    .ok_or_else(|| err("too many symbols".into()))?;
                symbols.insert(&d.name, (Symbol::Global, addr));
                continue;
            }
        }
        let Some(f) = LibcFn::by_name(&d.name) else {
            // Not modelled: an error only where reachable code names it
            // (`unknown_external`), so a declaration used only in dead code (c-torture's
            // `link_error`) does not make the program unrunnable.
            let (_, addr) = image
                .allocate(0, 1, AllocKind::ConstGlobal)
                .ok_or_else(|| err("too many symbols".into()))?;
            symbols.insert(&d.name, (Symbol::Unknown, addr));
            continue;
        };
        f.check_decl(d).map_err(InterpError::outside_model)?;
        let (_, addr) = image
            .allocate(0, 1, AllocKind::Function(FuncRef::Libc(f)))
            .ok_or_else(|| err("too many symbols".into()))?;
        symbols.insert(&d.name, (Symbol::Libc(f), addr));
    }
    let ctx = ModuleContext {
        symbols,
        module,
        ptr_bytes,
        observe,
    };
    for (g, &id) in module.globals.iter().zip(&global_ids) {
        initialise_global(&ctx, &mut image, g, id)?;
    }
    let funcs = module
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| match earlier {
            Some((m, p)) if m.functions[i] == *f => Ok(p.funcs[i].clone()),
            _ => FuncCompiler::compile(&ctx, f).map(Arc::new),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CompiledProgram {
        funcs,
        func_by_name,
        image,
        ptr_bytes,
        observed: observe,
    })
}

/// Lays out a global's initializer items in order; the rest stays zero.
fn initialise_global(
    ctx: &ModuleContext,
    image: &mut Memory,
    g: &compiler::ir::IrGlobal,
    id: u32,
) -> Result<(), InterpError> {
    let GlobalInit::Items(items) = &g.init else {
        return Ok(());
    };
    let pb = ctx.ptr_bytes;
    let mut offset: u64 = 0;
    for item in items {
        let size = item.size(pb) as u64;
        if offset + size > g.size as u64 {
            return Err(err(format!(
                "global @{}: initializer is larger than its {} bytes",
                g.name, g.size
            )));
        }
        let at = offset as usize;
        match item {
            GlobalItem::Int(ty, v) => {
                if *ty == IrType::Void {
                    return Err(err(format!("global @{}: a void item", g.name)));
                }
                image.set_global_bytes(id, at, &(*v as u64).to_le_bytes()[..size as usize]);
            }
            GlobalItem::Ptr(sym, off) => {
                let &(kind, addr) = ctx.symbols.get(sym.as_str()).ok_or_else(|| {
                    err(format!(
                        "global @{}: address of undefined symbol @{sym}",
                        g.name
                    ))
                })?;
                if matches!(kind, Symbol::Unknown) {
                    return Err(unknown_external(sym));
                }
                let p = ctx.canon(IrType::Ptr).apply(addr.wrapping_add(*off as u64));
                image.set_global_bytes(id, at, &p.to_le_bytes()[..size as usize]);
            }
            GlobalItem::Zero(_) => {}
            GlobalItem::Str(bytes) => image.set_global_bytes(id, at, bytes),
        }
        offset += size;
    }
    Ok(())
}

/// The type a register holds, as far as its definitions tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RegType {
    /// No definition: every read is undefined.
    Undefined,
    Known(IrType),
    /// Definitions of different types: always convert.
    Mixed,
}

struct FuncCompiler<'a> {
    ctx: &'a ModuleContext<'a>,
    func: &'a IrFunction,
    values: DenseValues,
    cfg: CfgAnalysis,
    defs: Definitions,
    reg_types: Vec<RegType>,
    /// Registers with at least one unproven read.
    tracked: Vec<bool>,
    scratch_base: u32,
    const_base: u32,
    const_regs: FxHashMap<u64, Reg>,
    out: CompiledFunc,
    /// First pc of each block, filled as blocks are emitted.
    block_pcs: Vec<u32>,
    // Where emission is: block, read position, location, next free scratch register.
    block: usize,
    pos: u32,
    loc: Loc,
    next_scratch: u32,
}

impl<'a> FuncCompiler<'a> {
    fn compile(
        ctx: &'a ModuleContext<'a>,
        func: &'a IrFunction,
    ) -> Result<CompiledFunc, InterpError> {
        let name = &func.name;
        if func.blocks.is_empty() {
            return Err(err(format!("function @{name} has no blocks")));
        }
        let mut labels = FxHashMap::default();
        for (i, b) in func.blocks.iter().enumerate() {
            if labels.insert(b.label, i).is_some() {
                return Err(err(format!("@{name}: block {} appears twice", b.label)));
            }
        }
        let values = DenseValues::of(func);
        let value_count = values.count();
        // Frame layout: values, scratch, arguments, constants.
        let mut max_operands = 0usize;
        let mut arg_slots = func.params.len();
        let mut inst_count = 0usize;
        for b in &func.blocks {
            inst_count += b.insts.len();
            for inst in &b.insts {
                let mut n = 0;
                inst.for_each_operand(|_| n += 1);
                max_operands = max_operands.max(n);
                if let Inst::ParamRef { index, .. } = inst {
                    arg_slots = arg_slots.max(*index as usize + 1);
                }
            }
        }
        max_operands = max_operands.max(1);
        let scratch_base = value_count;
        let args_base = scratch_base + max_operands;
        let const_base = args_base + arg_slots;
        if const_base > MAX_FRAME_SIZE {
            return Err(err(format!(
                "function @{name} is too large for the interpreter"
            )));
        }
        let mut reg_types = vec![RegType::Undefined; value_count];
        for b in &func.blocks {
            for inst in &b.insts {
                if let Some(d) = inst.dest() {
                    let ty = inst.result_type();
                    if ty == IrType::Void {
                        return Err(err(format!("@{name}: {d} is defined with type void")));
                    }
                    let slot = &mut reg_types[values.reg(d) as usize];
                    *slot = match *slot {
                        RegType::Undefined => RegType::Known(ty),
                        RegType::Known(t) if t == ty => RegType::Known(t),
                        _ => RegType::Mixed,
                    };
                }
            }
        }
        let cfg = CfgAnalysis::build(func);
        let defs = Definitions::collect(func, |v| values.reg(v), value_count);
        let mut fc = FuncCompiler {
            ctx,
            func,
            values,
            cfg,
            defs,
            reg_types,
            tracked: vec![false; value_count],
            scratch_base: scratch_base as u32,
            const_base: const_base as u32,
            const_regs: FxHashMap::default(),
            out: CompiledFunc {
                name: name.clone(),
                params: func.params.clone(),
                ret: func.ret,
                variadic: func.variadic,
                // One op per instruction and terminator, plus a few pseudo-ops.
                code: Vec::with_capacity(inst_count + func.blocks.len() + 8),
                locs: Vec::with_capacity(inst_count + func.blocks.len() + 8),
                block_labels: func.blocks.iter().map(|b| b.label).collect(),
                edges: Vec::new(),
                moves: Vec::new(),
                switches: Vec::new(),
                calls: Vec::new(),
                selects: Vec::new(),
                consts: Vec::new(),
                observed: Vec::new(),
                const_base: const_base as u32,
                args_base: args_base as u32,
                arg_slots: arg_slots as u32,
                frame_size: 0,
                entry_edge: 0,
            },
            block_pcs: vec![0; func.blocks.len()],
            block: 0,
            pos: 0,
            loc: Loc { block: 0, inst: 0 },
            next_scratch: 0,
        };
        fc.find_tracked(&labels);
        fc.out.entry_edge = fc.edge(None, func.blocks[0].label, &labels)?;
        for b in 0..func.blocks.len() {
            fc.block(b, &labels)?;
        }
        for e in &mut fc.out.edges {
            e.target_pc = fc.block_pcs[e.block as usize];
        }
        let frame_size = const_base + fc.out.consts.len();
        if frame_size > MAX_FRAME_SIZE {
            return Err(err(format!(
                "function @{name} is too large for the interpreter"
            )));
        }
        fc.out.frame_size = frame_size as u32;
        Ok(fc.out)
    }

    /// Marks every register that has a read no definition is proven to precede.
    fn find_tracked(&mut self, labels: &FxHashMap<BlockId, usize>) {
        let (defs, cfg, values) = (&self.defs, &self.cfg, &self.values);
        let tracked = &mut self.tracked;
        let mut see = |v: Value, block: usize, pos: u32| {
            let r = values.reg(v);
            if !defs.proven(cfg, r, block, pos) {
                tracked[r as usize] = true;
            }
        };
        for (b, block) in self.func.blocks.iter().enumerate() {
            for (i, inst) in block.insts.iter().enumerate() {
                if let Inst::Phi { incoming, .. } = inst {
                    for (op, pred) in incoming {
                        if let (Operand::Value(v), Some(&p)) = (op, labels.get(pred)) {
                            see(*v, p, END_OF_BLOCK);
                        }
                    }
                } else {
                    inst.for_each_used_value(|v| see(v, b, i as u32));
                }
            }
            let end = block.insts.len() as u32;
            block.term.for_each_used_value(|v| see(v, b, end));
        }
    }

    fn fail(&self, msg: impl std::fmt::Display) -> InterpError {
        let label = self.func.blocks[self.block].label;
        err(format!("@{} {label}: {msg}", self.func.name))
    }

    fn emit(&mut self, op: Op) {
        self.out.code.push(op);
        self.out.locs.push(self.loc);
    }

    /// An `Op::Observe` of `a op b` when the program is prepared for observation.
    fn observe(&mut self, op: ObservedOp, ty: IrType, a: Reg, b: Reg) {
        if self.ctx.observe {
            let site = self.out.observed.len() as u32;
            self.out.observed.push(ObservedSite { op, ty });
            self.emit(Op::Observe { site, a, b });
        }
    }

    fn canon(&self, ty: IrType) -> Canon {
        self.ctx.canon(ty)
    }

    /// The register holding constant `bits` (already converted).
    fn constant(&mut self, bits: u64) -> Reg {
        if let Some(&r) = self.const_regs.get(&bits) {
            return r;
        }
        let r = self.const_base + self.out.consts.len() as u32;
        self.out.consts.push(bits);
        self.const_regs.insert(bits, r);
        r
    }

    /// A register holding `op` converted to `ty`, emitting a check and a conversion when
    /// needed.
    /// A `condbr`/`select` condition is true when it is non-zero in its own type (a value's
    /// type, a constant's suffix type; an unsuffixed literal is an `i8`, so `256` is 0 and
    /// `256:i32` is true). Constants are canonical for their type and registers for
    /// theirs, so reading either widened to 64 bits keeps exactly its zero-ness.
    fn read_condition(&mut self, op: &Operand) -> Result<Reg, InterpError> {
        self.read(op, IrType::I64)
    }

    fn read(&mut self, op: &Operand, ty: IrType) -> Result<Reg, InterpError> {
        if ty == IrType::Void {
            return Err(self.fail("an operand of type void"));
        }
        let c = self.canon(ty);
        match *op {
            Operand::Const(k) => Ok(self.constant(c.apply(k.bits as u64))),
            Operand::Value(v) => {
                let r = self.values.reg(v);
                // `find_tracked` examined every read: a register it did not mark has only
                // proven reads, so only a tracked one needs the dominance query here.
                if self.tracked[r as usize] && !self.defs.proven(&self.cfg, r, self.block, self.pos)
                {
                    self.emit(Op::Check { r });
                }
                let unchanged = match self.reg_types[r as usize] {
                    RegType::Undefined => true,
                    RegType::Known(t) => c.accepts_unchanged(self.canon(t)),
                    RegType::Mixed => false,
                };
                if unchanged {
                    return Ok(r);
                }
                let d = self.scratch_base + self.next_scratch;
                self.next_scratch += 1;
                self.emit(Op::Convert { d, s: r, c });
                Ok(d)
            }
        }
    }

    /// Emits `op` defining `dest`, and its mark when `dest` is tracked.
    fn define(&mut self, dest: Value, op: Op) {
        self.emit(op);
        let r = self.values.reg(dest);
        if self.tracked[r as usize] {
            self.emit(Op::Mark { r });
        }
    }

    /// The register of value `v`.
    fn reg(&self, v: Value) -> Reg {
        self.values.reg(v)
    }

    /// Whether the block being compiled is reachable from the entry block in the CFG.
    fn block_is_reachable(&self) -> bool {
        self.cfg.rpo.contains(&self.block)
    }

    fn block(&mut self, b: usize, labels: &FxHashMap<BlockId, usize>) -> Result<(), InterpError> {
        let block = &self.func.blocks[b];
        self.block = b;
        self.block_pcs[b] = self.out.code.len() as u32;
        let phis = block.phi_count();
        for (i, inst) in block.insts.iter().enumerate().skip(phis) {
            self.pos = i as u32;
            self.loc = Loc {
                block: b as u32,
                inst: i as u32,
            };
            self.next_scratch = 0;
            self.inst(inst)?;
        }
        self.pos = block.insts.len() as u32;
        self.loc = Loc {
            block: b as u32,
            inst: NO_INST,
        };
        self.next_scratch = 0;
        self.terminator(&block.term, labels)
    }

    fn inst(&mut self, inst: &Inst) -> Result<(), InterpError> {
        let pb = self.ctx.ptr_bytes;
        match inst {
            Inst::Phi { .. } => return Err(self.fail("a phi after a non-phi instruction")),
            Inst::Alloca {
                dest, size, align, ..
            } => self.define(
                *dest,
                Op::Alloca {
                    d: self.reg(*dest),
                    size: *size,
                    align: *align,
                },
            ),
            Inst::ParamRef { dest, index, ty } => {
                let c = self.canon(*ty);
                self.define(
                    *dest,
                    Op::ParamRef {
                        d: self.reg(*dest),
                        n: *index,
                        c,
                    },
                )
            }
            Inst::Load { dest, ty, ptr } => {
                if *ty == IrType::Void {
                    return Err(self.fail("a load of type void"));
                }
                let p = self.read(ptr, IrType::Ptr)?;
                let op = Op::Load {
                    d: self.reg(*dest),
                    p,
                    size: ty.size(pb) as u8,
                    c: self.canon(*ty),
                };
                self.define(*dest, op)
            }
            Inst::Store { ty, val, ptr } => {
                let v = self.read(val, *ty)?;
                let p = self.read(ptr, IrType::Ptr)?;
                self.emit(Op::Store {
                    v,
                    p,
                    size: ty.size(pb) as u8,
                })
            }
            Inst::Gep { dest, base, offset } => {
                let p = self.read(base, IrType::Ptr)?;
                let offset_ty = if pb == 8 { IrType::I64 } else { IrType::I32 };
                let off = self.read(offset, offset_ty)?;
                let c = self.canon(IrType::Ptr);
                self.define(
                    *dest,
                    Op::Gep {
                        d: self.reg(*dest),
                        p,
                        off,
                        c,
                    },
                )
            }
            Inst::GlobalAddr { dest, name } => {
                let &(kind, addr) = self
                    .ctx
                    .symbols
                    .get(name.as_str())
                    .ok_or_else(|| self.fail(format!("address of undefined symbol @{name}")))?;
                if matches!(kind, Symbol::Unknown) && self.block_is_reachable() {
                    return Err(unknown_external(name));
                }
                let s = self.constant(addr);
                self.define(
                    *dest,
                    Op::Move {
                        d: self.reg(*dest),
                        s,
                    },
                )
            }
            Inst::DynAlloca { dest, size, align } => {
                let size = self.read(size, IrType::I64)?;
                self.define(
                    *dest,
                    Op::DynAlloca {
                        d: self.reg(*dest),
                        size,
                        align: *align,
                    },
                )
            }
            Inst::StackSave { dest } => self.define(*dest, Op::StackSave { d: self.reg(*dest) }),
            Inst::StackRestore { ptr } => {
                let p = self.read(ptr, IrType::Ptr)?;
                self.emit(Op::StackRestore { p })
            }
            Inst::Memcpy { dst, src, size } => {
                let dst = self.read(dst, IrType::Ptr)?;
                let src = self.read(src, IrType::Ptr)?;
                self.emit(Op::Memcpy {
                    dst,
                    src,
                    size: *size,
                })
            }
            Inst::Bin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            } => {
                let a = self.read(lhs, *ty)?;
                let b = self.read(rhs, *ty)?;
                self.observe(ObservedOp::Bin(*op), *ty, a, b);
                let (d, c) = (self.reg(*dest), self.canon(*ty));
                let op = match op {
                    BinOp::Add => Op::Add { d, a, b, c },
                    BinOp::Sub => Op::Sub { d, a, b, c },
                    BinOp::Mul => Op::Mul { d, a, b, c },
                    BinOp::SDiv => Op::SDiv { d, a, b, c },
                    BinOp::UDiv => Op::UDiv { d, a, b, c },
                    BinOp::SRem => Op::SRem { d, a, b, c },
                    BinOp::URem => Op::URem { d, a, b, c },
                    BinOp::And => Op::And { d, a, b },
                    BinOp::Or => Op::Or { d, a, b },
                    BinOp::Xor => Op::Xor { d, a, b },
                    BinOp::Shl => Op::Shl { d, a, b, c },
                    BinOp::AShr => Op::AShr { d, a, b, c },
                    BinOp::LShr => Op::LShr { d, a, b, c },
                };
                self.define(*dest, op)
            }
            Inst::Un { dest, op, ty, src } => {
                let s = self.read(src, *ty)?;
                let (d, c) = (self.reg(*dest), self.canon(*ty));
                let op = match op {
                    UnOp::Neg => Op::Neg { d, s, c },
                    UnOp::Not => Op::Not { d, s, c },
                };
                self.define(*dest, op)
            }
            Inst::Cmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => {
                let a = self.read(lhs, *ty)?;
                let b = self.read(rhs, *ty)?;
                self.observe(ObservedOp::Cmp(*pred), *ty, a, b);
                let (p, swap) = prepare_pred(*pred);
                let (a, b) = if swap { (b, a) } else { (a, b) };
                let c = self.canon(*ty);
                self.define(
                    *dest,
                    Op::Cmp {
                        d: self.reg(*dest),
                        a,
                        b,
                        p,
                        c,
                    },
                )
            }
            Inst::Cast {
                dest,
                from,
                src,
                to,
            } if from.is_float() || to.is_float() => {
                let s = self.read(src, *from)?;
                let k = FConv {
                    from: *from,
                    to: *to,
                };
                self.define(
                    *dest,
                    Op::FConvert {
                        d: self.reg(*dest),
                        s,
                        k,
                    },
                )
            }
            Inst::FBin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            } => {
                let a = self.read(lhs, *ty)?;
                let b = self.read(rhs, *ty)?;
                let f = FArith {
                    op: *op,
                    wide: *ty == IrType::F64,
                };
                self.define(
                    *dest,
                    Op::FArith {
                        d: self.reg(*dest),
                        a,
                        b,
                        f,
                    },
                )
            }
            Inst::FNeg { dest, ty, src } => {
                let s = self.read(src, *ty)?;
                let wide = *ty == IrType::F64;
                self.define(
                    *dest,
                    Op::FNeg {
                        d: self.reg(*dest),
                        s,
                        wide,
                    },
                )
            }
            Inst::FCmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => {
                let a = self.read(lhs, *ty)?;
                let b = self.read(rhs, *ty)?;
                let wide = *ty == IrType::F64;
                self.define(
                    *dest,
                    Op::FCmp {
                        d: self.reg(*dest),
                        a,
                        b,
                        pred: *pred,
                        wide,
                    },
                )
            }
            // A bitcast is a cast that keeps the bits: canonical for the source type in,
            // canonical for the target type out (an `f32` is its zero-extended pattern).
            Inst::Bitcast {
                dest,
                from,
                src,
                to,
            }
            | Inst::Cast {
                dest,
                from,
                src,
                to,
            } => {
                let s = self.read(src, *from)?;
                let c = self.canon(*to);
                self.define(
                    *dest,
                    Op::Cast {
                        d: self.reg(*dest),
                        s,
                        c,
                    },
                )
            }
            Inst::Copy { dest, ty, src } => {
                let s = self.read(src, *ty)?;
                self.define(
                    *dest,
                    Op::Move {
                        d: self.reg(*dest),
                        s,
                    },
                )
            }
            Inst::Select {
                dest,
                ty,
                cond,
                on_true,
                on_false,
            } => {
                let cond = self.read_condition(cond)?;
                let a = self.read(on_true, *ty)?;
                let b = self.read(on_false, *ty)?;
                let pair = self.out.selects.len() as u32;
                self.out.selects.push((a, b));
                self.define(
                    *dest,
                    Op::Select {
                        d: self.reg(*dest),
                        cond,
                        pair,
                    },
                )
            }
            Inst::Call {
                dest,
                ret,
                callee,
                args,
                ..
            } => self.call(*dest, *ret, callee, args)?,
        }
        Ok(())
    }

    fn call(
        &mut self,
        dest: Option<Value>,
        ret: IrType,
        callee: &Callee,
        args: &[(IrType, Operand)],
    ) -> Result<(), InterpError> {
        if dest.is_some() && ret == IrType::Void {
            return Err(self.fail("a call of type void defines a value"));
        }
        let target = match callee {
            Callee::Indirect(fp) => CallTarget::Indirect(self.read(fp, IrType::Ptr)?),
            Callee::Direct(name) => {
                let &(sym, _) = self
                    .ctx
                    .symbols
                    .get(name.as_str())
                    .ok_or_else(|| self.fail(format!("call to undefined function @{name}")))?;
                let arg_types = || args.iter().map(|a| a.0);
                match sym {
                    Symbol::Global => {
                        return Err(self.fail(format!("call to @{name}, which is not a function")))
                    }
                    Symbol::Unknown if self.block_is_reachable() => {
                        return Err(unknown_external(name))
                    }
                    // Never executed: no block leads here.
                    Symbol::Unknown => CallTarget::Mismatch,
                    Symbol::Intrinsic(k) => {
                        let d = k.decl();
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            return self.intrinsic_call(k, dest, args);
                        }
                        CallTarget::Mismatch
                    }
                    Symbol::AbiHi(k) => {
                        let d = k.decl();
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            return self.abi_reg_call(0, k == AbiHi::RetHi, dest, args);
                        }
                        CallTarget::Mismatch
                    }
                    Symbol::AbiFloatPart(k) => {
                        let d = k.decl();
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            return self.abi_reg_call(2 + k.reg, k.set, dest, args);
                        }
                        CallTarget::Mismatch
                    }
                    Symbol::AbiSret(k) => {
                        let d = k.decl();
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            return self.abi_reg_call(1, k == AbiSret::Arg, dest, args);
                        }
                        CallTarget::Mismatch
                    }
                    Symbol::AbiLoad(k) => {
                        let d = k.decl();
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            return self.piece_load(k, dest, args);
                        }
                        CallTarget::Mismatch
                    }
                    Symbol::Frame(k) => {
                        let d = k.decl();
                        if !signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            CallTarget::Mismatch
                        } else if k == FrameIntrinsic::FrameAddress {
                            if self.block_is_reachable() {
                                return Err(InterpError::outside_model(
                                    "the oracle cannot judge a program that reaches \
                                     __builtin_frame_address: its value only means something \
                                     against the target's real stack layout",
                                ));
                            }
                            CallTarget::Mismatch
                        } else {
                            if let Some(d) = dest {
                                let r = self.reg(d);
                                self.define(d, Op::ReturnAddress { d: r });
                            }
                            return Ok(());
                        }
                    }
                    Symbol::Va(k) => {
                        let d = k.decl(name);
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            CallTarget::Va(k)
                        } else {
                            CallTarget::Mismatch
                        }
                    }
                    Symbol::Jmp(k) => {
                        let d = k.decl(name);
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            CallTarget::Jmp(k)
                        } else {
                            CallTarget::Mismatch
                        }
                    }
                    Symbol::Func(i) => {
                        let f = &self.ctx.module.functions[i as usize];
                        if signature_matches(arg_types(), ret, &f.params, f.variadic, f.ret) {
                            CallTarget::Func(i)
                        } else {
                            CallTarget::Mismatch
                        }
                    }
                    Symbol::Libc(lf) => {
                        let d = self
                            .ctx
                            .module
                            .decl(name)
                            .expect("libc symbols come from declarations");
                        if signature_matches(arg_types(), ret, &d.params, d.variadic, d.ret) {
                            CallTarget::Libc(lf)
                        } else {
                            CallTarget::Mismatch
                        }
                    }
                }
            }
        };
        let mut regs = Vec::with_capacity(args.len());
        for (ty, op) in args {
            regs.push((self.read(op, *ty)?, *ty));
        }
        let site = self.out.calls.len() as u32;
        self.out.calls.push(CallSite {
            target,
            args: regs,
            dst: dest.map(|d| self.reg(d)),
            mark_dst: dest.is_some_and(|d| self.tracked[self.reg(d) as usize]),
            ret,
        });
        self.emit(Op::Call { site });
        Ok(())
    }

    /// A call of an ABI-register intrinsic whose signature matched: one instruction that
    /// sets (`set`, from the first argument) or reads register `which`.
    fn abi_reg_call(
        &mut self,
        which: u8,
        set: bool,
        dest: Option<Value>,
        args: &[(IrType, Operand)],
    ) -> Result<(), InterpError> {
        match (set, args.first(), dest) {
            (true, Some((ty, op)), _) => {
                let v = self.read(op, *ty)?;
                self.emit(Op::SetAbiReg { v, which });
            }
            (false, _, Some(d)) => {
                let op = Op::GetAbiReg {
                    d: self.reg(d),
                    which,
                };
                self.define(d, op);
            }
            _ => {}
        }
        Ok(())
    }

    /// A call of record-piece load `k` whose signature matched: one instruction.
    fn piece_load(
        &mut self,
        k: AbiLoad,
        dest: Option<Value>,
        args: &[(IrType, Operand)],
    ) -> Result<(), InterpError> {
        let (ty, ptr) = args
            .first()
            .ok_or_else(|| self.fail("a piece load without a pointer"))?;
        let p = self.read(ptr, *ty)?;
        if let Some(d) = dest {
            let op = Op::LoadPiece {
                d: self.reg(d),
                p,
                size: k.size() as u8,
                c: self.canon(k.ty()),
            };
            self.define(d, op);
        }
        Ok(())
    }

    /// A call of intrinsic `k` whose signature matched: one instruction, no call frame.
    fn intrinsic_call(
        &mut self,
        k: UbIntrinsic,
        dest: Option<Value>,
        args: &[(IrType, Operand)],
    ) -> Result<(), InterpError> {
        let mut regs = Vec::with_capacity(2);
        for (ty, op) in args {
            regs.push(self.read(op, *ty)?);
        }
        let a = *regs
            .first()
            .ok_or_else(|| self.fail("an intrinsic call without arguments"))?;
        let b = regs.get(1).copied().unwrap_or(a);
        if k == UbIntrinsic::ScopeStart {
            // A revived block-scope object may move (`Memory::start_scope`): its slot's
            // register (the `alloca`'s value, which every access of the object reads)
            // receives the object's address. Any other operand (a constant, a converted
            // copy) is left alone.
            match args.first() {
                Some((_, Operand::Value(v))) if self.reg(*v) == a => {
                    self.emit(Op::IntrinsicValue { d: a, a, b, k })
                }
                _ => self.emit(Op::IntrinsicCheck { a, b, k }),
            }
            return Ok(());
        }
        match dest {
            Some(d) => {
                let op = Op::IntrinsicValue {
                    d: self.reg(d),
                    a,
                    b,
                    k,
                };
                self.define(d, op);
            }
            None => self.emit(Op::IntrinsicCheck { a, b, k }),
        }
        Ok(())
    }

    fn terminator(
        &mut self,
        term: &Terminator,
        labels: &FxHashMap<BlockId, usize>,
    ) -> Result<(), InterpError> {
        let here = Some(self.block);
        match term {
            Terminator::Br(t) => {
                let edge = self.edge(here, *t, labels)?;
                self.emit(Op::Br { edge });
            }
            Terminator::CondBr {
                cond,
                if_true,
                if_false,
            } => {
                let cond = self.read_condition(cond)?;
                let t = self.edge(here, *if_true, labels)?;
                let f = self.edge(here, *if_false, labels)?;
                self.emit(Op::CondBr { cond, t, f });
            }
            Terminator::Switch {
                ty,
                val,
                default,
                cases,
            } => {
                let v = self.read(val, *ty)?;
                let c = self.canon(*ty);
                let default = self.edge(here, *default, labels)?;
                let mut table = Vec::with_capacity(cases.len());
                for (value, target) in cases {
                    table.push((c.apply(*value as u64), self.edge(here, *target, labels)?));
                }
                // Sorted for binary search; of equal case values the first written wins.
                table.sort_by_key(|&(value, _)| value);
                table.dedup_by_key(|&mut (value, _)| value);
                let index = self.out.switches.len() as u32;
                self.out.switches.push(SwitchTable {
                    default,
                    cases: table,
                });
                self.emit(Op::Switch { v, table: index });
            }
            Terminator::Ret(Some((ty, op))) => {
                let v = self.read(op, *ty)?;
                let ret = if self.func.ret == IrType::Void {
                    *ty
                } else {
                    self.func.ret
                };
                let c = self.canon(ret);
                self.emit(Op::Ret { v, c });
            }
            Terminator::Ret(None) => self.emit(Op::RetVoid),
            Terminator::Unreachable => self.emit(Op::Unreachable),
        }
        Ok(())
    }

    /// The edge from block `from` (`None`: the function's entry) to `to`, with the copies
    /// of `to`'s phis for it.
    fn edge(
        &mut self,
        from: Option<usize>,
        to: BlockId,
        labels: &FxHashMap<BlockId, usize>,
    ) -> Result<u32, InterpError> {
        let &target = labels.get(&to).ok_or_else(|| {
            self.fail(format!(
                "branch to {to}, which is not a block of this function"
            ))
        })?;
        let from_label = from.map(|b| self.func.blocks[b].label);
        let first_move = self.out.moves.len() as u32;
        let mut missing_phi = NO_INST;
        let phis = self.func.blocks[target].phis().count();
        for (i, phi) in self.func.blocks[target].phis().enumerate() {
            let Inst::Phi { dest, ty, incoming } = phi else {
                unreachable!("phis() yields phis")
            };
            let entry = incoming.iter().find(|(_, b)| Some(*b) == from_label);
            let Some((op, _)) = entry else {
                if missing_phi == NO_INST {
                    missing_phi = i as u32;
                }
                continue;
            };
            if *ty == IrType::Void {
                return Err(self.fail("a phi of type void"));
            }
            let c = self.canon(*ty);
            let (src, check) = match *op {
                Operand::Const(k) => (self.constant(c.apply(k.bits as u64)), false),
                Operand::Value(v) => {
                    let from = from.expect("the entry edge has no incoming values");
                    let r = self.reg(v);
                    (
                        r,
                        self.tracked[r as usize]
                            && !self.defs.proven(&self.cfg, r, from, END_OF_BLOCK),
                    )
                }
            };
            self.out.moves.push(PhiMove {
                dst: self.reg(*dest),
                src,
                c,
                check,
                mark: self.tracked[self.reg(*dest) as usize],
                phi: i as u32,
            });
        }
        let moves = &self.out.moves[first_move as usize..];
        let tracked = moves.iter().any(|m| m.check || m.mark);
        // Sequential copies are exact when no copy reads what another writes; otherwise
        // (a swap, a rotation) the loop reads every source before writing any destination.
        let mut dsts: Vec<Reg> = moves.iter().map(|m| m.dst).collect();
        dsts.sort_unstable();
        let overlapping = moves.iter().any(|m| {
            let at = dsts.partition_point(|&d| d < m.src);
            let copies_writing_src = dsts[at..].iter().take_while(|&&d| d == m.src).count();
            copies_writing_src > usize::from(m.dst == m.src)
        });
        let index = self.out.edges.len() as u32;
        self.out.edges.push(Edge {
            target_pc: 0,
            block: target as u32,
            first_move,
            move_count: moves.len() as u32,
            phi_count: phis as u32,
            missing_phi,
            tracked,
            overlapping,
        });
        Ok(index)
    }
}

/// Registers numbered densely: value numbers may be sparse (a reducer deletes
/// instructions, a pass renumbers), frames should not be.
struct DenseValues {
    /// Every value number defined or used, sorted; a value's register is its index.
    sorted: Vec<u32>,
    /// `flat[v]` is the register of value `v`, when the value numbers are dense enough
    /// for a table (at most [`FLAT_SLOTS_PER_VALUE`] slots per value, plus slack); empty
    /// otherwise, and `reg` binary-searches `sorted`.
    flat: Vec<Reg>,
}

/// Table slots allowed per distinct value before `DenseValues` falls back to searching.
const FLAT_SLOTS_PER_VALUE: usize = 4;

impl DenseValues {
    fn of(func: &IrFunction) -> DenseValues {
        let mut mentions = 0usize;
        let mut bound = 0usize;
        let mut see = |v: Value| {
            mentions += 1;
            bound = bound.max(v.0 as usize + 1);
        };
        for b in &func.blocks {
            for inst in &b.insts {
                inst.dest().into_iter().for_each(&mut see);
                inst.for_each_used_value(&mut see);
            }
            b.term.for_each_used_value(&mut see);
        }
        if bound <= mentions * FLAT_SLOTS_PER_VALUE + 64 {
            // Dense numbers: mark the values present, then number them in value order
            // (the same registers the sorted form gives, without sorting).
            const ABSENT: Reg = Reg::MAX;
            let mut flat = vec![ABSENT; bound];
            let mut mark = |v: Value| flat[v.0 as usize] = 0;
            for b in &func.blocks {
                for inst in &b.insts {
                    inst.dest().into_iter().for_each(&mut mark);
                    inst.for_each_used_value(&mut mark);
                }
                b.term.for_each_used_value(&mut mark);
            }
            let mut sorted = Vec::with_capacity(mentions.min(bound));
            for (v, slot) in flat.iter_mut().enumerate() {
                if *slot != ABSENT {
                    *slot = sorted.len() as Reg;
                    sorted.push(v as u32);
                }
            }
            return DenseValues { sorted, flat };
        }
        let mut sorted = Vec::with_capacity(mentions);
        for b in &func.blocks {
            for inst in &b.insts {
                sorted.extend(inst.dest().map(|d| d.0));
                inst.for_each_used_value(|v| sorted.push(v.0));
            }
            b.term.for_each_used_value(|v| sorted.push(v.0));
        }
        sorted.sort_unstable();
        sorted.dedup();
        DenseValues {
            sorted,
            flat: Vec::new(),
        }
    }

    fn count(&self) -> usize {
        self.sorted.len()
    }

    /// The register of `v` (every value of the function has one).
    fn reg(&self, v: Value) -> Reg {
        if self.flat.is_empty() {
            self.sorted.binary_search(&v.0).unwrap_or(0) as Reg
        } else {
            // Absent values (never asked for) are `Reg::MAX`; like the search, give 0.
            self.flat
                .get(v.0 as usize)
                .copied()
                .filter(|&r| r != Reg::MAX)
                .unwrap_or(0)
        }
    }
}

/// A call with these argument types and return type may call a function with this
/// signature: same named parameter types, extra arguments only for variadic callees, the
/// same return type.
pub(crate) fn signature_matches(
    args: impl ExactSizeIterator<Item = IrType>,
    call_ret: IrType,
    params: &[IrType],
    variadic: bool,
    ret: IrType,
) -> bool {
    let count_ok = if variadic {
        args.len() >= params.len()
    } else {
        args.len() == params.len()
    };
    count_ok && call_ret == ret && args.zip(params).all(|(a, &p)| a == p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::text::parse_module;

    fn compile_one(src: &str) -> CompiledFunc {
        let m = parse_module(src).expect("test IR parses");
        CompiledFunc::clone(&compile(&m, 8).expect("compiles").funcs[0])
    }

    fn pseudo_ops(f: &CompiledFunc) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for op in &f.code {
            match op {
                Op::Check { .. } => counts.0 += 1,
                Op::Mark { .. } => counts.1 += 1,
                Op::Convert { .. } => counts.2 += 1,
                _ => {}
            }
        }
        counts
    }

    #[test]
    fn ssa_code_needs_no_checks_marks_or_conversions() {
        let f = compile_one(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    br .LBB1
.LBB1:
    %1 = phi i32 [0, .LBB0], [%2, .LBB1]
    %2 = add i32 %1, 1
    %3 = cmp slt i32 %2, %0
    condbr %3, .LBB1, .LBB2
.LBB2:
    ret i32 %2
}",
        );
        assert_eq!(pseudo_ops(&f), (0, 0, 0));
        // paramref, br, add, cmp, condbr, ret: the phi lives on the edges.
        assert_eq!(f.code.len(), 6);
    }

    #[test]
    fn copies_on_several_paths_are_checked_at_the_join() {
        let f = compile_one(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr %0, .LBB1, .LBB2
.LBB1:
    %1 = copy i32 1
    br .LBB3
.LBB2:
    %1 = copy i32 2
    br .LBB3
.LBB3:
    ret i32 %1
}",
        );
        // One check (the ret's read), one mark per copy; the condbr's i32 condition is
        // tested in full, and an i32 register already holds its value sign-extended, so
        // reading it as 64 bits needs no conversion.
        assert_eq!(pseudo_ops(&f), (1, 2, 0));
    }

    #[test]
    fn constants_are_converted_once_to_their_position_type() {
        let f = compile_one(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 4294967297:i64
    %2 = add i32 %1, 1
    %3 = add i8 %1, 255:u8
    %4 = cast i8 %3 to i32
    ret i32 %4
}",
        );
        // 2^32 + 1 as i32 is 1, shared with the literal 1; 255:u8 as i8 is -1.
        assert_eq!(f.consts, vec![1, u64::MAX]);
        // %1 (i32) read by the i8 add needs a conversion; nothing else does.
        assert_eq!(pseudo_ops(&f), (0, 0, 1));
    }

    #[test]
    fn sparse_value_numbers_make_small_frames() {
        let f = compile_one(
            "func @f(i32) -> i32 {
.LBB0:
    %9000000 = paramref 0, i32
    %16000000 = add i32 %9000000, 1
    ret i32 %16000000
}",
        );
        assert!(f.frame_size < 16, "{}", f.frame_size);
    }

    /// `@main` calls `@g`; `g_params` and `g_body_add` vary `@g`.
    fn caller_and_callee(g_params: &str, g_body_add: i64) -> IrModule {
        let src = format!(
            "func @main(i32) -> i32 {{
.LBB0:
    %0 = paramref 0, i32
    %1 = call i32 @g(i32 %0)
    ret i32 %1
}}
func @g({g_params}) -> i32 {{
.LBB1:
    %0 = paramref 0, i32
    %1 = add i32 %0, {g_body_add}
    ret i32 %1
}}"
        );
        parse_module(&src).expect("test IR parses")
    }

    #[test]
    fn unchanged_functions_are_shared_with_the_earlier_program() {
        let a = caller_and_callee("i32", 1);
        let pa = compile(&a, 8).expect("compiles");
        // Only @g's body changed: @main's decoded form is shared, @g's is new.
        let b = caller_and_callee("i32", 2);
        let pb = compile_reusing(&b, 8, Some((&a, &pa))).expect("compiles");
        assert!(Arc::ptr_eq(&pa.funcs[0], &pb.funcs[0]));
        assert!(!Arc::ptr_eq(&pa.funcs[1], &pb.funcs[1]));
        // A different pointer width shares nothing.
        let pc = compile_reusing(&b, 4, Some((&a, &pa))).expect("compiles");
        assert!(!Arc::ptr_eq(&pa.funcs[0], &pc.funcs[0]));
    }

    #[test]
    fn a_changed_signature_redecodes_its_callers() {
        let a = caller_and_callee("i32", 1);
        let pa = compile(&a, 8).expect("compiles");
        let call_target = |p: &CompiledProgram| p.funcs[0].calls[0].target;
        assert!(matches!(call_target(&pa), CallTarget::Func(1)));
        // @main is unchanged, but the call no longer matches @g's signature: it must be
        // decoded again (to a mismatch), not taken from the earlier program.
        let b = caller_and_callee("i64", 1);
        let pb = compile_reusing(&b, 8, Some((&a, &pa))).expect("compiles");
        assert!(!Arc::ptr_eq(&pa.funcs[0], &pb.funcs[0]));
        assert!(matches!(call_target(&pb), CallTarget::Mismatch));
    }

    #[test]
    fn parallel_copies_are_detected() {
        let f = compile_one(
            "func @f(i32) -> i32 {
.LBB0:
    br .LBB1
.LBB1:
    %1 = phi i32 [1, .LBB0], [%2, .LBB1]
    %2 = phi i32 [2, .LBB0], [%1, .LBB1]
    %3 = phi i32 [0, .LBB0], [%3, .LBB1]
    br .LBB1
}",
        );
        // Edges into .LBB1: from .LBB0 (constants: no overlap) and the back edge (swaps %1
        // and %2: overlap; %3's self-copy alone would not need one).
        let into_loop: Vec<(u32, bool)> = f
            .edges
            .iter()
            .filter(|e| e.block == 1)
            .map(|e| (e.move_count, e.overlapping))
            .collect();
        assert_eq!(into_loop, vec![(3, false), (3, true)]);
    }

    #[test]
    fn malformed_input_is_refused() {
        let refuse = |src: &str| {
            let m = parse_module(src).expect("test IR parses");
            compile(&m, 8).err().expect("refused").message
        };
        let e = refuse(
            "func @f() -> i32 {
.LBB0:
    br .LBB7
}",
        );
        assert!(e.contains(".LBB7"), "{e}");
        let e = refuse(
            "func @f() -> i32 {
.LBB0:
    %0 = copy i32 1
    %1 = phi i32 [1, .LBB0]
    ret i32 %1
}",
        );
        assert!(e.contains("phi"), "{e}");
        let e = refuse(
            "func @f() -> ptr {
.LBB0:
    %0 = globaladdr @nowhere
    ret ptr %0
}",
        );
        assert!(e.contains("@nowhere"), "{e}");
        let e = refuse(
            "global @g : 2 align 1 = [i32 1]
func @f() -> void {
.LBB0:
    ret
}",
        );
        assert!(e.contains("@g"), "{e}");
    }
}
