//! The languages the judge runs, and the shape of the code each must have.

use std::path::Path;

use super::super::CliError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    Py,
    Js,
    Cpp,
    Java,
    Rust,
    Go,
    C,
}

impl Lang {
    /// The language of a file name's extension.
    pub fn of_path(path: &str) -> Option<Lang> {
        match Path::new(path).extension()?.to_str()? {
            "py" => Some(Lang::Py),
            "js" | "mjs" | "cjs" => Some(Lang::Js),
            "cpp" | "cc" | "cxx" | "c++" => Some(Lang::Cpp),
            "java" => Some(Lang::Java),
            "rs" => Some(Lang::Rust),
            "go" => Some(Lang::Go),
            "c" => Some(Lang::C),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::Py => "Python 3",
            Lang::Js => "JavaScript",
            Lang::Cpp => "C++",
            Lang::Java => "Java",
            Lang::Rust => "Rust",
            Lang::Go => "Go",
            Lang::C => "C",
        }
    }
}

/// What the code must define for the harness to call it, checked before anything is
/// built: a file in another shape (a script that reads its input, a bare function)
/// would otherwise look like a wrong answer.
pub fn check_shape(lang: Lang, source: &str) -> Result<(), CliError> {
    let has = |word: &str| source.contains(word);
    let (ok, expected, example) = match lang {
        Lang::Py => (
            has("class Solution") && has("def catMouseGame"),
            "a class `Solution` with a method `catMouseGame(self, graph)`",
            "class Solution:\n    def catMouseGame(self, graph: List[List[int]]) -> int:",
        ),
        Lang::Js => (
            has("function catMouseGame") || has("catMouseGame =") || has("catMouseGame="),
            "a function `catMouseGame(graph)`",
            "var catMouseGame = function(graph) {\n    ...",
        ),
        Lang::Cpp => (
            (has("class Solution") || has("struct Solution")) && has("catMouseGame"),
            "a class `Solution` with a member `int catMouseGame(vector<vector<int>>& graph)`",
            "class Solution {\npublic:\n    int catMouseGame(vector<vector<int>>& graph) {",
        ),
        Lang::Java => (
            has("class Solution") && has("catMouseGame"),
            "a class `Solution` with a method `int catMouseGame(int[][] graph)`",
            "class Solution {\n    public int catMouseGame(int[][] graph) {",
        ),
        Lang::Go => (
            has("func catMouseGame("),
            "a function `func catMouseGame(graph [][]int) int`",
            "func catMouseGame(graph [][]int) int {",
        ),
        Lang::C => (
            has("catMouseGame("),
            "a function `int catMouseGame(int** graph, int graphSize, int* graphColSize)`",
            "int catMouseGame(int** graph, int graphSize, int* graphColSize) {",
        ),
        Lang::Rust => (
            has("impl Solution") && has("fn cat_mouse_game"),
            "`impl Solution` with `pub fn cat_mouse_game(graph: Vec<Vec<i32>>) -> i32`",
            "impl Solution {\n    pub fn cat_mouse_game(graph: Vec<Vec<i32>>) -> i32 {",
        ),
    };
    if ok {
        return Ok(());
    }
    let what = if source.trim().is_empty() {
        "the file is empty"
    } else {
        "the file does not define it"
    };
    Err(CliError(format!(
        "the judge calls the solution as LeetCode does, so the {} file must define {expected}; {what}. It starts like this:\n{example}",
        lang.name()
    )))
}
