//! The server's settings, from initialization options and `workspace/configuration`.

use cmg_core::analysis::editor_defaults;
use serde_json::Value;

/// What the user can set; every field has a default, so partial settings work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Graphs with more nodes than this are not solved while typing (`too-large`).
    pub max_nodes: usize,
    /// The server's memory budget in MiB, for the whole process: the retained analyses
    /// and solutions and the work under way share it (see [`super::scheduler`]). A solve
    /// or an analysis that would need more than is left is refused; the need is
    /// estimated before anything is allocated.
    pub max_solver_memory_mib: u64,
    /// Documents longer than this many bytes are not analysed at all: one diagnostic
    /// says why, and every feature answers empty.
    pub max_document_bytes: usize,
    /// At most this many diagnostics are published per file, followed by one that
    /// counts the rest.
    pub max_diagnostics: usize,
    /// Whether each node gets an inlay hint with the outcome if the mouse started there.
    pub node_hints: bool,
    /// Not a setting: the ceiling that the process's address-space limit puts on the
    /// budget, read when the server starts ([`address_space_cap`]).
    pub memory_cap: Option<u64>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_nodes: editor_defaults::MAX_NODES,
            max_solver_memory_mib: editor_defaults::MAX_SOLVER_MEMORY_MIB,
            max_document_bytes: editor_defaults::MAX_DOCUMENT_BYTES,
            max_diagnostics: editor_defaults::MAX_DIAGNOSTICS,
            node_hints: true,
            memory_cap: None,
        }
    }
}

/// One setting the server reads: the one home of its key, type and description.
/// `cargo xtask codegen` writes the editor's settings (VS Code's `package.json`, the
/// settings tables of the READMEs) from [`SETTINGS`]; its default comes from
/// [`Config::default`], so the two cannot disagree.
pub struct Setting {
    /// The key under the `cmg` section, dotted: `solver.maxNodes`.
    pub key: &'static str,
    pub kind: SettingKind,
    /// What the setting does, in Markdown, for the settings UI and the docs.
    pub description: &'static str,
    default: fn(&Config) -> Value,
    /// Takes the value if it has the right type; `false` keeps the current setting.
    apply: fn(&mut Config, &Value) -> bool,
}

/// The JSON type of a setting's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingKind {
    /// A whole number, at least 0.
    Integer,
    Boolean,
}

impl Setting {
    /// The value `Config::default()` holds.
    pub fn default_value(&self) -> Value {
        (self.default)(&Config::default())
    }
}

/// A non-negative integer as a size; values beyond `usize` saturate.
fn size(value: &Value) -> Option<usize> {
    value
        .as_u64()
        .map(|value| usize::try_from(value).unwrap_or(usize::MAX))
}

/// Every setting, in the order the docs list them.
pub static SETTINGS: &[Setting] = &[
    Setting {
        key: "solver.maxNodes",
        kind: SettingKind::Integer,
        description: "Graphs with more nodes than this are not solved while typing (the `too-large` note says so).",
        default: |config| config.max_nodes.into(),
        apply: |config, value| size(value).map(|max| config.max_nodes = max).is_some(),
    },
    Setting {
        key: "solver.maxMemoryMiB",
        kind: SettingKind::Integer,
        description: "The server's memory budget in MiB, shared by every open document: their analyses, their solutions and the solve under way. The analyses and solutions of the documents used least recently are let go to make room, and made again when asked for. A graph whose solve, or a document whose analysis, would need more than is left is not solved or not analysed (a `too-large` note says so); the need is estimated before anything is allocated. Under an address-space limit (`ulimit -v`) the budget stays below it.",
        default: |config| config.max_solver_memory_mib.into(),
        apply: |config, value| {
            value
                .as_u64()
                .map(|mib| config.max_solver_memory_mib = mib)
                .is_some()
        },
    },
    Setting {
        key: "analysis.maxDocumentBytes",
        kind: SettingKind::Integer,
        description: "Documents longer than this many bytes are not analysed at all: one `too-large` diagnostic says why, and the other features stay empty.",
        default: |config| config.max_document_bytes.into(),
        apply: |config, value| {
            size(value)
                .map(|bytes| config.max_document_bytes = bytes)
                .is_some()
        },
    },
    Setting {
        key: "diagnostics.max",
        kind: SettingKind::Integer,
        description: "At most this many diagnostics are shown per file, followed by one that counts the rest by code. `0` shows them all.",
        default: |config| config.max_diagnostics.into(),
        apply: |config, value| size(value).map(|max| config.max_diagnostics = max).is_some(),
    },
    Setting {
        key: "inlayHints.nodes",
        kind: SettingKind::Boolean,
        description: "Show an inlay hint next to each node with the outcome if the mouse started there: after its first mention, or at the start of its row in an adjacency literal.",
        default: |config| config.node_hints.into(),
        apply: |config, value| value.as_bool().map(|on| config.node_hints = on).is_some(),
    },
];

