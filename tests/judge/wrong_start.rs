// Wrong: it answers for the mouse on node 2 and the cat on node 1.
impl Solution {
    pub fn cat_mouse_game(graph: Vec<Vec<i32>>) -> i32 {
        let n = graph.len();
        let at = |m: usize, c: usize, t: usize| (m * n + c) * 2 + t;
        let mut color = vec![0; n * n * 2];
        let mut left = vec![0; n * n * 2];
        for m in 0..n {
            for c in 0..n {
                left[at(m, c, 0)] = graph[m].len();
                left[at(m, c, 1)] = graph[c].iter().filter(|&&x| x != 0).count();
            }
        }
        let mut queue = VecDeque::new();
        for c in 1..n {
            for t in 0..2 {
                color[at(0, c, t)] = 1;
                queue.push_back((0, c, t));
                color[at(c, c, t)] = 2;
                queue.push_back((c, c, t));
            }
        }
        while let Some((m, c, t)) = queue.pop_front() {
            let result = color[at(m, c, t)];
            if t == 1 {
                for &pm in &graph[m] {
                    let p = at(pm as usize, c, 0);
                    if color[p] != 0 {
                        continue;
                    }
                    left[p] -= 1;
                    if result == 1 || left[p] == 0 {
                        color[p] = result;
                        queue.push_back((pm as usize, c, 0));
                    }
                }
            } else {
                for &pc in &graph[c] {
                    let p = at(m, pc as usize, 1);
                    if pc == 0 || color[p] != 0 {
                        continue;
                    }
                    left[p] -= 1;
                    if result == 2 || left[p] == 0 {
                        color[p] = result;
                        queue.push_back((m, pc as usize, 1));
                    }
                }
            }
        }
        color[at(2, 1, 0)]
    }
}
