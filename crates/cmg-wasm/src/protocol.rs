//! The protocol of the WebAssembly core, its one home: every request a page sends and
//! every answer it gets, as serde types. `cargo xtask codegen` writes their TypeScript
//! into `web/src/wasm/protocol.ts` (with the `typescript` feature, through ts-rs), and a
//! test checks that file is fresh; `docs/dev/wasm.md` describes the protocol around
//! these types.
//!
//! Positions are `{line, character}`, both from 0, the character in UTF-16 code units
//! (`position.rs`). Every answer but the summary is `null` for a text that was not
//! analysed (over the size limit); a bad request answers `{"error": message}`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
#[cfg(feature = "typescript")]
use ts_rs::TS;

pub use crate::position::{Position, Range};

/// One request about the open text: `{"method": ..., ...params}`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "method", rename_all = "camelCase")]
pub enum Request {
    /// The summary `cmg_open` also answers.
    Summary,
    /// The text as `cmg fmt` writes it.
    Format,
    Hover {
        position: Position,
        /// Whether to compute the what-if first, if it is not yet (an edge's hover shows
        /// it); without, the hover says it is not computed.
        #[serde(default = "yes")]
        #[cfg_attr(feature = "typescript", ts(as = "Option<bool>", optional))]
        explain: bool,
    },
    InlayHints,
    CodeActions {
        range: Range,
    },
    /// The game view's scene (`docs/view.md`), as `cmg view` serves it.
    Scene {
        /// Node id to `[x, y]`, where the last layout drew it. Read with string keys:
        /// serde reads an internally tagged enum's fields through a buffer, which does
        /// not turn a string key into a number.
        #[serde(default)]
        #[cfg_attr(
            feature = "typescript",
            ts(as = "Option<HashMap<String, [f64; 2]>>", optional)
        )]
        positions: HashMap<String, [f64; 2]>,
        /// Whether to add the strategies and the what-if (a solve per edge).
        #[serde(default = "yes")]
        #[cfg_attr(feature = "typescript", ts(as = "Option<bool>", optional))]
        explain: bool,
    },
    /// One slice of the position table (`docs/view.md`): the cat on node `cat`, and
    /// `turn` to move.
    Slice {
        cat: u32,
        turn: Turn,
    },
    SemanticTokens {
        #[serde(default)]
        #[cfg_attr(feature = "typescript", ts(optional))]
        range: Option<Range>,
    },
    /// The mentions of the node under `position`, its declarations as writes.
    Highlights {
        position: Position,
    },
}

fn yes() -> bool {
    true
}

/// Who moves, in a slice request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum Turn {
    Mouse,
    Cat,
}

/// Each method's answer, by method name: the map the loader (`web/src/wasm/cmg.ts`) is
/// typed by. TypeScript only: the answers themselves are the types below. The scene and
/// the slice are the game view's contract (`docs/view.md`, typed by the page in
/// `web/src/scene.ts`), left `unknown` here so that the web extension, which never
/// reads them, does not compile the page.
#[cfg(feature = "typescript")]
#[derive(TS)]
#[ts(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct Answers {
    summary: Summary,
    format: Option<Formatted>,
    hover: Option<Hover>,
    inlay_hints: Option<Vec<InlayHint>>,
    code_actions: Option<Vec<CodeAction>>,
    #[ts(type = "unknown")]
    scene: (),
    #[ts(type = "unknown")]
    slice: (),
    semantic_tokens: Option<SemanticTokens>,
    highlights: Option<Vec<Highlight>>,
}

