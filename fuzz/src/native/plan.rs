//! Which native stages run: targets, allocators, limits.
//!
//! Why: `check`, `hunt`, the fuzz targets and both benches choose their native stages the
//! same way — `--targets` (default: every target that has a backend *and* whose toolchain
//! is installed here) — and name them the same way: `native:TARGET` for the linear-scan
//! allocator, `native:TARGET/stack` for `--regalloc=stack`.
//!
//! Invariants: a plan's stages are in a fixed order (targets in [`Target::ALL`] order, the
//! linear-scan stage of a target before its stack stage); a target is in a plan only when
//! [`compiler::backend::supported_targets`] lists it and [`oracle::native::available`]
//! says its tools are installed — asking for another one is an error that says why, never
//! a silently empty row; a target left out by default is listed with the reason.

use compiler::backend::{supported_targets, RegallocMode};
use compiler::target::Target;
use std::time::Duration;

/// One native stage: phicc's code for `target` with `regalloc`'s allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NativeStage {
    pub target: Target,
    pub regalloc: RegallocMode,
}

impl NativeStage {
    pub fn new(target: Target, regalloc: RegallocMode) -> NativeStage {
        NativeStage { target, regalloc }
    }

    /// `native:x86_64`, `native:x86_64/stack`.
    pub fn name(&self) -> String {
        match self.regalloc {
            RegallocMode::LinearScan => format!("native:{}", self.target.name()),
            other => format!("native:{}/{}", self.target.name(), other.name()),
        }
    }

    /// Reads [`NativeStage::name`] back (`native:` optional).
    pub fn from_name(s: &str) -> Option<NativeStage> {
        let s = s.strip_prefix("native:").unwrap_or(s);
        let (target, regalloc) = match s.split_once('/') {
            Some((t, r)) => (t, RegallocMode::from_name(r)?),
            None => (s, RegallocMode::LinearScan),
        };
        Some(NativeStage::new(Target::from_name(target)?, regalloc))
    }

    /// The pointer width of the target, in bytes: the width its oracle reference runs at.
    pub fn ptr_bytes(&self) -> u32 {
        self.target.sizeof_pointer()
    }
}

/// Time limits of native builds and runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeLimits {
    /// The gcc driver (assemble and link, or compile a C reference).
    pub build_timeout: Duration,
    /// One run of a binary.
    pub run_timeout: Duration,
    /// The second run of phicc's binary when the first timed out although the reference
    /// (gcc's binary, on the C side) was slow itself: see `c_program`.
    pub long_run_timeout: Duration,
    /// Bytes of stdout and stderr kept per run.
    pub max_output: usize,
}

impl Default for NativeLimits {
    fn default() -> NativeLimits {
        NativeLimits {
            build_timeout: Duration::from_secs(30),
            run_timeout: Duration::from_secs(10),
            long_run_timeout: Duration::from_secs(60),
            max_output: 1 << 20,
        }
    }
}

/// The native stages to run, with their limits. The default is no stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativePlan {
    pub stages: Vec<NativeStage>,
    pub limits: NativeLimits,
}

impl Default for NativePlan {
    fn default() -> NativePlan {
        NativePlan::none()
    }
}

impl NativePlan {
    /// No native stage.
    pub fn none() -> NativePlan {
        NativePlan {
            stages: Vec::new(),
            limits: NativeLimits::default(),
        }
    }

    /// The default stages of `targets`: each target's linear-scan stage, and the stack
    /// allocator's on x86_64 (the allocator's differential reference; on one target, since
    /// the allocator is shared by all of them).
    pub fn for_targets(targets: &[Target]) -> NativePlan {
        let mut stages = Vec::new();
        for t in Target::ALL.into_iter().filter(|t| targets.contains(t)) {
            stages.push(NativeStage::new(t, RegallocMode::LinearScan));
            if t == Target::X86_64 {
                stages.push(NativeStage::new(t, RegallocMode::Stack));
            }
        }
        NativePlan {
            stages,
            limits: NativeLimits::default(),
        }
    }

    /// Just `stage` (the reducer keeps one native stage's signature).
    pub fn only(stage: NativeStage) -> NativePlan {
        NativePlan {
            stages: vec![stage],
            limits: NativeLimits::default(),
        }
    }

    /// The plan's stages on `targets` only (same limits).
    pub fn restricted_to(&self, targets: &[Target]) -> NativePlan {
        NativePlan {
            stages: self
                .stages
                .iter()
                .filter(|s| targets.contains(&s.target))
                .cloned()
                .collect(),
            limits: self.limits,
        }
    }

    pub fn with_limits(mut self, limits: NativeLimits) -> NativePlan {
        self.limits = limits;
        self
    }

