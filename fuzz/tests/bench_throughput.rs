//! `phihunt bench throughput`: each generator's hunt runs as a child process and its
//! programs, wall time and CPU time are measured and stored; a generator that cannot hunt
//! is an error row and a non-zero exit, never a zero rate.

mod common;

#[test]
fn each_generator_gets_a_measured_row_and_a_bad_one_an_error() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("tp");
    let (code, stdout, stderr) = common::phihunt(&[
        "bench",
        "throughput",
        "--gen",
        "cfg,no-such-generator",
        "--time",
        "3s",
        "--jobs",
        "1",
        "--targets",
        "none",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("throughput.json")).unwrap())
            .unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{json}");
    let cfg = &rows[0];
    assert_eq!(cfg["generator"], "cfg");
    let programs = cfg["programs"].as_u64().unwrap();
    let wall = cfg["wall_s"].as_f64().unwrap();
    assert!(programs > 0 && wall >= 2.5, "{cfg}");
    // The hunt ran in a child: its CPU time is the children's, and a 3-second hunt on one
    // worker cannot have used more than its wall time on 2 threads plus start-up.
    let cpu = cfg["cpu_s"].as_f64().unwrap();
    assert!(cpu > 0.0 && cpu < 2.0 * wall + 5.0, "{cfg}");
    let rate = cfg["programs_per_hour"].as_f64().unwrap();
    assert!(
        (rate - programs as f64 * 3600.0 / wall).abs() < 1.0,
        "{cfg}"
    );
    assert!(dir.join("cfg").join("summary.json").exists());
    let errors = json["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{json}");
    assert!(
        errors[0].as_str().unwrap().contains("no-such-generator"),
        "{json}"
    );
    assert!(stdout.contains("no-such-generator error:"), "{stdout}");
}
