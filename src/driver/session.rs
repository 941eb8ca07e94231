//! [`Session`]: one run of bankcheck over files the caller reads.

use crate::config::Settings;
use crate::project::{Lister, ProjectIndex, Reader};
use crate::FileReport;
use rayon::prelude::*;
use std::path::PathBuf;

/// One run: the run-wide index, and the workers files are checked on.
///
/// Build it, scan the run's files into it ([`Session::index`]), then check each file
/// ([`Session::check`], or [`Session::check_all`] in parallel). A session of no files
/// ([`Session::new`]) checks each file on its own, on the caller's threads.
pub struct Session {
    project: ProjectIndex,
    /// What the run remembers across its files (`pipeline::Caches`).
    caches: crate::pipeline::Caches,
    /// Large-stack workers ([`Session::with_workers`]); without them, rayon's own pool.
    workers: Option<rayon::ThreadPool>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session that knows no other file and reads no header.
    pub fn new() -> Session {
        Session {
            project: ProjectIndex::empty(),
            caches: crate::pipeline::Caches::default(),
            workers: None,
        }
    }

    /// Headers are looked up in `include_dirs` (after the includer's folder) and read
    /// with `reader`. Call before [`Session::index`]: the index starts afresh.
    pub fn with_headers(mut self, include_dirs: Vec<PathBuf>, reader: Box<Reader>) -> Session {
        self.project = ProjectIndex::new(include_dirs, reader);
        self
    }

    /// Includes that name no file of the run are looked for among the files `lister`
    /// gives (the workspace's sources).
    pub fn with_workspace(mut self, lister: Box<Lister>) -> Session {
        self.project = self.project.with_workspace(lister);
        self
    }

    /// Files are checked (and scanned) on `threads` workers (0: one per core, at most
    /// [`super::MAX_THREADS`]), each with a stack of [`super::WORKER_STACK_BYTES`]:
    /// room for every depth bound of the passes in unoptimised builds too.
    pub fn with_workers(mut self, threads: usize) -> Result<Session, rayon::ThreadPoolBuildError> {
        self.workers = Some(super::workers::pool(threads)?);
        Ok(self)
    }

    /// Adds `files` to the run-wide index: `text_of` gives each one's path (as it is
    /// reported) and text, or `None` for a file that cannot be read. Scanned in
    /// parallel, added in order.
    pub fn index<T: Sync>(
        &mut self,
        files: &[T],
        text_of: impl Fn(&T) -> Option<(PathBuf, String)> + Sync + Send,
    ) {
        self.scan(files, true, text_of);
    }

    /// As [`Session::index`], for files the run does not check (the rest of the
    /// workspace): their launches and includes count, and a header keeps the accesses of
    /// its helpers that reach their arrays (a checked includer reports those itself).
    pub fn index_unchecked<T: Sync>(
        &mut self,
        files: &[T],
        text_of: impl Fn(&T) -> Option<(PathBuf, String)> + Sync + Send,
    ) {
        self.scan(files, false, text_of);
    }

    fn scan<T: Sync>(
        &mut self,
        files: &[T],
        checked: bool,
        text_of: impl Fn(&T) -> Option<(PathBuf, String)> + Sync + Send,
    ) {
        let project = &mut self.project;
        match &self.workers {
            Some(pool) => {
                pool.install(|| super::index::scan_into(project, files, checked, text_of));
            }
            None => super::index::scan_into(project, files, checked, text_of),
        }
    }

    /// The run-wide index.
    pub fn project(&self) -> &ProjectIndex {
        &self.project
    }

    /// Checks one file of the run (its `bytes`, named `path` as reported) on the calling
    /// thread: the per-file passes (`pipeline`), a panic caught as `internal-error`, then
    /// the passes `suppress`, `severities` and `group`. Never panics, does no I/O.
    pub fn check(&self, path: &str, bytes: &[u8], settings: &Settings) -> FileReport {
        let report = super::guard::guarded(path, bytes, || {
            crate::pipeline::check_source(path, bytes, settings, &self.project, &self.caches)
        });
        finished(report, settings)
    }

