//! Parser, part two: one line of a function body (an instruction or a terminator) and
//! its operands.
//!
//! Why: an unsuffixed literal takes the *context type* of its position, and the one place
//! that knows every position's context type is `Inst::for_each_operand_typed` (and its
//! twin on `Terminator`), which the printer uses too. So operands are first read as
//! written ([`RawOperand`], in text order), the instruction is built with placeholders,
//! and then the placeholders are filled by walking the built instruction with the shared
//! visitors. Printer and parser therefore cannot disagree on a context type.
//!
//! Invariants: the operands of a line are read in text order, which is the visitors'
//! order (`instruction.rs` promises it); a literal must fit its type read as signed or
//! unsigned and is stored canonical (`IrConst::new`).

use super::lex::{TokKind, Token};
use super::parse::{literal_error, literal_in_type, ParseError, Parser};
use crate::ir::{
    BinOp, Callee, CmpPred, FBinOp, FCmpPred, Inst, IrConst, IrType, Operand, Terminator, UnOp,
    Value,
};

/// An operand as written, before its context type is applied.
pub(super) enum RawOperand {
    /// A register: already in place in the instruction.
    Value,
    Literal {
        value: i128,
        suffix: Option<IrType>,
        line: u32,
        col: u32,
    },
    /// A float literal: the token, read once the position's type is known.
    Float { tok: Token, suffix: Option<IrType> },
}

/// What one body line holds.
pub(super) enum BodyLine {
    Inst(Inst),
    Term(Terminator),
}

/// Opcodes whose instruction defines a value (`%N = OP ...`), besides the binary and unary
/// operations. `call` may go either way.
const DEFINING_OPCODES: [&str; 14] = [
    "alloca",
    "dynalloca",
    "stacksave",
    "paramref",
    "load",
    "gep",
    "globaladdr",
    "cmp",
    "fcmp",
    "cast",
    "bitcast",
    "fneg",
    "copy",
    "select",
];

/// Opcodes that never define a value.
const NON_DEFINING_OPCODES: [&str; 8] = [
    "store",
    "memcpy",
    "stackrestore",
    "br",
    "condbr",
    "switch",
    "ret",
    "unreachable",
];

/// The placeholder an operand holds until its context type is applied.
const PLACEHOLDER: Operand = Operand::Const(IrConst {
    ty: IrType::Void,
    bits: 0,
});

