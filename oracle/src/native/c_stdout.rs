//! The one comparison of a C program's stdout between two runs (the oracle's and gcc's,
//! phicc's native binary and gcc's, gcc -O0's and gcc -O2's): bytes equal, except that
//! a printed NaN's sign does not count.
//!
//! Why: C leaves the sign (and payload) of a NaN that arithmetic produces unspecified,
//! and the targets differ: x86's SSE default NaN is negative, so glibc prints `-nan` for
//! `0.0/0.0` on x86-64, while RISC-V's is positive (`nan`), AArch64 propagates an
//! operand's, and the IR fixes the positive default NaN (docs/ir-notes.md). gcc folds
//! `0.0/0.0` at -O2 but divides at -O0. Without this rule every program printing a
//! computed NaN would be a false miscompile, or a false "gcc -O0 and -O2 disagree".
//! (docs/c-floats.md, "The C-level NaN rule".)
//!
//! Invariants: the only differences forgiven are the sign (`-` or `+`) directly before a
//! `nan` or `NAN` token (as `%f %e %g %a` and their upper-case forms print a NaN; a token
//! is not part of a longer word) and the spaces around that token (a padded field has one
//! space more or fewer with the sign); every other byte must be equal, so a real
//! difference anywhere else — even on the same line as a NaN — is still a mismatch.

/// True when `a` and `b` are the same output up to the signs of printed NaNs.
pub fn same_c_stdout(a: &[u8], b: &[u8]) -> bool {
    a == b || without_nan_signs(a) == without_nan_signs(b)
}

/// `text` with the `-` of every `-nan`/`-NAN` token removed.
fn without_nan_signs(text: &[u8]) -> Vec<u8> {
    // Each NaN token with its sign and the spaces around it becomes the bare token: a
    // padded field (`%10f`, `%-10f`) has one more or one fewer padding space when the
    // sign is there, so the spaces next to a NaN cannot be compared either.
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let mut j = i;
        while j < text.len() && text[j] == b' ' {
            j += 1;
        }
        let signed = j < text.len() && (text[j] == b'-' || text[j] == b'+');
        let at = j + usize::from(signed);
        let starts_word = i == 0 || !(text[i - 1].is_ascii_alphanumeric() || text[i - 1] == b'_');
        if starts_word && is_nan_token(&text[at..]) {
            out.extend_from_slice(&text[at..at + 3]);
            let mut k = at + 3;
            while k < text.len() && text[k] == b' ' {
                k += 1;
            }
            i = k;
            continue;
        }
        out.push(text[i]);
        i += 1;
    }
    out
}

/// True when `rest` starts with `nan` or `NAN` not followed by a letter, digit or `_`.
fn is_nan_token(rest: &[u8]) -> bool {
    let word = rest.starts_with(b"nan") || rest.starts_with(b"NAN");
    word && rest
        .get(3)
        .is_none_or(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
}

#[cfg(test)]
mod tests {
    use super::same_c_stdout;

    #[test]
    fn a_nan_sign_is_not_a_difference() {
        assert!(same_c_stdout(b"-nan 1.0\n", b"nan 1.0\n"));
        assert!(same_c_stdout(b"x = -NAN\n", b"x = NAN\n"));
        assert!(same_c_stdout(b"nan -nan\n", b"-nan nan\n"));
        assert!(same_c_stdout(b"     -nan|", b"      nan|"));
        assert!(same_c_stdout(b"-nan      |", b"nan       |"));
        assert!(same_c_stdout(b"+nan 1\n", b"-nan 1\n"));
    }

    #[test]
    fn every_other_difference_still_is() {
        // A real difference next to a NaN.
        assert!(!same_c_stdout(b"-nan 1.0\n", b"nan 2.0\n"));
        // A sign on something else.
        assert!(!same_c_stdout(b"-inf\n", b"inf\n"));
        assert!(!same_c_stdout(b"-0.000000\n", b"0.000000\n"));
        // A word that only starts with nan.
        assert!(!same_c_stdout(b"-nano\n", b"nano\n"));
        // Mixed case is not how glibc prints a NaN.
        assert!(!same_c_stdout(b"-Nan\n", b"Nan\n"));
        assert!(!same_c_stdout(b"nan x\n", b"nan y\n"));
        assert!(!same_c_stdout(b"1 nan\n", b"2 nan\n"));
    }
}
