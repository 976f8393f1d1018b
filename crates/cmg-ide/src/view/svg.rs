//! The scene as a standalone SVG picture (`cmg view --export`): the elements and data attributes the web UI draws, with its stylesheet inlined, and a legend.

use std::fmt::Write as _;

use super::{role_word, Scene, SceneEdge, SceneNode};
use cmg_core::analysis::outcome_keyword;
use cmg_core::model::NodeRole;
use cmg_solve::Outcome;

/// The web UI's stylesheet for the picture: one home for colours and shapes, shared
/// by the page and by exported pictures.
pub const STYLESHEET: &str = include_str!("../../../../web/src/scene.css");

/// The colour the stylesheet gives a custom property (`--cmg-mouse`), so that pictures
/// drawn without CSS (`cmg dot`) use the page's palette; `None` if it has none.
pub fn palette(property: &str) -> Option<&'static str> {
    STYLESHEET.lines().find_map(|line| {
        let value = line.trim().strip_prefix(property)?.strip_prefix(':')?;
        Some(value.trim().trim_end_matches(';').trim())
    })
}

/// The palette colour of an outcome.
pub fn outcome_colour(outcome: Outcome) -> &'static str {
    let property = match outcome {
        Outcome::MouseWins => "--cmg-mouse",
        Outcome::CatWins => "--cmg-cat",
        Outcome::Draw => "--cmg-draw",
    };
    palette(property).expect("scene.css defines a colour for every outcome")
}

/// Radius of a node's shape, in pixels. The web UI draws with its own copy
/// (`web/src/render.ts`), which a test in `view/tests.rs` keeps equal to this one.
pub const NODE_RADIUS: f64 = 18.0;

/// The arrowhead of a one-way edge, one definition for the page (`web/src/render.ts`
/// holds the same text, which a test in `view/tests.rs` checks) and the export: a
/// triangle 10 px long and 10 px wide whose tip touches the circle of the end node's
/// shape ([`NODE_RADIUS`] from its centre), in the edges' colour. A highlighted edge
/// has the same arrowhead in its own colour: [`arrow_markers`].
pub const ARROW_MARKER: &str = r#"<marker id="cmg-arrow" class="arrow" viewBox="0 0 10 10" refX="28" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker>"#;

/// The looks of a highlighted edge that the export draws, each with an arrowhead of its
/// colour (`.arrow[data-look="LOOK"]` in the stylesheet): the page adds `last`, the
/// last move's edge (`ARROW_LOOKS` in `web/src/render.ts`).
pub const ARROW_LOOKS: [&str; 2] = ["critical", "flagged"];

/// The arrowheads: [`ARROW_MARKER`], and one marker `cmg-arrow-LOOK` with
/// `data-look="LOOK"` for each of [`ARROW_LOOKS`].
pub fn arrow_markers() -> String {
    let mut markers = ARROW_MARKER.to_owned();
    for look in ARROW_LOOKS {
        markers.push_str(&ARROW_MARKER.replace(
            r#"id="cmg-arrow""#,
            &format!(r#"id="cmg-arrow-{look}" data-look="{look}""#),
        ));
    }
    markers
}

/// The look of an edge's line as the stylesheet draws it, `None` for a plain edge: a
/// flagged edge's dashes win over a critical edge's colour.
pub fn edge_look(edge: &SceneEdge) -> Option<&'static str> {
    if edge.flagged {
        Some("flagged")
    } else if edge.critical {
        Some("critical")
    } else {
        None
    }
}

