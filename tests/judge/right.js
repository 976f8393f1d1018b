// A right solution: retrograde analysis from the ends of the game.
var catMouseGame = function (graph) {
  const n = graph.length;
  const color = new Array(n * n * 2).fill(0);
  const left = new Array(n * n * 2).fill(0);
  const at = (m, c, t) => (m * n + c) * 2 + t;
  for (let m = 0; m < n; m++) {
    for (let c = 0; c < n; c++) {
      left[at(m, c, 0)] = graph[m].length;
      left[at(m, c, 1)] = graph[c].filter((x) => x !== 0).length;
    }
  }
  const queue = [];
  for (let c = 1; c < n; c++) {
    for (let t = 0; t < 2; t++) {
      color[at(0, c, t)] = 1;
      queue.push([0, c, t]);
      color[at(c, c, t)] = 2;
      queue.push([c, c, t]);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const [m, c, t] = queue[head];
    const result = color[at(m, c, t)];
    if (t === 1) {
      for (const pm of graph[m]) {
        const p = at(pm, c, 0);
        if (color[p] !== 0) continue;
        if (result === 1 || --left[p] === 0) {
          color[p] = result;
          queue.push([pm, c, 0]);
        }
      }
    } else {
      for (const pc of graph[c]) {
        const p = at(m, pc, 1);
        if (pc === 0 || color[p] !== 0) continue;
        if (result === 2 || --left[p] === 0) {
          color[p] = result;
          queue.push([m, pc, 1]);
        }
      }
    }
  }
  return color[at(1, 2, 0)];
};
