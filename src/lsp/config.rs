//! The server's settings, from initialization options and `workspace/configuration`.

use serde_json::Value;

/// What the user can set; every field has a default, so partial settings work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Graphs with more nodes than this are not solved while typing (`too-large`).
    pub max_nodes: usize,
    /// Whether each node gets an inlay hint with the outcome if the mouse started there.
    pub node_hints: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_nodes: 5000,
            node_hints: true,
        }
    }
}

impl Config {
    /// Reads the settings object the editor keeps under `cmg`:
    /// `{"solver": {"maxNodes": 1000}, "inlayHints": {"nodes": true}}`. Dotted keys
    /// (`"solver.maxNodes"`) are accepted too, as some clients send them flat. Unknown
    /// or ill-typed values keep the current setting.
    pub fn update(&mut self, settings: &Value) {
        let lookup = |path: &[&str]| -> Option<&Value> {
            let nested = path.iter().try_fold(settings, |value, key| value.get(key));
            nested.or_else(|| settings.get(path.join(".")))
        };
        if let Some(max_nodes) = lookup(&["solver", "maxNodes"]).and_then(Value::as_u64) {
            self.max_nodes = usize::try_from(max_nodes).unwrap_or(usize::MAX);
        }
        if let Some(node_hints) = lookup(&["inlayHints", "nodes"]).and_then(Value::as_bool) {
            self.node_hints = node_hints;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_and_dotted_settings() {
        let mut config = Config::default();
        config.update(&json!({"solver": {"maxNodes": 50}, "inlayHints": {"nodes": false}}));
        assert_eq!(
            config,
            Config {
                max_nodes: 50,
                node_hints: false
            }
        );
        config.update(&json!({"solver.maxNodes": 7}));
        assert_eq!(config.max_nodes, 7);
    }

    #[test]
    fn bad_values_keep_the_setting() {
        let mut config = Config::default();
        config.update(&json!({"solver": {"maxNodes": "many"}, "inlayHints": null}));
        assert_eq!(config, Config::default());
        config.update(&json!(null));
        assert_eq!(config, Config::default());
    }
}
