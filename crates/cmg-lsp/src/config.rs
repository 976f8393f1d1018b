//! The server's settings, from initialization options and `workspace/configuration`.

use serde_json::Value;

/// What the user can set; every field has a default, so partial settings work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Graphs with more nodes than this are not solved while typing (`too-large`).
    pub max_nodes: usize,
    /// The solver's memory budget in MiB: a graph whose solve would need more is not
    /// solved while typing. Checked before anything is allocated.
    pub max_solver_memory_mib: u64,
    /// Documents longer than this many bytes are not analysed at all: one diagnostic
    /// says why, and every feature answers empty.
    pub max_document_bytes: usize,
    /// At most this many diagnostics are published per file, followed by one that
    /// counts the rest.
    pub max_diagnostics: usize,
    /// Whether each node gets an inlay hint with the outcome if the mouse started there.
    pub node_hints: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_nodes: 5000,
            max_solver_memory_mib: 2048,
            max_document_bytes: 8 << 20,
            max_diagnostics: 1000,
            node_hints: true,
        }
    }
}

impl Config {
    /// Reads the settings object the editor keeps under `cmg`:
    /// `{"solver": {"maxNodes": 5000, "maxMemoryMiB": 2048}, "analysis":
    /// {"maxDocumentBytes": 8388608}, "diagnostics": {"max": 1000}, "inlayHints":
    /// {"nodes": true}}`. Dotted keys (`"solver.maxNodes"`) are accepted too, as some
    /// clients send them flat. Unknown or ill-typed values keep the current setting.
    pub fn update(&mut self, settings: &Value) {
        let lookup = |path: &[&str]| -> Option<&Value> {
            let nested = path.iter().try_fold(settings, |value, key| value.get(key));
            nested.or_else(|| settings.get(path.join(".")))
        };
        let size = |path: &[&str]| {
            lookup(path)
                .and_then(Value::as_u64)
                .map(|value| usize::try_from(value).unwrap_or(usize::MAX))
        };
        if let Some(max_nodes) = size(&["solver", "maxNodes"]) {
            self.max_nodes = max_nodes;
        }
        if let Some(mib) = lookup(&["solver", "maxMemoryMiB"]).and_then(Value::as_u64) {
            self.max_solver_memory_mib = mib;
        }
        if let Some(bytes) = size(&["analysis", "maxDocumentBytes"]) {
            self.max_document_bytes = bytes;
        }
        if let Some(max) = size(&["diagnostics", "max"]) {
            self.max_diagnostics = max;
        }
        if let Some(node_hints) = lookup(&["inlayHints", "nodes"]).and_then(Value::as_bool) {
            self.node_hints = node_hints;
        }
    }

    /// The solver's memory budget in bytes.
    pub fn solver_memory_budget(&self) -> u64 {
        self.max_solver_memory_mib.saturating_mul(1 << 20)
    }
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
                node_hints: false
            }
        );
        config.update(&json!({"solver.maxNodes": 7, "diagnostics.max": 9}));
        assert_eq!((config.max_nodes, config.max_diagnostics), (7, 9));
    }

    #[test]
    fn bad_values_keep_the_setting() {
        let mut config = Config::default();
        config.update(&json!({"solver": {"maxNodes": "many"}, "inlayHints": null, "diagnostics": {"max": -1}}));
        assert_eq!(config, Config::default());
        config.update(&json!(null));
        assert_eq!(config, Config::default());
    }
}