    pub fn is_empty(&self) -> bool {
        self.stages.is_empty()
    }

    /// The targets of the plan, each once, in plan order.
    pub fn targets(&self) -> Vec<Target> {
        let mut out: Vec<Target> = Vec::new();
        for s in &self.stages {
            if !out.contains(&s.target) {
                out.push(s.target);
            }
        }
        out
    }
}

/// What `--targets` chose, and what it left out and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetChoice {
    pub chosen: Vec<Target>,
    /// Targets not chosen by default: (target, why).
    pub left_out: Vec<(Target, String)>,
}

impl TargetChoice {
    /// `native targets: x86_64, i686 (not: aarch64: no backend yet; ...)` for header lines.
    pub fn describe(&self, plan: &NativePlan) -> String {
        let stages: Vec<String> = plan.stages.iter().map(|s| s.name()).collect();
        let mut s = if stages.is_empty() {
            "native stages: none".to_string()
        } else {
            format!("native stages: {}", stages.join(", "))
        };
        if !self.left_out.is_empty() {
            let why: Vec<String> = self
                .left_out
                .iter()
                .map(|(t, w)| format!("{}: {w}", t.name()))
                .collect();
            s.push_str(&format!(" (left out: {})", why.join("; ")));
        }
        s
    }
}

/// Why `t` cannot be used natively here, if it cannot.
pub fn unusable_because(t: Target) -> Option<String> {
    if !supported_targets().contains(&t) {
        return Some("no backend yet".into());
    }
    let missing = oracle::native::missing_tools(t);
    (!missing.is_empty()).then(|| format!("{} not installed", missing.join(" and ")))
}

/// Reads `--targets`: `auto` (or nothing: every usable target), `none`, or a
/// comma-separated list of target names, each of which must be usable.
pub fn choose_targets(spec: Option<&str>) -> Result<TargetChoice, String> {
    let spec = spec.map(str::trim).unwrap_or("auto");
    let mut choice = TargetChoice {
        chosen: Vec::new(),
        left_out: Vec::new(),
    };
    match spec {
        "auto" | "" => {
            for t in Target::ALL {
                match unusable_because(t) {
                    None => choice.chosen.push(t),
                    Some(why) => choice.left_out.push((t, why)),
                }
            }
        }
        "none" => {}
        list => {
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let t = Target::from_name(name).ok_or_else(|| {
                    format!("unknown target `{name}` (x86_64, i686, aarch64, riscv64, auto, none)")
                })?;
                if let Some(why) = unusable_because(t) {
                    return Err(format!("target {}: {why}", t.name()));
                }
                if !choice.chosen.contains(&t) {
                    choice.chosen.push(t);
                }
            }
        }
    }
    Ok(choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_names_read_back() {
        for t in Target::ALL {
            for r in RegallocMode::ALL {
                let s = NativeStage::new(t, r);
                assert_eq!(NativeStage::from_name(&s.name()), Some(s));
            }
        }
        assert_eq!(
            NativeStage::new(Target::X86_64, RegallocMode::Stack).name(),
            "native:x86_64/stack"
        );
        assert_eq!(
            NativeStage::new(Target::I686, RegallocMode::LinearScan).name(),
            "native:i686"
        );
        assert_eq!(NativeStage::from_name("native:sparc"), None);
        assert_eq!(NativeStage::from_name("native:i686/graph"), None);
    }

    #[test]
    fn default_plan_has_the_stack_stage_on_x86_64_only() {
        let p = NativePlan::for_targets(&[Target::I686, Target::X86_64]);
        let names: Vec<String> = p.stages.iter().map(|s| s.name()).collect();
        assert_eq!(
            names,
            ["native:x86_64", "native:x86_64/stack", "native:i686"]
        );
        assert_eq!(p.targets(), [Target::X86_64, Target::I686]);
        assert!(NativePlan::for_targets(&[]).is_empty());
    }

    #[test]
    fn every_target_has_a_backend_and_unknown_names_are_refused() {
        assert!(choose_targets(Some("vax")).is_err());
        assert!(choose_targets(Some("none")).unwrap().chosen.is_empty());
        let auto = choose_targets(None).unwrap();
        // All four targets have a backend, and setup installs every toolchain: `auto`
        // leaves nothing out on a machine set up by scripts/setup.sh.
        assert!(auto.left_out.is_empty(), "left out: {:?}", auto.left_out);
        assert_eq!(auto.chosen, Target::ALL);
        for t in Target::ALL {
            assert_eq!(unusable_because(t), None, "{}", t.name());
            assert_eq!(choose_targets(Some(t.name())).unwrap().chosen, [t]);
        }
    }
}
