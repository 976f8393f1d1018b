//! Scenarios of settings: a change redoes only what depends on it.

use super::*;

/// A settings change redoes only what depends on it: the live-solve limit analyses
/// every document again (here into a `too-large` note), the diagnostics cap only builds
/// the publications again, the node hints only ask the client to refresh them, and
/// equal settings do nothing at all. The lines that apply each were left alone by every
/// other test of the crate (`docs/dev/testing.md`).
#[test]
fn a_settings_change_redoes_only_what_depends_on_it() {
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    // Three repeated edges: three warnings.
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n1 -- 0\n2 -- 1\n1 -- 2\n");
    pool.drain(&mut scheduler);
    let codes = |pool: &Pool| -> Vec<String> {
        let (_, _, diagnostics) = pool.published.last().expect("published");
        diagnostics
            .iter()
            .map(|d| match &d.code {
                Some(tower_lsp_server::ls_types::NumberOrString::String(code)) => code.clone(),
                _ => String::new(),
            })
            .collect()
    };
    assert_eq!(codes(&pool), ["duplicate-edge"; 3]);
    let (published, refreshes) = (pool.published.len(), pool.refreshes);
    let settings = |pool: &mut Pool, scheduler: &mut Scheduler, value: serde_json::Value| {
        pool.feed(scheduler, Event::Settings(value));
        let asked = (pool.analyses.len(), pool.builds.len());
        pool.drain(scheduler);
        asked
    };

    // The cap: built again, not analysed again; one warning and the count of the rest.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}}),
    );
    assert_eq!(asked, (0, 1));
    assert_eq!(pool.published.len(), published + 1);
    assert_eq!(codes(&pool).len(), 2, "{:?}", codes(&pool));
    assert_eq!(pool.refreshes, refreshes, "hints refreshed for the cap");

    // The same settings again: nothing at all.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}}),
    );
    assert_eq!(asked, (0, 0));
    assert_eq!(pool.published.len(), published + 1);
    assert_eq!(pool.refreshes, refreshes);

    // The node hints: only a refresh.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}, "inlayHints": {"nodes": false}}),
    );
    assert_eq!(asked, (0, 0));
    assert_eq!(pool.refreshes, refreshes + 1);

    // The live-solve limit: analysed again, and too large to solve now.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}, "inlayHints": {"nodes": false}, "solver": {"maxNodes": 2}}),
    );
    assert_eq!(asked.0, 1, "not analysed again");
    assert!(
        codes(&pool).contains(&"too-large".to_owned()),
        "{:?}",
        codes(&pool)
    );
}