impl Parser<'_> {
    /// line := [`%N` `=`] OPCODE ... NEWLINE
    pub(super) fn body_line(&mut self) -> Result<BodyLine, ParseError> {
        self.pending.clear();
        let (line, opcode) = if let TokKind::Value(n) = self.tok.kind {
            self.bump()?;
            self.expect(TokKind::Equals, format_args!("after %{n}"))?;
            let (opcode, tok) = self.opcode()?;
            (
                BodyLine::Inst(self.defining(Value(n), opcode, &tok)?),
                opcode,
            )
        } else {
            let (opcode, tok) = self.opcode()?;
            (self.non_defining(opcode, &tok)?, opcode)
        };
        let line = self.apply_context_types(line)?;
        self.expect_eol(format_args!("the `{opcode}` instruction"))?;
        Ok(line)
    }

    /// The opcode word.
    fn opcode(&mut self) -> Result<(&'static str, Token), ParseError> {
        if self.tok.kind != TokKind::Ident {
            return Err(self.expected("an instruction"));
        }
        let text = self.tok_text();
        let known = DEFINING_OPCODES
            .iter()
            .chain(NON_DEFINING_OPCODES.iter())
            .chain(["phi", "call"].iter())
            .copied()
            .chain(BinOp::ALL.iter().map(|o| o.name()))
            .chain(UnOp::ALL.iter().map(|o| o.name()))
            .chain(FBinOp::ALL.iter().map(|o| o.name()))
            .find(|&name| name == text);
        match known {
            Some(name) => Ok((name, self.take()?)),
            None => Err(self.error_at(&self.tok, format!("unknown instruction `{text}`"))),
        }
    }

    /// The instruction after `%dest =`.
    fn defining(&mut self, dest: Value, opcode: &str, tok: &Token) -> Result<Inst, ParseError> {
        if let Some(op) = BinOp::from_name(opcode) {
            let ty = self.ty(format_args!("a type after `{opcode}`"))?;
            let lhs = self.operand("the first operand")?;
            self.expect(
                TokKind::Comma,
                format_args!("after the first operand of `{opcode}`"),
            )?;
            let rhs = self.operand("the second operand")?;
            return Ok(Inst::Bin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            });
        }
        if let Some(op) = FBinOp::from_name(opcode) {
            let ty = self.ty(format_args!("a type after `{opcode}`"))?;
            let lhs = self.operand("the first operand")?;
            self.expect(
                TokKind::Comma,
                format_args!("after the first operand of `{opcode}`"),
            )?;
            let rhs = self.operand("the second operand")?;
            return Ok(Inst::FBin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            });
        }
        if let Some(op) = UnOp::from_name(opcode) {
            let ty = self.ty(format_args!("a type after `{opcode}`"))?;
            let src = self.operand("the operand")?;
            return Ok(Inst::Un { dest, op, ty, src });
        }
        Ok(match opcode {
            "alloca" => {
                let ty = self.ty("the alloca's type")?;
                self.expect(TokKind::Comma, "after the alloca's type")?;
                let size = self.u32_literal("the alloca's size")?;
                self.expect(TokKind::Comma, "after the alloca's size")?;
                let align = self.u32_literal("the alloca's alignment")?;
                let volatile = self.eat_word("volatile")?;
                Inst::Alloca {
                    dest,
                    ty,
                    size,
                    align,
                    volatile,
                }
            }
            // dynalloca := `dynalloca` OPERAND `,` ALIGN
            "dynalloca" => {
                let size = self.operand("the dynalloca's size")?;
                self.expect(TokKind::Comma, "after the dynalloca's size")?;
                let align = self.u32_literal("the dynalloca's alignment")?;
                Inst::DynAlloca { dest, size, align }
            }
            // stacksave := `stacksave`
            "stacksave" => Inst::StackSave { dest },
            "paramref" => {
                let index = self.u32_literal("a parameter index")?;
                self.expect(TokKind::Comma, "after the parameter index")?;
                let ty = self.ty("the parameter's type")?;
                Inst::ParamRef { dest, index, ty }
            }
            "load" => {
                let ty = self.ty("the loaded type")?;
                let ptr = self.operand("the load address")?;
                Inst::Load { dest, ty, ptr }
            }
            "gep" => {
                let base = self.operand("the gep base")?;
                self.expect(TokKind::Comma, "after the gep base")?;
                let offset = self.operand("the gep offset")?;
                Inst::Gep { dest, base, offset }
            }
            "globaladdr" => {
                let name = self.symbol("a symbol `@name` after `globaladdr`")?;
                Inst::GlobalAddr { dest, name }
            }
            "cmp" => {
                let pred = self.predicate()?;
                let ty = self.ty("the compared type")?;
                let lhs = self.operand("the first operand")?;
                self.expect(TokKind::Comma, "after the first operand of `cmp`")?;
                let rhs = self.operand("the second operand")?;
                Inst::Cmp {
                    dest,
                    pred,
                    ty,
                    lhs,
                    rhs,
                }
            }
            "fcmp" => {
                let pred = self.float_predicate()?;
                let ty = self.ty("the compared type")?;
                let lhs = self.operand("the first operand")?;
                self.expect(TokKind::Comma, "after the first operand of `fcmp`")?;
                let rhs = self.operand("the second operand")?;
                Inst::FCmp {
                    dest,
                    pred,
                    ty,
                    lhs,
                    rhs,
                }
            }
            "fneg" => {
                let ty = self.ty("a type after `fneg`")?;
                let src = self.operand("the operand")?;
                Inst::FNeg { dest, ty, src }
            }
            "cast" | "bitcast" => {
                let from = self.ty("the source type")?;
                let src = self.operand("the cast operand")?;
                self.expect_word("to", "after the cast operand")?;
                let to = self.ty("the target type after `to`")?;
                if opcode == "cast" {
                    Inst::Cast {
                        dest,
                        from,
                        src,
                        to,
                    }
                } else {
                    Inst::Bitcast {
                        dest,
                        from,
                        src,
                        to,
                    }
                }
            }
            "copy" => {
                let ty = self.ty("a type after `copy`")?;
                let src = self.operand("the copied operand")?;
                Inst::Copy { dest, ty, src }
            }
            "select" => {
                let ty = self.ty("a type after `select`")?;
                let cond = self.operand("the select condition")?;
                self.expect(TokKind::Comma, "after the select condition")?;
                let on_true = self.operand("the value if true")?;
                self.expect(TokKind::Comma, "after the select's true value")?;
                let on_false = self.operand("the value if false")?;
                Inst::Select {
                    dest,
                    ty,
                    cond,
                    on_true,
                    on_false,
                }
            }
            "phi" => self.phi(dest)?,
            "call" => self.call(Some(dest))?,
            _ => {
                let msg = format!("`{opcode}` does not define a value");
                return Err(self.error_at(tok, msg));
            }
        })
    }

    /// An instruction or terminator without `%dest =`.
    fn non_defining(&mut self, opcode: &str, tok: &Token) -> Result<BodyLine, ParseError> {
        let term = match opcode {
            "store" => {
                let ty = self.ty("the stored type")?;
                let val = self.operand("the value to store")?;
                self.expect(TokKind::Comma, "after store value")?;
                let ptr = self.operand("the store address")?;
                return Ok(BodyLine::Inst(Inst::Store { ty, val, ptr }));
            }
            "memcpy" => {
                let dst = self.operand("the destination")?;
                self.expect(TokKind::Comma, "after the memcpy destination")?;
                let src = self.operand("the source")?;
                self.expect(TokKind::Comma, "after the memcpy source")?;
                let size = self.u32_literal("the memcpy size")?;
                return Ok(BodyLine::Inst(Inst::Memcpy { dst, src, size }));
            }
            // stackrestore := `stackrestore` OPERAND
            "stackrestore" => {
                let ptr = self.operand("the saved stack pointer")?;
                return Ok(BodyLine::Inst(Inst::StackRestore { ptr }));
            }
            "call" => return Ok(BodyLine::Inst(self.call(None)?)),
            "br" => Terminator::Br(self.label("a target block `.LBBN` after `br`")?),
            "condbr" => {
                let cond = self.operand("the branch condition")?;
                self.expect(TokKind::Comma, "after the branch condition")?;
                let if_true = self.label("the block `.LBBN` taken when true")?;
                self.expect(TokKind::Comma, "after the first target")?;
                let if_false = self.label("the block `.LBBN` taken when false")?;
                Terminator::CondBr {
                    cond,
                    if_true,
                    if_false,
                }
            }
            "switch" => self.switch()?,
            "ret" => {
                if self.at_eol() {
                    Terminator::Ret(None)
                } else if self.at_word("void") {
                    return Err(
                        self.error_at(&self.tok, "a void `ret` takes no type: write `ret` alone")
                    );
                } else {
                    let ty = self.ty("a type or the end of the line after `ret`")?;
                    let val = self.operand("the returned value")?;
                    Terminator::Ret(Some((ty, val)))
                }
            }
            "unreachable" => Terminator::Unreachable,
            _ => {
                let msg = format!("`{opcode}` defines a value: write `%N = {opcode} ...`");
                return Err(self.error_at(tok, msg));
            }
        };
        Ok(BodyLine::Term(term))
    }

    /// The comparison predicate after `cmp`.
    fn predicate(&mut self) -> Result<CmpPred, ParseError> {
        if self.tok.kind != TokKind::Ident {
            return Err(self.expected("a comparison predicate (`eq`, `slt`, ...)"));
        }
        let text = self.tok_text();
        match CmpPred::from_name(text) {
            Some(p) => {
                self.bump()?;
                Ok(p)
            }
            None => Err(self.error_at(&self.tok, format!("unknown comparison predicate `{text}`"))),
        }
    }

    /// The predicate after `fcmp` (`oeq`, `une`, ...).
    fn float_predicate(&mut self) -> Result<FCmpPred, ParseError> {
        if self.tok.kind != TokKind::Ident {
            return Err(self.expected("a float comparison predicate (`oeq`, `ult`, ...)"));
        }
        let text = self.tok_text();
        match FCmpPred::from_name(text) {
            Some(p) => {
                self.bump()?;
                Ok(p)
            }
            None => Err(self.error_at(
                &self.tok,
                format!("unknown float comparison predicate `{text}`"),
            )),
        }
    }

    /// phi := `phi` TYPE [ `[` A `,` .LBB `]` { `,` `[` A `,` .LBB `]` } ]
    fn phi(&mut self, dest: Value) -> Result<Inst, ParseError> {
        let ty = self.ty("a type after `phi`")?;
        let mut incoming = Vec::new();
        if !self.at_eol() {
            loop {
                self.expect(
                    TokKind::LBracket,
                    "to start a phi incoming `[VALUE, .LBBN]`",
                )?;
                let val = self.operand("the incoming value")?;
                self.expect(TokKind::Comma, "after the phi's incoming value")?;
                let block = self.label("the incoming block `.LBBN`")?;
                self.expect(TokKind::RBracket, "after the phi's incoming block")?;
                incoming.push((val, block));
                if !self.eat(TokKind::Comma)? {
                    break;
                }
            }
        }
        Ok(Inst::Phi { dest, ty, incoming })
    }

    /// call := `call` TYPE (`@f` | OPERAND) `(` [ ARG { `,` ARG } ] `)`
    /// ARG := TYPE A | `...` (once: the arguments before it are the named ones)
    fn call(&mut self, dest: Option<Value>) -> Result<Inst, ParseError> {
        let ret = self.ty("the return type after `call`")?;
        let callee = if self.tok.kind == TokKind::Global {
            Callee::Direct(self.symbol("the callee")?)
        } else {
            Callee::Indirect(self.operand("the callee (`@f` or a pointer)")?)
        };
        self.expect(TokKind::LParen, "to start the call arguments")?;
        let mut args = Vec::new();
        let mut named = None;
        if !self.eat(TokKind::RParen)? {
            loop {
                if named.is_none() && self.eat(TokKind::Ellipsis)? {
                    named = Some(u32::try_from(args.len()).unwrap_or(u32::MAX));
                } else {
                    let ty = self.ty("an argument type")?;
                    let val = self.operand("the argument")?;
                    args.push((ty, val));
                }
                if self.eat(TokKind::RParen)? {
                    break;
                }
                self.expect(TokKind::Comma, "or `)` after a call argument")?;
            }
        }
        Ok(Inst::Call {
            dest,
            ret,
            callee,
            args,
            named,
        })
    }

    /// switch := `switch` TYPE V `,` .LBB `[` [ INT `:` .LBB { `,` INT `:` .LBB } ] `]`
    fn switch(&mut self) -> Result<Terminator, ParseError> {
        let ty = self.ty("a type after `switch`")?;
        let val = self.operand("the switch value")?;
        self.expect(TokKind::Comma, "after the switch value")?;
        let default = self.label("the default block `.LBBN`")?;
        self.expect(TokKind::LBracket, "to start the switch cases")?;
        let mut cases = Vec::new();
        if !self.eat(TokKind::RBracket)? {
            loop {
                // A case value is read in the switch type and kept canonical.
                let (v, tok) = self.int("a case value")?;
                let bits = self.typed_literal(ty, v, &tok)?;
                self.expect(TokKind::Colon, "after the case value")?;
                let target = self.label("the case's block `.LBBN`")?;
                cases.push((bits, target));
                if self.eat(TokKind::RBracket)? {
                    break;
                }
                self.expect(TokKind::Comma, "or `]` after a switch case")?;
            }
        }
        Ok(Terminator::Switch {
            ty,
            val,
            default,
            cases,
        })
    }

    /// operand := `%N` | (INT | FLOAT) [`:` TYPE]. Returns the value, or a placeholder for a literal
    /// (filled in by [`Parser::apply_context_types`]); records the operand as written.
    fn operand(&mut self, what: &str) -> Result<Operand, ParseError> {
        match self.tok.kind {
            TokKind::Value(n) => {
                self.bump()?;
                self.pending.push(RawOperand::Value);
                Ok(Operand::Value(Value(n)))
            }
            TokKind::Int(value) => {
                let tok = self.take()?;
                let suffix = if self.eat(TokKind::Colon)? {
                    Some(self.ty("a type after `:`")?)
                } else {
                    None
                };
                self.pending.push(RawOperand::Literal {
                    value,
                    suffix,
                    line: tok.line,
                    col: tok.col,
                });
                Ok(PLACEHOLDER)
            }
            TokKind::Float => {
                let tok = self.take()?;
                let suffix = if self.eat(TokKind::Colon)? {
                    Some(self.ty("a type after `:`")?)
                } else {
                    None
                };
                self.pending.push(RawOperand::Float { tok, suffix });
                Ok(PLACEHOLDER)
            }
            _ => Err(self.expected(format_args!("{what} (`%N` or a literal)"))),
        }
    }

    /// Gives every literal of the line its type: the `:TYPE` suffix if written, else the
    /// position's context type from the shared operand visitors.
    fn apply_context_types(&mut self, mut line: BodyLine) -> Result<BodyLine, ParseError> {
        let contexts = &mut self.contexts;
        contexts.clear();
        match &line {
            BodyLine::Inst(i) => i.for_each_operand_typed(|_, t| contexts.push(t)),
            BodyLine::Term(t) => t.for_each_operand_typed(|_, ty| contexts.push(ty)),
        }
        let pending = &self.pending;
        let contexts = &self.contexts;
        let lex = &self.lex;
        let mut index = 0usize;
        let mut error = None;
        let mut fill = |op: &mut Operand| {
            let raw = pending.get(index);
            let context = contexts.get(index).copied().unwrap_or(IrType::Void);
            index += 1;
            if let Some(RawOperand::Float { tok, suffix }) = raw {
                let ty = suffix.unwrap_or(context);
                let text = lex.text(tok.start, tok.end);
                match crate::ir::float_text::parse_float(ty, text) {
                    Ok(bits) => {
                        *op = Operand::Const(IrConst {
                            ty,
                            bits: bits as i64,
                        })
                    }
                    Err(message) if error.is_none() => {
                        error = Some(ParseError {
                            line: tok.line,
                            col: tok.col,
                            message,
                        });
                    }
                    Err(_) => {}
                }
            } else if let Some(RawOperand::Literal {
                value,
                suffix,
                line,
                col,
            }) = raw
            {
                let ty = suffix.unwrap_or(context);
                match literal_in_type(ty, *value) {
                    Some(bits) => *op = Operand::Const(IrConst { ty, bits }),
                    None if error.is_none() => {
                        error = Some(literal_error(ty, *value, *line, *col));
                    }
                    None => {}
                }
            }
        };
        match &mut line {
            BodyLine::Inst(i) => i.for_each_operand_mut(&mut fill),
            BodyLine::Term(t) => t.for_each_operand_mut(&mut fill),
        }
        if let Some(e) = error {
            return Err(e);
        }
        // The visitors see exactly the operands that were read (instruction.rs keeps
        // them in text order); anything else is a bug here, reported instead of panicking.
        if index != self.pending.len() || index != self.contexts.len() {
            return Err(self.error_at(
                &self.tok,
                "internal error: operand count mismatch while parsing this line",
            ));
        }
        Ok(line)
    }
}
