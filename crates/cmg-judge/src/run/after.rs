//! The run after a failure: the failure verified from a fresh start, shrunk (or, when
//! it needs earlier graphs, the shortest sequence of them found), explained by a cause
//! checked on every graph run, and located on the optimal line.

use super::*;

impl Run<'_> {
    /// Verifies `finding` from a fresh start, shrinks it or finds the earlier graphs it
    /// needs; then, for a wrong answer that reproduces alone, checks a cause and finds
    /// the last position on the optimal line that the solution gets wrong.
    pub(super) async fn after(
        &mut self,
        finding: Finding,
        prior: Vec<Lists>,
        report: &mut Report,
        seed: u64,
    ) {
        report.finding = Some(finding.clone());
        if finding.verdict == Verdict::TimeLimit {
            // Tried twice already, the second time from a fresh start; every shrinking
            // try would wait for the limit.
            report.reproduced = Some(true);
            return;
        }
        if !self.host.go_on(Phase::After) {
            return;
        }
        let fresh = self.fresh(&[], &finding.graph).await;
        if self.host.stopped() {
            return;
        }
        let alone = fresh
            .as_ref()
            .is_some_and(|again| again.same_failure(&finding));
        if alone {
            let shrunk = self.shrink(finding.clone()).await;
            // The shrunk graph once more from a fresh start: it is the report only if it
            // fails there too.
            let again = self.fresh(&[], &shrunk.graph).await;
            if self.host.stopped() {
                report.finding = Some(shrunk);
                return;
            }
            if again.is_some_and(|again| again.same_failure(&shrunk)) {
                report.reproduced = Some(true);
                report.finding = Some(shrunk);
            } else {
                let again = self.fresh(&[], &finding.graph).await;
                report.reproduced = Some(again.is_some_and(|again| again.same_failure(&finding)));
            }
        } else {
            self.sequence(&finding, prior, report).await;
        }
        let Some(finding) = report.finding.clone() else {
            return;
        };
        if finding.verdict != Verdict::WrongAnswer
            || report.sequence.is_some()
            || report.reproduced != Some(true)
        {
            return;
        }
        report.cause = self.cause(&finding, seed).await;
        if !self.host.stopped() && self.host.go_on(Phase::After) {
            report.wrong_at = self.wrong_at(&finding.graph).await;
        }
    }

    /// The failure on `graph` after `before`, all from a fresh start; `None` after a
    /// signal, or when it passes.
    async fn fresh(&mut self, before: &[Lists], graph: &[Vec<u32>]) -> Option<Finding> {
        self.restart().await;
        for earlier in before {
            if self.host.stopped() {
                return None;
            }
            // What it answers before does not matter; that it goes on answering does.
            if !matches!(self.ask(earlier).await, Answer::Value(_)) {
                self.restart().await;
                return None;
            }
        }
        self.try_graph(graph).await
    }

    /// Removes edges and nodes while the solution still fails the same way and the graph
    /// meets the constraints; stops where no single removal keeps it failing, or when
    /// the budget is spent, with the smallest graph so far.
    async fn shrink(&mut self, mut finding: Finding) -> Finding {
        loop {
            let candidates = graphs::removals(&finding.graph);
            let count = candidates.len();
            let mut smaller = None;
            for (tried, candidate) in candidates.into_iter().enumerate() {
                if self.host.stopped() || !self.host.go_on(Phase::After) {
                    return finding;
                }
                self.host.progress(&format!(
                    "shrinking a {}-node counterexample: removal {} of {count}",
                    finding.graph.len(),
                    tried + 1
                ));
                if let Some(found) = self.try_graph(&candidate).await {
                    if found.verdict == finding.verdict {
                        self.host.failed(&found);
                        smaller = Some(found);
                        break;
                    }
                }
            }
            match smaller {
                Some(found) => finding = found,
                None => return finding,
            }
        }
    }

    /// Whether `finding` fails the same way after `before`, from a fresh start (`None`
    /// when the budget is spent or a signal came).
    async fn fails_after(&mut self, finding: &Finding, before: &[Lists]) -> Option<bool> {
        if self.host.stopped() || !self.host.go_on(Phase::After) {
            return None;
        }
        self.host.progress(&format!(
            "the failure needs earlier graphs: trying {} of them",
            before.len()
        ));
        Some(
            self.fresh(before, &finding.graph)
                .await
                .is_some_and(|again| again.same_failure(finding)),
        )
    }

    /// The failure passes from a fresh start: the shortest sequence of the graphs before
    /// it after which it fails (a 1-minimal one, by delta debugging), checked once more.
    async fn sequence(&mut self, finding: &Finding, prior: Vec<Lists>, report: &mut Report) {
        // The whole history first: without it reproducing, the solution is not
        // deterministic.
        if self.fails_after(finding, &prior).await != Some(true) {
            report.reproduced = Some(false).filter(|_| !self.host.stopped());
            return;
        }
        let mut items = prior;
        let mut parts = 2usize;
        'outer: while items.len() >= 2 {
            let chunk = items.len().div_ceil(parts);
            let chunks: Vec<Vec<Lists>> = items.chunks(chunk).map(<[Lists]>::to_vec).collect();
            for (i, part) in chunks.iter().enumerate() {
                match self.fails_after(finding, part).await {
                    None => break 'outer,
                    Some(true) => {
                        items = part.clone();
                        parts = 2;
                        continue 'outer;
                    }
                    Some(false) => {}
                }
                if chunks.len() > 2 {
                    let rest: Vec<Lists> = chunks
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .flat_map(|(_, c)| c.iter().cloned())
                        .collect();
                    match self.fails_after(finding, &rest).await {
                        None => break 'outer,
                        Some(true) => {
                            items = rest;
                            parts = (parts - 1).max(2);
                            continue 'outer;
                        }
                        Some(false) => {}
                    }
                }
            }
            if parts >= items.len() {
                break;
            }
            parts = (parts * 2).min(items.len());
        }
        if items.len() == 1 && self.fails_after(finding, &[]).await == Some(true) {
            items.clear();
        }
        let again = self.fails_after(finding, &items).await;
        report.reproduced = again;
        let mut sequence = items;
        sequence.push(finding.graph.clone());
        report.sequence = Some(sequence);
    }

    /// The cause every answer fits, with a turn limit pinned where the budget allows.
    /// When several fit, the solution is asked about small games on which they differ,
    /// until one is left; if more than one is left, none is named.
    async fn cause(&mut self, finding: &Finding, seed: u64) -> Option<Cause> {
        let nodes = finding.graph.len();
        // The limits each size allows, kept up to date as more is asked.
        let mut limits = cause::limits_by_size(&self.log);
        let mut rules = cause::fitting_rules(&self.log);
        let mut limit = cause::turn_limit(&limits, nodes).is_some();
        let mut small = (3..=6).flat_map(graphs::small_graphs);
        while rules.len() + usize::from(limit) > 1 {
            if self.host.stopped() || !self.host.go_on(Phase::After) {
                return None;
            }
            // A small game on which two of them answer differently.
            let (lists, answers, predictions) = small.by_ref().find_map(|lists| {
                let answers = Answers::of(&lists);
                let mut predictions: Vec<Option<u8>> = rules
                    .iter()
                    .map(|rule| rule.answer(&lists, &answers))
                    .collect();
                if limit {
                    predictions.push(cause::limit_predicts(&limits, lists.len(), &answers));
                }
                let known: std::collections::BTreeSet<u8> =
                    predictions.iter().flatten().copied().collect();
                (known.len() > 1).then_some((lists, answers, predictions))
            })?;
            let value = self.ask_for_cause(&mut limits, &lists, answers).await?;
            let mut kept = predictions.iter();
            rules.retain(|_| kept.next().is_some_and(|p| *p == value));
            limit = limit && cause::turn_limit(&limits, nodes).is_some();
        }
        // The one left must also predict the solution's answer on games where it and
        // the real game differ, beyond those it was found on.
        let mut confirmed = 0;
        for lists in small.by_ref() {
            if confirmed == CONFIRMATIONS || self.host.stopped() || !self.host.go_on(Phase::After) {
                break;
            }
            let answers = Answers::of(&lists);
            let predicted = match rules.first() {
                Some(rule) => rule.answer(&lists, &answers),
                None if limit => cause::limit_predicts(&limits, lists.len(), &answers),
                None => return None,
            };
            let Some(predicted) = predicted.filter(|&p| p != answers.start) else {
                continue;
            };
            let value = self.ask_for_cause(&mut limits, &lists, answers).await?;
            if value != Some(predicted) {
                return None;
            }
            confirmed += 1;
        }
        if let Some(rule) = rules.pop() {
            return Some(rule);
        }
        if !limit || cause::turn_limit(&limits, nodes).is_none() {
            return None;
        }
        // Pin the limit at the counterexample's size, then at more sizes, so that a
        // formula can be read off; from the counterexample and the generator's long
        // games of either winner (a limit between two lengths is told apart by a game
        // of the odd one, which the mouse wins, or of the even one, which the cat wins).
        for other in [nodes, nodes + 1, nodes + 2, nodes.saturating_sub(1)] {
            if !(8..=50).contains(&other) || self.host.stopped() || !self.host.go_on(Phase::After) {
                continue;
            }
            let mut seeds = Vec::new();
            if other == nodes {
                seeds.push(finding.graph.clone());
            }
            for winner in [Winner::Mouse, Winner::Cat] {
                let host = &mut *self.host;
                let found = cmg_gen::search(
                    &cmg_gen::Request {
                        winner: Some(winner),
                        ..cmg_gen::Request::new(other, seed, 2)
                    },
                    |_| host.go_on(Phase::After),
                );
                if found.result.is_some() {
                    seeds.push(found.graph.adjacency());
                }
            }
            self.pin(&mut limits, other, seeds).await;
        }
        // Every answer since is in `limits`; a rule may fit them all now instead.
        cause::turn_limit(&limits, nodes)
    }

    /// Asks about `lists` (whose answers are `answers`) for a cause: the answer, if a
    /// value (`Some(None)` when it is not 0, 1 or 2), and the limits it allows noted in
    /// `limits`. `None` when the solution gave no value.
    async fn ask_for_cause(
        &mut self,
        limits: &mut BTreeMap<usize, Allowed>,
        lists: &[Vec<u32>],
        answers: Answers,
    ) -> Option<Option<u8>> {
        let answer = self.ask(lists).await;
        let Answer::Value(text) = &answer else {
            return None;
        };
        let value = text.parse::<u8>().ok().filter(|&v| v <= 2);
        if let Some(value) = value {
            limits.entry(lists.len()).or_default().add(&answers, value);
        }
        self.judged_with(lists, answer, answers);
        Some(value)
    }

    /// Asks the solution about graphs of `nodes` nodes whose answer differs between the
    /// limits still possible there, until one limit is left, none is found near `seeds`
    /// (up to `PIN_RINGS` edges away, walking towards games of the lengths in question),
    /// 256 steps are taken (each a question or a ring further out), or the budget is
    /// spent.
    async fn pin(
        &mut self,
        limits: &mut BTreeMap<usize, Allowed>,
        nodes: usize,
        seeds: Vec<Lists>,
    ) {
        let solved = |lists: Lists| {
            let answers = Answers::of(&lists);
            (lists, answers)
        };
        let mut seen: std::collections::HashSet<Lists> = seeds.iter().cloned().collect();
        let mut frontier = seeds.clone();
        let mut pool: Vec<(Lists, Answers)> = seeds.into_iter().map(solved).collect();
        let mut rings = 0;
        for _ in 0..256 {
            if self.host.stopped() || !self.host.go_on(Phase::After) {
                return;
            }
            let (lo, hi) = match limits.get(&nodes) {
                // Nothing asked at this size yet: any limit.
                None => (0, None),
                Some(allowed) => match allowed.range() {
                    Some(range) => range,
                    None => return,
                },
            };
            if Some(lo) == hi {
                return;
            }
            self.host.progress(&format!(
                "pinning the turn limit on {nodes} nodes: between {lo} and {}",
                hi.map_or("no limit".to_owned(), |hi| hi.to_string())
            ));
            let lo = lo as usize;
            let hi = hi.map_or(usize::MAX, |hi| hi as usize);
            // The graph whose answer changes nearest the middle of what is left: a game
            // decided in `m` moves is a draw under every limit below `m` and decided
            // under every other, so its answer tells the limits below `m` from the rest.
            let middle = lo.saturating_add((hi - lo).div_ceil(2)).min(lo + 4 * nodes);
            let best = pool
                .iter()
                .enumerate()
                .filter_map(|(i, (_, answers))| {
                    let split = answers.moves? as usize;
                    (lo < split && split <= hi).then_some((split.abs_diff(middle), i))
                })
                .min_by_key(|&(distance, _)| distance);
            if let Some((_, i)) = best {
                let (lists, answers) = pool.swap_remove(i);
                if self.ask_for_cause(limits, &lists, answers).await.is_none() {
                    return;
                }
                continue;
            }
            if rings == PIN_RINGS {
                return;
            }
            rings += 1;
            // One edge further, keeping the graphs whose games are nearest the lengths
            // in question.
            let mut next: Vec<(usize, Lists)> = Vec::new();
            for lists in &frontier {
                for near in graphs::neighbours(lists) {
                    if seen.insert(near.clone()) {
                        // Games of the middle's length; of the other parity (the other
                        // winner), only far behind.
                        let distance = expected(&near).1.map_or(usize::MAX, |moves| {
                            let moves = moves as usize;
                            moves.abs_diff(middle) + 20 * (moves % 2 != middle % 2) as usize
                        });
                        next.push((distance, near));
                    }
                }
                if !self.host.go_on(Phase::After) {
                    return;
                }
            }
            next.sort();
            next.truncate(PIN_FRONTIER);
            frontier = next.into_iter().map(|(_, lists)| lists).collect();
            pool.extend(frontier.iter().cloned().map(solved));
        }
    }

    /// Asks the solution about the positions on the optimal line where the mouse is to
    /// move, each as a new start (the graph renumbered): the last one it gets wrong.
    async fn wrong_at(&mut self, graph: &[Vec<u32>]) -> Option<WrongAt> {
        let solution = cmg_solve::solve(&Game::new(graph, Some(0)));
        let line = solution.line(START);
        let n = graph.len();
        let mut last_wrong = None;
        for (ply, position) in line.iter().enumerate().skip(1) {
            let (m, c) = (position.mouse as usize, position.cat as usize);
            if position.turn != Player::Mouse || m == 0 || c == 0 || m == c {
                continue;
            }
            let mut order = vec![0, m, c];
            order.extend((1..n).filter(|&v| v != m && v != c));
            let lists = graphs::renumbered(graph, &order);
            if !graphs::meets_constraints(&lists) {
                continue;
            }
            if self.host.stopped() || !self.host.go_on(Phase::After) {
                break;
            }
            let expected = solution.outcome(*position).code();
            match self.ask(&lists).await {
                Answer::Value(text) => match text.parse::<i64>() {
                    Ok(got) if got == i64::from(expected) => {}
                    Ok(got) => {
                        last_wrong = Some(WrongAt {
                            ply,
                            mouse: position.mouse,
                            cat: position.cat,
                            expected,
                            got,
                            graph: lists,
                        })
                    }
                    Err(_) => {}
                },
                _ => break,
            }
        }
        last_wrong
    }
}