/// The attributes of a one-way edge's line: its mark, and its arrowhead in the line's
/// colour ([`arrow_markers`]); empty for an edge.
pub fn one_way_attributes(edge: &SceneEdge) -> String {
    if !edge.one_way {
        return String::new();
    }
    let suffix = edge_look(edge)
        .map(|look| format!("-{look}"))
        .unwrap_or_default();
    format!(r#" data-one-way="true" marker-end="url(#cmg-arrow{suffix})""#)
}

/// Room around the nodes, and for the legend below them.
const MARGIN: f64 = 40.0;
const LEGEND_HEIGHT: f64 = 70.0;
/// A line more for the layout's note, when there is one.
const NOTE_HEIGHT: f64 = 24.0;

/// Outcomes with their legend text, in legend order; the class is the scene's word.
const OUTCOMES: [(Outcome, &str); 3] = [
    (Outcome::MouseWins, "mouse wins"),
    (Outcome::CatWins, "cat wins"),
    (Outcome::Draw, "draw"),
];

/// Where the legend starts, right of the picture's left edge, and the room kept right
/// of its longest line.
const LEGEND_INSET: f64 = 10.0;

/// The width of `text` at the stylesheet's 13 px, a little generous so that no font
/// cuts it: 8 px a character, 13 px for a wide one (CJK, emoji).
fn text_width(text: &str) -> f64 {
    text.chars()
        .map(|c| if c.len_utf8() >= 3 { 13.0 } else { 8.0 })
        .sum()
}

pub fn to_svg(scene: &Scene) -> String {
    let [x0, y0, x1, y1] = scene.bounds;
    let (left, top) = (x0 - MARGIN, y0 - MARGIN);
    let legend = Legend::of(scene);
    // As wide as the nodes or the legend, whichever is wider: no caption is cut.
    let width = (x1 - x0 + 2.0 * MARGIN).max(2.0 * LEGEND_INSET + legend.width());
    let note = NOTE_HEIGHT * legend.notes.len() as f64;
    let height = y1 - y0 + 2.0 * MARGIN + LEGEND_HEIGHT + note;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="cmg-scene" viewBox="{left} {top} {width} {height}" width="{width}" height="{height}" role="img" aria-label="{}">"#,
        escape(&format!("Cat and Mouse game: {}", scene.summary))
    );
    let _ = writeln!(svg, "<style>\n{STYLESHEET}</style>");
    let _ = writeln!(
        svg,
        r#"<rect class="background" x="{left}" y="{top}" width="{width}" height="{height}"/>"#
    );
    if scene.edges.iter().any(|edge| edge.one_way) {
        let _ = writeln!(svg, "<defs>{}</defs>", arrow_markers());
    }
    svg.push_str("<g class=\"edges\">\n");
    let places: std::collections::HashMap<u32, (f64, f64)> =
        scene.nodes.iter().map(|n| (n.id, (n.x, n.y))).collect();
    let position = |id: u32| places.get(&id).copied();
    for edge in &scene.edges {
        let (Some((xa, ya)), Some((xb, yb))) = (position(edge.a), position(edge.b)) else {
            continue;
        };
        let _ = writeln!(
            svg,
            r#"<line class="edge" data-edge="{}-{}" data-critical="{}"{}{} x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}"/>"#,
            edge.a,
            edge.b,
            edge.critical,
            flag(edge.flagged),
            one_way_attributes(edge)
        );
    }
    svg.push_str("</g>\n<g class=\"nodes\">\n");
    for node in &scene.nodes {
        write_node(&mut svg, node);
    }
    svg.push_str("</g>\n");
    legend.write(&mut svg, left + LEGEND_INSET, y1 + MARGIN + 10.0);
    svg.push_str("</svg>\n");
    svg
}

fn flag(flagged: bool) -> &'static str {
    if flagged {
        r#" data-flagged="true""#
    } else {
        ""
    }
}

