//! The meaning of a file: the graph it declares, and every diagnostic that needs no solving.

mod diagnostic;
mod graph;
mod lower;
mod validate;

pub use diagnostic::{Code, Diagnostic, Related, Severity};
pub use graph::Graph;
pub use lower::{EdgeDecl, EdgeOrigin, Mention, MentionKind};

use crate::syntax::{Expect, Label, Parse};

/// What a parsed file declares, with the places it declares it.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub graph: Graph,
    /// Every mention of a node id, in source order.
    pub mentions: Vec<Mention>,
    /// Every edge as declared, self-loops and duplicates included, in source order.
    pub edges: Vec<EdgeDecl>,
    pub expects: Vec<Expect>,
    /// Every label given by a `node` statement, in source order.
    pub labels: Vec<(u32, Label)>,
    /// Syntax errors and every check of the model, in source order of their checks.
    pub diagnostics: Vec<Diagnostic>,
}

impl Model {
    pub fn new(text: &str, parse: &Parse) -> Model {
        let mut model = lower::lower(parse);
        model
            .diagnostics
            .extend(validate::validate(text, parse, &model));
        model
    }

    /// The first place node `id` is mentioned.
    pub fn first_mention(&self, id: u32) -> Option<&Mention> {
        self.mentions.iter().find(|mention| mention.id == id)
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity() == Severity::Error)
    }
}
