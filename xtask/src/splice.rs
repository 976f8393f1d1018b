//! The one way a generated part enters a file written by hand: between two marker
//! lines that stay, so that the next run finds them again.

/// `text` with what lies between the markers `start` and `end` replaced by `body`; the
/// markers stay, so the file can be generated again.
pub fn splice_between(text: &str, start: &str, end: &str, body: &str) -> Result<String, String> {
    let open = text
        .find(start)
        .ok_or_else(|| format!("no `{start}` marker"))?
        + start.len();
    let close = open
        + text[open..]
            .find(end)
            .ok_or_else(|| format!("no `{end}` marker after the start marker"))?;
    Ok(format!("{}\n{body}{}", &text[..open], &text[close..]))
}
