//! The files generated from the Rust tables: the server's settings (`cmg_lsp::tables::
//! SETTINGS`) and semantic-token styles (`TOKEN_STYLES`) become VS Code's
//! `contributes` entries, the settings tables of the READMEs and the extension's list of
//! server settings, and the view page's words for node roles, outcomes and endings
//! (`web/src/generated/words.ts`, from `cmg_ide::view::role_word`,
//! `cmg_core::analysis::describe` and `cmg_core::ending::Ending`), and the WebAssembly core's
//! protocol (`web/src/wasm/protocol.ts`, from `cmg_wasm::protocol`). Each generated part sits between markers (or, in
//! `package.json`, is one whole JSON value; `words.ts` is generated whole), so the
//! hand-written rest of every file is kept as it is.
//!
//! `generated_files_are_fresh` (below) runs in `cargo test`: like rust-analyzer's
//! sourcegen tests, it rewrites a stale file and fails, so the fix is to commit the
//! rewritten file.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

use cmg_lsp::tables::{SemanticTokenType, SettingKind, SETTINGS, TOKEN_STYLES};
use serde_json::Value;

use crate::splice::splice_between;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Rewrite every stale file.
    Write,
    /// Only report the stale files.
    Check,
}

/// The repository this xtask belongs to.
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the repository root")
        .to_owned()
}

/// One generated file: its path from the repository root and how its new text follows
/// from its current text.
struct Target {
    path: &'static str,
    generate: fn(&str) -> Result<String, String>,
}

const TARGETS: &[Target] = &[
    Target {
        path: "editors/vscode/package.json",
        generate: package_json,
    },
    Target {
        path: "README.md",
        generate: |text| splice_markdown(text, &settings_table(Table::Server)),
    },
    Target {
        path: "editors/README.md",
        generate: |text| splice_markdown(text, &settings_table(Table::Server)),
    },
    Target {
        path: "editors/vscode/README.md",
        generate: |text| splice_markdown(text, &settings_table(Table::VsCode)),
    },
    Target {
        path: "editors/vscode/src/settings.ts",
        generate: settings_ts,
    },
    Target {
        path: "editors/vscode/src/web/legend.ts",
        generate: |_| legend_ts(),
    },
    Target {
        path: "docs/diagnostics.md",
        generate: super::codes::diagnostics_md,
    },
    Target {
        path: "web/src/generated/words.ts",
        generate: |_| words_ts(),
    },
    Target {
        path: "web/src/wasm/protocol.ts",
        generate: |_| crate::protocol::protocol_ts(),
    },
];

/// Generates every target; returns the paths whose text was not what the tables give
/// (rewritten in [`Mode::Write`]).
pub fn run(root: &Path, mode: Mode) -> Result<Vec<String>, String> {
    let mut stale = Vec::new();
    for target in TARGETS {
        let path = root.join(target.path);
        let current =
            std::fs::read_to_string(&path).map_err(|error| format!("{}: {error}", target.path))?;
        let wanted =
            (target.generate)(&current).map_err(|error| format!("{}: {error}", target.path))?;
        if wanted != current {
            if mode == Mode::Write {
                std::fs::write(&path, &wanted)
                    .map_err(|error| format!("{}: {error}", target.path))?;
            }
            stale.push(target.path.to_owned());
        }
    }
    Ok(stale)
}

/// The extension's own settings, which the server never reads: the one home of their
/// names and descriptions (the extension reads them by these names).
struct ClientSetting {
    key: &'static str,
    value: fn() -> Json,
    description: &'static str,
}

const CLIENT_SETTINGS_FIRST: &[ClientSetting] = &[ClientSetting {
    key: "server.path",
    value: || {
        Json::object([
            ("type", Json::from("string")),
            ("default", Json::from("")),
            ("scope", Json::from("window")),
        ])
    },
    description: "Path to the `cmg` binary; changing it restarts the server. When empty, the binary bundled with the extension is used, then `cmg` on `PATH`. Read from the User settings and, in a remote window, the Remote settings (which win); ignored in the settings of an untrusted workspace.",
}];

