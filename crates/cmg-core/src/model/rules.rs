//! The rules of the game a file states (`rule` statements), read into [`Rules`] with the
//! diagnostics of reading them: a rule given twice, an unknown rule, arguments that do not
//! fit. Whether their nodes exist, and what they do to the game, the checks say later.

use cmg_solve::Player;
use cmg_syntax::{RuleArg, RuleDecl, RuleName, RuleValue, TextRange};

use super::{Diagnostic, DiagnosticKind};

/// The game a file states, by node id: LeetCode 913's ([`Rules::default`]) unless its
/// `rule` statements say otherwise. Every tool reads the game from here (through
/// [`Graph::rules`](super::Graph::rules)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A draw once this many moves are made without an end.
    pub limit: Option<u32>,
    pub first: Player,
    /// Where the mouse and the cat start.
    pub mouse_start: u32,
    pub cat_start: u32,
    /// The holes, in the order written.
    pub holes: Vec<u32>,
    pub cat_enters_holes: bool,
    /// The rule statements that count (the first of each name), in source order.
    pub stated: Vec<RuleDecl>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            limit: None,
            first: Player::Mouse,
            mouse_start: 1,
            cat_start: 2,
            holes: vec![0],
            cat_enters_holes: false,
            stated: Vec::new(),
        }
    }
}

/// Which argument of a rule a diagnostic points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleArgument {
    MouseStart,
    CatStart,
    /// The hole with this id.
    Hole(u32),
}

impl Rules {
    /// Whether the file states no rule: the game is LeetCode 913's, solved as it always was.
    pub fn is_standard(&self) -> bool {
        self.stated.is_empty()
    }

    /// The statement of rule `name`, if the file states it.
    pub fn statement(&self, name: RuleName) -> Option<&RuleDecl> {
        self.stated.iter().find(|decl| decl.name == name)
    }

    /// Where an argument is written: the node id in `rule start` or `rule holes`; `None` when
    /// it comes from the defaults.
    pub fn argument_range(&self, argument: RuleArgument) -> Option<TextRange> {
        match argument {
            RuleArgument::MouseStart => self.statement(RuleName::Start)?.args.first(),
            RuleArgument::CatStart => self.statement(RuleName::Start)?.args.get(1),
            RuleArgument::Hole(id) => self
                .statement(RuleName::Holes)?
                .args
                .iter()
                .find(|arg| arg.value == RuleValue::Number(Some(id))),
        }
        .map(|arg| arg.range)
    }

    /// The `rule` lines that state this game, one per rule that differs from LeetCode
    /// 913's, in `cmg fmt`'s order (`limit`, `first`, `start`, `holes`,
    /// `cat-enters-holes`): what a tool writes when it puts a game into a file
    /// (`cmg import`, `cmg gen`, the judge's variant). Empty for LeetCode 913's game.
    pub fn statements(&self) -> Vec<String> {
        let standard = Rules::default();
        let start = (self.mouse_start, self.cat_start);
        cmg_syntax::RuleLines {
            limit: self.limit,
            cat_first: self.first == Player::Cat,
            start: (start != (standard.mouse_start, standard.cat_start)).then_some(start),
            holes: (self.holes != standard.holes).then_some(self.holes.as_slice()),
            cat_enters_holes: self.cat_enters_holes,
        }
        .lines()
    }

    /// The game in words, for hover and `cmg solve`: "the cat moves first, limit 16"; the
    /// empty string for LeetCode 913's.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.first == Player::Cat {
            parts.push("the cat moves first".to_owned());
        }
        if self.statement(RuleName::Start).is_some() {
            parts.push(format!(
                "the mouse starts on {}, the cat on {}",
                self.mouse_start, self.cat_start
            ));
        }
        if self.statement(RuleName::Holes).is_some() {
            let holes: Vec<String> = self.holes.iter().map(u32::to_string).collect();
            parts.push(match holes.as_slice() {
                [one] => format!("the hole is {one}"),
                _ => format!("the holes are {}", holes.join(", ")),
            });
        }
        if self.cat_enters_holes {
            parts.push("the cat may enter the holes".to_owned());
        }
        if let Some(limit) = self.limit {
            parts.push(format!("limit {limit}"));
        }
        parts.join(", ")
    }
}

