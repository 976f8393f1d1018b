//! Small words shared by the commands and the reading of their input: text from a file
//! made safe to print on a terminal, and a size in bytes as a person reads it.

use std::borrow::Cow;

/// Text from a file made safe to print on a terminal, as rustc shows it: C0 controls
/// and DEL as their visible pictures (`␛`, one column, so columns stay exact), C1
/// controls, bidirectional overrides and line separators as `\u{..}`. Tabs and line
/// feeds stay (the renderer lays tabs out itself). A file can then neither move the
/// cursor, retitle the window nor write the clipboard (OSC 52).
pub fn visible(text: &str) -> Cow<'_, str> {
    let needs = |c: char| {
        (c.is_control() && c != '\t' && c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
    };
    if !text.chars().any(needs) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !needs(c) => shown.push(c),
            '\u{0}'..='\u{1f}' => shown.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
            '\u{7f}' => shown.push('␡'),
            c => {
                use std::fmt::Write as _;
                let _ = write!(shown, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(shown)
}

/// "1.6 KiB", "5.96 GiB": binary units, like the `--max-memory` sizes.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else if value < 10.0 {
        format!("{value:.1} {}", UNITS[unit])
    } else {
        format!("{value:.0} {}", UNITS[unit])
    }
}