    /// [`Session::check`] of text already decoded (`source::decode`), which the report
    /// takes once the per-file passes are done with it: a big file's text is held once,
    /// not once by the caller and again by the passes.
    pub fn check_text(&self, path: &str, text: String, settings: &Settings) -> FileReport {
        let mut report = super::guard::guarded(path, text.as_bytes(), || {
            crate::pipeline::check_text(path, &text, settings, &self.project, &self.caches)
        });
        report.text = text;
        finished(report, settings)
    }

    /// The report of a file that was not checked because bankcheck failed on it
    /// (`reason`, e.g. [`super::CRASHED`]): its `internal-error`, suppressions and
    /// severities applied as to any file.
    pub fn failed(
        &self,
        path: &str,
        bytes: &[u8],
        settings: &Settings,
        reason: &str,
    ) -> FileReport {
        finished(super::guard::internal_error(path, bytes, reason), settings)
    }

    /// `each` over `items` on the session's workers, results in the order of `items`.
    pub fn check_all<T: Sync, R: Send>(
        &self,
        items: &[T],
        each: impl Fn(&T) -> R + Sync + Send,
    ) -> Vec<R> {
        self.on_workers(|| items.par_iter().map(each).collect())
    }

    /// Runs `work` on one of the session's workers (for their stack), or on the calling
    /// thread when the session has none.
    pub fn on_workers<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match &self.workers {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }
}

/// The passes after the rules: suppressions, severities, then one diagnostic per problem.
fn finished(mut report: FileReport, settings: &Settings) -> FileReport {
    super::finish::suppress(&mut report, settings);
    super::finish::severities(&mut report, settings);
    super::finish::group(&mut report);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::resolve::stack;
    use crate::config::Layer;
    use crate::diag::Severity;

    /// Every lane in one bank: a 32-way conflict.
    const SHADER: &str = "groupshared float s[1024];\n[numthreads(32, 1, 1)]\nvoid main(uint3 t : SV_GroupThreadID) {\n    s[t.x * 32] = 0;\n}\n";

    fn settings(rule: &'static str, level: Option<Severity>) -> Settings {
        let mut layer = Layer::default();
        layer.severities.push((rule, level));
        stack(&[&layer], crate::rules::catalog())
    }

    #[test]
    fn a_finding_takes_its_configured_severity_and_a_rule_off_reports_nothing() {
        let session = Session::new();
        let plain = session.check("k.hlsl", SHADER.as_bytes(), &Settings::default());
        let found = plain
            .diagnostics
            .iter()
            .find(|d| d.access.is_some())
            .expect("a conflict finding");
        assert_eq!(found.severity, Severity::Warning);
        let rule = found.rule;
        let raised = session.check(
            "k.hlsl",
            SHADER.as_bytes(),
            &settings(rule, Some(Severity::Error)),
        );
        assert!(raised
            .diagnostics
            .iter()
            .any(|d| d.rule == rule && d.severity == Severity::Error));
        // Off: no finding, and a suppression of it is not reported as unused.
        let text = format!("{SHADER}// bankcheck: ignore-file[{rule}]\n");
        let off = session.check("k.hlsl", text.as_bytes(), &settings(rule, None));
        assert!(off.diagnostics.is_empty(), "{:?}", off.diagnostics);
        // On, the same suppression silences it.
        let silenced = session.check("k.hlsl", text.as_bytes(), &Settings::default());
        assert!(silenced.diagnostics.iter().all(|d| d.rule != rule));
        assert!(!silenced.accesses.is_empty());
    }

    /// Text already decoded is checked as its bytes are: the same findings and accesses,
    /// and the report holds the text it was handed (a file of no language too).
    #[test]
    fn decoded_text_is_checked_as_its_bytes() {
        let session = Session::new();
        let settings = Settings::default();
        for (path, text) in [("k.hlsl", SHADER), ("notes.txt", "no code here\n")] {
            let from_bytes = session.check(path, text.as_bytes(), &settings);
            let from_text = session.check_text(path, text.to_string(), &settings);
            assert_eq!(from_text.diagnostics, from_bytes.diagnostics);
            assert_eq!(from_text.accesses, from_bytes.accesses);
            assert_eq!(from_text.language, from_bytes.language);
            assert_eq!(from_text.text, text);
        }
    }
}