impl Config {
    /// Reads the settings object the editor keeps under `cmg`:
    /// `{"solver": {"maxNodes": 5000, "maxMemoryMiB": 768}, "analysis":
    /// {"maxDocumentBytes": 8388608}, "diagnostics": {"max": 1000}, "inlayHints":
    /// {"nodes": true}}`. Dotted keys (`"solver.maxNodes"`) are accepted too, as some
    /// clients send them flat. Unknown or ill-typed values keep the current setting: the
    /// initialization options go over the defaults this way, and a configuration answer
    /// over them ([`Config::answered`]).
    pub fn update(&mut self, settings: &Value) {
        for setting in SETTINGS {
            let nested = setting
                .key
                .split('.')
                .try_fold(settings, |value, key| value.get(key));
            if let Some(value) = nested.or_else(|| settings.get(setting.key)) {
                (setting.apply)(self, value);
            }
        }
    }

    /// The settings of one configuration answer, which is the whole truth: a setting it
    /// does not give (absent, `null`, of the wrong type, or no `cmg` section at all)
    /// takes its value from `self`, the defaults (with the initialization options), not
    /// from the answer before. Clients that send only the keys the user set (Neovim,
    /// Helix, eglot) undo a setting by no longer sending it.
    pub fn answered(&self, settings: &Value) -> Config {
        let mut config = self.clone();
        config.update(settings);
        config
    }

    /// Whether an analysis made under `self` holds under `other`: the settings that the
    /// analysis and its solve plan depend on (the size limit, the live-solve limit, the
    /// memory budget) are the same. The others only shape what is shown of an analysis:
    /// the diagnostics cap and the node hints.
    pub fn same_analysis(&self, other: &Config) -> bool {
        (
            self.max_document_bytes,
            self.max_nodes,
            self.solver_memory_budget(),
        ) == (
            other.max_document_bytes,
            other.max_nodes,
            other.solver_memory_budget(),
        )
    }

    /// The server's memory budget in bytes: the setting, below the address-space cap.
    pub fn solver_memory_budget(&self) -> u64 {
        let setting = self.max_solver_memory_mib.saturating_mul(1 << 20);
        self.memory_cap.map_or(setting, |cap| setting.min(cap))
    }
}

/// The share of the address space left at start that the budget may take: the rest is
/// for what the budget does not count (thread stacks, the allocator's arenas, the
/// runtime, answers being sent), which reserve address space well beyond what they use.
const ADDRESS_SPACE_SHARE: u64 = 2;

/// The ceiling an address-space limit (`RLIMIT_AS`, `ulimit -v`) puts on the memory
/// budget: half of what the limit leaves above the process's size at start. `None`
/// without a limit, or where `/proc` does not say.
pub fn address_space_cap() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    cap_from(&limits, &status)
}