/// Reads the rule statements in source order: the first of each name counts.
pub(super) fn read(decls: &[RuleDecl], diagnostics: &mut Vec<Diagnostic>) -> Rules {
    let mut rules = Rules::default();
    for decl in decls {
        if decl.name == RuleName::Unknown {
            diagnostics.push(Diagnostic::new(
                decl.name_range,
                DiagnosticKind::UnknownRule,
            ));
            continue;
        }
        if let Some(first) = rules.statement(decl.name) {
            diagnostics.push(Diagnostic::new(
                decl.range(),
                DiagnosticKind::DuplicateRule {
                    name: decl.name,
                    first: first.range(),
                },
            ));
            continue;
        }
        match apply(&mut rules, decl) {
            Ok(()) => rules.stated.push(decl.clone()),
            Err(diagnostic) => diagnostics.push(diagnostic),
        }
    }
    rules
}

/// Sets what `decl` states, or says why its arguments do not fit.
fn apply(rules: &mut Rules, decl: &RuleDecl) -> Result<(), Diagnostic> {
    let arguments =
        |at: TextRange| Diagnostic::new(at, DiagnosticKind::RuleArguments { name: decl.name });
    let node = |arg: &RuleArg| match arg.value {
        RuleValue::Number(Some(id)) => Some(id),
        _ => None,
    };
    let extra = |from: usize| {
        decl.args.get(from).map(|arg| {
            let last = decl.args.last().map_or(arg.range, |last| last.range);
            arguments(arg.range.cover(last))
        })
    };
    match decl.name {
        RuleName::Limit => {
            let Some(arg) = decl.args.first() else {
                return Err(Diagnostic::new(decl.range(), DiagnosticKind::BadLimit));
            };
            match arg.value {
                RuleValue::Number(Some(limit)) if limit > 0 => rules.limit = Some(limit),
                _ => return Err(Diagnostic::new(arg.range, DiagnosticKind::BadLimit)),
            }
            extra(1).map_or(Ok(()), Err)
        }
        RuleName::First => {
            match decl.args.first().map(|arg| arg.value) {
                Some(RuleValue::Mouse) => rules.first = Player::Mouse,
                Some(RuleValue::Cat) => rules.first = Player::Cat,
                _ => {
                    return Err(arguments(
                        decl.args.first().map_or(decl.range(), |arg| arg.range),
                    ))
                }
            }
            extra(1).map_or(Ok(()), Err)
        }
        RuleName::Start => {
            let ids: Vec<Option<u32>> = decl.args.iter().take(2).map(node).collect();
            match ids.as_slice() {
                [Some(mouse), Some(cat)] => (rules.mouse_start, rules.cat_start) = (*mouse, *cat),
                _ => return Err(arguments(decl.range())),
            }
            extra(2).map_or(Ok(()), Err)
        }
        RuleName::Holes => {
            let ids: Option<Vec<u32>> = decl.args.iter().map(node).collect();
            match ids {
                Some(ids) if !ids.is_empty() => rules.holes = ids,
                _ => return Err(arguments(decl.range())),
            }
            Ok(())
        }
        RuleName::CatEntersHoles => {
            rules.cat_enters_holes = true;
            extra(0).map_or(Ok(()), Err)
        }
        RuleName::Unknown => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::Analysis;

    fn rules_of(text: &str) -> super::Rules {
        Analysis::without_checks(text).model.graph.rules().clone()
    }

    /// The lines `statements` writes state the same game when read back, and say nothing
    /// of a rule that is LeetCode 913's anyway.
    #[test]
    fn statements_read_back_as_the_same_game() {
        let edges = "0 -- 1 -- 2 -- 3 -- 0\n";
        for rules in [
            "",
            "rule limit 16\n",
            "rule first cat\n",
            "rule start 3 1\n",
            "rule holes 0 3\n",
            "rule cat-enters-holes\n",
            "rule cat-enters-holes\nrule holes 3\nrule start 2 1\nrule first cat\nrule limit 7\n",
        ] {
            let written = rules_of(&format!("{rules}{edges}"));
            let lines = written.statements();
            let again = rules_of(&format!("{}\n{edges}", lines.join("\n")));
            assert_eq!(
                (again.limit, again.first, again.mouse_start, again.cat_start),
                (
                    written.limit,
                    written.first,
                    written.mouse_start,
                    written.cat_start
                ),
                "{rules:?} written as {lines:?}"
            );
            assert_eq!(
                (&again.holes, again.cat_enters_holes),
                (&written.holes, written.cat_enters_holes),
                "{rules:?} written as {lines:?}"
            );
            assert_eq!(
                lines.len(),
                rules.lines().count(),
                "{rules:?} written as {lines:?}"
            );
        }
        let stated_as_default = rules_of(&format!("rule first mouse\nrule holes 0\n{edges}"));
        assert!(stated_as_default.statements().is_empty());
    }
}
