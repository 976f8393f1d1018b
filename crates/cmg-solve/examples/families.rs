//! Writes the benchmark graph families as `.cmg` files, and solves one in process with a chosen engine, for comparisons outside criterion.
//!
//! `cargo run --release -p cmg-solve --features test-support --example families -- write DIR` writes
//! `DIR/FAMILY-N-DEGREE.cmg` for every family at n = 200, 2000, 5000 and degrees 6 and 8
//! (the graphs of `benches/solve.rs`); `... -- solve FAMILY N DEGREE [ENGINE [THREADS]]`
//! (ENGINE: `queue`, `rounds`, `hybrid` or `switchN`, rounds up to N then the queue)
//! solves one of them (`RUNS` times) and prints the wins, draws, sum of moves, the best wall
//! time and the solving thread's best CPU time (pass 1 thread for that to be all of it).

#[path = "../../../benches/common/graphs.rs"]
mod graphs;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use cmg_solve::{solve_with, Config, Engine, Game, Outcome, Player, Position};
use graphs::Family;

const SIZES: [usize; 3] = [200, 2000, 5000];
const DEGREES: [usize; 2] = [6, 8];

/// The calling thread's CPU time so far (Linux: the first field of `/proc/thread-self/schedstat`, in ns; 0 elsewhere).
fn thread_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("write") if args.len() == 2 => {
            let dir = std::path::Path::new(&args[1]);
            std::fs::create_dir_all(dir).expect("the output folder");
            for family in Family::ALL {
                for n in SIZES {
                    for degree in DEGREES {
                        let text = family.cmg(n, degree, family.seed(n, degree));
                        let path = dir.join(format!("{}-{n}-{degree}.cmg", family.name()));
                        std::fs::write(&path, text).expect("a written file");
                    }
                }
            }
        }
        Some("solve") if args.len() >= 4 => {
            let family = Family::from_name(&args[1]).expect("a family name");
            let n: usize = args[2].parse().expect("a node count");
            let degree: usize = args[3].parse().expect("a degree");
            let engine = match args.get(4).map(String::as_str) {
                None | Some("hybrid") => Engine::Hybrid,
                Some("queue") => Engine::Queue,
                Some("rounds") => Engine::Rounds,
                Some(other) if other.starts_with("switch") => {
                    Engine::SwitchAfter(other[6..].parse().expect("switchN: a round"))
                }
                Some(other) => panic!("unknown engine {other}"),
            };
            let threads = args.get(5).map(|t| t.parse().expect("a thread count"));
            let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
            let game = Game::new(&family.adjacency(n, degree, family.seed(n, degree)), Some(0));
            let config = Config { engine, threads };
            let mut best = f64::MAX;
            let mut best_cpu = f64::MAX;
            let mut solution = None;
            for _ in 0..runs {
                let start = Instant::now();
                let cpu = thread_cpu_seconds();
                solution = solve_with(&game, config, &AtomicBool::new(false));
                best_cpu = best_cpu.min(thread_cpu_seconds() - cpu);
                best = best.min(start.elapsed().as_secs_f64());
            }
            let solution = solution.expect("not cancelled");
            let (mut mouse, mut cat, mut draws, mut moves) = (0u64, 0u64, 0u64, 0u64);
            for m in 0..n as u32 {
                for c in 0..n as u32 {
                    if Some(c) == game.hole() {
                        continue;
                    }
                    for turn in [Player::Mouse, Player::Cat] {
                        let pos = Position { mouse: m, cat: c, turn };
                        match solution.outcome(pos) {
                            Outcome::MouseWins => mouse += 1,
                            Outcome::CatWins => cat += 1,
                            Outcome::Draw => draws += 1,
                        }
                        moves += u64::from(solution.moves_to_end(pos).unwrap_or(0));
                    }
                }
            }
            println!(
                "mouse {mouse} cat {cat} draw {draws} moves {moves} best {:.3} ms, this thread's CPU {:.3} ms",
                best * 1e3,
                best_cpu * 1e3
            );
        }
        _ => eprintln!("usage: families write DIR | families solve FAMILY N DEGREE [queue|rounds|hybrid|switchN [THREADS]]"),
    }
}
