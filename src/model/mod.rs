//! The data every stage shares, below lowering and analysis: the index IR, the shared
//! arrays and access sites lowering hands on, and the verdicts analyses give back.
//! Typed, so that no stage has to read another stage's words.

pub mod assumption;
pub mod ir;
pub mod reason;
pub mod site;
pub mod verdict;
