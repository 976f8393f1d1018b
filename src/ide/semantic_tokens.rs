//! semantic_tokens: to be written.