const CLIENT_SETTINGS_LAST: &[ClientSetting] = &[ClientSetting {
    key: "trace.server",
    value: || {
        Json::object([
            ("type", Json::from("string")),
            (
                "enum",
                Json::Array(["off", "messages", "verbose"].map(Json::from).into()),
            ),
            ("default", Json::from("off")),
        ])
    },
    description: "Traces the communication between VS Code and the cmg language server in the cmg output channel.",
}, ClientSetting {
    key: "judge.seconds",
    value: || {
        Json::object([
            ("type", Json::from("integer")),
            ("default", Json::Leaf(60.into())),
            ("minimum", Json::Leaf(1.into())),
        ])
    },
    description: "How long **cmg: Judge this solution** looks for a graph the solution gets wrong, in seconds (`cmg judge --seconds`); shrinking one it found takes up to half as long again.",
}];

/// `contributes.configuration.properties`, `semanticTokenModifiers` and
/// `semanticTokenScopes` of the extension's manifest.
fn package_json(text: &str) -> Result<String, String> {
    let mut properties = Vec::new();
    let client = |setting: &ClientSetting| {
        let Json::Object(mut members) = (setting.value)() else {
            unreachable!("a client setting is an object")
        };
        members.push((
            "markdownDescription".to_owned(),
            Json::from(setting.description),
        ));
        (format!("cmg.{}", setting.key), Json::Object(members))
    };
    properties.extend(CLIENT_SETTINGS_FIRST.iter().map(client));
    for setting in SETTINGS {
        let mut members = vec![
            ("type".to_owned(), Json::from(json_type(setting.kind))),
            ("default".to_owned(), Json::Leaf(setting.default_value())),
        ];
        if setting.kind == SettingKind::Integer {
            members.push(("minimum".to_owned(), Json::Leaf(0.into())));
        }
        members.push((
            "markdownDescription".to_owned(),
            Json::from(setting.description),
        ));
        properties.push((format!("cmg.{}", setting.key), Json::Object(members)));
    }
    properties.extend(CLIENT_SETTINGS_LAST.iter().map(client));

    let mut modifiers = Vec::new();
    let mut scopes = Vec::new();
    for style in TOKEN_STYLES {
        let mut selector = token_type_name(&style.token_type).to_owned();
        if let Some((modifier, description)) = style.modifier {
            selector = format!("{selector}.{modifier}");
            modifiers.push(Json::object([
                ("id", Json::from(modifier)),
                ("description", Json::from(description)),
            ]));
        }
        scopes.push((selector, Json::Array(vec![Json::from(style.scope)])));
    }
    let scopes = Json::Array(vec![Json::object([
        ("language", Json::from("cmg")),
        ("scopes", Json::Object(scopes)),
    ])]);

    let text = splice_json(
        text,
        &["contributes", "configuration", "properties"],
        &Json::Object(properties),
    )?;
    let text = splice_json(
        &text,
        &["contributes", "semanticTokenModifiers"],
        &Json::Array(modifiers),
    )?;
    splice_json(&text, &["contributes", "semanticTokenScopes"], &scopes)
}

fn json_type(kind: SettingKind) -> &'static str {
    match kind {
        SettingKind::Integer => "integer",
        SettingKind::Boolean => "boolean",
    }
}

fn token_type_name(token_type: &SemanticTokenType) -> &str {
    token_type.as_str()
}

#[derive(Clone, Copy)]
enum Table {
    /// The server's settings under `cmg`, as every editor sends them.
    Server,
    /// VS Code's names (`cmg.` in front), with the extension's own settings.
    VsCode,
}

const TABLE_START: &str =
    "<!-- generated by `cargo xtask codegen` from crates/cmg-lsp/src/config.rs: edit there -->";
const TABLE_END: &str = "<!-- end of generated settings -->";

fn settings_table(table: Table) -> String {
    let mut rows = String::from("| setting | default | what it does |\n| --- | --- | --- |\n");
    let mut row = |key: String, default: &Value, description: &str| {
        let _ = writeln!(rows, "| `{key}` | `{default}` | {description} |");
    };
    let client = |setting: &ClientSetting| {
        let Json::Object(members) = (setting.value)() else {
            unreachable!("a client setting is an object")
        };
        let default = members
            .into_iter()
            .find_map(|(name, value)| match (name.as_str(), value) {
                ("default", Json::Leaf(value)) => Some(value),
                _ => None,
            })
            .unwrap_or(Value::Null);
        (format!("cmg.{}", setting.key), default, setting.description)
    };
    let prefix = match table {
        Table::Server => "",
        Table::VsCode => "cmg.",
    };
    if let Table::VsCode = table {
        for (key, default, description) in CLIENT_SETTINGS_FIRST.iter().map(client) {
            row(key, &default, description);
        }
    }
    for setting in SETTINGS {
        row(
            format!("{prefix}{}", setting.key),
            &setting.default_value(),
            setting.description,
        );
    }
    if let Table::VsCode = table {
        for (key, default, description) in CLIENT_SETTINGS_LAST.iter().map(client) {
            row(key, &default, description);
        }
    }
    rows
}