/// What opening a text answers: the outcome from the standard start, the optimal line
/// and the diagnostics.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// `mouse`, `cat` or `draw`, as `cmg solve --json` says it; `null` with no outcome.
    #[cfg_attr(
        feature = "typescript",
        ts(type = "\"mouse\" | \"cat\" | \"draw\" | null")
    )]
    pub outcome: Option<&'static str>,
    /// LeetCode's code: 1 mouse, 2 cat, 0 draw.
    #[cfg_attr(feature = "typescript", ts(type = "0 | 1 | 2 | null"))]
    pub result: Option<u8>,
    /// Moves (plies) to the end; `null` for a draw or no outcome.
    pub moves: Option<u32>,
    /// "cat wins in 4", or why there is no outcome.
    pub summary: String,
    pub reason: Option<String>,
    pub nodes: u32,
    pub edges: u32,
    /// The optimal line as `[mouse, cat]` node ids, the start included.
    pub line: Vec<[u32; 2]>,
    /// False when the file has syntax errors (the outcome is that of what parsed).
    pub complete: bool,
    pub syntax_errors: u32,
    /// The first diagnostics, up to the editor's cap.
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics left out above the cap.
    pub diagnostics_omitted: u32,
}

/// A diagnostic, with the code and severity of `cmg check --json`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Diagnostic {
    #[cfg_attr(feature = "typescript", ts(type = "Code"))]
    pub code: &'static str,
    #[cfg_attr(feature = "typescript", ts(type = "Severity"))]
    pub severity: &'static str,
    pub message: String,
    pub range: Range,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub related: Option<Related>,
}

/// The other place a diagnostic points at.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Related {
    pub message: String,
    pub range: Range,
}

/// `format`'s answer.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Formatted {
    pub text: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Hover {
    pub range: Range,
    pub markdown: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct InlayHint {
    pub position: Position,
    pub label: String,
    pub kind: InlayHintKind,
    pub tooltip: Option<String>,
    pub padding_left: bool,
    pub padding_right: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "kebab-case")]
pub enum InlayHintKind {
    /// The outcome after an `expect` line.
    Outcome,
    /// A node's outcome as the mouse's start.
    NodeOutcome,
    /// An edge the outcome depends on.
    CriticalEdge,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct CodeAction {
    pub title: String,
    pub kind: ActionKind,
    /// The code of the diagnostic a quick fix resolves.
    #[cfg_attr(feature = "typescript", ts(type = "Code | null"))]
    pub fixes: Option<&'static str>,
    pub preferred: bool,
    pub edits: Vec<TextEdit>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    Quickfix,
    Refactor,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct TextEdit {
    pub range: Range,
    pub new_text: String,
}

/// The tokens classified by the language server's table: four numbers a token (line,
/// character, length in UTF-16 units, kind: an index into `kinds`), absolute.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SemanticTokens {
    pub kinds: Vec<&'static str>,
    pub data: Vec<u32>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Highlight {
    pub range: Range,
    pub kind: HighlightKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum HighlightKind {
    Read,
    Write,
}

/// The TypeScript of every type above, in the order the file lists them, each
/// `export`ed with its doc comment: what `cargo xtask codegen` writes into
/// `web/src/wasm/protocol.ts`.
#[cfg(feature = "typescript")]
pub fn typescript() -> Vec<String> {
    fn export<T: TS>(config: &ts_rs::Config) -> String {
        let docs = T::docs()
            .map(|docs| format!("{}\n", docs.trim_end()))
            .unwrap_or_default();
        format!("{docs}export {}", T::decl(config).trim_start())
    }
    let config = ts_rs::Config::new();
    vec![
        export::<Position>(&config),
        export::<Range>(&config),
        export::<Turn>(&config),
        export::<Request>(&config),
        export::<Answers>(&config),
        export::<Summary>(&config),
        export::<Diagnostic>(&config),
        export::<Related>(&config),
        export::<Formatted>(&config),
        export::<Hover>(&config),
        export::<InlayHint>(&config),
        export::<InlayHintKind>(&config),
        export::<CodeAction>(&config),
        export::<ActionKind>(&config),
        export::<TextEdit>(&config),
        export::<SemanticTokens>(&config),
        export::<Highlight>(&config),
        export::<HighlightKind>(&config),
    ]
}
