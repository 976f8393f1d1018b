//! code_lens: to be written.
