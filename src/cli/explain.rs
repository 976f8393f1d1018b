//! `cmg explain CODE`: a diagnostic code's section of `docs/diagnostics.md`, which is
//! compiled in, so the documentation is there offline and says the same as the page.

use std::process::ExitCode;

use super::{CliError, CliResult};
use cmg_core::model::Code;

const DIAGNOSTICS_MD: &str = include_str!("../../docs/diagnostics.md");

pub fn run(code: Option<&str>, list: bool) -> CliResult {
    if list {
        let mut text = String::new();
        for code in Code::ALL {
            text.push_str(&format!(
                "{:<18} {}\n",
                code.as_str(),
                code.severity().as_str()
            ));
        }
        super::output::print(&text);
        return Ok(ExitCode::SUCCESS);
    }
    let Some(code) = code else {
        return Err(CliError(
            "`cmg explain` needs a code, such as `cmg explain self-loop`; `cmg explain --list` names them all"
                .to_owned(),
        ));
    };
    // `SELF-LOOP`, `self_loop` and `selfloop` all mean `self-loop`.
    let meant = Code::ALL
        .iter()
        .map(|known| known.as_str())
        .find(|known| squashed(known) == squashed(code));
    match meant.and_then(|known| section(DIAGNOSTICS_MD, known)) {
        Some(text) => {
            super::output::print(&text);
            Ok(ExitCode::SUCCESS)
        }
        None => {
            // A slip of one letter, or two swapped (`slef-loop`), names the code meant.
            let near = Code::ALL
                .iter()
                .map(|known| known.as_str())
                .find(|known| cmg_syntax::within_one_edit(&squashed(code), &squashed(known)));
            let hint = match near {
                Some(known) => format!("did you mean `{known}`? "),
                None => String::new(),
            };
            Err(CliError(format!(
                "no diagnostic has the code {code:?}: {hint}`cmg explain --list` names them all"
            )))
        }
    }
}

/// A code in lower case without its separators, for comparing what was typed.
fn squashed(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The `## code` section of the page, up to the next `## ` heading. The fences' test
/// annotations (` ```cmg check=... `) are for the documentation's test, not for readers.
pub fn section(page: &str, code: &str) -> Option<String> {
    let heading = format!("## {code}");
    let mut lines = page.lines().skip_while(|line| line.trim_end() != heading);
    let first = lines.next()?;
    let mut text = format!("{first}\n");
    for line in lines.take_while(|line| !line.starts_with("## ")) {
        let line = match line.strip_prefix("```cmg ") {
            Some(_) => "```cmg",
            None => line,
        };
        text.push_str(line);
        text.push('\n');
    }
    Some(format!("{}\n", text.trim_end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_section() {
        for code in Code::ALL {
            let text = section(DIAGNOSTICS_MD, code.as_str())
                .unwrap_or_else(|| panic!("docs/diagnostics.md has no section for {code}"));
            assert!(
                text.contains(&format!("**Severity:** {}", code.severity().as_str())),
                "the section of {code} names another severity:\n{text}"
            );
        }
    }

    #[test]
    fn a_section_ends_at_the_next_heading() {
        let page = "# T\n## a\nx\n```cmg check=a\n1\n```\n## b\ny\n";
        assert_eq!(section(page, "a").unwrap(), "## a\nx\n```cmg\n1\n```\n");
        assert_eq!(section(page, "b").unwrap(), "## b\ny\n");
        assert_eq!(section(page, "c"), None);
    }
}
