//! Preprocessor conditionals in bodies follow the defines of the settings (`-D`,
//! `defines` in lint.toml), valued or not.

use bankcheck::config::Settings;
use bankcheck::diag::Status;

const KERNEL: &str = r"
groupshared float tile[64 * 2];
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
#ifdef STRIDED
    uint i = gi * 2;
#else
    uint i = gi;
#endif
    tile[i] = 0;
}
";

fn factor(settings: &Settings) -> (Status, Option<f64>, Vec<String>) {
    let report = bankcheck::check_source("k.hlsl", KERNEL.as_bytes(), settings);
    let a = &report.accesses[0];
    (a.status, a.conflict_factor, a.assumptions.clone())
}

#[test]
fn ifdef_follows_settings_defines() {
    let mut settings = Settings::default();
    let (status, f, assumptions) = factor(&settings);
    assert_eq!((status, f), (Status::Ok, Some(1.0)));
    assert!(assumptions.iter().any(|a| a.contains("`STRIDED`")));
    for value in ["1", "", "yes please"] {
        settings.defines.insert("STRIDED".into(), value.into());
        let (status, f, assumptions) = factor(&settings);
        assert_eq!(
            (status, f),
            (Status::Conflict, Some(2.0)),
            "STRIDED={value}"
        );
        assert!(!assumptions.iter().any(|a| a.contains("`STRIDED`")));
    }
}