/// [`address_space_cap`] from the texts of `/proc/self/limits` and `/proc/self/status`.
fn cap_from(limits: &str, status: &str) -> Option<u64> {
    let soft = limits
        .lines()
        .find_map(|line| line.strip_prefix("Max address space"))?
        .split_whitespace()
        .next()?
        .parse::<u64>()
        .ok()?;
    let size_kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmSize:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
        .unwrap_or(0);
    Some(soft.saturating_sub(size_kib.saturating_mul(1024)) / ADDRESS_SPACE_SHARE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_and_dotted_settings() {
        let mut config = Config::default();
        config.update(&json!({
            "solver": {"maxNodes": 50, "maxMemoryMiB": 10},
            "analysis": {"maxDocumentBytes": 100},
            "diagnostics": {"max": 3},
            "inlayHints": {"nodes": false}
        }));
        assert_eq!(
            config,
            Config {
                max_nodes: 50,
                max_solver_memory_mib: 10,
                max_document_bytes: 100,
                max_diagnostics: 3,
                node_hints: false,
                memory_cap: None,
            }
        );
        config.update(&json!({"solver.maxNodes": 7, "diagnostics.max": 9}));
        assert_eq!((config.max_nodes, config.max_diagnostics), (7, 9));
    }

    #[test]
    fn an_address_space_limit_caps_the_budget() {
        let limited = "Limit                     Soft Limit           Hard Limit           Units\nMax stack size            8388608              unlimited            bytes\nMax address space         1073741824           unlimited            bytes\n";
        let status = "Name:\tcmg\nVmPeak:\t  300000 kB\nVmSize:\t  262144 kB\n";
        assert_eq!(cap_from(limited, status), Some(((1 << 30) - (1 << 28)) / 2));
        let unlimited = limited.replace("1073741824", "unlimited");
        assert_eq!(cap_from(&unlimited, status), None);
        let config = Config {
            memory_cap: Some(100 << 20),
            ..Config::default()
        };
        assert_eq!(config.solver_memory_budget(), 100 << 20);
        assert_eq!(Config::default().solver_memory_budget(), 768 << 20);
    }

    #[test]
    fn each_answer_is_the_whole_truth() {
        let defaults = Config::default().answered(&json!({"diagnostics": {"max": 5}}));
        let set = defaults.answered(&json!({"analysis": {"maxDocumentBytes": 10}}));
        assert_eq!((set.max_document_bytes, set.max_diagnostics), (10, 5));
        for absent in [
            json!({"analysis": {"maxDocumentBytes": null}}),
            json!({"analysis": null}),
            json!({"analysis": {}}),
            json!({}),
            json!(null),
            json!({"analysis": {"maxDocumentBytes": "ten"}}),
        ] {
            assert_eq!(defaults.answered(&absent), defaults, "{absent}");
        }
        assert!(set.same_analysis(&set.answered(&json!({"inlayHints": {"nodes": false}}))));
        assert!(!set.same_analysis(&defaults));
        assert!(!defaults.same_analysis(&defaults.answered(&json!({"solver.maxMemoryMiB": 1}))));
        assert!(!defaults.same_analysis(&defaults.answered(&json!({"solver.maxNodes": 1}))));
    }

    #[test]
    fn bad_values_keep_the_setting() {
        let mut config = Config::default();
        config.update(&json!({"solver": {"maxNodes": "many"}, "inlayHints": null, "diagnostics": {"max": -1}}));
        assert_eq!(config, Config::default());
        config.update(&json!(null));
        assert_eq!(config, Config::default());
    }

    #[test]
    fn every_setting_reads_its_own_key_and_holds_its_default() {
        for setting in SETTINGS {
            let mut config = Config::default();
            let changed = match setting.kind {
                SettingKind::Integer => json!(7),
                SettingKind::Boolean => json!(!setting.default_value().as_bool().unwrap()),
            };
            assert_ne!(setting.default_value(), changed, "{}", setting.key);
            config.update(&json!({ setting.key: changed.clone() }));
            assert_ne!(config, Config::default(), "{} changes nothing", setting.key);
            let mut rest = config.clone();
            rest.update(&json!({ setting.key: setting.default_value() }));
            assert_eq!(
                rest,
                Config::default(),
                "{} is not its own field",
                setting.key
            );
        }
    }
}