/// One node: its shape by role, its id, and its label below.
fn write_node(svg: &mut String, node: &SceneNode) {
    let outcome = node
        .outcome
        .map(|o| format!(r#" data-outcome="{o}""#))
        .unwrap_or_default();
    let also = if node.also.is_empty() {
        String::new()
    } else {
        format!(r#" data-also="{}""#, node.also.join(" "))
    };
    let _ = writeln!(
        svg,
        r#"<g class="node" data-node="{}" data-role="{}"{also}{outcome}{} transform="translate({} {})">"#,
        node.id,
        node.role,
        flag(node.flagged),
        node.x,
        node.y
    );
    let _ = writeln!(svg, "{}", node_shape(node.role, &node.also));
    let _ = writeln!(svg, r#"<text class="id">{}</text>"#, node.id);
    if let Some(label) = &node.label {
        let _ = writeln!(
            svg,
            r#"<text class="label" y="{}">{}</text>"#,
            NODE_RADIUS + 14.0,
            escape(label)
        );
    }
    svg.push_str("</g>\n");
}

/// The shape of a node with all its roles (`role`, then `also`): a start's outline, with
/// the hole's ring inside when the node is a hole too; a node where both players start
/// has the mouse's square on the left and the cat's diamond on the right, halves of one
/// outline (the side each player's token is drawn on); a node of one role has
/// [`shape`]'s. The page draws the same (`nodeLook` in `web/src/scene.ts`, drawn by
/// `shape` in `web/src/render.ts` and `shapePath` in `web/src/canvas.ts`).
pub fn node_shape(role: &str, also: &[&str]) -> String {
    let has = |wanted: &str| role == wanted || also.contains(&wanted);
    let outline = match (has("mouse"), has("cat")) {
        (true, true) => "starts",
        (true, false) => "mouse",
        (false, true) => "cat",
        (false, false) => role,
    };
    let mut drawn = shape(outline);
    if outline != "hole" && has("hole") {
        let _ = write!(drawn, r#"<circle class="ring" r="{}"/>"#, NODE_RADIUS - 5.0);
    }
    drawn
}

/// The shape of a node by its role: a double circle for the hole, a square for the
/// mouse's start, a diamond for the cat's, the square's left half joined to the
/// diamond's right half for `starts` (both players start there), a circle for the others.
pub fn shape(role: &str) -> String {
    let r = NODE_RADIUS;
    match role {
        "hole" => format!(
            r#"<circle class="shape" r="{r}"/><circle class="ring" r="{}"/>"#,
            r - 5.0
        ),
        "mouse" => format!(
            r#"<rect class="shape" x="{}" y="{}" width="{}" height="{}" rx="3"/>"#,
            -r,
            -r,
            2.0 * r,
            2.0 * r
        ),
        "cat" => {
            let d = r * 1.3;
            format!(
                r#"<polygon class="shape" points="0,{} {d},0 0,{d} {},0"/>"#,
                -d, -d
            )
        }
        "starts" => {
            let d = r * 1.3;
            format!(
                r#"<polygon class="shape" points="{m},{m} 0,{m} 0,{} {d},0 0,{d} 0,{r} {m},{r}"/>"#,
                -d,
                m = -r
            )
        }
        _ => format!(r#"<circle class="shape" r="{r}"/>"#),
    }
}

/// The legend below the picture: the outcome in words, a row of outcome swatches (and
/// the critical edges' mark when some are drawn), a row of roles, and the layout's
/// note; each swatch is an element with `data-legend`. A file with rules has its game in
/// words below the rows, in the hover's words.
struct Legend {
    summary: String,
    /// Each row's entries: the swatch's SVG (`{Y}` for the row's height) and its text.
    rows: [Vec<(String, String)>; 2],
    /// The lines below the rows: the game when it has rules, the layout's note.
    notes: Vec<String>,
}

/// The room of one swatch and the gap after its text, in a row.
const SWATCH_ROOM: f64 = 20.0;
const ENTRY_GAP: f64 = 24.0;

impl Legend {
    fn of(scene: &Scene) -> Legend {
        let mut outcomes: Vec<(String, String)> = OUTCOMES
            .iter()
            .map(|&(outcome, text)| {
                let outcome = outcome_keyword(outcome);
                (
                    format!(
                        r#"<g class="swatch" data-legend="{outcome}" data-outcome="{outcome}" transform="translate(8 {{Y}}) scale(0.5)"><circle class="shape" r="{NODE_RADIUS}"/></g>"#
                    ),
                    text.to_owned(),
                )
            })
            .collect();
        if scene.edges.iter().any(|edge| edge.critical) {
            outcomes.push((
                r#"<g class="swatch" data-legend="critical" transform="translate(8 {Y})"><line class="critical-mark" x1="-8" y1="0" x2="8" y2="0"/></g>"#.to_owned(),
                "critical edge".to_owned(),
            ));
        }
        if scene.edges.iter().any(|edge| edge.one_way) {
            // The arrowhead as the marker draws it, on a short line, clear of the text.
            outcomes.push((
                r#"<g class="swatch" data-legend="one-way" transform="translate(0 {Y})"><line class="edge" x1="0" y1="0" x2="8" y2="0"/><path class="arrow" d="M6,-5 L16,0 L6,5 z"/></g>"#.to_owned(),
                "one-way edge".to_owned(),
            ));
        }
        // The roles in the model's order, named as the scene names them, with the nodes
        // that have them in the file's game.
        let roles = NodeRole::ALL
            .into_iter()
            .map(|node_role| {
                let role = role_word(node_role);
                let ids: Vec<String> = match (&scene.rules, node_role) {
                    (None, _) => vec![node_role.id().to_string()],
                    (Some(rules), NodeRole::Hole) => {
                        rules.holes.iter().map(u32::to_string).collect()
                    }
                    (Some(rules), NodeRole::MouseStart) => vec![rules.mouse.to_string()],
                    (Some(rules), NodeRole::CatStart) => vec![rules.cat.to_string()],
                };
                (
                    format!(
                        r#"<g class="swatch" data-legend="{role}" data-role="{role}" transform="translate(8 {{Y}}) scale(0.5)">{}</g>"#,
                        shape(role)
                    ),
                    format!("{} ({})", node_role.name(), ids.join(", ")),
                )
            })
            .collect();
        let game = scene.rules.as_ref().map(|rules| rules.game.clone());
        Legend {
            summary: format!("outcome: {}", scene.summary),
            rows: [outcomes, roles],
            notes: game.into_iter().chain(scene.layout_note.clone()).collect(),
        }
    }

    /// Each entry of a row with the x where it starts.
    fn placed(row: &[(String, String)]) -> impl Iterator<Item = (f64, &String, &String)> {
        row.iter().scan(0.0, |x, (swatch, text)| {
            let at = *x;
            *x += SWATCH_ROOM + text_width(text) + ENTRY_GAP;
            Some((at, swatch, text))
        })
    }

    /// The width of the widest line.
    fn width(&self) -> f64 {
        let rows = self.rows.iter().map(|row| {
            Legend::placed(row)
                .last()
                .map_or(0.0, |(x, _, text)| x + SWATCH_ROOM + text_width(text))
        });
        let captions = std::iter::once(&self.summary)
            .chain(&self.notes)
            .map(|text| text_width(text));
        rows.chain(captions).fold(0.0, f64::max)
    }

    fn write(&self, svg: &mut String, x: f64, y: f64) {
        let _ = writeln!(
            svg,
            r#"<g class="legend" transform="translate({x} {y})"><text class="summary" x="0" y="0">{}</text>"#,
            escape(&self.summary)
        );
        for (row, swatch_y) in self.rows.iter().zip([24.0, 50.0]) {
            for (at, swatch, text) in Legend::placed(row) {
                let _ = writeln!(
                    svg,
                    r#"<g transform="translate({at} 0)">{}<text x="{SWATCH_ROOM}" y="{}">{}</text></g>"#,
                    swatch.replace("{Y}", &swatch_y.to_string()),
                    swatch_y + 4.0,
                    escape(text)
                );
            }
        }
        for (note, y) in self
            .notes
            .iter()
            .zip((0..).map(|line| f64::from(line) * NOTE_HEIGHT))
        {
            let _ = writeln!(
                svg,
                r#"<text class="note" x="0" y="{}">{}</text>"#,
                LEGEND_HEIGHT + 8.0 + y,
                escape(note)
            );
        }
        svg.push_str("</g>\n");
    }
}

/// Text for SVG content and attribute values.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            // Control characters are not allowed in XML 1.0 (nor are the noncharacters
            // U+FFFE and U+FFFF): a label holding one must not make the picture unreadable.
            c if c.is_control() => escaped.push(' '),
            '\u{fffe}' | '\u{ffff}' => escaped.push('\u{fffd}'),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::to_svg;
    use crate::view::{scene, Positions};
    use cmg_core::analysis::Analysis;

    /// Every label a file can hold gives a picture that an XML parser reads, with the
    /// label's allowed characters kept.
    #[test]
    fn any_label_gives_well_formed_xml() {
        let labels = [
            "\u{fffe}\u{ffff}",
            "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1b}[2J\u{7f}\u{85}\u{9b}",
            "tab\there",
            "<&>'\\\"",
            "]]><!-- -->",
            "\u{d7ff}\u{e000}\u{fffd}\u{10ffff}",
        ];
        for label in labels {
            let text = format!("0 -- 1 -- 2\nnode 1 \"keep {label}\"\n");
            let analysis = Analysis::new(text);
            let picture = to_svg(&scene(&analysis, None, &Positions::new()));
            let document = roxmltree::Document::parse(&picture)
                .unwrap_or_else(|error| panic!("{label:?}: {error}"));
            assert!(
                document
                    .descendants()
                    .any(|node| node.text().is_some_and(|text| text.contains("keep"))),
                "{label:?}: the label is gone"
            );
        }
    }
}
