//! What the report names and what it reaches, through the built binary:
//! - an access inside a helper is reported at each call that supplies its address (one
//!   entry per call site, the helper's line in `helper`), never collapsed into one;
//! - an array reached through the samples' `SharedMemory<T>` wrapper is named after the
//!   array the wrapper declares (`__smem`), the pointer in `pointer`;
//! - shared memory used through member functions (methods, `operator()`, static members
//!   of class templates) and lambdas gives accesses, and an element passed by reference to
//!   a helper that assigns it is a load and a store;
//! - every shared array declared ends in one state of the JSON `summary`, and one with no
//!   access found gets an `undecided-access` diagnostic saying why.
//!
//! Fixtures: tests/fixtures/reach/.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn report(file: &str, extra: &[&str]) -> Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reach");
    let out = Command::new(env!("CARGO_BIN_EXE_bankcheck"))
        .args(["--format", "json", "--isolated"])
        .args(extra)
        .arg(file)
        .current_dir(dir)
        .output()
        .expect("the bankcheck binary runs");
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

/// `(line, array, pointer, kind, status, factor, helper line)` of every access, sorted.
type Row = (
    u64,
    String,
    Option<String>,
    String,
    String,
    Option<u64>,
    Option<u64>,
);

fn rows(v: &Value) -> Vec<Row> {
    let mut out: Vec<Row> = v["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .map(|a| {
            (
                a["line"].as_u64().unwrap_or(0),
                a["array"].as_str().unwrap_or("").to_string(),
                a["pointer"].as_str().map(str::to_string),
                a["kind"].as_str().unwrap_or("").to_string(),
                a["status"].as_str().unwrap_or("").to_string(),
                a["conflict_factor"].as_f64().map(|f| f as u64),
                a["helper"]["line"].as_u64(),
            )
        })
        .collect();
    out.sort();
    out
}

fn row(
    line: u64,
    array: &str,
    pointer: Option<&str>,
    kind: &str,
    status: &str,
    factor: Option<u64>,
    helper: Option<u64>,
) -> Row {
    (
        line,
        array.to_string(),
        pointer.map(str::to_string),
        kind.to_string(),
        status.to_string(),
        factor,
        helper,
    )
}

#[test]
fn helper_accesses_are_reported_per_call_and_wrappers_by_their_array() {
    let v = report("names.cu", &[]);
    assert_eq!(
        rows(&v),
        vec![
            row(
                16,
                "__smem",
                Some("sdata"),
                "store",
                "conflict",
                Some(2),
                None
            ),
            row(18, "__smem", Some("sdata"), "load", "ok", Some(1), None),
            row(25, "dyn", Some("half"), "store", "ok", Some(1), None),
            row(28, "lhs_s", None, "store", "conflict", Some(32), Some(10)),
            row(29, "lhs_s", None, "store", "ok", Some(1), Some(10)),
        ]
    );
    // The diagnostic points at the call and labels the access in the helper.
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["array"] == "lhs_s" && d["line"] == 28)
        .expect("the conflict at the call on line 28");
    assert!(
        d["labels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["line"] == 10 && l["message"].as_str().unwrap().contains("`st`")),
        "{d}"
    );
    assert_eq!(v["summary"]["arrays"]["undecided"], 0, "{}", v["summary"]);
}

#[test]
fn member_functions_lambdas_and_references_give_accesses() {
    let v = report("members.cu", &[]);
    let r = rows(&v);
    let has = |line: u64, array: &str, kind: &str| {
        r.iter()
            .filter(|x| x.0 == line && x.1 == array && x.3 == kind)
            .count()
    };
    // Methods on an object built by an aggregate initialiser.
    assert_eq!(has(27, "a", "store"), 1, "{r:?}");
    assert!(
        r.contains(&row(28, "a", None, "load", "conflict", Some(2), Some(6))),
        "{r:?}"
    );
    // `operator()` on a local object.
    assert_eq!(has(30, "b", "load"), 1, "{r:?}");
    // A static member of a class template, its parameter bound by the qualifier.
    assert!(
        r.contains(&row(
            31,
            "c",
            Some("s"),
            "store",
            "conflict",
            Some(4),
            Some(15)
        )),
        "{r:?}"
    );
    // A lambda capturing the kernel's array.
    assert!(
        r.contains(&row(33, "d", None, "store", "conflict", Some(4), Some(32))),
        "{r:?}"
    );
    // `swap_ref(a[t], a[t + 32])` with `T&` parameters: each element read and written.
    assert_eq!(has(34, "a", "load"), 2, "{r:?}");
    assert_eq!(has(34, "a", "store"), 2, "{r:?}");
    // Five arrays: a, c, d decided; b undecided (a pointer to rows); `never` unused.
    assert_eq!(
        v["summary"]["arrays"],
        serde_json::json!({"declared": 5, "reported": 3, "unknown": 1, "undecided": 1})
    );
}

