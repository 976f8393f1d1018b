// Wrong: a depth-first search that takes a position it is still exploring as a draw,
// and caches what it concluded from that guess.
var catMouseGame = function (graph) {
  const memo = new Map();
  const onPath = new Set();
  const play = (m, c, mouseTurn) => {
    if (m === 0) return 1;
    if (m === c) return 2;
    const key = `${m},${c},${mouseTurn}`;
    if (memo.has(key)) return memo.get(key);
    if (onPath.has(key)) return 0;
    onPath.add(key);
    let result;
    if (mouseTurn) {
      const results = graph[m].map((nm) => play(nm, c, false));
      result = results.includes(1) ? 1 : results.includes(0) ? 0 : 2;
    } else {
      const results = graph[c].filter((nc) => nc !== 0).map((nc) => play(m, nc, true));
      result = results.includes(2) ? 2 : results.includes(0) ? 0 : 1;
    }
    onPath.delete(key);
    memo.set(key, result);
    return result;
  };
  return play(1, 2, true);
};
