//! Developer aid: `DUMP=file cargo test --test dump_tree -- --nocapture` prints the
//! accesses bankcheck finds in a file. Without `DUMP` it checks one small kernel.

#[test]
fn dump() {
    let (path, bytes) = match std::env::var("DUMP") {
        Ok(p) => {
            let b = std::fs::read(&p).expect("readable file");
            (p, b)
        }
        Err(_) => ("k.cu".to_string(), b"__global__ void k(float* o) { __shared__ float s[32][32]; o[threadIdx.x] = s[threadIdx.x][0]; }".to_vec()),
    };
    let r = bankcheck::check_source(&path, &bytes, &bankcheck::config::Settings::default());
    for a in &r.accesses {
        let line = r.text[..a.span.start].lines().count();
        println!("{line}: {} {:?} {:?} f={:?} w={:?}/{:?} {:?} {:?} {:?}", a.array, a.kind, a.status, a.conflict_factor, a.wavefronts, a.ideal_wavefronts, a.reason, a.method, a.assumptions);
    }
    for d in &r.diagnostics {
        println!("{} {:?} {} {:?}", d.rule, d.span, d.message, d.notes);
    }
    if std::env::var("DUMP").is_err() {
        assert_eq!(r.accesses.len(), 1);
        assert_eq!(r.accesses[0].conflict_factor, Some(32.0));
    }
}
