// A right solution: retrograde analysis from the ends of the game.
class Solution {
    public int catMouseGame(int[][] graph) {
        int n = graph.length;
        int[] color = new int[n * n * 2], left = new int[n * n * 2];
        for (int m = 0; m < n; m++)
            for (int c = 0; c < n; c++) {
                left[(m * n + c) * 2] = graph[m].length;
                int moves = 0;
                for (int x : graph[c]) if (x != 0) moves++;
                left[(m * n + c) * 2 + 1] = moves;
            }
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        for (int c = 1; c < n; c++)
            for (int t = 0; t < 2; t++) {
                color[(0 * n + c) * 2 + t] = 1;
                queue.add(new int[] {0, c, t});
                color[(c * n + c) * 2 + t] = 2;
                queue.add(new int[] {c, c, t});
            }
        while (!queue.isEmpty()) {
            int[] s = queue.poll();
            int m = s[0], c = s[1], t = s[2];
            int result = color[(m * n + c) * 2 + t];
            if (t == 1) {
                for (int pm : graph[m]) {
                    int p = (pm * n + c) * 2;
                    if (color[p] != 0) continue;
                    if (result == 1 || --left[p] == 0) {
                        color[p] = result;
                        queue.add(new int[] {pm, c, 0});
                    }
                }
            } else {
                for (int pc : graph[c]) {
                    if (pc == 0) continue;
                    int p = (m * n + pc) * 2 + 1;
                    if (color[p] != 0) continue;
                    if (result == 2 || --left[p] == 0) {
                        color[p] = result;
                        queue.add(new int[] {m, pc, 1});
                    }
                }
            }
        }
        return color[(1 * n + 2) * 2];
    }
}
