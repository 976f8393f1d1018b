//! Text from a file as a message quotes it: short, and with nothing a terminal, a
//! JSON reader or an editor would act on.

/// At most this many characters of a file are quoted in a message; a 2 MB unknown
/// token must not become a 2 MB message (and then one per publication and event).
pub const MAX_QUOTED_CHARS: usize = 40;

/// `text` cut to [`MAX_QUOTED_CHARS`] characters (then `…`), with control characters,
/// bidirectional overrides and line separators written as `\u{1b}`, so that what the
/// message shows is what the file holds.
pub fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len().min(4 * MAX_QUOTED_CHARS));
    for (count, c) in text.chars().enumerate() {
        if count == MAX_QUOTED_CHARS {
            quoted.push('…');
            break;
        }
        if c.is_control()
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
        {
            quoted.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            quoted.push(c);
        }
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_after_forty_characters() {
        let quoted = quote(&"é".repeat(1000));
        assert_eq!(quoted, format!("{}…", "é".repeat(MAX_QUOTED_CHARS)));
        assert_eq!(quote("short"), "short");
        assert_eq!(
            quote(&"x".repeat(MAX_QUOTED_CHARS)),
            "x".repeat(MAX_QUOTED_CHARS)
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(quote("\u{1b}]52;c;\u{7}"), "\\u{1b}]52;c;\\u{7}");
        assert_eq!(
            quote("\0\u{9b}\u{7f}\u{202e}"),
            "\\u{0}\\u{9b}\\u{7f}\\u{202e}"
        );
    }
}
