//! Ctrl-C (SIGINT), SIGTERM and SIGHUP during a long search: the first asks the search to stop at
//! its next step, so that the best found so far is printed and not lost; a second ends
//! the process at once, as the signal would have without this.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};

/// Which signal asked the search to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    Interrupt,
    Terminate,
    Hangup,
}

impl Signal {
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
            Signal::Hangup => "SIGHUP",
        }
    }

    /// The shell's exit code for a process ended by the signal: 128 + its number.
    pub fn exit_code(self) -> u8 {
        match self {
            Signal::Interrupt => 130,
            Signal::Terminate => 143,
            Signal::Hangup => 129,
        }
    }
}

/// The flags the handlers set.
pub struct Interrupts {
    interrupt: Arc<AtomicBool>,
    terminate: Arc<AtomicBool>,
    hangup: Arc<AtomicBool>,
}

impl Interrupts {
    /// Installs the handlers. Where one cannot be installed, that signal keeps its
    /// default (the process ends), which loses the search as before and nothing else.
    pub fn install() -> Interrupts {
        let interrupts = Interrupts {
            interrupt: Arc::default(),
            terminate: Arc::default(),
            hangup: Arc::default(),
        };
        let mut signals = vec![
            (SIGINT, &interrupts.interrupt, Signal::Interrupt.exit_code()),
            (
                SIGTERM,
                &interrupts.terminate,
                Signal::Terminate.exit_code(),
            ),
        ];
        // A closed terminal; Windows has no such signal.
        #[cfg(unix)]
        signals.push((
            signal_hook::consts::SIGHUP,
            &interrupts.hangup,
            Signal::Hangup.exit_code(),
        ));
        for (signal, flag, code) in signals {
            // The second signal finds its flag set and ends the process: the shutdown
            // is registered before the flag, so it sees the flag as the earlier one left it.
            let _ = signal_hook::flag::register_conditional_shutdown(
                signal,
                i32::from(code),
                Arc::clone(flag),
            );
            let _ = signal_hook::flag::register(signal, Arc::clone(flag));
        }
        interrupts
    }

    /// The signal received, if any (SIGTERM first, then SIGHUP, when several came).
    pub fn received(&self) -> Option<Signal> {
        if self.terminate.load(Ordering::Relaxed) {
            Some(Signal::Terminate)
        } else if self.hangup.load(Ordering::Relaxed) {
            Some(Signal::Hangup)
        } else if self.interrupt.load(Ordering::Relaxed) {
            Some(Signal::Interrupt)
        } else {
            None
        }
    }
}