#[test]
fn an_array_with_no_access_found_says_why() {
    let v = report("members.cu", &["--select", "undecided-access"]);
    let d: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "undecided-access" && d["line"] == 24)
        .collect();
    assert_eq!(d.len(), 1, "{:?}", v["diagnostics"]);
    let notes = d[0]["notes"].to_string();
    assert!(
        notes.contains("`never` is declared but never used"),
        "{notes}"
    );
}

#[test]
fn an_array_used_only_where_lowering_does_not_follow_says_where() {
    let v = report("unfollowed.cu", &["--select", "undecided-access"]);
    assert_eq!(
        v["summary"]["arrays"],
        serde_json::json!({"declared": 1, "reported": 0, "unknown": 0, "undecided": 1})
    );
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["rule"].as_str(), d["line"].as_u64()),
        (Some("undecided-access"), Some(12))
    );
    let notes = d["notes"].to_string();
    // The comment above the constructor names `e` first; the use is the constructor's.
    assert!(notes.contains("first used in `Holder h(e);`"), "{d}");
    assert!(notes.contains("does not follow"), "{d}");
    assert_eq!(d["labels"][0]["line"], 14, "{d}");
}

#[test]
fn a_suppression_in_the_helper_covers_every_call() {
    let v = report("suppressed_helper.cu", &[]);
    let conflicts = v["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["status"] == "conflict")
        .count();
    assert_eq!(conflicts, 2, "both calls conflict: {}", v["accesses"]);
    assert_eq!(
        v["diagnostics"],
        serde_json::json!([]),
        "{}",
        v["diagnostics"]
    );
}

#[test]
fn specialisations_and_template_objects_pick_their_member_functions() {
    let v = report("specialised.cu", &[]);
    let r = rows(&v);
    // `Smem<double>::get` (the worse of the two instantiations): 8-byte elements.
    assert!(
        r.contains(&row(
            21,
            "s_double",
            Some("s"),
            "store",
            "ok",
            Some(1),
            None
        )),
        "{r:?}"
    );
    // `Strided<T>::read` with `T` bound by the object's type: a stride of two elements.
    assert!(
        r.contains(&row(
            23,
            "s_double",
            Some("p"),
            "load",
            "conflict",
            Some(2),
            Some(14)
        )),
        "{r:?}"
    );
    // Both specialisations' arrays are reached, in one instantiation each.
    assert_eq!(
        v["summary"]["arrays"],
        serde_json::json!({"declared": 2, "reported": 2, "unknown": 0, "undecided": 0})
    );
}

#[test]
fn member_functions_of_a_struct_in_shared_memory_reach_its_fields() {
    let v = report("shared_object.cu", &[]);
    assert_eq!(
        rows(&v),
        vec![
            row(14, "h", Some("bins"), "store", "conflict", Some(2), None),
            row(15, "h", None, "store", "ok", Some(1), Some(6)),
            row(
                15,
                "h",
                Some("bins"),
                "atomic",
                "conflict",
                Some(2),
                Some(6)
            ),
            row(16, "h", Some("bins"), "load", "ok", Some(1), Some(7)),
            row(17, "hs", Some("bins"), "store", "ok", Some(1), None),
        ]
    );
}

#[test]
fn an_object_handed_to_a_helper_forgets_its_fields() {
    let v = report("passed_object.cu", &[]);
    // The store after `retarget(v, b)` is not reported on `a` (the field held `a` before).
    assert_eq!(
        rows(&v),
        vec![row(14, "a", None, "store", "conflict", Some(2), None)]
    );
    assert_eq!(v["summary"]["arrays"]["undecided"], 1, "{}", v["summary"]);
}

#[test]
fn a_field_a_member_function_steps_in_a_loop_is_not_reused() {
    let v = report("loop_object.cu", &[]);
    assert_eq!(
        rows(&v),
        vec![row(17, "t", None, "store", "conflict", Some(2), Some(5))]
    );
    assert_eq!(
        v["summary"]["arrays"],
        serde_json::json!({"declared": 2, "reported": 1, "unknown": 0, "undecided": 1})
    );
}

/// A reference names the place it is bound to: binding one reads nothing (no entry on
/// lines 37 and 49), its uses are the accesses, a struct in shared memory is reached
/// through a reference (`st.b[i]`) or a pointer (`p->a[i]`), elements passed to
/// reference parameters are accessed in the helper and reported at each argument (54,
/// 55), and a scalar member at an offset bankcheck cannot compute but the same in every
/// lane is one word for the whole warp. Factors derived in the fixture's comments; the
/// old reading reported a 516-byte load on line 37 and on line 64, and lost lines 39 to 52
/// and 65.
#[test]
fn references_and_arrows_reach_shared_memory() {
    let v = report("references.cu", &[]);
    assert_eq!(
        rows(&v),
        vec![
            row(39, "smem", Some("a"), "store", "ok", Some(1), None),
            row(41, "smem", Some("b"), "load", "conflict", Some(2), None),
            row(43, "smem", Some("st"), "load", "ok", Some(1), None),
            row(46, "smem", Some("a"), "store", "conflict", Some(4), None),
            row(50, "sh", Some("x"), "load", "conflict", Some(8), None),
            row(50, "sh", Some("x"), "store", "conflict", Some(8), None),
            row(52, "smem", Some("a"), "store", "ok", Some(1), Some(22)),
            row(54, "pairs", Some("x"), "load", "ok", Some(1), Some(27)),
            row(54, "pairs", Some("x"), "store", "ok", Some(1), Some(28)),
            row(
                55,
                "pairs",
                Some("y"),
                "load",
                "conflict",
                Some(2),
                Some(28)
            ),
            row(
                55,
                "pairs",
                Some("y"),
                "store",
                "conflict",
                Some(2),
                Some(29)
            ),
            row(58, "lib", None, "load", "ok", Some(1), None),
            row(61, "lib", None, "store", "unknown", None, None),
            row(65, "smem", Some("row"), "store", "ok", Some(1), None),
        ]
    );
}

/// A blanked macro statement that assigns the index makes the access `unknown` for that
/// macro's reason (before: `ok` on the old value), and one that names a shared array,
/// directly or through a pointer it writes through, is an `unknown` store of it at the
/// use (before: nothing), the pointer still followed after it.
#[test]
fn blanked_macro_statements_are_not_followed_and_say_so() {
    let v = report("blanked_macros.cu", &[]);
    assert_eq!(
        rows(&v),
        vec![
            row(12, "s", None, "load", "unknown", None, None),
            row(15, "stage", None, "store", "unknown", None, None),
            row(17, "stage", Some("p"), "store", "unknown", None, None),
            row(18, "stage", Some("p"), "load", "ok", Some(1), None),
        ]
    );
    let reasons: Vec<&str> = v["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .filter_map(|a| a["reason"].as_str())
        .collect();
    assert!(
        reasons[0]
            .contains("`i` is assigned by the macro `GATHER`, which bankcheck does not expand"),
        "{reasons:?}"
    );
    assert!(reasons[1].contains("`COPY_IN(...)`") && reasons[1].contains("names `stage`"));
    assert!(reasons[2].contains("through `p`"), "{reasons:?}");
}

#[test]
fn a_pointer_moved_by_data_still_reaches_its_array() {
    let v = report("lost_pointers.cu", &[]);
    assert_eq!(
        rows(&v),
        vec![
            row(13, "tile", None, "load", "unknown", None, None),
            row(16, "tile", None, "load", "unknown", None, None),
            row(17, "tile", None, "load", "unknown", None, Some(5)),
            row(19, "pairs", None, "load", "unknown", None, None),
            row(20, "tile", None, "load", "unknown", None, None),
            // `offsets[0] * 0` is the constant 0: a stride of 2 words, 2-way.
            row(22, "rows", Some("r"), "load", "conflict", Some(2), None),
            row(24, "rows", None, "load", "unknown", None, None),
        ]
    );
    for a in v["accesses"].as_array().expect("accesses") {
        if a["status"] == "unknown" {
            let reason = a["reason"].as_str().unwrap_or("");
            assert!(reason.contains("`offsets[lane]`"), "{reason}");
        }
    }
}
