//! Text to syntax: the lexer, the syntax tree, the parser and the line index.

mod ast;
mod heap;
mod lexer;
mod line_index;
mod parser;
mod quote;
mod spelling;
mod text_range;

pub use ast::*;
pub use heap::vec_bytes;
pub use lexer::{SyntaxKind, Token};
pub use line_index::{ColumnUnit, LineCol, LineIndex};
pub use parser::{label_value, parse_node_id};
pub use parser::{parse, Chunk, Parse, SyntaxError};
pub use quote::{quote, MAX_QUOTED_CHARS};
pub use spelling::{common_ends, within_one_edit};
pub use text_range::TextRange;
