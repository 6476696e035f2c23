//! The text form of float constants, shared by the IR printer, the IR parser and the
//! `; run:` directives.
//!
//! Why: a float constant must survive `parse(print(m)) == m` bit for bit — `-0.0` is not
//! `0.0`, and a NaN's payload and sign are part of the constant — while a person writing a
//! corpus file wants to write `1.5` or `0.1`.
//!
//! The forms (grammar in `docs/ir-notes.md`):
//! - a decimal with a point or an exponent, `-?D+.D+([eE][+-]?D+)?` or `-?D+[eE][+-]?D+`,
//!   read *directly* in the constant's type, correctly rounded to nearest-even (an `f32`
//!   literal is never read as `f64` first and rounded again: no double rounding);
//! - `inf` and `-inf`;
//! - `nan`: the default quiet NaN of the type (`0x7fc00000`, `0x7ff8000000000000`);
//! - `nan(0xBITS)`: any NaN, BITS being its whole bit pattern (sign included), which must
//!   be a NaN of the type.
//!
//! Invariants: [`format_float`] writes a non-NaN value as Rust's shortest decimal that reads
//! back to the same bits (`{:?}`: `1.0`, `0.1`, `-0.0`, `1e-7`) and a NaN as `nan` exactly
//! when it has the default bits, `nan(0x...)` otherwise; [`parse_float`] inverts it.

use super::IrType;

/// The default quiet NaN of `f32`: what `nan` means and what arithmetic produces.
pub const F32_DEFAULT_NAN: u32 = 0x7fc0_0000;
/// The default quiet NaN of `f64`.
pub const F64_DEFAULT_NAN: u64 = 0x7ff8_0000_0000_0000;

/// The text of the float constant of type `ty` (`f32` or `f64`) with bit pattern `raw`.
pub fn format_float(ty: IrType, raw: u64) -> String {
    match ty {
        IrType::F32 => {
            let bits = raw as u32;
            let v = f32::from_bits(bits);
            if !v.is_nan() {
                format!("{v:?}")
            } else if bits == F32_DEFAULT_NAN {
                "nan".to_string()
            } else {
                format!("nan(0x{bits:08x})")
            }
        }
        _ => {
            let v = f64::from_bits(raw);
            if !v.is_nan() {
                format!("{v:?}")
            } else if raw == F64_DEFAULT_NAN {
                "nan".to_string()
            } else {
                format!("nan(0x{raw:016x})")
            }
        }
    }
}

/// True when `text` has the shape of a decimal float literal (see the module doc).
fn is_decimal_float(text: &str) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => digits(int) && digits(frac),
        None => digits(mantissa) && exponent.is_some(),
    };
    let exponent_ok = match exponent {
        None => true,
        Some(e) => digits(e.strip_prefix(['+', '-']).unwrap_or(e)),
    };
    mantissa_ok && exponent_ok
}

/// The bit pattern (canonical for `ty`) of the float literal `text` read in `ty`, or an
/// error message.
pub fn parse_float(ty: IrType, text: &str) -> Result<u64, String> {
    if !ty.is_float() {
        return Err(format!("float literal `{text}` where a {ty} is expected"));
    }
    let wide = ty == IrType::F64;
    if let Some(inner) = text
        .strip_prefix("nan(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        let hex = inner
            .strip_prefix("0x")
            .ok_or_else(|| format!("`{text}`: write the NaN's bits in hex, `nan(0x...)`"))?;
        let bits = u64::from_str_radix(hex, 16)
            .map_err(|_| format!("`{text}`: bad hex bits in a NaN literal"))?;
        let is_nan = if wide {
            f64::from_bits(bits).is_nan()
        } else {
            bits <= u32::MAX as u64 && f32::from_bits(bits as u32).is_nan()
        };
        return if is_nan {
            Ok(bits)
        } else {
            Err(format!("`{text}`: 0x{bits:x} is not a NaN of {ty}"))
        };
    }
    let bits = match text {
        "nan" if wide => F64_DEFAULT_NAN,
        "nan" => F32_DEFAULT_NAN as u64,
        _ if is_decimal_float(text) || text == "inf" || text == "-inf" => {
            if wide {
                text.parse::<f64>()
                    .map_err(|e| format!("`{text}`: {e}"))?
                    .to_bits()
            } else {
                text.parse::<f32>()
                    .map_err(|e| format!("`{text}`: {e}"))?
                    .to_bits() as u64
            }
        }
        _ => return Err(format!("`{text}` is not a float literal")),
    };
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_bit_for_bit() {
        let f64s: [u64; 9] = [
            0,
            1 << 63,
            1.5f64.to_bits(),
            0.1f64.to_bits(),
            1,                     // smallest subnormal
            0x7fef_ffff_ffff_ffff, // largest finite
            f64::INFINITY.to_bits(),
            0xfff8_0000_0000_0001, // a negative NaN with a payload
            0x7ff0_0000_0000_0001, // a signalling NaN
        ];
        for bits in f64s {
            let text = format_float(IrType::F64, bits);
            assert_eq!(parse_float(IrType::F64, &text), Ok(bits), "{text}");
        }
        for bits in [
            0u32,
            0x8000_0000,
            1,
            0x7f7f_ffff,
            0x3dcc_cccd,
            0xffc0_0001,
            0x7fc0_0000,
        ] {
            let text = format_float(IrType::F32, bits as u64);
            assert_eq!(parse_float(IrType::F32, &text), Ok(bits as u64), "{text}");
        }
    }

    #[test]
    fn texts() {
        assert_eq!(format_float(IrType::F64, (-0.0f64).to_bits()), "-0.0");
        assert_eq!(format_float(IrType::F64, F64_DEFAULT_NAN), "nan");
        assert_eq!(format_float(IrType::F32, 0x7fc0_0001), "nan(0x7fc00001)");
        assert_eq!(format_float(IrType::F32, 1e-7f32.to_bits() as u64), "1e-7");
    }

    #[test]
    fn f32_literals_round_once() {
        // 1 + 2^-24 is halfway between the f32 values 1 and 1 + 2^-23 and rounds to even
        // (1.0). A hair above it must round up — but read as f64 first, the hair is lost
        // (f64 rounds it to exactly 1 + 2^-24) and the second rounding gives 1.0: the
        // double-rounding error that reading directly in f32 avoids.
        assert_eq!(
            parse_float(IrType::F32, "1.000000059604644775390625"),
            Ok(0x3f80_0000)
        );
        assert_eq!(
            parse_float(IrType::F32, "1.0000000596046447753906251"),
            Ok(0x3f80_0001)
        );
        assert_eq!(parse_float(IrType::F32, "0.1"), Ok(0x3dcc_cccd));
    }

    #[test]
    fn bad_literals() {
        assert!(parse_float(IrType::F32, "1.").is_err());
        assert!(parse_float(IrType::F32, "nan(0x7ff8000000000000)").is_err());
        assert!(parse_float(IrType::F64, "nan(0x3ff0000000000000)").is_err());
        assert!(parse_float(IrType::I32, "1.5").is_err());
        assert!(parse_float(IrType::F64, "1e").is_err());
    }
}