/// Replaces what stands between the settings markers.
fn splice_markdown(text: &str, table: &str) -> Result<String, String> {
    // A blank line ends the table before the end marker.
    splice_between(text, TABLE_START, TABLE_END, &format!("{table}\n"))
}

const TS_START: &str =
    "// generated by `cargo xtask codegen` from crates/cmg-lsp/src/config.rs: edit there";
const TS_END: &str = "// end of generated settings";

fn settings_ts(text: &str) -> Result<String, String> {
    let mut list = String::from(
        "/** The `cmg.*` settings the server understands, as the editor's settings name them. */\nexport const SERVER_SETTINGS = [\n",
    );
    for setting in SETTINGS {
        let _ = writeln!(list, "  \"{}\",", setting.key);
    }
    list.push_str("] as const;\n");
    splice_between(text, TS_START, TS_END, &list)
}

/// The view page's words for node roles and outcomes, from the tables the Rust side
/// prints them with: the scene's role names (`cmg_ide::view::role`) and the outcome
/// wording of `cmg solve`, hovers and hints (`cmg_core::analysis::describe`). The whole
/// file is generated.
fn words_ts() -> Result<String, String> {
    use cmg_core::analysis::describe;
    use cmg_core::model::NodeRole;
    use cmg_ide::view::{role, role_word};
    use cmg_solve::Outcome;

    let mut ts = String::from(
        "// Generated by `cargo xtask codegen` from the Rust tables; do not edit.\n\n",
    );
    let mut roles: Vec<&str> = NodeRole::ALL.into_iter().map(role_word).collect();
    let plain = (0..)
        .find(|&id| NodeRole::of(id).is_none())
        .expect("some id has no role");
    roles.push(role(&cmg_core::model::Graph::default(), plain));
    let quoted: Vec<String> = roles.iter().map(|r| format!("\"{r}\"")).collect();
    let _ = writeln!(ts, "/** A node's role as the scene names it. */");
    let _ = writeln!(ts, "export type SceneRole = {};\n", quoted.join(" | "));
    // The wording around a number of moves: what `describe` prints around a marker.
    let marker = u32::MAX;
    let draw = describe(Outcome::Draw, None);
    let mut wins = Vec::new();
    for (outcome, winner) in [(Outcome::MouseWins, "mouse"), (Outcome::CatWins, "cat")] {
        let text = describe(outcome, Some(marker));
        let (before, after) = text
            .split_once(&marker.to_string())
            .ok_or_else(|| format!("`describe` does not print the moves: {text:?}"))?;
        if describe(outcome, None) != draw {
            return Err("`describe` without moves is no longer a draw".to_owned());
        }
        wins.push(format!("  {winner}: [\"{before}\", \"{after}\"],"));
    }
    if describe(Outcome::Draw, Some(3)) != draw {
        return Err("`describe` of a draw now depends on the moves".to_owned());
    }
    let _ = writeln!(
        ts,
        "const WINS: Record<\"mouse\" | \"cat\", [string, string]> = {{\n{}\n}};\n",
        wins.join("\n")
    );
    let _ = writeln!(
        ts,
        "/** \"cat wins in 4\", \"{draw}\": the same wording as `cmg solve`. */"
    );
    let _ = writeln!(
        ts,
        "export function describe(outcome: \"mouse\" | \"cat\" | \"draw\", moves: number | null): string {{"
    );
    let _ = writeln!(
        ts,
        "  if (outcome === \"draw\" || moves === null) return \"{draw}\";"
    );
    let _ = writeln!(ts, "  const [before, after] = WINS[outcome];");
    let _ = writeln!(ts, "  return `${{before}}${{moves}}${{after}}`;");
    let _ = writeln!(ts, "}}");
    endings_ts(&mut ts)?;
    super::codes::codes_ts(&mut ts);
    Ok(ts)
}

