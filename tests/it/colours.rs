//! The outcome colours stay apart for people with the common colour-vision
//! deficiencies: the mouse's, the cat's and the draw's fills, in the light palette
//! (`web/src/scene.css`) and the dark one (`web/src/view.css`), seen through a
//! simulation of protanopia, deuteranopia and tritanopia (Machado, Oliveira and
//! Fernandes 2009, full severity), differ by at least `MIN_DELTA_E` in CIELAB. The node
//! shapes (square mouse start, diamond cat start, double-ringed hole) help too, but
//! every other node is told only by its colour.

/// The smallest CIE76 difference allowed between two outcome colours as seen. About 2
/// is just noticeable side by side; 20 reads as another colour at a glance, on a small
/// disc, beside others.
const MIN_DELTA_E: f64 = 20.0;

/// Linear-RGB matrices of the simulations, by deficiency.
const SIMULATIONS: [(&str, [[f64; 3]; 3]); 3] = [
    (
        "protanopia",
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ],
    ),
    (
        "deuteranopia",
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ],
    ),
    (
        "tritanopia",
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ],
    ),
];

fn stylesheet(name: &str) -> String {
    let path = format!("{}/web/src/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// The value of `property` in the first rule of `css` whose selector is `selector`.
fn colour(css: &str, selector: &str, property: &str) -> [f64; 3] {
    let start = css
        .find(&format!("{selector} {{"))
        .unwrap_or_else(|| panic!("no rule {selector}"));
    let rule = &css[start..start + css[start..].find('}').unwrap()];
    let at = rule
        .find(&format!("{property}:"))
        .unwrap_or_else(|| panic!("{selector} sets no {property}"));
    let value = rule[at + property.len() + 1..].trim_start();
    let hex = value
        .strip_prefix('#')
        .unwrap_or_else(|| panic!("{property} is not a #rrggbb colour: {value}"));
    let channel = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
    [channel(0), channel(2), channel(4)]
}

fn to_linear(c: f64) -> f64 {
    let c = c / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// CIELAB (D65) of a linear-RGB colour.
fn lab(linear: [f64; 3]) -> [f64; 3] {
    let [r, g, b] = linear.map(|c| c.clamp(0.0, 1.0));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    ]
}

fn seen(rgb: [f64; 3], matrix: Option<&[[f64; 3]; 3]>) -> [f64; 3] {
    let linear = rgb.map(to_linear);
    lab(match matrix {
        None => linear,
        Some(m) => [0, 1, 2].map(|i| (0..3).map(|j| m[i][j] * linear[j]).sum()),
    })
}

fn delta_e(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

/// Every pair of outcome colours of one palette, as each deficiency sees them.
fn too_close(palette: &str, css: &str, selector: &str) -> Vec<String> {
    let outcomes =
        ["--cmg-mouse", "--cmg-cat", "--cmg-draw"].map(|p| (p, colour(css, selector, p)));
    let mut close = Vec::new();
    let views = std::iter::once(("normal vision", None))
        .chain(SIMULATIONS.iter().map(|(name, m)| (*name, Some(m))));
    for (vision, matrix) in views {
        for (i, (a, first)) in outcomes.iter().enumerate() {
            for (b, second) in &outcomes[i + 1..] {
                let difference = delta_e(seen(*first, matrix), seen(*second, matrix));
                if difference < MIN_DELTA_E {
                    close.push(format!(
                        "{palette}, {vision}: {a} and {b} differ by {difference:.1}"
                    ));
                }
            }
        }
    }
    close
}

#[test]
fn outcome_colours_stay_apart_in_every_common_colour_vision() {
    let mut close = too_close("light", &stylesheet("scene.css"), ":root");
    close.extend(too_close("dark", &stylesheet("view.css"), "body.cmg-dark"));
    assert!(close.is_empty(), "{close:#?}");
}

/// The simulation and the difference are the ones the test relies on: red and green of
/// the same lightness are far apart to most eyes and close for a deuteranope.
#[test]
fn the_simulation_confuses_red_and_green_for_a_deuteranope() {
    let (red, green) = ([236.0, 139.0, 134.0], [124.0, 196.0, 127.0]);
    assert!(delta_e(seen(red, None), seen(green, None)) > 50.0);
    let deuteranopia = &SIMULATIONS[1].1;
    assert!(
        delta_e(
            seen(red, Some(deuteranopia)),
            seen(green, Some(deuteranopia))
        ) < 5.0
    );
}
