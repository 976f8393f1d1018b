//! The formats `cmg view --export` writes, chosen by the file's extension: the SVG as
//! drawn, or a PNG rasterised from that SVG by resvg with the system's fonts.

use std::path::Path;

use resvg::usvg::fontdb::{Database, Family};
use resvg::{tiny_skia, usvg};

use super::CliError;
use cmg_ide::view::svg::palette;

/// What `--export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// The format of `out`: `.svg` or `.png` (in any case), and SVG for `-`, standard
    /// output. Any other name is a usage error, found before the file is read, rather
    /// than SVG written under a name that says otherwise.
    pub fn of(out: &str) -> Result<Format, CliError> {
        if out == "-" {
            return Ok(Format::Svg);
        }
        let extension = Path::new(out).extension().and_then(|e| e.to_str());
        match extension {
            Some(e) if e.eq_ignore_ascii_case("svg") => Ok(Format::Svg),
            Some(e) if e.eq_ignore_ascii_case("png") => Ok(Format::Png),
            _ => Err(CliError(format!(
                "--export writes a .svg or a .png file (chosen by its extension), or SVG to `-`: {out} is neither"
            ))),
        }
    }
}

/// The PNG is drawn at twice the SVG's size, so that its text stays sharp on a
/// high-density screen...
const SCALE: f32 = 2.0;
/// ...but with at most this many pixels (four bytes each in memory), so that the
/// picture of a large graph is drawn smaller rather than taking gigabytes.
const MAX_PIXELS: f32 = 32.0 * 1024.0 * 1024.0;

/// `svg` (as `cmg_ide::view::svg::to_svg` draws it) as PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, CliError> {
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    if fonts.is_empty() {
        eprintln!(
            "cmg view: no fonts found on this system, so the PNG has no text (the SVG has it)"
        );
    }
    choose_sans_serif(fonts);
    let flat = resolve_custom_properties(svg);
    let tree = usvg::Tree::from_str(&flat, &options)
        .map_err(|error| CliError(format!("cannot draw the picture as PNG: {error}")))?;
    let size = tree.size();
    let scale = SCALE.min((MAX_PIXELS / (size.width() * size.height())).sqrt());
    let side = |length: f32| ((length * scale).ceil() as u32).max(1);
    let mut pixmap = tiny_skia::Pixmap::new(side(size.width()), side(size.height()))
        .ok_or_else(|| CliError("cannot draw the picture as PNG: it has no size".to_owned()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|error| CliError(format!("cannot encode the picture as PNG: {error}")))
}

/// The stylesheet's colours are custom properties (`fill: var(--cmg-mouse)`), which
/// resvg does not read: each `var(--name)` (or `var(--name, fallback)`) becomes the
/// colour the stylesheet gives `--name`, else its fallback.
fn resolve_custom_properties(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("var(") {
        let Some(length) = rest[start..].find(')') else {
            break;
        };
        let inside = &rest[start + "var(".len()..start + length];
        let (name, fallback) = match inside.split_once(',') {
            Some((name, fallback)) => (name.trim(), Some(fallback.trim())),
            None => (inside.trim(), None),
        };
        out.push_str(&rest[..start]);
        match palette(name).or(fallback) {
            Some(value) => out.push_str(value),
            None => out.push_str(&rest[start..=start + length]),
        }
        rest = &rest[start + length + 1..];
    }
    out.push_str(rest);
    out
}

/// Makes the generic `sans-serif`, the stylesheet's last resort, a family the system
/// has. fontdb names a fixed family for it (Arial), which many Linux systems lack, and
/// text in a family that is not found is left out. Failing that one: the shortest
/// proportional family with "Sans" in its name (DejaVu Sans, Noto Sans, Liberation
/// Sans), else the shortest proportional family, else any.
fn choose_sans_serif(fonts: &mut Database) {
    let default = fonts.family_name(&Family::SansSerif);
    // Each family with whether its faces are monospaced.
    let families: Vec<(bool, &str)> = fonts
        .faces()
        .flat_map(|face| {
            face.families
                .iter()
                .map(|(name, _)| (face.monospaced, name.as_str()))
        })
        .collect();
    if families.iter().any(|&(_, name)| name == default) {
        return;
    }
    let shortest = |keep: &dyn Fn(bool, &str) -> bool| {
        families
            .iter()
            .filter(|&&(monospaced, name)| keep(monospaced, name))
            .map(|&(_, name)| name)
            .min_by_key(|name| (name.len(), *name))
    };
    let chosen = shortest(&|monospaced, name| !monospaced && name.contains("Sans"))
        .or_else(|| shortest(&|monospaced, _| !monospaced))
        .or_else(|| shortest(&|_, _| true))
        .map(str::to_owned);
    if let Some(name) = chosen {
        fonts.set_sans_serif_family(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_chooses_the_format() {
        for (out, format) in [
            ("game.svg", Format::Svg),
            ("game.SVG", Format::Svg),
            ("-", Format::Svg),
            ("a/b.png", Format::Png),
            ("b.PnG", Format::Png),
        ] {
            assert_eq!(Format::of(out).unwrap(), format, "{out}");
        }
        for out in ["game.jpg", "game", "svg", "game.svg.txt", ".png"] {
            let error = Format::of(out).unwrap_err().to_string();
            assert!(error.contains(".svg") && error.contains(".png"), "{error}");
        }
    }

    #[test]
    fn custom_properties_become_the_stylesheet_colours() {
        let css = "a { fill: var(--cmg-mouse); stroke: var(--none, #123456); x: var(--none) }";
        let mouse = palette("--cmg-mouse").unwrap();
        assert_eq!(
            resolve_custom_properties(css),
            format!("a {{ fill: {mouse}; stroke: #123456; x: var(--none) }}")
        );
        assert_eq!(resolve_custom_properties("var(--cmg-cat"), "var(--cmg-cat");
    }
}
