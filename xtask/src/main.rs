//! `cargo xtask codegen [--check]`: writes the files generated from the Rust tables,
//! or with `--check` only reports which are stale (exit 1).

mod codegen;
mod codes;
mod protocol;
mod splice;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mode = match args.as_slice() {
        ["codegen"] => codegen::Mode::Write,
        ["codegen", "--check"] => codegen::Mode::Check,
        _ => {
            eprintln!("usage: cargo xtask codegen [--check]");
            return ExitCode::from(2);
        }
    };
    match codegen::run(&codegen::repository_root(), mode) {
        Ok(stale) if stale.is_empty() => ExitCode::SUCCESS,
        Ok(stale) => {
            for path in &stale {
                let verb = match mode {
                    codegen::Mode::Write => "updated",
                    codegen::Mode::Check => "stale",
                };
                eprintln!("{verb}: {path}");
            }
            match mode {
                codegen::Mode::Write => ExitCode::SUCCESS,
                codegen::Mode::Check => ExitCode::FAILURE,
            }
        }
        Err(error) => {
            eprintln!("cargo xtask codegen: {error}");
            ExitCode::from(2)
        }
    }
}