/// The semantic-token legend of the web server and how each of the core's token kinds
/// (by the name `cmg-wasm` gives it) is encoded: the native server's legend and
/// encoding (`cmg_lsp::tables`), so that both colour a file alike.
fn legend_ts() -> Result<String, String> {
    use cmg_ide::semantic_tokens::TokenKind;
    use cmg_lsp::tables::{semantic_tokens_legend, token_encoding};

    let legend = semantic_tokens_legend();
    let quote = |items: Vec<&str>| {
        items
            .iter()
            .map(|item| format!("\"{item}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let types = quote(legend.token_types.iter().map(|t| t.as_str()).collect());
    let modifiers = quote(legend.token_modifiers.iter().map(|m| m.as_str()).collect());
    let mut ts = String::from(
        "// Generated by `cargo xtask codegen` from the native server's legend; do not edit.\n\n",
    );
    let _ = writeln!(
        ts,
        "/** The semantic tokens' legend, as the native server announces it. */\nexport const LEGEND = {{\n  tokenTypes: [{types}],\n  tokenModifiers: [{modifiers}],\n}};\n"
    );
    let _ = writeln!(
        ts,
        "/** A token kind of the core (`cmg-wasm`'s names): its type's index and modifier bits, or null for a kind left to the grammar. */"
    );
    let _ = writeln!(
        ts,
        "export const ENCODING: Record<string, readonly [number, number] | null> = {{"
    );
    for &kind in TokenKind::ALL {
        let name = cmg_wasm::token_name(kind);
        match token_encoding(kind) {
            Some((index, bits)) => {
                let _ = writeln!(ts, "  \"{name}\": [{index}, {bits}],");
            }
            None => {
                let _ = writeln!(ts, "  \"{name}\": null,");
            }
        }
    }
    let _ = writeln!(ts, "}};");
    Ok(ts)
}

/// How a game ends, from `cmg_core::ending::Ending`: the fixed sentences, and the one
/// that names the player with no move, split around the player's name.
fn endings_ts(ts: &mut String) -> Result<(), String> {
    use cmg_core::ending::Ending;
    use cmg_core::explain::player_name;
    use cmg_solve::Player;

    let mut fixed = Vec::new();
    let mut no_move = None;
    for ending in Ending::ALL {
        match ending {
            Ending::NoMove(player) => {
                let text = ending.phrase();
                let name = player_name(player);
                let (before, after) = text.split_once(name).ok_or_else(|| {
                    format!("the no-move ending does not name the player: {text:?}")
                })?;
                let other = if player == Player::Mouse {
                    Player::Cat
                } else {
                    Player::Mouse
                };
                if Ending::NoMove(other).phrase()
                    != format!("{before}{}{after}", player_name(other))
                {
                    return Err(
                        "the no-move ending differs by more than the player's name".to_owned()
                    );
                }
                no_move = Some((before.to_owned(), after.to_owned()));
            }
            _ => fixed.push(format!("  {}: \"{}\",", ending.key(), ending.phrase())),
        }
    }
    let (before, after) = no_move.ok_or("`Ending::ALL` has no no-move ending")?;
    let fixed = fixed.join("\n");
    let _ = write!(
        ts,
        r#"
/** How a game ends, in the words of `cmg solve` (`cmg_core::ending`). */
export const ENDINGS = {{
{fixed}
}} as const;

/** "{before}cat{after}": the player to move has no legal move. */
export function noMove(player: "mouse" | "cat"): string {{
  return `{before}${{player}}{after}`;
}}
"#
    );
    Ok(())
}

/// A JSON value whose objects keep the order they are built in (serde_json's maps are
/// sorted), printed as `JSON.stringify(value, null, 2)` prints, which is how npm and
/// editors write `package.json`.
enum Json {
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
    Leaf(Value),
}

impl Json {
    fn object<const N: usize>(members: [(&str, Json); N]) -> Json {
        Json::Object(
            members
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect(),
        )
    }

    fn write(&self, out: &mut String, indent: &str) {
        let inner = format!("{indent}  ");
        match self {
            Json::Leaf(value) => out.push_str(&value.to_string()),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(members) if members.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push_str("[\n");
                for (index, item) in items.iter().enumerate() {
                    out.push_str(&inner);
                    item.write(out, &inner);
                    out.push_str(if index + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(indent);
                out.push(']');
            }
            Json::Object(members) => {
                out.push_str("{\n");
                for (index, (name, value)) in members.iter().enumerate() {
                    out.push_str(&inner);
                    out.push_str(&Value::from(name.as_str()).to_string());
                    out.push_str(": ");
                    value.write(out, &inner);
                    out.push_str(if index + 1 < members.len() {
                        ",\n"
                    } else {
                        "\n"
                    });
                }
                out.push_str(indent);
                out.push('}');
            }
        }
    }
}

impl From<&str> for Json {
    fn from(text: &str) -> Json {
        Json::Leaf(Value::from(text))
    }
}

/// Replaces the value at `path` (object keys from the top) in the JSON `text`, keeping
/// every other byte; the new value is indented like the line it starts on.
fn splice_json(text: &str, path: &[&str], value: &Json) -> Result<String, String> {
    let range = value_range(text, path).ok_or_else(|| format!("no value at {}", path.join(".")))?;
    let line_start = text[..range.start].rfind('\n').map_or(0, |index| index + 1);
    let indent: String = text[line_start..]
        .chars()
        .take_while(|c| *c == ' ')
        .collect();
    let mut printed = String::new();
    value.write(&mut printed, &indent);
    Ok(format!(
        "{}{printed}{}",
        &text[..range.start],
        &text[range.end..]
    ))
}

/// The byte range of the value at `path` in a JSON document, found by a scan that
/// understands just enough JSON to skip strings and nested values.
fn value_range(text: &str, path: &[&str]) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    let mut path = path;
    loop {
        let (name, rest) = path.split_first()?;
        // `at` is on the `{` of the object that holds `name`.
        if bytes.get(at) != Some(&b'{') {
            return None;
        }
        at = skip_space(bytes, at + 1);
        loop {
            let key_end = string_end(bytes, at)?;
            let key: String = serde_json::from_str(&text[at..key_end]).ok()?;
            at = skip_space(bytes, key_end);
            if bytes.get(at) != Some(&b':') {
                return None;
            }
            let start = skip_space(bytes, at + 1);
            let end = value_end(bytes, start)?;
            if key == *name {
                if rest.is_empty() {
                    return Some(start..end);
                }
                at = start;
                path = rest;
                break;
            }
            at = skip_space(bytes, end);
            match bytes.get(at) {
                Some(b',') => at = skip_space(bytes, at + 1),
                _ => return None,
            }
        }
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end of the string starting at `at` (just past its closing quote).
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut index = at + 1;
    loop {
        match bytes.get(index)? {
            b'\\' => index += 2,
            b'"' => return Some(index + 1),
            _ => index += 1,
        }
    }
}

/// The end of the value starting at `at`.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut index = at;
            loop {
                match bytes.get(index)? {
                    b'"' => {
                        index = string_end(bytes, index)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(index + 1);
                        }
                    }
                    _ => {}
                }
                index += 1;
            }
        }
        _ => {
            let mut index = at;
            while bytes.get(index).is_some_and(|byte| {
                !matches!(byte, b',' | b'}' | b']') && !byte.is_ascii_whitespace()
            }) {
                index += 1;
            }
            Some(index)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests that read the generated files wait for the one that may rewrite them.
    static FILES: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn generated_files_are_fresh() {
        let _files = FILES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let stale = run(&repository_root(), Mode::Write).unwrap();
        assert!(
            stale.is_empty(),
            "these generated files were stale and have been rewritten from the Rust tables; \
             review and commit them: {stale:?}"
        );
    }

    #[test]
    fn splicing_json_keeps_everything_else() {
        let text = "{\n  \"a\": {\"x\": [1, \"}\"], \"b\": 2},\n  \"c\": \"d\"\n}\n";
        let spliced =
            splice_json(text, &["a", "b"], &Json::Array(vec![Json::from("new")])).unwrap();
        assert_eq!(
            spliced,
            "{\n  \"a\": {\"x\": [1, \"}\"], \"b\": [\n    \"new\"\n  ]},\n  \"c\": \"d\"\n}\n"
        );
        let parsed: Value = serde_json::from_str(&spliced).unwrap();
        assert_eq!(parsed["a"]["b"][0], "new");
        assert_eq!(parsed["c"], "d");
        assert!(value_range(text, &["a", "missing"]).is_none());
        assert!(value_range(text, &["c", "deeper"]).is_none());
    }

    #[test]
    fn the_manifest_is_valid_json_with_every_setting() {
        let _files = FILES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let text =
            std::fs::read_to_string(repository_root().join("editors/vscode/package.json")).unwrap();
        let manifest: Value = serde_json::from_str(&package_json(&text).unwrap()).unwrap();
        let properties = &manifest["contributes"]["configuration"]["properties"];
        for setting in SETTINGS {
            let entry = &properties[format!("cmg.{}", setting.key)];
            assert_eq!(entry["default"], setting.default_value(), "{}", setting.key);
        }
        assert_eq!(properties["cmg.server.path"]["default"], "");
    }
}
